"""What a process does with a notice that a game changed (web/fanout.py hands each
``NOTIFY`` to ``Games.changed``): two apps on one database stand for two server processes
(SQLite and a real PostgreSQL). A watched game another process moved on is refreshed and its
websockets told; the notice of the process's own save, or of a version it has read since, costs
nothing (no read); after a reconnect every watched game is refreshed whatever it holds."""

from __future__ import annotations

import asyncio

import pytest
from tests.campaign.conftest import db_url, pg_server  # noqa: F401  (both kinds of database)
from tests.web.test_api_support import TestClient
from tests.web.test_one_table import act, games_of, hot_seat, two, view  # noqa: F401

from carnage.web.sessions import Listener


def told(loop: asyncio.AbstractEventLoop, listener: Listener) -> list[int]:
    """The versions ``listener`` was told of so far."""
    loop.run_until_complete(asyncio.sleep(0))  # the calls handed to the loop run
    out = []
    while not listener.queue.empty():
        out.append(listener.queue.get_nowait())
    return out


def test_only_news_of_a_watched_game_is_read(two: tuple[TestClient, TestClient],  # noqa: F811
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two
    gid, tok = hot_seat(a, seed=11)
    view(b, gid, tok)
    games = {"a": games_of(a), "b": games_of(b)}
    reads: dict[str, list[str]] = {"a": [], "b": []}
    for name, g in games.items():
        real = g.store.progress
        monkeypatch.setattr(g.store, "progress", lambda gid, known, real=real, name=name:
                            reads[name].append(gid) or real(gid, known))
    loop = asyncio.new_event_loop()
    try:
        listeners = {name: Listener(loop) for name in games}
        for name, g in games.items():
            g.get(gid, sync=False).subscribe(listeners[name])
        before = view(a, gid, tok)["version"]
        reads["a"].clear()
        moved = act(a, gid, tok, view(a, gid, tok)).json()["version"]
        assert moved > before
        reads["a"].clear()
        told(loop, listeners["a"])  # what the choice itself told
        for g in games.values():  # the NOTIFY of process a's save, heard by both
            g.changed(gid, moved)
            g.changed(gid, before)  # a late notice of an older version
            g.close()  # the refreshes queued are done
        assert reads == {"a": [], "b": [gid]}
        assert games["b"].get(gid, sync=False).version == moved
        assert told(loop, listeners["b"]) == [moved] and told(loop, listeners["a"]) == []
        # the listener reconnected: every watched game is read again, up to date or not
        games["a"].changed_all()
        games["a"].close()
        assert reads["a"] == [gid]
        # a game nobody watches is left to the next request that uses it
        for name, g in games.items():
            g.get(gid, sync=False).unsubscribe(listeners[name])
        reads["b"].clear()
        games["b"].changed(gid, moved + 5)
        games["b"].close()
        assert reads["b"] == []
    finally:
        loop.close()


def test_the_notice_of_a_save_heard_before_the_saver_noted_it_reads_nothing(
        two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A process's own save is announced at its commit, and its listener can hear the notice
    before the saving thread has noted the version it saved: the refresh waits for the choice
    in flight (the session's lock) and then finds the session at that version (no read)."""
    a, _ = two
    gid, tok = hot_seat(a, seed=12)
    games = games_of(a)
    s = games.get(gid)
    reads: list[str] = []
    real = games.store.progress
    monkeypatch.setattr(games.store, "progress", lambda gid, known: reads.append(gid) or
                        real(gid, known))
    loop = asyncio.new_event_loop()
    try:
        s.subscribe(Listener(loop))
        v = view(a, gid, tok)
        d = s.game.pending()
        assert d is not None
        with s.lock:  # a choice in flight on another thread: saved, not yet noted
            games.changed(gid, v["version"] + 1)  # its notice, heard meanwhile
            reads.clear()
            s.commit(v["version"], d.player, v["pending"]["options"][0]["value"])
            assert reads == [gid]  # the commit's own read
        games.close()
        assert reads == [gid] and s.saved_version == v["version"] + 1
    finally:
        loop.close()
