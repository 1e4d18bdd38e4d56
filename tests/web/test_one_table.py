"""The database is the table, in one process: two apps on one database stand for two server
processes (SQLite and a real PostgreSQL). A save on top of a version the database has left is
refused and the game in memory goes back to the database's; every request sees the database's
version; the change listener reconnects; ``/healthz`` and ``/readyz``; ``--workers`` needs
PostgreSQL; migration 0005 gives old games their versions."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, cast

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, text
from tests.campaign.conftest import db_url, pg_server  # noqa: F401  (both kinds of database)
from tests.campaign.pg import Server
from tests.web.test_api_support import TestClient, first_choice
from tests.web.test_api_ws import recv
from typer.testing import CliRunner

from carnage.campaign.migrate import HEAD, current
from carnage.cli.main import app as cli
from carnage.web.app import create_app
from carnage.web.db import Store, engine_url
from carnage.web.fanout import APPLICATION_NAME
from carnage.web.sessions import ApiError, Games


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    """Two apps on the same database: what two server processes are."""
    one, other = create_app(db_url), create_app(db_url)
    yield TestClient(one), TestClient(other)
    one.state.store.close()
    other.state.store.close()


def hot_seat(c: TestClient, seed: int = 5) -> tuple[str, str]:
    r = c.post("/api/games", json={"scenario": "street-race", "seed": seed, "hot_seat": True,
                                   "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], ",".join(s["token"] for s in g["seats"])


def view(c: TestClient, gid: str, tok: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", params={"token": tok})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(c: TestClient, gid: str, tok: str, v: dict[str, Any]) -> Any:
    return c.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": v["version"], "choice": first_choice(v["pending"])})


def games_of(c: TestClient) -> Games:
    games: Games = cast(FastAPI, c.app).state.games
    return games


def test_a_stale_save_is_refused_and_memory_goes_back_to_the_database(
        two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    gid, tok = hot_seat(a)
    v = view(b, gid, tok)
    mine, theirs = games_of(a).get(gid), games_of(b).get(gid)
    d = theirs.game.pending()
    assert d is not None
    # process B is applying a choice (in memory, lock held) when process A saves one first
    with theirs.lock:
        theirs.game.apply(theirs.accept(d, first_choice(v["pending"])))
        won = mine.commit(v["version"], d.player, first_choice(v["pending"]))
        assert won == v["version"] + 1
        with pytest.raises(ApiError) as refused:
            theirs.save(theirs.saved_version)
    assert refused.value.status == 409 and "stale state" in refused.value.detail
    # B's memory is the database's game again, not its own unsaved one
    row = games_of(b).store.game(gid)
    assert row is not None and row.version == won == len(row.choices)
    assert theirs.version == won and theirs.saved_version == won
    assert list(theirs.game.choices) == list(mine.game.choices) == row.choices
    # and the game goes on through either
    now = view(b, gid, tok)
    assert now["version"] == won
    r = act(b, gid, tok, now)
    assert r.status_code == 200, r.text
    assert view(a, gid, tok)["version"] == won + 1


def test_a_choice_on_a_version_another_process_moved_past_is_stale(
        two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    gid, tok = hot_seat(a, seed=6)
    v = view(b, gid, tok)  # B caches the game at v
    r = act(a, gid, tok, v)
    assert r.status_code == 200, r.text
    again = b.post(f"/api/games/{gid}/decisions", json={  # another answer at v, on B,
        "token": tok, "version": v["version"],             # whose cache is behind
        "choice": other_choice(v["pending"])})
    assert again.status_code == 409 and "stale state" in again.json()["detail"]
    assert view(b, gid, tok) == r.json()  # B shows A's choice
    store = games_of(a).store
    row = store.game(gid)
    assert row is not None and len(row.choices) == v["version"] + 1


def other_choice(pending: dict[str, Any]) -> Any:
    """A legal answer that is not ``first_choice``: the last option, or the domain's top."""
    if pending["options"]:
        return pending["options"][-1]["value"]
    return pending["domain"]["high"]


