"""Abandoning and deleting games: a player of the game (any of its seat tokens) may delete it;
a game of bots only may be deleted by anyone; afterwards it is gone from the list."""

from __future__ import annotations

from pathlib import Path

from tests.web.test_api_support import new_client


def test_a_player_abandons_a_game_in_progress(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    g = client.post("/api/games", json={"seed": 1, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]}).json()
    gid, token = g["id"], g["seats"][0]["token"]
    r = client.delete(f"/api/games/{gid}")
    assert r.status_code == 403 and "seat token" in r.json()["detail"]
    assert client.delete(f"/api/games/{gid}", params={"token": "wrong"}).status_code == 403
    r = client.delete(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200 and r.json() == {"id": gid, "deleted": True}
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert [x["id"] for x in client.get("/api/games").json()] == []
    # Gone from the database too: a new server on the same file does not find it.
    again = new_client(tmp_path)
    assert again.get(f"/api/games/{gid}").status_code == 404


def test_a_finished_bot_game_may_be_deleted_by_anyone(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    g = client.post("/api/games", json={"seed": 2, "seats": [
        {"controller": "random"}, {"controller": "heuristic"}]}).json()
    assert client.delete(f"/api/games/{g['id']}").status_code == 200
    assert client.delete(f"/api/games/{g['id']}").status_code == 404
