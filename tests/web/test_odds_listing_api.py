"""The odds routes are built from the rulesets' declared queries: ``GET /api/odds`` lists
every ruleset's queries once with their parameters' bounds, every listed query answers from
what the listing says, a test-only ruleset's query becomes a route, a bad parameter is a 422
naming it, and a Devil's Run game's pending odds come through its ruleset. The odds router
imports no game package."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.dice_queries import reach, with_dice
from tests.web.test_api_support import TestClient, new_client
from tests.web.test_odds_api import get

import carnage.web.routers.odds
from carnage.rulesets import RULESETS
from carnage.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def test_the_listing_covers_every_rulesets_queries_once(client: TestClient) -> None:
    listed = get(client, "/api/odds")["queries"]
    paths = [q["path"] for q in listed]
    assert len(paths) == len(set(paths))
    by_path = {q["path"]: q for q in listed}
    for ruleset in RULESETS.values():
        for q in ruleset.queries:
            if q.tool != "odds":
                assert q.path not in by_path or by_path[q.path]["url"] != f"/api/odds/{q.path}"
                continue
            entry = by_path[q.path]
            assert ruleset.title in entry["games"]
            assert entry["url"] == f"/api/odds/{q.path}" and entry["summary"] == q.summary
            assert [p["name"] for p in entry["params"]] == [p.name for p in q.params]
    assert by_path["skid"]["games"] == ["Gaslands: Refuelled", "Kart variant",
                                        "Gaslands: Legacy"]
    dice = by_path["attack"]["params"][0]
    assert (dice["name"], dice["type"], dice["min"], dice["max"], dice["required"]) == (
        "dice", "int", 0, 60, True)
    action = next(p for p in by_path["devilsrun/offensive"]["params"] if p["name"] == "action")
    assert action["choices"] == ["ram", "t_bone", "side_swipe", "ram_on_the_brakes"]
    assert action["default"] == "ram"
    assert "refuelled" not in str([q["games"] for q in listed])  # titles, not internal names


def _from_listing(params: list[dict[str, Any]]) -> dict[str, Any]:
    """A query string a form built from the listing sends: each required parameter at its
    lowest value (or its first word), the rest left to their defaults."""
    return {p["name"]: p["min"] if p["type"] == "int" else p["choices"][0]
            for p in params if p["required"]}


def test_every_listed_query_answers_what_its_listing_allows(client: TestClient) -> None:
    for q in get(client, "/api/odds")["queries"]:
        answer = get(client, q["url"], **_from_listing(q["params"]))
        assert isinstance(answer, dict) and answer, q["path"]


def test_a_test_rulesets_query_is_a_route_listed_with_its_bounds(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", odds_rulesets=with_dice()))
    assert get(client, "/api/odds/dicetest/sum", dice=3, at_least=10) == reach(3, 10, False, "d6")
    assert get(client, "/api/odds/dicetest/sum", dice=2, drop_lowest="true", faces="d3",
               at_least=3)["exact"] == "5/9"
    entry = next(q for q in get(client, "/api/odds")["queries"] if q["path"] == "dicetest/sum")
    assert entry["games"] == ["Test Dice"]
    schema = client.get("/openapi.json").json()["paths"]["/api/odds/dicetest/sum"]["get"]
    params = {p["name"]: p for p in schema["parameters"]}
    assert (params["dice"]["schema"]["minimum"], params["dice"]["schema"]["maximum"]) == (1, 4)
    assert params["dice"]["required"] is True
    assert params["faces"]["schema"]["enum"] == ["d6", "d3"]
    assert new_client(tmp_path, "other.db").get("/api/odds/dicetest/sum",
                                                params={"dice": 1}).status_code == 404


@pytest.mark.parametrize(("params", "message"), [
    ({"dice": 5}, "query.dice: input should be less than or equal to 4"),
    ({}, "query.dice: missing (required)"),
    ({"dice": 2, "faces": "d8"}, "query.faces: input should be 'd6' or 'd3'"),
    ({"dice": 2, "drop_lowest": "maybe"}, "query.drop_lowest: input should be a valid boolean"),
])
def test_a_bad_parameter_of_a_declared_query_is_a_422_naming_it(
        tmp_path: Path, params: dict[str, Any], message: str) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", odds_rulesets=with_dice()))
    r = client.get("/api/odds/dicetest/sum", params=params)
    assert r.status_code == 422
    assert r.json()["detail"].startswith(message)


def test_a_devils_run_games_pending_odds_come_through_its_ruleset(client: TestClient) -> None:
    r = client.post("/api/games", json={"ruleset": "devils-run", "scenario": "devils-run",
                                        "seed": 3, "hot_seat": True,
                                        "seats": [{"controller": "human"}] * 2})
    assert r.status_code == 201, r.text
    g = r.json()
    tokens = ",".join(s["token"] for s in g["seats"])
    v = get(client, f"/api/games/{g['id']}", token=tokens)
    for _ in range(400):  # as the table's own test: shoot whenever offered
        p = v["pending"]
        assert p is not None, "the game ended before a shot"
        values = [o["value"] for o in p["options"]]
        if p["kind"] == "shoot_target" and len(values) > 1:
            break
        choice = next((c for c in ("shoot", "stay", "peddle") if c in values), values[0])
        r = client.post(f"/api/games/{g['id']}/decisions",
                        json={"token": tokens, "version": v["version"], "choice": choice})
        assert r.status_code == 200, r.text
        v = r.json()
    else:
        raise AssertionError("no shot to aim within 400 choices")
    out = get(client, f"/api/odds/games/{g['id']}/pending", token=tokens)
    assert (out["kind"], out["vehicle"], out["seat"]) == ("shoot_target", p["vehicle"],
                                                          p["player"])
    shown = {o["value"]: o["odds"] for o in p["options"] if "odds" in o}
    assert shown and {o["option"]: o["odds"] for o in out["options"]} == shown
    assert all(o["label"] for o in out["options"]) and "arc grid" in out["basis"]
    # without a seat's token, no odds
    assert client.get(f"/api/odds/games/{g['id']}/pending").status_code == 403


def test_the_odds_router_imports_no_game_package() -> None:
    text = Path(carnage.web.routers.odds.__file__).read_text(encoding="utf-8")
    assert "carnage.games" not in text