def test_a_resent_choice_is_answered_as_it_stood_on_either_process(
        two: tuple[TestClient, TestClient]) -> None:
    """A choice whose answer was lost (the process died after saving it) is sent again,
    perhaps to another process: it is answered with the game as it stands, applied once."""
    a, b = two
    gid, tok = hot_seat(a, seed=7)
    v = view(b, gid, tok)  # B caches the game at v
    r = act(a, gid, tok, v)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v["version"] + 1
    for c in (a, b, b):  # B first with its cache behind, then synced
        again = act(c, gid, tok, v)
        assert again.status_code == 200, again.text
        assert again.json() == view(a, gid, tok)
    row = games_of(a).store.game(gid)
    assert row is not None and len(row.choices) == v["version"] + 1
    # the same version with another answer is stale, and so is the other seat's token
    other = b.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": v["version"], "choice": other_choice(v["pending"])})
    assert other.status_code == 409 and "stale state" in other.json()["detail"]
    seat = v["pending"]["seat"]
    theirs = act(b, gid, tok.split(",")[1 - seat], v)
    assert theirs.status_code == 409 and "stale state" in theirs.json()["detail"]
    # over a websocket: the resent frame is answered with the view, no error
    with b.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
        first = recv(ws)
        assert first["type"] == "view"
        ws.send_json({"type": "decision", "version": v["version"],
                      "choice": first_choice(v["pending"])})
        answer = recv(ws)
        assert answer["type"] == "view", answer
        assert answer["view"]["version"] == v["version"] + 1
    row = games_of(a).store.game(gid)
    assert row is not None and len(row.choices) == v["version"] + 1


def test_the_bot_path_commit_checks_the_version_and_the_seat(
        two: tuple[TestClient, TestClient]) -> None:
    a, _ = two
    gid, tok = hot_seat(a, seed=8)
    v = view(a, gid, tok)
    s = games_of(a).get(gid)
    seat = v["pending"]["seat"]
    with pytest.raises(ApiError) as wrong:
        s.commit(v["version"], 1 - seat, first_choice(v["pending"]))
    assert wrong.value.status == 409 and "not" in wrong.value.detail
    with pytest.raises(ApiError) as stale:
        s.commit(v["version"] + 3, seat, first_choice(v["pending"]))
    assert stale.value.status == 409 and "stale state" in stale.value.detail
    assert s.commit(v["version"], seat, first_choice(v["pending"]), bots=False) == \
        v["version"] + 1
    assert view(a, gid, tok)["version"] == v["version"] + 1


