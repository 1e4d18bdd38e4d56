"""What a server process does around another's death and its own restart: loading a game from
the database holds up no request for another game (the websockets of a dead process reconnect
to a survivor at once, each loading its game there), and two requests for one game load it
once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client

from carnage.web.sessions import Games, SeatedGame


def new_game(c: TestClient, seed: int) -> str:
    r = c.post("/api/games", json={"scenario": "street-race", "seed": seed,
                                   "seats": [{"controller": "human"},
                                             {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def held_reads(c: TestClient, monkeypatch: pytest.MonkeyPatch, gid: str
               ) -> tuple[threading.Event, threading.Event, list[str]]:
    """The store's reads of ``gid`` wait for the second event once they have set the first
    (a slow database); every game read is listed."""
    store = c.app.state.store  # type: ignore[attr-defined]
    real = store.game
    reading, release = threading.Event(), threading.Event()
    reads: list[str] = []

    def game(g: str) -> Any:
        reads.append(g)
        if g == gid:
            reading.set()
            release.wait(20)
        return real(g)

    monkeypatch.setattr(store, "game", game)
    return reading, release, reads


def in_thread(f: Any, *args: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(f(*args)), daemon=True)
    t.start()
    return t, out


def test_a_load_holds_up_no_request_for_another_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = new_client(tmp_path)
    slow, cached, other = new_game(c, 5), new_game(c, 6), new_game(c, 7)
    games = Games(c.app.state.store)  # type: ignore[attr-defined]  # another process
    games.get(cached)
    reading, release, _ = held_reads(c, monkeypatch, slow)
    loading, _ = in_thread(games.get, slow)
    try:
        assert reading.wait(10)
        # the load of ``slow`` is under way (its read held): a cached game is served, and
        # another game loads, meanwhile
        for gid in (cached, other):
            t, got = in_thread(games.get, gid)
            t.join(10)
            assert not t.is_alive(), f"the request for {gid} waited for another game's load"
            assert got and got[0].id == gid
        assert loading.is_alive()
    finally:
        release.set()
        loading.join(10)
    assert games.get(slow).id == slow


def test_two_requests_for_one_game_load_it_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = new_client(tmp_path)
    gid = new_game(c, 5)
    games = Games(c.app.state.store)  # type: ignore[attr-defined]
    reading, release, reads = held_reads(c, monkeypatch, gid)
    first, got1 = in_thread(games.get, gid)
    assert reading.wait(10)
    second, got2 = in_thread(games.get, gid)
    second.join(0.3)
    assert second.is_alive()  # it waits for the first load rather than reading again
    release.set()
    first.join(10)
    second.join(10)
    sessions: list[SeatedGame] = got1 + got2
    assert len(sessions) == 2 and sessions[0] is sessions[1]
    assert reads == [gid]
