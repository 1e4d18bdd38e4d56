"""Seeded Legacy games between bots (``ruleset="legacy"``): generated and mutated teams, one
vehicle each with the Nano-Cloaking Device; the invariants hold after every choice, copies and
snapshots go on as the game does, the saved log replays identically, and the Legacy rules are
seen in play (cloaks, Televised Carnage or Live Fast votes)."""

from __future__ import annotations

import pytest
from tests.simulation import play_checked

from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.mutations import gain_mutations
from carnage.games.legacy.ruleset import legacy_teams
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.rulesets import build_game
from carnage.team import TeamSpec, UpgradeSpec, VehicleSpec


def cloaked_team(name: str, picks: list[tuple[str, str]], mutations: int) -> TeamSpec:
    vehicles = [gain_mutations(generate_vehicle(t, n), mutations)[0] for t, n in picks]
    first = vehicles[0]
    vehicles[0] = first.model_copy(update={
        "upgrades": (*first.upgrades, UpgradeSpec(id="nano_cloaking_device"))})
    return legacy_team(name, vehicles)


TEAMS = (cloaked_team("Rust", [("car", "Rust Bucket"), ("truck", "Big Bertha")], 4),
         cloaked_team("Chrome", [("performance_car", "Twin Mill"), ("car", "Night Rider")], 4))


@pytest.mark.parametrize(("scenario", "seed"), [("arena-of-death", 11), ("arena-of-death", 12),
                                                 ("street-race", 13)])
def test_legacy_games_between_bots_hold_and_replay(scenario: str, seed: int) -> None:
    setup = GameSetup(scenario=scenario, teams=TEAMS, players=2, max_rounds=6, ruleset="legacy")
    c = play_checked(setup, seed, ("heuristic", "heuristic"), copies_every=25, copies_most=1,
                     check_replay=True)
    assert c.error is None, c.error
    assert c.problems == []
    assert c.replay_identical
    assert c.game.state.finished


def test_the_legacy_rules_show_in_play() -> None:
    seen: set[str] = set()
    for seed in range(20, 26):
        setup = GameSetup(scenario="arena-of-death", teams=TEAMS, players=2, max_rounds=5,
                          ruleset="legacy")
        c = play_checked(setup, seed, ("heuristic", "heuristic"), copies_every=1000)
        assert c.error is None, c.error
        seen |= {str(e.data.get("rule")) for e in c.game.log if e.kind == "legacy_rule"}
        seen |= {"cloak" for e in c.game.log if e.kind == "nano_cloak"}
    assert "cloak" in seen
    assert {"GL-020", "GL-021"} & seen


def test_default_teams_are_generated_legacy_teams() -> None:
    g = build_game(GameSetup(players=3, ruleset="legacy"), 0)
    assert {v.type for v in g.state.vehicles.values()} <= {"buggy", "car", "performance_car",
                                                            "truck"}
    assert len(g.state.vehicles) == 6
    assert legacy_teams(2) == legacy_teams(2)


def test_a_refuelled_team_is_refused_and_so_is_a_composed_scenario() -> None:
    from carnage.games.legacy.ruleset import LEGACY

    plain = TeamSpec(name="Plain", cans=50, vehicles=())
    with pytest.raises(SetupError, match="the Legacy ruleset plays Legacy teams"):
        build_game(GameSetup(teams=(plain, TEAMS[0]), ruleset="legacy"), 0)
    with pytest.raises(SetupError, match="unknown scenario 'tank-commander' for Gaslands"):
        build_game(GameSetup(scenario="tank-commander", ruleset="legacy"), 0)
    assert LEGACY.scenarios["street-race"].__name__ == "StreetRace"


def test_default_teams_give_every_seat_the_same_vehicles() -> None:
    """The book has no default teams and treats the players alike (GL-018, GL-050): the teams
    a game builds when none are brought are the same two generated vehicles for every seat,
    named apart (ruling GL-R26), so no seat gets the faster pair."""
    from carnage.rulesets import get_ruleset

    def build(v: VehicleSpec) -> dict[str, object]:
        return v.model_dump(mode="json", exclude={"name"})

    teams = legacy_teams(3)
    assert [[build(v) for v in t.vehicles] for t in teams[1:]] == [
        [build(v) for v in teams[0].vehicles]] * 2
    assert len({v.name for t in teams for v in t.vehicles}) == 6
    game = get_ruleset("legacy").new_game(scenario="street-race", seed=0)
    seats: dict[int, list[tuple[object, ...]]] = {0: [], 1: []}
    for v in game.state.vehicles.values():
        seats[v.player].append((v.type, v.max_gear, v.hull, v.handling, v.crew,
                                [w.weapon for w in v.weapons], v.upgrades, v.perks))
    assert seats[0] == seats[1]