def test_a_game_deleted_through_one_process_is_gone_from_the_other(
        two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    gid, tok = hot_seat(a, seed=9)
    view(b, gid, tok)
    r = a.delete(f"/api/games/{gid}", params={"token": tok.split(",")[0]})
    assert r.status_code == 200, r.text
    gone = b.get(f"/api/games/{gid}", params={"token": tok})
    assert gone.status_code == 404 and gid in gone.json()["detail"]


def test_healthz_and_readyz(db_url: str) -> None:  # noqa: F811
    app = create_app(db_url)
    postgres = db_url.startswith("postgresql")
    try:
        bare = TestClient(app)  # no lifespan: on PostgreSQL no listener runs
        assert bare.get("/healthz").json() == {"status": "alive"}
        r = bare.get("/readyz")
        if postgres:
            assert r.status_code == 503 and "change listener" in r.json()["detail"]
        else:
            assert r.status_code == 200 and r.json()["status"] == "ready"
        with TestClient(app) as live:  # the lifespan starts the listener on PostgreSQL
            r = live.get("/readyz")
            assert r.status_code == 200, r.text
            assert r.json() == {"status": "ready", "database": "postgresql" if postgres
                                else "sqlite", "migration": HEAD, "listener": postgres}
    finally:
        app.state.store.close()
    # a database a migration behind is not ready
    app = create_app(db_url)
    engine = create_engine(engine_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0004'"))
    engine.dispose()
    try:
        r = TestClient(app).get("/readyz")
        assert r.status_code == 503
        assert r.json()["detail"] == ("not ready: the database is at migration 0004, not "
                                      f"{HEAD} (start a server of this version to migrate it)")
    finally:
        app.state.store.close()


@pytest.fixture
def pg_url(pg_server: Server | str) -> str:  # noqa: F811
    if isinstance(pg_server, str):
        pytest.fail(f"no PostgreSQL server could be started (make test installs it): "
                    f"{pg_server}")
    return pg_server.fresh_database(f"carnage_listener_{time.monotonic_ns()}")


def test_the_listener_reconnects_and_websockets_still_hear_other_processes(
        pg_url: str) -> None:
    one, other = create_app(pg_url), create_app(pg_url)
    try:
        with TestClient(one) as a:
            b = TestClient(other)
            gid, tok = hot_seat(b, seed=10)
            v = view(a, gid, tok)
            engine = create_engine(engine_url(pg_url))
            with engine.begin() as conn:  # the database drops the listening connection
                killed = conn.execute(text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :n"), {"n": APPLICATION_NAME}).scalars().all()
            engine.dispose()
            assert killed == [True]
            feed = one.state.feed
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (feed.connected and feed.problem is None
                                                       and _reconnected(pg_url)):
                time.sleep(0.1)
            assert feed.connected
            with a.websocket_connect(f"/api/games/{gid}/ws") as ws:
                assert recv(ws)["view"]["version"] == v["version"]
                r = act(b, gid, tok, v)  # through the other process
                assert r.status_code == 200, r.text
                pushed = recv(ws)
                assert pushed["type"] == "view" and pushed["view"]["version"] == v["version"] + 1
    finally:
        one.state.store.close()
        other.state.store.close()


def _reconnected(url: str) -> bool:
    engine = create_engine(engine_url(url))
    try:
        with engine.connect() as conn:
            n = conn.execute(text("SELECT count(*) FROM pg_stat_activity "
                                  "WHERE application_name = :n"), {"n": APPLICATION_NAME})
            return bool(n.scalar() == 1)
    finally:
        engine.dispose()


def test_several_workers_on_sqlite_are_refused_in_one_line(tmp_path: Any) -> None:
    r = CliRunner().invoke(cli, ["serve", "--workers", "2", "--port", "1",
                                 "--db", f"sqlite:///{tmp_path / 'c.db'}"])
    assert r.exit_code == 2
    assert r.output.strip() == ("--workers 2 needs a PostgreSQL database (--db "
                                "postgresql://...): SQLite is served by one process only")
    assert not (tmp_path / "c.db").exists()  # refused before anything was opened


def test_games_saved_before_versions_get_theirs_from_their_choices(
        db_url: str) -> None:  # noqa: F811
    """A database at 0004 holding games: migration 0005 sets each game's version to its
    number of choices, and the games play on."""
    from alembic import command
    from alembic.config import Config

    from carnage.campaign.migrate import SCRIPTS

    store = Store(db_url)
    c = TestClient(create_app(db_url))
    gid, tok = hot_seat(c, seed=4)
    v = view(c, gid, tok)
    for _ in range(3):
        v = act(c, gid, tok, v).json()
    cast(FastAPI, c.app).state.store.close()
    empty, _ = hot_seat(TestClient(create_app(db_url)), seed=3)
    store.close()
    engine = create_engine(engine_url(db_url))
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as conn:  # back to 0004: no version column
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    with engine.connect() as conn:
        assert current(engine) == "0004"
        cols = {r[0] for r in conn.execute(text(
            "SELECT * FROM games LIMIT 0")).cursor.description}  # type: ignore[union-attr]
        assert "version" not in cols
    engine.dispose()
    store = Store(db_url)  # migrates to head
    try:
        assert current(store.engine) == HEAD
        assert store.version(gid) == 3 == v["version"]
        assert store.version(empty) == 0
        c = TestClient(create_app(db_url))
        r = act(c, gid, tok, view(c, gid, tok))
        assert r.status_code == 200, r.text
        assert store.version(gid) == 4
        row = store.game(gid)
        assert row is not None and json.loads(json.dumps(row.choices)) == row.choices
    finally:
        store.close()


def test_a_reload_keeps_the_log_lines_written_only_while_the_game_went_on(
        two: tuple[TestClient, TestClient]) -> None:
    """A process whose game another process moved on keeps the log lines it had written
    (reloaded, the game's log begins with them); one whose game in memory went another way
    (its save lost the race) writes them again. Either way it shows what a fresh process
    shows."""
    a, b = two
    gid, tok = hot_seat(a, seed=13)
    for _ in range(3):
        assert act(a, gid, tok, view(a, gid, tok)).status_code == 200
    v = view(b, gid, tok)  # B writes the log lines
    theirs = games_of(b).get(gid)
    written = dict(next(iter(theirs._logs.values())))
    assert written
    assert act(a, gid, tok, v).status_code == 200  # A plays on; B reloads
    moved = view(b, gid, tok)
    kept = next(iter(theirs._logs.values()))
    assert all(kept[seq] is line for seq, line in written.items())
    app = create_app(games_of(a).store.url)  # another process: nothing cached
    fresh = TestClient(app)
    try:
        assert moved == view(fresh, gid, tok)
        # B applies a choice in memory whose save loses to A's other choice at that version
        d = theirs.game.pending()
        assert d is not None
        with theirs.lock:
            theirs.game.apply(theirs.accept(d, other_choice(moved["pending"])))
            theirs.view([0, 1])  # its lines for the choice that will not stand
            gone = dict(next(iter(theirs._logs.values())))
            assert act(a, gid, tok, moved).status_code == 200
            with pytest.raises(ApiError):
                theirs.save(theirs.saved_version)
        assert not any(theirs._logs.get(k, {}).get(seq) is line
                       for k in theirs._logs for seq, line in gone.items())
        assert view(b, gid, tok) == view(fresh, gid, tok) == view(a, gid, tok)
    finally:
        app.state.store.close()


def test_a_process_catches_up_with_the_choices_another_saved_without_the_snapshot(
        two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """A process whose game another process moved on applies the choices saved since its own
    to the game in memory (no snapshot read, no restore), and shows what a fresh process
    shows; one whose game went another way (a lost race), or is more than ``CATCH_UP``
    choices behind, is reloaded from the database as before."""
    import carnage.web.sessions as sessions_module

    a, b = two
    gid, tok = hot_seat(a, seed=17)
    v = view(b, gid, tok)
    theirs = games_of(b).get(gid)
    game = theirs.game
    reads: list[str] = []
    store = games_of(b).store
    real_snapshot, real_game = store.snapshot, store.game
    monkeypatch.setattr(store, "snapshot", lambda g: reads.append("snapshot") or
                        real_snapshot(g))
    monkeypatch.setattr(store, "game", lambda g: reads.append("game") or real_game(g))
    for _ in range(3):
        v = act(a, gid, tok, view(a, gid, tok)).json()
    moved = view(b, gid, tok)
    assert moved["version"] == v["version"] and reads == []
    assert theirs.game is game and theirs.saved_version == v["version"]
    app = create_app(store.url)  # another process: nothing cached
    fresh = TestClient(app)
    try:
        assert moved == view(fresh, gid, tok)
        # a lost race: B's memory went another way at this version; it is reloaded
        d = theirs.game.pending()
        assert d is not None
        with theirs.lock:
            theirs.game.apply(theirs.accept(d, other_choice(moved["pending"])))
            assert act(a, gid, tok, moved).status_code == 200
            with pytest.raises(ApiError):
                theirs.save(theirs.saved_version)
        assert reads == ["game", "snapshot"] and theirs.game is not game
        assert view(b, gid, tok) == view(fresh, gid, tok)
        # further behind than CATCH_UP: restored from the snapshot
        monkeypatch.setattr(sessions_module, "CATCH_UP", 1)
        game, reads[:] = theirs.game, []
        v = view(a, gid, tok)
        for _ in range(2):
            v = act(a, gid, tok, v).json()
        assert view(b, gid, tok) == view(fresh, gid, tok) == v
        assert reads == ["game", "snapshot"] and theirs.game is not game
    finally:
        app.state.store.close()
