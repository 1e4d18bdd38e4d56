"""The Kart variant through the web API: a lobby's new game with ``ruleset: kart``, its view
(no Hull track), its races only, the log naming the kart rules, and a game played to the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.test_api_support import TestClient, new_client, play_to_end


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def test_the_api_lists_the_kart_races(client: TestClient) -> None:
    r = client.get("/api/scenarios", params={"ruleset": "kart"})
    assert r.status_code == 200
    assert [s["id"] for s in r.json()] == ["death-race", "street-race"]
    assert client.get("/api/scenarios", params={"ruleset": "croquet"}).status_code == 404


def test_a_kart_race_plays_to_the_end_with_no_hull_track(client: TestClient) -> None:
    r = client.post("/api/games", json={"scenario": "street-race", "ruleset": "kart", "seed": 3,
                                        "seats": [{"controller": "human"},
                                                  {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    game = r.json()
    token = game["seats"][0]["token"]
    v = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
    assert (v["ruleset"], v["hull_track"]) == ("kart", False)
    assert {x["type"] for x in v["vehicles"]} == {"buggy", "car"}
    end = play_to_end(client, game["id"], token)
    assert end["status"] == "finished"
    assert all(x["hull_points"] == x["hull"] for x in end["vehicles"])
    refuelled = client.post("/api/games", json={"scenario": "street-race", "seed": 3, "seats": [
        {"controller": "heuristic"}, {"controller": "heuristic"}]}).json()
    rv = client.get(f"/api/games/{refuelled['id']}").json()
    assert (rv["ruleset"], rv["hull_track"]) == ("refuelled", True)


def test_a_kart_game_refuses_a_scenario_it_does_not_race(client: TestClient) -> None:
    r = client.post("/api/games", json={"scenario": "capture-the-flag", "ruleset": "kart",
                                        "seats": [{"controller": "heuristic"}] * 2})
    assert r.status_code == 422
    assert "unknown scenario 'capture-the-flag' for Kart variant" in r.json()["detail"]
