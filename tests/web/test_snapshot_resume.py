"""The table saves each game's engine snapshot with its progress and resumes from it after a
restart; a game without a usable snapshot is rebuilt from its choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from tests.web.test_api_support import TestClient, first_choice, new_client

from carnage.web import sessions
from carnage.web.db import GameSnapshotRow


def _game(client: TestClient, moves: int) -> tuple[str, str, dict[str, Any]]:
    r = client.post("/api/games", json={"scenario": "street-race", "seed": 3, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, tok = g["id"], g["seats"][0]["token"]
    v = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    for _ in range(moves):
        v = client.post(f"/api/games/{gid}/decisions", json={
            "token": tok, "version": v["version"], "choice": first_choice(v["pending"])}).json()
    return gid, tok, v


def _restart(client: TestClient) -> None:
    client.app.state.games.forget()  # what a restart does: sessions rebuilt from the store


def test_a_restarted_table_resumes_games_from_their_snapshots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = new_client(tmp_path)
    gid, tok, before = _game(client, 12)
    store = client.app.state.store
    saved = store.snapshot(gid)
    assert saved is not None and saved[0] == before["version"]
    assert saved[1]["carnage_snapshot"] == 2 and saved[1]["ruleset"] == "refuelled"
    _restart(client)

    def no_replay(*a: Any, **k: Any) -> Any:
        raise AssertionError("rebuilt by replaying its choices, not from the snapshot")

    monkeypatch.setattr(sessions.GameSession, "rebuild", no_replay)
    after = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert after["version"] == before["version"] and after["pending"] == before["pending"]
    assert after["log"] == before["log"]
    # ... and plays on from there.
    r = client.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": after["version"], "choice": first_choice(after["pending"])})
    assert r.status_code == 200, r.text


def test_a_stale_or_damaged_snapshot_falls_back_to_the_choices(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, before = _game(client, 10)
    store = client.app.state.store
    for change in ({"version": 3}, {"doc": {"carnage_snapshot": 1, "ruleset": "refuelled"}}):
        with store.engine.begin() as conn:
            conn.execute(update(GameSnapshotRow).where(GameSnapshotRow.game_id == gid)
                         .values(**change))
        _restart(client)
        after = client.get(f"/api/games/{gid}", params={"token": tok}).json()
        assert after["version"] == before["version"] and after["pending"] == before["pending"]


def _tampered(doc: dict[str, Any], how: str) -> dict[str, Any]:
    import copy

    out = copy.deepcopy(doc)
    car = next(iter(out["state"]["f"]["vehicles"].values()))["f"]
    if how == "gear":
        car["gear"] = 99
    elif how == "weapons":
        car["weapons"] = "machine_gun"
    elif how == "pose":
        car["pose"]["f"]["x"] = 1e300
    else:  # scripted dice of the player's choosing
        out["dice"] = {"kind": "scripted", "results": [6] * 500, "at": 0}
    return out


@pytest.mark.parametrize("how", ["gear", "weapons", "pose", "dice"])
def test_a_tampered_snapshot_is_not_resumed_the_game_comes_back_from_its_choices(
        tmp_path: Path, how: str) -> None:
    client = new_client(tmp_path)
    gid, tok, before = _game(client, 10)
    store = client.app.state.store
    saved = store.snapshot(gid)
    assert saved is not None
    bad = _tampered(saved[1], how)
    with store.engine.begin() as conn:
        conn.execute(update(GameSnapshotRow).where(GameSnapshotRow.game_id == gid)
                     .values(doc=bad))
    _restart(client)
    r = client.get(f"/api/games/{gid}", params={"token": tok})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == before["version"] and after["pending"] == before["pending"]
    assert after["vehicles"] == before["vehicles"]
    assert store.snapshot(gid) == (saved[0], bad)  # reading it wrote nothing
    row = store.game(gid)
    assert row is not None and len(row.choices) == before["version"]
    # ... and it plays on from its own state.
    r = client.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": after["version"], "choice": first_choice(after["pending"])})
    assert r.status_code == 200, r.text
