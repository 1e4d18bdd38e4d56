"""Desert Strike (Refuelled pp.145-147): aircraft-only teams, the set-up (turret ring, flags,
toxic clouds, spawn points), Fireworks Show, flags carried home and the victory. Scripted dice
and exact poses through the real flow."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.builders import armed, ev, table, values, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.clouds import clouds, lay_cloud
from carnage.games.refuelled.scenarios.common.spawn import spawn_points
from carnage.games.refuelled.scenarios.common.tokens import add_token, carried_by, tokens
from carnage.games.refuelled.scenarios.desert_strike import DesertStrike
from carnage.games.refuelled.scenarios.emplacements import ROCKET_TURRET, turret_obstacle, turrets
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.geometry.shapes import Pose
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game
from carnage.team import parse_team


def aircraft(vid: str, vtype: str, x: float, y: float, heading: float = 90.0, *,
             player: int = 0) -> VehicleState:
    v = vehicle(vid, vtype, x, y, heading, player=player)
    v.special_rules = ["airwolf", "airborne"]
    return v


class PlacedStrike(DesertStrike):
    """Desert Strike with everything already placed: pole to seat 0, spawn points given."""

    def setup(self, game: Game) -> Flow:
        game.state.pole = 0
        game.state.scenario["spawn_points"] = {"0": [100.0, 100.0], "1": [1100.0, 1100.0]}
        yield from ()


def strike(state: GameState, dice: list[int], physical: bool = False) -> Game:
    return Game(ruleset=REFUELLED, state=state, scenario=PlacedStrike(), dice=ScriptedDice(dice),
                options=RuleOptions(physical=physical))


# -- teams (M-32) ------------------------------------------------------------------------------
def test_registered_with_aircraft_only_teams() -> None:
    assert SCENARIOS["desert-strike"] is DesertStrike
    sc = DesertStrike()
    assert (sc.page, sc.table, sc.table_rolls, sc.round_limit) == (145, "Special Event", (2,), 3)
    for spec in sc.default_teams(2):
        assert {v.type for v in spec.vehicles} <= {"helicopter", "gyrocopter"}
        assert sc.check_team(spec, "player 1").total_cans <= 70
    car = parse_team({"name": "Cars", "cans": 50, "vehicles": [{"name": "C", "type": "car"}]},
                     "t")
    with pytest.raises(SetupError, match="only Helicopters and Gyrocopters"):
        sc.check_team(car, "player 1")
    # Any sponsor may buy Helicopters here (the builder alone refuses it for Slime).
    slime = parse_team({"name": "Slime", "cans": 70, "sponsor": "slime", "vehicles": [
        {"name": "H", "type": "helicopter"}]}, "t")
    assert sc.check_team(slime, "player 1").valid


# -- set-up ------------------------------------------------------------------------------------
def test_set_up_turret_ring_flags_clouds_and_spawn_points() -> None:
    # Roll-off: 5, 2: seat 0 has pole.
    g = build_game(GameSetup(scenario="desert-strike", players=2), dice=ScriptedDice([5, 2]))
    st = g.state
    cx, cy = st.width / 2, st.height / 2
    guns = turrets(g)
    assert len(guns) == 6 and all(t.hull == 7 for t in guns)
    assert all(math.hypot(t.pose.x - cx, t.pose.y - cy) == pytest.approx(300.0) for t in guns)
    flag_by: list[int] = []
    cloud_by: list[int] = []
    while (d := g.pending()) is not None and d.kind != "activate":
        if d.kind == "flag_place":
            flag_by.append(d.player)
        if d.kind == "cloud_place":
            cloud_by.append(d.player)
        g.apply("done" if d.kind == "spend_votes" else values(d)[0])
    assert flag_by == [0, 1, 0, 1, 0, 1] and cloud_by == [0, 1, 0, 1, 0, 1]
    flags = tokens(st, "flag")
    assert len(flags) == 6
    assert all(math.hypot(float(f["x"]) - cx, float(f["y"]) - cy) <= 300.0 + 1e-6
               for f in flags.values())
    assert len(clouds(g)) == 6
    from carnage.geometry.shapes import penetration

    for c in clouds(g):
        assert all(penetration(list(c.polygon), t.polygon()) < 0 for t in guns)
    spawns = spawn_points(st)
    assert set(spawns) == {0, 1}
    if not g.log.of_kind("spawn_relaxed"):
        for c in spawns.values():
            assert all(math.hypot(float(f["x"]) - c[0], float(f["y"]) - c[1]) > 300.0
                       for f in flags.values())


# -- Fireworks Show ----------------------------------------------------------------------------
def test_wrecking_a_rocket_turret_gives_two_votes() -> None:
    # h flies a Short Straight and ends 75 mm short of the turret.
    heli = armed(aircraft("h", "helicopter", 600, 330), ("heavy_machine_gun", "front", None))
    far = aircraft("g", "gyrocopter", 1100, 1000, player=1)
    st = table(heli, far, width=1200, height=1200)
    t = turret_obstacle(ROCKET_TURRET, 1, (600.0, 600.0))
    t.damage = 6  # 1 Hull Point left
    st.obstacles[t.id] = t
    g = strike(st, [6, 6, 6, 1, 1, 1, 1, 1, 1,   # 6 hits, the turret's 6 evade dice miss
                    1, 1, 1, 1])                   # its explosion: 4 dice at h (no hits)
    while (d := g.pending()) is not None and not ev(g, "turret_wrecked"):
        if d.kind == "attack":
            g.apply("heavy_machine_gun#0>rocket_turret:1")
        elif d.kind == "activate":
            g.apply("h")
        elif d.kind == "template":
            g.apply("short_straight")
        else:
            g.apply({"skid_dice": 0, "spend_shift": "done", "spend_votes": "done",
                     "airwolf": "no"}.get(d.kind, values(d)[0] if d.options else 0))
    assert ev(g, "audience_vote", source="fireworks_show") == [
        {"player": 0, "gained": 2, "votes": 2, "obstacle": "rocket_turret:1"}]


# -- flags and victory -------------------------------------------------------------------------
def test_two_flags_within_short_of_home_carried_or_not_win_at_once() -> None:
    g1 = aircraft("g1", "gyrocopter", 140, 140, 45)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    st = table(g1, foe, width=1200, height=1200)
    g = strike(st, [])
    add_token(g, "flag-1", "flag", at=(150.0, 60.0), source="test", page=0)  # home
    add_token(g, "flag-2", "flag", carrier=g1, source="test", page=0)  # carried, g1 home
    add_token(g, "flag-3", "flag", at=(600.0, 600.0), source="test", page=0)
    sc = g.scenario
    assert isinstance(sc, DesertStrike)
    assert sc.home_flags(g, 0) == 2 and sc.home_flags(g, 1) == 0
    sc.check_end(g)
    assert g.state.finished and g.state.winner == 0 and "2 flags" in g.state.reason


def test_a_gyrocopter_picks_up_a_flag_it_flies_over() -> None:
    g1 = aircraft("g1", "gyrocopter", 600, 300, 90)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    st = table(g1, foe, width=1200, height=1200)
    g = strike(st, [])
    add_token(g, "flag-1", "flag", at=(600.0, 390.0), source="test", page=0)
    while (d := g.pending()) is not None and not ev(g, "token_picked_up"):
        answer = {"activate": "g1", "template": "short_straight", "skid_dice": 0,
                  "spend_shift": "done", "spend_votes": "done", "airwolf": "no"}
        g.apply(answer.get(d.kind, values(d)[0]))
    assert carried_by(g.state, "g1") == ["flag-1"]


def test_after_three_rounds_the_most_flags_home_or_carried_wins() -> None:
    g1 = aircraft("g1", "gyrocopter", 600, 600, 90)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    st = table(g1, foe, width=1200, height=1200)
    g = strike(st, [])
    add_token(g, "flag-1", "flag", carrier=g1, source="test", page=0)  # carried, far away
    add_token(g, "flag-2", "flag", at=(1100.0, 1040.0), source="test", page=0)  # foe's home
    add_token(g, "flag-3", "flag", at=(1060.0, 1100.0), source="test", page=0)  # foe's home
    sc = g.scenario
    assert isinstance(sc, DesertStrike)
    sc.check_end(g)  # two flags home for seat 1: it wins at once
    assert g.state.finished and g.state.winner == 1
    g2 = strike(table(aircraft("g1", "gyrocopter", 600, 600, 90),
                      aircraft("foe", "gyrocopter", 1000, 1000, player=1),
                      width=1200, height=1200), [])
    add_token(g2, "flag-1", "flag", carrier=g2.state.vehicles["g1"], source="test", page=0)
    add_token(g2, "flag-2", "flag", at=(600.0, 900.0), source="test", page=0)
    sc2 = g2.scenario
    assert isinstance(sc2, DesertStrike)
    g2.state.round, g2.state.gear_phase = 3, 6
    sc2.check_end_at(g2, "gear_phase_end")
    assert g2.state.finished and g2.state.winner == 0
    assert ev(g2, "final_scores")[0]["scores"] == {"0": 1, "1": 0}


# -- the board ---------------------------------------------------------------------------------
def test_the_board_draws_turrets_clouds_flags_and_spawn_points() -> None:
    from carnage.cli.play_cmd import table_view
    from carnage.render import render_svg

    g = build_game(GameSetup(scenario="desert-strike", players=2), seed=3)
    while (d := g.pending()) is not None and d.kind != "activate":
        g.apply("done" if d.kind == "spend_votes" else values(d)[0])
    marks = g.scenario.drawables(g)
    styles = [m.style for m in marks]
    assert styles.count("turret") == 6 and styles.count("toxic_cloud") == 6
    assert sum(1 for m in marks if m.kind == "token" and m.label == "flag") == 6
    assert sum(1 for m in marks if m.kind == "spawn") == 2
    turret = next(m for m in marks if m.style == "turret")
    assert turret.label == "rocket turret 1 (7 HP)" and turret.kind == "zone"
    svg = render_svg(table_view(g))
    assert 'data-label="rocket turret 1 (7 HP)"' in svg and 'data-label="toxic cloud"' in svg


def test_a_side_with_nothing_in_play_does_not_end_the_game() -> None:
    g1 = aircraft("g1", "gyrocopter", 600, 600, 90)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    g = strike(table(g1, foe, width=1200, height=1200), [])
    from carnage.games.refuelled.engine.state import Status

    foe.status = Status.REMOVED
    g.scenario.check_end_at(g, "step")
    assert not g.state.finished


def test_bots_are_told_to_keep_out_of_the_rocket_turrets_reach() -> None:
    g1 = aircraft("g1", "gyrocopter", 100, 100, 90)
    foe = aircraft("foe", "gyrocopter", 1100, 1100, player=1)
    st = table(g1, foe, width=1200, height=1200)
    t = turret_obstacle(ROCKET_TURRET, 1, (600.0, 600.0))
    st.obstacles[t.id] = t
    g = strike(st, [])
    sc = g.scenario
    assert isinstance(sc, DesertStrike)
    assert sc.move_penalty(g, g1, Pose(100, 100, 90)) == 0.0
    assert sc.move_penalty(g, g1, Pose(600, 450, 90)) == 480.0  # 6 dice at 80 each


# -- at a real table (companion mode: CP-13, CP-14) ----------------------------------------------
PLAIN = {"skid_dice": 0, "spend_shift": "done", "spend_votes": "done", "airwolf": "no",
         "attack": "stop"}


def fly(g: Game, vid: str, stop: str, **facts: str) -> Any:
    """Activate ``vid`` for a Short Straight, every table fact its default (first option)
    unless named in ``facts``, until the decision of kind ``stop`` (returned)."""
    while (d := g.pending()) is not None and d.kind != stop:
        if d.kind in facts:
            g.apply(facts[d.kind])
        elif d.kind.startswith("table:"):
            g.apply(values(d)[0])
        else:
            g.apply({"activate": vid, "template": "short_straight", **PLAIN}[d.kind])
    return d


def test_at_a_real_table_a_vehicle_the_people_say_touches_a_toxic_cloud_is_distracted() -> None:
    # The cloud lies a metre away on the virtual table; the people say the helicopter touches
    # it as its Attack Step begins: Distracted (p.146), so no target is asked for.
    h = armed(aircraft("h", "helicopter", 300, 200), ("heavy_machine_gun", "front", None))
    foe = aircraft("foe", "gyrocopter", 340, 420, 270, player=1)
    g = strike(table(h, foe, width=1200, height=1200), [], physical=True)
    lay_cloud(g, (900.0, 900.0), 0.0, player=None)
    d = fly(g, "h", "table:in_toxic_cloud")
    assert d is not None and d.page == 146 and d.vehicle == "h" and values(d) == ["no", "yes"]
    g.apply("yes")
    # Touching no obstruction (Airborne, nothing asked): the cloud alone distracts it.
    assert ev(g, "distracted") == [{"vehicle": "h", "touching": []}]
    d = g.pending()
    assert d is not None and d.vehicle == "foe"  # h's activation is over: no target asked
    assert not [e for e in g.log if e.kind == "decision"
                and str(e.data["decision"]).startswith("table:in_reach")]


def test_at_a_real_table_a_vehicle_the_people_say_clear_of_clouds_may_shoot() -> None:
    # Over the cloud on the virtual table; the people say it touches none: it looks for
    # targets (the table asks which are in reach).
    h = armed(aircraft("h", "helicopter", 900, 760), ("heavy_machine_gun", "front", None))
    foe = aircraft("foe", "gyrocopter", 100, 1100, 270, player=1)
    g = strike(table(h, foe, width=1200, height=1200), [], physical=True)
    lay_cloud(g, (900.0, 900.0), 0.0, player=None)
    fly(g, "h", "table:in_toxic_cloud")
    g.apply("no")
    d = fly(g, "h", "table:in_reach")
    assert d is not None and d.weapon == "handgun" and not ev(g, "distracted")


def test_at_a_real_table_flags_the_people_say_home_win_at_once() -> None:
    # g1 carries a flag and a flag lies on the table, both far from home on the virtual table.
    # After g1's move the people say it is within Short of its spawn point, and, as the step
    # ends, that the lying flag is within Short of P1's: two flags home, P1 wins (p.147).
    g1 = aircraft("g1", "gyrocopter", 600, 600, 90)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    g = strike(table(g1, foe, width=1200, height=1200), [], physical=True)
    add_token(g, "flag-1", "flag", carrier=g1, source="test", page=0)
    add_token(g, "flag-2", "flag", at=(900.0, 300.0), source="test", page=0)
    d = fly(g, "g1", "table:flag_carrier_home")
    assert d is not None and d.page == 147 and d.vehicle == "g1" and values(d) == ["no", "yes"]
    g.apply("yes")
    assert not g.state.finished  # one flag home so far
    d = fly(g, "g1", "table:flag_home")
    assert d is not None and values(d) == ["none", "0", "1"] and "flag-2" in d.prompt
    g.apply("0")
    assert g.state.finished and g.state.winner == 0 and "2 flags" in g.state.reason


def test_at_a_real_table_flags_the_people_say_away_from_home_do_not_count() -> None:
    # Both flags within Short of P1's spawn point on the virtual table; the people say no.
    g1 = aircraft("g1", "gyrocopter", 140, 140, 45)
    foe = aircraft("foe", "gyrocopter", 1000, 1000, player=1)
    g = strike(table(g1, foe, width=1200, height=1200), [], physical=True)
    add_token(g, "flag-1", "flag", carrier=g1, source="test", page=0)
    add_token(g, "flag-2", "flag", at=(150.0, 60.0), source="test", page=0)
    fly(g, "g1", "table:flag_carrier_home")
    g.apply("no")
    fly(g, "g1", "table:flag_home")
    g.apply("none")
    sc = g.scenario
    assert isinstance(sc, DesertStrike)
    assert not g.state.finished and sc.home_flags(g, 0) == 0
    assert sc.home_flags(g, 0, carried_anywhere=True) == 1
