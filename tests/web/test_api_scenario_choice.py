"""The lobby's scenario choices: any scenario, a roll on a table of p.122 with the game's
seed (logged), and team-game sides (p.123)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def create(client: TestClient, **body: Any) -> Any:
    seats = [{"controller": "random"}, {"controller": "random"}, {"controller": "random"},
             {"controller": "random"}][: body.pop("players", 2)]
    return client.post("/api/games", json={"seats": seats, **body})


def test_any_registered_scenario_can_be_chosen(client: TestClient) -> None:
    r = create(client, scenario="capture-the-flag", seed=3)
    assert r.status_code == 201, r.text
    info = {s["id"]: s for s in client.get("/api/scenarios").json()}
    assert info["capture-the-flag"]["table"] == "Televised Event"
    assert info["capture-the-flag"]["min_players"] == 2


def test_a_random_televised_event_is_rolled_with_the_games_seed_and_logged(
        client: TestClient) -> None:
    # Seed 0's first die is a 4: Capture the Flag on the Televised Event table.
    r = create(client, scenario="random:televised", seed=0)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    events = client.get(f"/api/games/{gid}/events").json()
    rows = events if isinstance(events, list) else events.get("events", [])
    roll = [e for e in rows if e.get("kind") == "scenario_roll"]
    assert roll and roll[0]["data"] == {"table": "Televised Event", "roll": 4,
                                        "scenario": "capture-the-flag"}


def test_an_unknown_table_is_refused_in_one_line(client: TestClient) -> None:
    r = create(client, scenario="random:weekly", seed=0)
    assert r.status_code == 422 and "unknown scenario table" in r.json()["detail"]


def test_sides_make_a_team_game_and_bad_sides_are_refused(client: TestClient) -> None:
    r = create(client, scenario="street-race", seed=2, players=4, sides=[[0, 2], [1, 3]])
    assert r.status_code == 201, r.text
    r = create(client, scenario="street-race", seed=2, players=4, sides=[[0, 2], [2, 3]])
    assert r.status_code == 422 and "seat 3 is on side 1 and side 2" in r.json()["detail"]


def test_the_rulesets_say_which_tables_a_scenario_may_be_rolled_on(client: TestClient) -> None:
    """The lobby offers the tables each ruleset declares (``TableOffer.random_tables``):
    Refuelled's three of p.122, and each is a scenario a new game accepts; the Kart variant
    and Devil's Run roll on none."""
    tables = {r["name"]: r["random_tables"] for r in client.get("/api/rulesets").json()}
    assert [(t["value"], t["name"], t["page"]) for t in tables["refuelled"]] == [
        ("random:televised", "Televised Event", 122),
        ("random:skirmish", "Wasteland Skirmish", 122),
        ("random:special", "Special Event", 122)]
    assert tables["kart"] == [] and tables["devils-run"] == []
    for t in tables["refuelled"]:
        r = create(client, scenario=t["value"], seed=5)
        assert r.status_code == 201, r.text
