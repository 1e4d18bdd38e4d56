"""Flag Tag (Refuelled p.132): flag placement limits, ramming a rival's flag scores 1 VP and
removes it, own flags score nothing, flags come back at the start of a Gear Phase, 3 VP win at
once, the volatile variant; through the real flow with scripted dice and exact poses."""

from __future__ import annotations

import math

import pytest
from tests.builders import drive, ev, vehicle

from carnage.catalog import Weight
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios.common import score, spawn
from carnage.games.refuelled.scenarios.common.tokens import flag_obstacle
from carnage.games.refuelled.scenarios.flag_tag import KEY, FlagTag, flag_id
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game


class PlacedFT(FlagTag):
    """Flag Tag with the vehicles, spawn points and flags where the test put them."""

    def __init__(self, flags: dict[int, tuple[float, float]],
                 spawns: dict[int, tuple[float, float]]) -> None:
        self.flags, self.spawns = flags, spawns

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        for p, at in self.spawns.items():
            spawn.set_spawn_point(game, p, at, source="test", page=None)
        for p, at in self.flags.items():
            st.obstacles[flag_id(p)] = flag_obstacle(flag_id(p), at)
            st.scenario.setdefault(KEY, {})[flag_id(p)] = p
        yield from ()


def ft(flags: dict[int, tuple[float, float]], dice: list[int], *, gear: int = 1,
       max_rounds: int = 1) -> Game:
    st = GameState(900.0, 1200.0, 2)
    for v in (vehicle("red", "car", 300, 300, heading=90, player=0, gear=gear),
              vehicle("blue", "car", 700, 900, heading=270, player=1, gear=gear)):
        st.vehicles[v.id] = v
    sc = PlacedFT(flags, {0: (300.0, 105.0), 1: (700.0, 1095.0)})
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=max_rounds))


def test_flag_places_are_within_medium_of_the_spawn_point_and_clear_of_the_edges() -> None:
    g = build_game(GameSetup(scenario="flag-tag"), 0)
    g.state.obstacles.clear()
    spawn.set_spawn_point(g, 0, (450.0, 105.0), source="test", page=None)
    places = FlagTag().flag_places(g, 0)
    assert places
    disc = spawn._disc((450.0, 105.0), spawn.SPAWN_DIAMETER / 2)
    from carnage.geometry.shapes import distance

    for c in places.values():
        poly = flag_obstacle("f", c).polygon()
        assert distance(poly, disc) <= 120.0 + 1e-9
        assert min(c[0], c[1], 900 - c[0], 1200 - c[1]) - 15.0 > 120.0


def test_with_no_point_far_enough_from_the_edges_the_farthest_are_offered() -> None:
    # A spawn point in a corner: nothing within Medium of it is more than Medium from both
    # edges (ruling FT-1).
    g = build_game(GameSetup(scenario="flag-tag"), 0)
    g.state.obstacles.clear()
    spawn.set_spawn_point(g, 0, (10.0, 10.0), source="test", page=None)
    places = FlagTag().flag_places(g, 0)
    assert places
    gaps = [min(x, y) - 15.0 for x, y in places.values()]
    assert max(gaps) <= 120.0 and min(gaps) >= max(gaps) - 20.0


def test_ramming_a_rivals_flag_scores_a_vp_and_removes_the_flag() -> None:
    # Red's Short Straight ends with its nose at y=390: blue's flag (30 mm square) at y=400
    # lies 5 mm inside that reach, so the move stops against it: a Collision.
    g = ft({1: (300.0, 400.0), 0: (100.0, 600.0)}, dice=[6, 1] + [1] * 20)
    drive(g, template="short_straight", collision_reaction="smash")
    assert score.total(g, "vp", 0) == 1
    assert flag_id(1) not in g.state.obstacles
    assert ev(g, "score")[0]["reason"] == "rammed P2's flag"


def test_ramming_your_own_flag_removes_it_and_scores_nothing() -> None:
    g = ft({0: (300.0, 400.0), 1: (100.0, 600.0)}, dice=[6, 1] + [1] * 20)
    drive(g, template="short_straight", collision_reaction="smash")
    assert flag_id(0) not in g.state.obstacles
    assert score.total(g, "vp", 0) == 0  # FT-3
    assert ev(g, "flag_lost")[0]["reason"] == "rammed by its own side (FT-3)"


def test_a_player_with_no_flag_puts_it_back_as_the_next_gear_phase_begins() -> None:
    g = ft({1: (300.0, 400.0), 0: (100.0, 600.0)}, dice=[6, 1] + [1] * 20, max_rounds=2)
    drive(g, template="short_straight", collision_reaction="smash")
    d = g.pending()
    assert d is not None and d.kind == "flag_place" and d.player == 1
    assert g.state.gear_phase == 2
    g.apply(d.options[0].value)
    assert flag_id(1) in g.state.obstacles
    assert ev(g, "flag_placed")[0]["player"] == 1


def test_the_third_vp_wins_at_once() -> None:
    g = ft({1: (300.0, 400.0), 0: (100.0, 600.0)}, dice=[6, 1] + [1] * 20)
    score.add(g, "vp", 2, player=0, source="test", page=None)
    drive(g, template="short_straight", collision_reaction="smash")
    assert g.state.finished and g.state.winner == 0
    assert g.state.reason == "3 Victory Points first"


def test_volatile_flags_are_a_scenario_option() -> None:
    g = build_game(GameSetup(scenario="flag-tag", scenario_options=(("volatile_flags", True),)),
                   0)
    while (d := g.pending()) is not None and d.kind != "flag_place":
        g.apply(d.options[0].value)
    assert d is not None
    g.apply(d.options[0].value)
    flag = next(o for o in g.state.obstacles.values() if o.id.startswith("flag-"))
    assert flag.volatile and flag.destructible and flag.weight is Weight.MIDDLEWEIGHT
    plain = flag_obstacle("f", (0.0, 0.0))
    assert plain.weight is Weight.LIGHTWEIGHT and plain.destructible and not plain.volatile
    with pytest.raises(SetupError, match="must be bool"):
        build_game(GameSetup(scenario="flag-tag", scenario_options=(("volatile_flags", 1),)), 0)


def test_bots_aim_just_short_of_the_nearest_rival_flag() -> None:
    g = ft({1: (300.0, 500.0), 0: (100.0, 600.0)}, dice=[6, 1])
    red = g.state.vehicles["red"]
    goal = g.scenario.goal(g.state, red)
    assert goal is not None and goal.a == goal.b
    assert math.isclose(goal.a[1], 500.0 - 16.0) and goal.a[0] == 300.0
    assert g.scenario.goal_targets(g.state, red) == {flag_id(1)}
