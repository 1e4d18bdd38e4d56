"""Every scenario describes itself from its own data through the one web path: the lobby's
``GET /api/rulesets`` gives each a brief (what it is, how it is won, its special rules with
their pages, what its ruleset changes), and a game's view carries its brief and a scoreboard
in the scenario's own terms, each seat named by its team."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, first_choice, new_client, racer_team

from carnage.rulesets import RULESETS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return new_client(Path(tmp_path_factory.mktemp("briefs")))


SEAT_WORDS = re.compile(r"\b(player|seat) ?\d|\bP\d\b", re.IGNORECASE)
"""A seat by its number ("player 2", "seat 1", "P1"): never how a brief or a scoreboard
names a side."""


def listed() -> list[tuple[str, dict[str, Any]]]:
    """(ruleset, scenario) for every scenario the lobby lists."""
    from fastapi.testclient import TestClient as Client

    from carnage.web.app import create_app

    with Client(create_app("sqlite:///:memory:")) as c:
        return [(r["name"], s) for r in c.get("/api/rulesets").json() for s in r["scenarios"]]


SCENARIOS = listed()


@pytest.mark.parametrize("ruleset, scenario", SCENARIOS,
                         ids=[f"{r}:{s['id']}" for r, s in SCENARIOS])
def test_every_scenario_of_every_ruleset_describes_itself(ruleset: str,
                                                          scenario: dict[str, Any]) -> None:
    brief = scenario["brief"]
    assert brief is not None, f"{ruleset} {scenario['id']}: no brief"
    assert brief["id"] == scenario["id"] and brief["name"] == scenario["name"]
    assert len(brief["summary"]) > 20 and len(brief["goal"]) > 20
    assert re.search(r"\bwin", brief["goal"], re.IGNORECASE), brief["goal"]
    cites = [brief["cite"], *(r["cite"] for r in brief["rules"] + brief["differs"])]
    assert brief["rules"], f"{ruleset} {scenario['id']}: no special rules"
    for rule in brief["rules"] + brief["differs"]:
        assert rule["name"] and len(rule["text"]) > 15 and rule["cite"]["text"]
    if ruleset == "devils-run":  # a beta rulebook without page numbers: its own headings,
        # never a line of our seed text (players do not have it)
        assert all(c["where"] and not re.search(r"\bline", c["where"]) for c in cites), cites
    else:
        assert any(isinstance(c["page"], int) for c in cites), cites
        assert brief["cite"]["text"].startswith("Refuelled p")
    assert not SEAT_WORDS.search(json.dumps(brief)), brief


def test_the_kart_and_legacy_races_say_what_differs_in_them() -> None:
    briefs = {(r, s["id"]): s["brief"] for r, s in SCENARIOS}
    for sid in ("street-race", "death-race"):
        kart = briefs[("kart", sid)]
        assert kart["variant"] == "Kart variant"
        assert {"No damage", "Wipeout", "Collisions"} <= {d["name"] for d in kart["differs"]}
        assert all(d["cite"]["book"] == "Kart variant" for d in kart["differs"])
        assert "kart" in kart["summary"].lower()
        assert kart["summary"] != briefs[("refuelled", sid)]["summary"]
        assert briefs[("refuelled", sid)]["variant"] == "" and not briefs[
            ("refuelled", sid)]["differs"]
    assert "Car and a Buggy" not in briefs[("kart", "street-race")]["summary"]
    for (r, _sid), b in briefs.items():
        if r == "legacy":
            assert b["variant"] == "Gaslands: Legacy"
            assert {"Legacy teams", "Televised Carnage", "Live Fast"} <= {
                d["name"] for d in b["differs"]}


def test_a_legacy_chapters_rules_are_in_its_games_brief() -> None:
    from carnage.games.legacy.ruleset import LEGACY, legacy_teams
    from carnage.games.refuelled.setup import GameSetup, build_game
    from carnage.games.refuelled.table_view import SeatControl, game_view

    game = build_game(GameSetup(scenario="zombie-bash", teams=legacy_teams(2), ruleset="legacy",
                                scenario_options=(("chapter_rules", "refrigerator"),)), 2,
                      ruleset=LEGACY)
    view = game_view(game, "g", [SeatControl(0, "human"), SeatControl(1, "random")])
    assert view.brief is not None
    assert "The Refrigerator" in {d.name for d in view.brief.differs}
    plain = RULESETS["legacy"].table.brief
    assert plain is not None and "The Refrigerator" not in {
        d.name for d in plain("zombie-bash").differs}


def _game(client: TestClient, ruleset: str, scenario: str, teams: list[str | None],
          bot: str = "random") -> tuple[str, str]:
    """A new game, seat 0 a human (its token returned), seat 1 a bot."""
    r = client.post("/api/games", json={
        "ruleset": ruleset, "scenario": scenario, "seed": 3,
        "seats": [{"controller": c, "team_id": t}
                  for c, t in zip(("human", bot), teams, strict=True)]})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], g["seats"][0]["token"]


@pytest.mark.parametrize("ruleset, scenario, title, score", [
    ("refuelled", "death-race", "Gates passed", r"^(\d+ of \d+ gates|finished)"),
    ("refuelled", "capture-the-flag", "Flags held", r"^\d+ flags$"),
    ("kart", "death-race", "Gates passed", r"^(\d+ of \d+ gates|finished)"),
    ("kart", "street-race", "Distance to the finish", r"(mm to go|not yet on the table)$"),
])
def test_the_help_and_the_scoreboard_speak_the_scenarios_terms_and_name_the_teams(
        client: TestClient, ruleset: str, scenario: str, title: str, score: str) -> None:
    tid = client.post("/api/teams", json={"team": racer_team("Road Hogs")}).json()["id"]
    gid, token = _game(client, ruleset, scenario, [tid, None])
    view = client.get(f"/api/games/{gid}", params={"token": token}).json()
    # the help: this scenario, not Street Race's
    brief = view["brief"]
    assert brief["id"] == scenario and brief["goal"]
    if scenario != "street-race":
        assert "Street Race" not in json.dumps(brief)
    if ruleset == "kart":
        assert brief["variant"] == "Kart variant" and brief["differs"]
    # the scoreboard: its own terms, one row per seat named by the team it brought
    board = view["scoreboard"]
    assert board["title"] == title and board["target"]
    rows = {r["seat"]: r for r in board["rows"]}
    assert set(rows) == {0, 1}
    assert rows[0]["name"] == "Road Hogs" and rows[0]["team"] == "Road Hogs"
    own = {"refuelled": "Blue Racers", "kart": "Blue Karts"}[ruleset]
    if scenario == "capture-the-flag":
        own = next(p["team"] for p in view["players"] if p["seat"] == 1)
    assert rows[1]["name"] == own and own
    for r in rows.values():
        assert re.search(score, r["score"]), r["score"]
    assert not SEAT_WORDS.search(json.dumps(board)), board


def test_death_races_scoreboard_counts_gates_as_the_race_goes(client: TestClient) -> None:
    """Played through the API until a racer passes Gate 1: its seat's row says so, comes
    first and leads, named by its team."""
    gid, token = _game(client, "refuelled", "death-race", [None, None], bot="heuristic")
    view = client.get(f"/api/games/{gid}", params={"token": token}).json()
    start = view["scoreboard"]["rows"]
    gates = _gates(view)
    assert [r["score"] for r in start] == [f"0 of {gates} gates"] * 2
    for _ in range(1500):
        if view["status"] == "finished" or any(
                r["score"] != f"0 of {gates} gates" for r in view["scoreboard"]["rows"]):
            break
        r = client.post(f"/api/games/{gid}/decisions", json={
            "token": token, "version": view["version"], "choice": first_choice(view["pending"])})
        assert r.status_code == 200, r.text
        view = r.json()
    rows = view["scoreboard"]["rows"]
    ahead = [r for r in rows if r["score"] != f"0 of {gates} gates"]
    assert ahead, "no racer passed a gate"
    assert rows[0] == ahead[0] and rows[0]["leading"] and not rows[1]["leading"]
    assert rows[0]["name"] in ("Red Racers", "Blue Racers")
    assert any(d.startswith(rows[0]["name"].split()[0]) and "next gate" in d
               for d in rows[0]["details"])


def _gates(view: dict[str, Any]) -> int:
    """The course's length, as the scoreboard's target says it."""
    m = re.search(r"\((\d+) gates", view["scoreboard"]["target"])
    assert m, view["scoreboard"]["target"]
    return int(m.group(1))
