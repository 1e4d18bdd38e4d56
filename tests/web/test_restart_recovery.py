"""What a server process does around another's death and its own restart: loading a game from
the database holds up no request for another game (the websockets of a dead process reconnect
to a survivor, each loading its game there); two requests for one game load it once; a few
games load at a time, each with its human seats' views; a starting process loads the games played
lately before it serves, and serves them as the database has them when they have moved on
since."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import FastAPI
from sqlalchemy import text
from tests.campaign.conftest import db_url, pg_server  # noqa: F401  (both kinds of database)
from tests.web.test_api_support import TestClient, first_choice, new_client

from carnage.web.app import create_app
from carnage.web.db import Store
from carnage.web.sessions import COLD_LOADS, Games, SeatedGame


def store_of(c: TestClient) -> Store:
    """The store of the app ``c`` serves (a test client's app is typed as any ASGI app)."""
    store: Store = cast(FastAPI, c.app).state.store
    return store


def games_of(c: TestClient) -> Games:
    """The games cache of the app ``c`` serves."""
    games: Games = cast(FastAPI, c.app).state.games
    return games


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
    store = store_of(c)
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
    games = Games(store_of(c))  # another process
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
    games = Games(store_of(c))
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


def play(c: TestClient, gid: str, token: str, n: int) -> dict[str, Any]:
    """``n`` choices of the human seat (the first option each time); its view after."""
    v: dict[str, Any] = c.get(f"/api/games/{gid}", params={"token": token}).json()
    for _ in range(n):
        r = c.post(f"/api/games/{gid}/decisions", json={
            "token": token, "version": v["version"], "choice": first_choice(v["pending"])})
        assert r.status_code == 200, r.text
        v = r.json()
    return v


def test_a_starting_process_loads_the_games_played_lately_before_it_serves(
        db_url: str) -> None:  # noqa: F811
    c = TestClient(create_app(db_url))
    store = store_of(c)
    recent, old, done = (new_game(c, s) for s in (5, 6, 7))
    with store.engine.begin() as conn:  # one saved an hour ago, one finished
        conn.execute(text("UPDATE games SET updated = :t WHERE id = :g"),
                     {"t": datetime.now(UTC) - timedelta(hours=1), "g": old})
        conn.execute(text("UPDATE games SET finished = :f WHERE id = :g"),
                     {"f": True, "g": done})
    url = db_url
    with TestClient(create_app(url, warm=True)) as started:  # its lifespan has run
        games = games_of(started)
        cached = dict(games._sessions)
        assert set(cached) == {recent}
        s = cached[recent]
        human = next(x.seat for x in s.seats if x.controller == "human")
        assert (s.version, human, (human,)) in s._json  # its view is built: served as is
    with TestClient(create_app(url)) as plain:  # without: nothing loaded ahead
        assert not games_of(plain)._sessions
    late = Games(store)  # out of time: nothing more is loaded
    assert late.warm(late.recent(), until=time.monotonic()) == 0 and not late._sessions
    fresh = Games(store)
    assert fresh.warm(fresh.recent()) == 1
    store.close()


def test_a_game_loaded_ahead_is_served_as_the_database_has_it_later(tmp_path: Path) -> None:
    c = new_client(tmp_path)
    store = store_of(c)
    r = c.post("/api/games", json={"scenario": "street-race", "seed": 5, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    with TestClient(create_app(str(store.url), warm=True)) as other:
        loaded = games_of(other)._sessions[gid]
        ahead = loaded.version
        moved = play(c, gid, token, 3)  # another process moves it on meanwhile
        assert moved["version"] > ahead
        seen = other.get(f"/api/games/{gid}", params={"token": token}).json()
        assert seen["version"] == moved["version"]
        assert [ln["text"] for ln in seen["log"]] == [ln["text"] for ln in moved["log"]]
        # and a choice made there on the version it serves is taken
        after = play(other, gid, token, 1)
        assert after["version"] > moved["version"]


def test_games_load_a_few_at_a_time_each_with_its_seats_views(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = new_client(tmp_path)
    ids = [new_game(c, s) for s in range(5, 5 + COLD_LOADS + 1)]
    games = Games(store_of(c))
    store = store_of(c)
    real = store.game
    release = threading.Event()
    reading: list[str] = []

    def game(g: str) -> Any:
        reading.append(g)
        release.wait(20)
        return real(g)

    monkeypatch.setattr(store, "game", game)
    threads = [in_thread(games.get, g)[0] for g in ids]
    try:
        deadline = time.monotonic() + 10
        while len(reading) < COLD_LOADS and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)
        assert len(reading) == COLD_LOADS  # the last waits for one of them to be done
    finally:
        release.set()
        for t in threads:
            t.join(10)
    assert sorted(reading) == sorted(ids)
    for g in ids:  # loaded with the human seat's view: a websocket's first frame is ready
        s = games.get(g)
        human = next(x.seat for x in s.seats if x.controller == "human")
        assert (s.version, human, (human,)) in s._json
