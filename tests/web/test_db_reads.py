"""The reads a request makes on every use of a game (its version; a game's chat for its
websockets) run on PostgreSQL without a transaction around them: one statement, no ``BEGIN``
or ``ROLLBACK`` round trip, and they read what the last commit left. The progress save is one
statement too: the compare-and-set, the snapshot and the notice together or not at all."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event
from tests.campaign.conftest import pg_server  # noqa: F401  (the fixture)

from carnage.web.chat import Chat
from carnage.web.db import StaleSave, Store, StoredGame


def test_version_and_chat_reads_take_no_transaction(pg_server: Any) -> None:  # noqa: F811
    import psycopg
    import psycopg.pq

    if isinstance(pg_server, str):
        pytest.fail(f"no PostgreSQL server could be started: {pg_server}")
    store = Store(pg_server.fresh_database("carnage_reads"))
    try:
        store.add_game(StoredGame(
            id="g1", scenario="s", setup={}, seats=[], seed=1, choices=[1, 2],
            finished=False, round=1, winner=None, created=datetime.now(UTC)))
        states: list[str] = []

        @event.listens_for(store.engine, "after_cursor_execute")
        def status(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            pg = conn.connection.dbapi_connection.pgconn
            states.append(psycopg.pq.TransactionStatus(pg.transaction_status).name)

        chat = Chat(store.engine)
        assert store.version("g1") == 2
        now = store.progress("g1", 2)
        assert now is not None and now.version == 2 and now.choices is None
        assert chat.setting("g1").public is False and chat.messages("g1") == []
        assert states == ["IDLE"] * 4
        store.save_progress("g1", [1, 2, 3], False, 1, None, expected=2)
        states.clear()
        moved = store.progress("g1", 2)
        assert moved is not None and moved.version == 3 and moved.choices == [1, 2, 3]
        assert states == ["IDLE"]
        # a save is one statement: the row, the snapshot (a first one inserted) and the notice
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute",
                     lambda conn, cur, statement, *rest: statements.append(statement))
        states.clear()
        listener = psycopg.connect(store.url, autocommit=True)
        try:
            listener.execute("LISTEN carnage_games")
            store.save_progress("g1", [1, 2, 3, 4], False, 2, None, snapshot={"at": 4},
                                expected=3, seats=[{"seat": 0}])
            assert states == ["IDLE"] and len(statements) == 1
            assert [n.payload for n in listener.notifies(timeout=2, stop_after=1)] == ["g1 4"]
            row = store.game("g1")
            assert row is not None and (row.version, row.round, row.seats) == (4, 2, [
                {"seat": 0}])
            assert store.snapshot("g1") == (4, {"at": 4})
            store.save_progress("g1", [1, 2, 3, 4, 5], True, 3, 1, snapshot={"at": 5},
                                expected=4)
            assert store.snapshot("g1") == (5, {"at": 5})
            assert [n.payload for n in listener.notifies(timeout=2, stop_after=1)] == ["g1 5"]
            # a stale save writes nothing and announces nothing
            with pytest.raises(StaleSave) as stale:
                store.save_progress("g1", [1, 2, 3, 9], False, 9, None, snapshot={"at": 9},
                                    expected=3)
            assert stale.value.current == 5
            assert [n.payload for n in listener.notifies(timeout=0.5, stop_after=1)] == []
            assert store.snapshot("g1") == (5, {"at": 5})
            row = store.game("g1")
            assert row is not None and (row.choices, row.finished, row.winner) == (
                [1, 2, 3, 4, 5], True, 1)
        finally:
            listener.close()
    finally:
        store.close()
