"""Hidden information on the server (web/redact.py): in an Express Delivery game each seat's
view, websocket frames, log, events and replay show its own delivery slip and only a face-down
slip for the other seat; spectators see none; the engine's full log keeps them all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client
from tests.web.test_api_ws import recv

SLIP_TEXT = "'s name"
"""Every slip reads "Player N's name"; a redacted one has no text at all."""


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def _game(client: TestClient) -> tuple[str, str, str]:
    r = client.post("/api/games", json={"scenario": "express-delivery", "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], g["seats"][0]["token"], g["seats"][1]["token"]


def _slip_lines(view: dict[str, Any]) -> list[str]:
    return [ln["text"] for ln in view["log"] if ln["kind"] == "secret"]


def test_each_seat_sees_its_own_slip_and_only_a_face_down_one_for_the_other(
        client: TestClient) -> None:
    gid, t0, t1 = _game(client)
    for seat, tok in ((0, t0), (1, t1)):
        view = client.get(f"/api/games/{gid}?token={tok}").json()
        assert [s["key"] for s in view["secrets"]] == [f"slip:{seat}"]
        assert view["secrets"][0]["label"] == "Delivery slip"
        assert SLIP_TEXT in view["secrets"][0]["text"]
        lines = _slip_lines(view)
        assert len(lines) == 2
        assert sum(SLIP_TEXT in t for t in lines) == 1
        assert sum("face down" in t for t in lines) == 1
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["secrets"] == []
    assert SLIP_TEXT not in json.dumps(spectator)
    # The engine's own log keeps both slips (what a saved game and its replay keep).
    game = client.app.state.games.get(gid).game
    kept = [e.data for e in game.log.events if e.kind == "secret"]
    assert all(isinstance(d["value"], int) and SLIP_TEXT in str(d["text"]) for d in kept)


def test_events_log_and_replay_are_redacted_per_seat(client: TestClient) -> None:
    gid, t0, t1 = _game(client)
    evs = client.get(f"/api/games/{gid}/events?token={t1}").json()
    secrets = {e["data"]["player"]: e["data"] for e in evs if e["kind"] == "secret"}
    assert secrets[0]["value"] is None and secrets[0]["redacted"] is True
    assert isinstance(secrets[1]["value"], int) and "redacted" not in secrets[1]
    deal = [e for e in evs if e["kind"] == "roll" and e["data"]["why"] ==
            "delivery slips dealt"]
    assert deal and all(e["data"]["dice"] is None for e in deal)  # nobody sees the shuffle
    anyone = client.get(f"/api/games/{gid}/events").json()
    assert all(e["data"]["value"] is None for e in anyone if e["kind"] == "secret")
    text = client.get(f"/api/games/{gid}/log?format=text").text
    assert "face down" in text and SLIP_TEXT not in text
    mine = client.get(f"/api/games/{gid}/log?format=text&token={t0}").text
    assert mine.count(SLIP_TEXT) == 1
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert SLIP_TEXT not in json.dumps(replay)
    mine_replay = client.get(f"/api/games/{gid}/replay?token={t1}").json()
    assert [s["key"] for s in mine_replay["steps"][-1]["secrets"]] == ["slip:1"]


def test_websocket_frames_carry_only_the_seats_own_slip(client: TestClient) -> None:
    gid, _, t1 = _game(client)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={t1}") as ws, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        mine = recv(ws)["view"]
        assert [s["key"] for s in mine["secrets"]] == ["slip:1"]
        assert sum(SLIP_TEXT in t for t in _slip_lines(mine)) == 1
        seen = recv(watcher)["view"]
        assert seen["secrets"] == [] and SLIP_TEXT not in json.dumps(seen)


def test_the_view_cache_never_hands_one_viewers_view_to_another(
        client: TestClient, tmp_path: Path) -> None:
    """Views are built once per version and set of viewing seats and kept: asked in every
    order, before and after a bot starts thinking (which keeps the views built), each seat,
    both seats and a spectator get exactly what a fresh server (nothing cached) shows them,
    and no seat's slip reaches anyone else."""
    from carnage.web.botpool import Thinking

    gid, t0, t1 = _game(client)
    viewers = {"seat 0": t0, "seat 1": t1, "both": f"{t0},{t1}", "spectator": ""}
    session = client.app.state.games.get(gid)

    def seen(c: TestClient, tok: str) -> dict[str, Any]:
        r = c.get(f"/api/games/{gid}" + (f"?token={tok}" if tok else ""))
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def check(order: list[str]) -> None:
        fresh = new_client(tmp_path)  # another app on the database: nothing cached
        try:
            shown = {who: seen(client, viewers[who]) for who in order}
            fresh_views = {who: seen(fresh, viewers[who]) for who in order}
        finally:
            fresh.app.state.store.close()
        thinking = shown["spectator"]["thinking"]
        for who in order:
            want = fresh_views[who]
            if thinking is not None:  # told by this server's bot pool, not the fresh one's
                want = {**want, "thinking": thinking}
            assert shown[who] == want, who
        slips = {who: [s["text"] for s in shown[who]["secrets"]] for who in order}
        assert len(slips["seat 0"]) == len(slips["seat 1"]) == 1
        assert slips["seat 0"] != slips["seat 1"]
        assert sorted(slips["both"]) == sorted(slips["seat 0"] + slips["seat 1"])
        assert slips["spectator"] == []
        for mine, other in (("seat 0", "seat 1"), ("seat 1", "seat 0")):
            assert slips[mine][0] not in json.dumps(shown[other])
            assert slips[mine][0] not in json.dumps(shown["spectator"])

    check(["seat 0", "seat 1", "both", "spectator"])
    check(["spectator", "both", "seat 1", "seat 0"])
    built = dict(session._views)
    with session.lock:
        session.set_thinking(Thinking(1, session.version))
    check(["seat 1", "spectator", "seat 0", "both"])
    assert session._views == built  # the same views, told who thinks
    assert all(session._views[k] is v for k, v in built.items())
