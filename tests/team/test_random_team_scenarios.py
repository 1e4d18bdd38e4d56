"""Random teams drawn from what each scenario accepts (``Scenario.team_demand`` and
``random_team``), and starting grids that cannot hold a field refused at set-up: every
scenario of every ruleset starts with ``--teams random`` teams."""

from __future__ import annotations

import random

import pytest

from carnage.games.refuelled.ai.bots import make_bot
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.death_race import GRID_DEPTH_GUESS
from carnage.games.refuelled.session import random_teams_setup
from carnage.games.refuelled.setup import GameSetup, SetupError, build_game
from carnage.rulesets import RULESETS
from carnage.team import TeamSpec, check_team
from carnage.team.io import parse_team
from carnage.team.random_team import random_team

CASES = [(rs, sid) for rs in ("refuelled", "kart", "legacy")
         for sid in sorted(RULESETS[rs].scenarios)]


def started(g: Game) -> Game:
    """Play the set-up out with a random bot, up to the first activation."""
    bot, rng = make_bot("random"), random.Random(0)
    for _ in range(500):
        d = g.pending()
        if d is None or d.kind in ("activate", "spend_votes", "commercial_break"):
            return g
        g.apply(bot.choose(g, d, rng))
    raise AssertionError("the set-up never ended")


@pytest.mark.parametrize(("ruleset", "sid"), CASES)
def test_random_teams_start_every_scenario(ruleset: str, sid: str) -> None:
    cls = RULESETS[ruleset].scenario_class(sid)
    base = GameSetup(scenario=sid, players=max(2, cls.min_players), ruleset=ruleset)
    for seed, cans in ((0, 150), (1, 50)):
        setup = random_teams_setup(base, cans, ruleset=RULESETS[ruleset])(seed)
        g = started(build_game(setup, seed, ruleset=RULESETS[ruleset]))
        assert g.state.round >= 1 or g.pending() is not None
        assert len(g.state.vehicles) >= setup.players


def test_random_teams_take_only_what_the_scenario_accepts() -> None:
    def teams(sid: str, cans: int = 50) -> tuple[TeamSpec, ...]:
        return random_teams_setup(GameSetup(scenario=sid), cans)(3).teams

    def kinds(t: TeamSpec) -> list[str]:
        return [v.type for v in t.vehicles]

    assert all(set(kinds(t)) <= {"helicopter", "gyrocopter"}
               for t in teams("desert-strike", 60))
    assert set(kinds(teams("monster-truck-smash")[0])) == {"monster_truck"}
    assert all(kinds(t) == ["tank", "tank"] for t in teams("tank-commander"))
    rigs, ganger = teams("rescue")
    assert "war_rig" in kinds(rigs) and "war_rig" not in kinds(ganger)
    for t in teams("death-race", 150):
        assert len(kinds(t)) <= GRID_DEPTH_GUESS and not {"bus", "war_rig"} & set(kinds(t))


def test_random_team_draws_only_the_types_and_count_asked_for() -> None:
    for seed in range(20):
        t = random_team(seed, 150, types=frozenset({"bike", "buggy"}), max_vehicles=3)
        assert {v.type for v in t.vehicles} <= {"bike", "buggy"}
        assert 1 <= len(t.vehicles) <= 3 and check_team(t).valid


def _bikes(n: int, name: str) -> TeamSpec:
    return parse_team({"name": name, "cans": 5 * n,
                       "vehicles": [{"name": f"{name} Bike {i + 1}", "type": "bike"}
                                    for i in range(n)]}, name)


def test_a_starting_grid_too_small_for_the_field_is_refused_at_set_up() -> None:
    # 2 x 20 Bikes on the 900 mm Street Race line (20 mm wide, a 15 mm pitch apart: 30 mm
    # each) cannot all stand on it: refused as the game is built, naming the scenario and
    # the vehicle left over, before any decision.
    teams = (_bikes(20, "Red"), _bikes(20, "Blue"))
    with pytest.raises(SetupError, match=r"^Street Race: no room on the starting grid for "
                                         r"\w+ Bike \d+ \(player \d\)"):
        build_game(GameSetup(scenario="street-race", teams=teams), 0)
    with pytest.raises(SetupError, match=r"^Death Race: no room on the starting grid .* for "
                                         r"\w+ Bike \d+ \((Red|Blue);"):
        build_game(GameSetup(scenario="death-race", teams=teams), 0)
