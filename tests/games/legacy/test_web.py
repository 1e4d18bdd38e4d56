"""The Legacy generator in the browser: ``/api/legacy/vehicle``, ``/api/legacy/name`` and the
Legacy ruleset's generator page (``/rulesets/legacy/generator``; ``/legacy`` redirects)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.test_api_support import TestClient, new_client

from carnage.games.legacy.generator import generate_vehicle, vehicle_json
from carnage.games.legacy.mutations import gain_mutations
from carnage.games.legacy.names import vehicle_name
from carnage.kernel.queries import QueryError


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def test_the_api_generates_the_same_vehicle_as_the_library(client: TestClient) -> None:
    r = client.get("/api/legacy/vehicle", params={"type": "Car", "name": "rust  bucket",
                                                  "mutations": 3})
    assert r.status_code == 200, r.text
    doc = r.json()
    spec, gains = gain_mutations(generate_vehicle("car", "rust bucket"), 3)
    assert doc["vehicle"] == vehicle_json(spec)
    assert doc["gains"] == [g.to_json() for g in gains]
    assert doc["report"]["hull"] >= 10 and doc["report"]["type"] == "car"
    assert "not the official app" in doc["source"]


def test_bad_input_is_a_sentence(client: TestClient) -> None:
    r = client.get("/api/legacy/vehicle", params={"type": "tank", "name": "X"})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("unknown Legacy vehicle type 'tank'")
    r = client.get("/api/legacy/vehicle", params={"type": "car", "name": "X", "mutations": 101})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)


def test_names_and_the_page(client: TestClient) -> None:
    r = client.get("/api/legacy/name", params={"seed": "9"})
    assert r.json() == {"name": vehicle_name("9")}
    moved = client.get("/legacy", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == "/rulesets/legacy/generator"
    page = client.get("/legacy")
    assert page.status_code == 200 and "/static/games/legacy/generator.js" in page.text
    js = client.get("/static/games/legacy/generator.js")
    assert js.status_code == 200 and "/api/legacy/vehicle" in js.text
    assert client.get("/static/js/legacy.js").status_code == 404  # no copy left in web/


def test_a_legacy_game_in_the_lobby_api_plays_with_generated_teams(client: TestClient) -> None:
    from tests.web.test_api_support import play_to_end

    r = client.get("/api/scenarios", params={"ruleset": "legacy"})
    assert r.status_code == 200 and "tank-commander" not in {s["id"] for s in r.json()}
    r = client.post("/api/games", json={"scenario": "arena-of-death", "ruleset": "legacy",
                                        "seed": 5, "seats": [{"controller": "human"},
                                                             {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    game = r.json()
    token = game["seats"][0]["token"]
    v = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
    assert v["ruleset"] == "legacy"
    assert {x["type"] for x in v["vehicles"]} <= {"buggy", "car", "performance_car", "truck"}
    end = play_to_end(client, game["id"], token)
    assert end["status"] == "finished"


def test_the_generator_is_legacys_declared_tool_served_like_any_query(client: TestClient) -> None:
    """The routes come from the Legacy ruleset's queries (tool ``legacy``): the published
    schema carries their bounds, and the same check refuses a blank name on every channel."""
    from carnage.games.legacy.tools import LEGACY_TOOLS
    from carnage.rulesets import LEGACY

    assert set(LEGACY_TOOLS) <= set(LEGACY.queries)
    schema = client.get("/openapi.json").json()["paths"]
    params = {p["name"]: p["schema"] for p in schema["/api/legacy/vehicle"]["get"]["parameters"]}
    assert params["mutations"]["maximum"] == 100 and params["name"]["maxLength"] == 120
    r = client.get("/api/legacy/vehicle", params={"type": "car", "name": "   "})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)
    vehicle = LEGACY_TOOLS[0]
    with pytest.raises(QueryError, match="name must not be blank"):
        vehicle.json({"type": "car", "name": "   "})
    with pytest.raises(QueryError, match="unknown Legacy vehicle type 'tank'"):
        vehicle.json({"type": "tank", "name": "Rust Bucket"})
    named = client.get("/api/legacy/name", params={"seed": "7"}).json()
    assert named == client.get("/api/legacy/name", params={"seed": "7"}).json()
    assert set(named) == {"name"} and named["name"].strip()
