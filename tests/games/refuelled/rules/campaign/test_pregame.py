"""What a campaign hands a game, through ``build_game`` (Refuelled pp.159-163): handicap
votes, Old War Wound's roll, Twitch's announcement, Crew and Hull lost for good, the secrets,
and clear errors for a bad ``pregame``."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import ev

from carnage.games.refuelled.setup import GameSetup, SetupError, build_game, record_game, replay
from carnage.kernel.dice import ScriptedDice
from carnage.team import parse_team
from carnage.team.model import TeamSpec


def team(name: str, *careers: dict[str, Any] | None) -> TeamSpec:
    vehicles = []
    for i, c in enumerate(careers):
        v: dict[str, Any] = {"name": f"{name}{i + 1}", "type": "car"}
        if c is not None:
            v["career"] = c
        vehicles.append(v)
    return parse_team({"name": name, "cans": 50, "vehicles": vehicles})


def setup(a: TeamSpec, b: TeamSpec, **pregame: Any) -> GameSetup:
    return GameSetup(teams=(a, b), pregame=tuple(sorted(pregame.items())))


def test_handicap_votes_are_gained_at_the_start() -> None:
    g = build_game(setup(team("A", None), team("B", None), votes=[0, 3]), seed=1)
    assert g.state.votes == [0, 3]
    assert ev(g, "audience_vote", source="handicap") == [{"player": 1, "gained": 3,
                                                         "votes": 3}]


def test_crew_and_hull_lost_for_good_are_the_vehicles_starting_values() -> None:
    g = build_game(setup(team("A", {"crew_loss": 1, "hull_loss": 4}), team("B", None)), seed=1)
    worn, fresh = g.state.vehicles["p1-a1"], g.state.vehicles["p2-b1"]
    assert (worn.crew, worn.hull) == (1, 6)
    assert (fresh.crew, fresh.hull) == (2, 10)


def test_old_war_wound_on_a_one_sits_the_game_out() -> None:
    wounded = {"injuries": ["old-war-wound"]}
    # The first die is A1's Old War Wound, then the Street Race's pole roll-off.
    g = build_game(setup(team("A", wounded, None), team("B", None)),
                   dice=ScriptedDice([1, 6, 1]))
    assert "p1-a1" not in g.state.vehicles and "p1-a2" in g.state.vehicles
    assert ev(g, "sits_out") == [{"vehicle": "p1-a1", "player": 0, "name": "A1"}]
    assert not any(e[3] == "p1-a1" for e in g.state.installed if e[0] == "rule")
    g = build_game(setup(team("A", wounded, None), team("B", None)),
                   dice=ScriptedDice([2, 6, 1]))
    assert "p1-a1" in g.state.vehicles
    assert ev(g, "injury", source="old_war_wound")[0]["sits_out"] is False


def test_twitch_is_announced_and_wear_listed() -> None:
    g = build_game(setup(team("A", {"injuries": ["twitch", "badass"], "weakened_chassis": 1}),
                         team("B", None)), seed=2)
    assert ev(g, "injury", source="twitch") == [{"vehicle": "p1-a1", "injury": "twitch",
                                                "announced": True}]
    assert ev(g, "campaign_wear")[0] == {"vehicle": "p1-a1", "injuries": ["twitch"],
                                         "weakened_chassis": 1}


def test_sabotage_and_resistance_are_secrets_and_replay() -> None:
    s = setup(team("A", {"injuries": ["shakes"]}), team("B", None), sabotage=[2, 0],
              resistance=[6, 0], votes=[1, 1])
    g = build_game(s, seed=5)
    keys = {e.data["key"]: e.data["seen_by"] for e in g.log.of_kind("secret")}
    assert keys == {"sabotage:0": [0], "resistance:0": [0]}
    # A copy and a replay of the saved log rebuild the wear and the tokens.
    assert g.clone().state.installed == g.state.installed
    again = replay(record_game(g, s, 5))
    assert again.identical and again.crash is None


@pytest.mark.parametrize("pregame, message", [
    ({"votes": [1]}, "pregame.votes: expected a list of 2 whole numbers"),
    ({"sabotage": [0, -1]}, "pregame.sabotage: seat 2 has -1"),
    ({"resistance": "lots"}, "pregame.resistance: expected a list"),
    ({"votes": [True, 0]}, "pregame.votes: seat 1 has True"),
])
def test_bad_pregame_is_a_setup_error(pregame: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError) as e:
        build_game(setup(team("A", None), team("B", None), **pregame), seed=1)
    assert message in str(e.value)


def test_an_illegal_career_is_refused_at_setup() -> None:
    with pytest.raises(SetupError) as e:
        build_game(setup(team("A", {"injuries": ["gout"]}), team("B", None)), seed=1)
    assert "unknown injury 'gout'" in str(e.value)


def test_the_table_view_hides_a_seats_tokens_and_rp_from_the_others() -> None:
    from carnage.games.refuelled.table_view import game_view

    s = setup(team("A", None), team("B", None), sabotage=[2, 0], resistance=[7, 0])
    g = build_game(s, seed=5)
    mine = game_view(g, "g1", [], viewers=[0]).model_dump_json()
    theirs = game_view(g, "g1", [], viewers=[1]).model_dump_json()
    spectator = game_view(g, "g1", []).model_dump_json()
    assert "2 Sabotage Tokens" in mine and "7 RP" in mine
    for view in (theirs, spectator):
        assert "2 Sabotage Tokens" not in view and "7 RP" not in view
        assert "sabotage tokens" in view.lower()  # the table knows a seat holds some
