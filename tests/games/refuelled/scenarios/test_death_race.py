"""Death Race (Refuelled pp.124-128): gates, the track generator, the starting grid, Pole
hand-offs, Green Light, weapons off until Gate 1, catch-up votes, gate respawns, the finish,
runners-up, what the table shows, and the bot's goal. Scripted dice and exact poses, through
the real flow."""

from __future__ import annotations

import math
import random
from itertools import pairwise
from typing import Any

import pytest
from tests.builders import drive, ev, play, values, vehicle, wound

from carnage.games.refuelled.engine.damage import suffer_damage
from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.movement import forced_move, pivot_vehicle
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.engine.votes import hold_pole, install_team_game, respawn
from carnage.games.refuelled.scenarios import SCENARIOS, scenario_class
from carnage.games.refuelled.scenarios import race_tracks as rt
from carnage.games.refuelled.scenarios.common.table import check_layout
from carnage.games.refuelled.scenarios.death_race import FINGER, DeathRace
from carnage.games.refuelled.scenarios.gates import (
    LONG_STRAIGHT,
    POST_SIZE,
    Track,
    gate_at,
    passes_along,
    point_segment_gap,
)
from carnage.games.refuelled.setup import GameSetup, SetupError
from carnage.geometry.shapes import Pose, Rect, penetration
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game

# A straight course up the table: the Starting Line at y=200, Gate 1 at y=450, Gate 2 at
# y=700, the Finish Line (Gate 3) at y=950; every gate passed driving up (+y).
STRAIGHT = Track(tuple(gate_at(i, (600.0, 200.0 + 250.0 * i), 90.0) for i in range(4)),
                 loop=False)
# A square loop: the Starting Line (and Finish Line) at the bottom, round anticlockwise.
LOOP = Track((gate_at(0, (600.0, 300.0), 0.0), gate_at(1, (900.0, 600.0), 90.0),
              gate_at(2, (600.0, 900.0), 180.0), gate_at(3, (300.0, 600.0), 270.0)),
             loop=True, laps=2)


class PlacedDeathRace(DeathRace):
    """Death Race on ``track`` with the vehicles already placed: the roll-off as usual, no
    grid (the grid has its own tests)."""

    def setup(self, game: Game) -> Any:
        st = game.state
        st.scenario.setdefault("progress", {v.id: 0 for v in st.vehicles.values()})
        st.pole = self.roll_off(game)
        self.see_all(st)
        yield from ()


def race(*placed: VehicleState, dice: list[int], track: Track = STRAIGHT, players: int = 2,
         progress: dict[str, int] | None = None, max_rounds: int = 40,
         before: Any = None) -> Game:
    sc = PlacedDeathRace()
    st = GameState(sc.width, sc.height, players)
    sc._put_track(st, track, "given")
    for v in placed:
        st.vehicles[v.id] = v
    st.scenario["progress"] = {v.id: 0 for v in placed} | (progress or {})
    g = Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
             options=RuleOptions(max_rounds=max_rounds), autostart=False)
    if before is not None:
        before(g)
    g.start()
    return g


def passed(g: Game) -> list[tuple[str, int]]:
    return [(str(e["vehicle"]), int(e["gate"])) for e in ev(g, "gate_passed")]


def far_car(vid: str = "blue", player: int = 1) -> VehicleState:
    """A car parked out of everyone's way (and out of range)."""
    return vehicle(vid, "car", 1100.0, 1100.0, heading=180.0, player=player)


# -- the scenario and its gates -----------------------------------------------------------------
def test_registered_with_its_metadata() -> None:
    assert SCENARIOS["death-race"] is DeathRace and scenario_class("death-race") is DeathRace
    assert DeathRace.page == 124 and DeathRace.table == "Televised Event"
    assert DeathRace.table_rolls == (1, 2) and DeathRace.min_players == 2
    assert DeathRace.max_players is None and DeathRace.summary


def test_course_order_laps_and_finish() -> None:
    assert STRAIGHT.course == (1, 2, 3) and STRAIGHT.finish.number == 3
    assert LOOP.course == (1, 2, 3, 0, 1, 2, 3, 0) and LOOP.finish.number == 0
    assert LOOP.next_gate(0) is LOOP.gates[1] and LOOP.next_gate(8) is None
    assert LOOP.last_gate(0) is LOOP.start and LOOP.last_gate(4) is LOOP.gates[0]
    assert [LOOP.lap_of(n) for n in (0, 3, 4, 7)] == [1, 1, 2, 2]
    with pytest.raises(ValueError, match="at least 3 gates"):
        Track(STRAIGHT.gates[:2])
    with pytest.raises(ValueError, match="only a looping track"):
        Track(STRAIGHT.gates, loop=False, laps=2)
    with pytest.raises(ValueError, match="race gate 1: needs x, y, heading"):
        Track.from_json({"gates": [{"x": 1, "y": 2, "heading": 0}, {"x": 1}]})
    assert Track.from_json(LOOP.to_json()) == LOOP


def test_gates_are_a_long_straight_wide_between_middleweight_posts() -> None:
    g = race(vehicle("red", "car", 100, 100), far_car(), dice=[6, 1])
    for gate in STRAIGHT.gates:
        assert gate.line.length == pytest.approx(LONG_STRAIGHT)
        a, b = (g.state.obstacles[i] for i in gate.post_ids())
        assert (a.pose.x, a.pose.y) == pytest.approx(gate.line.a)
        assert (b.pose.x, b.pose.y) == pytest.approx(gate.line.b)
        assert a.weight.value == "middleweight" and not a.destructible
        assert a.length == a.width == POST_SIZE


def test_flat_gates_have_no_posts() -> None:
    opts = (("gate_posts", False), ("gates", [{"x": 600, "y": 200 + 250 * i, "heading": 90}
                                              for i in range(4)]), ("loop", False))
    g = build_game(GameSetup(scenario="death-race", scenario_options=opts), 3)
    assert not any("post" in o for o in g.state.obstacles)
    assert g.scenario.track(g.state) == Track(tuple(
        gate_at(i, (600.0, 200.0 + 250.0 * i), 90.0, posts=False) for i in range(4)),
        loop=False)


def test_gates_given_as_options_are_checked() -> None:
    with pytest.raises(SetupError, match="scenario option 'gates': race gate 0"):
        build_game(GameSetup(scenario="death-race",
                             scenario_options=(("gates", ["nope", 1, 2]),)), 1)
    with pytest.raises(SetupError, match="at least 3 gates"):
        build_game(GameSetup(scenario="death-race",
                             scenario_options=(("gates", [{"x": 1, "y": 1, "heading": 0}]),)))
    with pytest.raises(SetupError, match="unknown track shape 'oval'"):
        build_game(GameSetup(scenario="death-race", scenario_options=(("shape", "oval"),)))


# -- the track generator ------------------------------------------------------------------------
@pytest.mark.parametrize("shape", rt.SHAPES)
def test_generated_tracks_follow_the_books_advice(shape: str) -> None:
    for seed in range(25):
        lay = rt.generate(random.Random(seed), 1200, 1200, grid_width=200, grid_depth=180,
                          shape=shape)
        tr = lay.track
        assert lay.shape == shape and tr.loop and len(tr.gates) >= 3
        gates = tr.gates
        for i, a in enumerate(gates):
            assert all(rt.EDGE_MARGIN <= c <= 1200 - rt.EDGE_MARGIN
                       for c in (*a.line.a, *a.line.b))
            for b in gates[i + 1:]:
                assert math.dist(a.line.centre, b.line.centre) >= LONG_STRAIGHT
        order = [0, *tr.course]
        for a, b in pairwise(order):
            assert math.dist(gates[a].line.centre, gates[b].line.centre) <= 3 * LONG_STRAIGHT
        # Terrain on the racing line, never on a gate, and the run to Gate 1 kept clear.
        run = (gates[0].line.centre, gates[1].line.centre)
        for ob in lay.terrain:
            poly = ob.polygon()
            assert all(-penetration(poly, [g.line.a, g.line.b]) >= rt.GATE_CLEARANCE
                       for g in gates)
            assert min(point_segment_gap(p, *run) for p in poly) >= rt.CORRIDOR
        on_line = [ob for ob in lay.terrain if any(
            point_segment_gap((ob.pose.x, ob.pose.y), gates[a].line.centre,
                              gates[b].line.centre) <= 90.0
            for a, b in pairwise(order[1:]))]
        assert len(on_line) >= (len(gates) - 1) // 2


def test_figure_of_eight_legs_cross_and_the_loop_does_not() -> None:
    def crossings(tr: Track) -> int:
        order = [0, *tr.course]
        legs = [(tr.gates[a].line.centre, tr.gates[b].line.centre)
                for a, b in pairwise(order)]
        def cross(p: Any, q: Any) -> bool:
            def side(o: Any, a: Any, b: Any) -> float:
                return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
            return side(q[0], q[1], p[0]) * side(q[0], q[1], p[1]) < 0 and \
                side(p[0], p[1], q[0]) * side(p[0], p[1], q[1]) < 0
        return sum(cross(p, q) for i, p in enumerate(legs) for q in legs[i + 2:])
    for seed in range(5):
        eight = rt.generate(random.Random(seed), 1200, 1200, grid_width=200, grid_depth=180,
                            shape="figure-of-eight").track
        loop = rt.generate(random.Random(seed), 1200, 1200, grid_width=200, grid_depth=180,
                           shape="loop").track
        assert crossings(eight) == 1 and crossings(loop) == 0


def test_the_table_comes_from_the_table_seed() -> None:
    def table(seed: int, table_seed: int | None = None) -> tuple[Any, ...]:
        g = build_game(GameSetup(scenario="death-race", table_seed=table_seed), seed)
        return (g.state.scenario["track"], sorted(
            (o.id, o.pose) for o in g.state.obstacles.values()))
    assert table(1) == table(1) and table(1) != table(2)
    assert table(5, table_seed=9) == table(6, table_seed=9)
    shapes = {build_game(GameSetup(scenario="death-race"), s).state.scenario["shape"]
              for s in range(12)}
    assert shapes == set(rt.SHAPES)


def test_a_table_laid_out_by_hand_gets_gates_around_its_terrain() -> None:
    layout = check_layout({"obstacles": [{"id": "rock-a", "x": 600, "y": 600, "length": 80,
                                          "width": 80}]})
    a = build_game(GameSetup(scenario="death-race", table=layout), 1)
    b = build_game(GameSetup(scenario="death-race", table=layout), 2)
    assert a.state.scenario["track"] == b.state.scenario["track"]  # same layout, same track
    rock = a.state.obstacles["rock-a"].polygon()
    for gate in a.scenario.track(a.state).gates:
        assert penetration(rock, [gate.line.a, gate.line.b]) < -rt.GATE_CLEARANCE
    assert ev(a, "track")[0]["shape"] in rt.SHAPES


# -- the starting grid --------------------------------------------------------------------------
def test_grid_columns_per_player_front_rank_first_in_pole_order() -> None:
    opts = (("gates", [{"x": 600, "y": 300 + 250 * i, "heading": 90} for i in range(4)]),
            ("loop", False))
    g = build_game(GameSetup(scenario="death-race", scenario_options=opts),
                   dice=ScriptedDice([2, 5]))  # player 2 wins the roll-off
    assert g.state.pole == 1
    start = g.scenario.track(g.state).start.line
    d = g.pending()
    assert d is not None and d.kind == "deploy" and d.player == 1
    slots_seen = []
    while (d := g.pending()) is not None and d.kind in ("deploy", "grid"):
        if d.kind == "grid":
            slots_seen.append((d.player, values(d)))
        g.apply(values(d)[0])
    # Two players: two columns; the front rank fills before the second is offered (player
    # 1's places were the only ones left, taken by the engine as forced choices).
    assert slots_seen == [(1, ["r1c1", "r1c2"]), (1, ["r2c1", "r2c2"])]
    assert [e["slot"] for e in ev(g, "deploy")] == ["r1c1", "r1c2", "r2c1", "r2c2"]
    placed = [g.state.vehicles[str(e["vehicle"])] for e in ev(g, "deploy")]
    assert [v.player for v in placed] == [1, 0, 1, 0]
    for v in placed[:2]:  # the front rank touches the Starting Line
        assert start.touches(v.polygon())
        assert v.pose.heading == pytest.approx(90.0)
    for v in placed[2:]:
        assert not start.touches(v.polygon())
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert -penetration(a.polygon(), b.polygon()) >= FINGER - 1e-6
        for o in g.state.obstacles.values():
            assert penetration(a.polygon(), o.polygon()) < 0


def test_six_columns_run_past_the_posts_clear_of_them() -> None:
    opts = (("gates", [{"x": 600, "y": 300 + 250 * i, "heading": 90} for i in range(4)]),
            ("loop", False))
    g = build_game(GameSetup(scenario="death-race", players=6, scenario_options=opts),
                   dice=ScriptedDice([6, 1, 1, 1, 1, 1]))
    cols = g.state.scenario["grid"]["columns"]
    assert len(cols) == 6
    v = g.state.vehicles["p1-red-car"]
    slots = g.scenario.grid_slots(g.state, v)
    assert len(slots) == 6
    posts = [o.polygon() for o in g.state.obstacles.values() if "post" in o.id]
    for pose in slots.values():
        poly = Rect(pose, v.length, v.width).polygon()
        assert all(-penetration(poly, p) >= FINGER - 1e-6 for p in posts)


# -- passing gates ------------------------------------------------------------------------------
def test_green_light_then_gates_in_order_the_right_way() -> None:
    red = vehicle("red", "car", 600, 415, player=0)  # nose 5 mm short of Gate 1
    g = race(red, far_car(), dice=[6, 1, 3])  # roll-off; blue's catch-up roll
    assert g.scenario.progress(g.state, red) == 0  # the Starting Line counts as passed
    play(g, "short_straight", 0, "done")
    assert passed(g) == [("red", 1)]
    e = g.log.of_kind("gate_passed")[0]
    assert e.source == "death_race" and e.page == 127 and e.data["first"] is True


def test_a_gate_out_of_turn_or_the_wrong_way_is_not_passed() -> None:
    ahead = vehicle("red", "car", 600, 665, player=0)  # in front of Gate 2, Gate 1 not passed
    back = vehicle("blue", "car", 600, 485, heading=270, player=1)  # past Gate 1, facing back
    g = race(ahead, back, dice=[6, 1])
    play(g, "short_straight", 0, "done")
    drive(g, attack="stop", template=[], activate=[])
    assert ahead.pose.y > 700 and passes_along(STRAIGHT, 0, [Pose(600, 665, 90)], 60, 30) == []
    g.apply("short_straight")
    drive(g, template=[])
    assert back.pose.y < 450 and passed(g) == []


def test_one_move_may_pass_two_gates_in_order() -> None:
    poses = [Pose(600, 400 + 10 * i, 90) for i in range(36)]  # y 400 -> 750
    assert passes_along(STRAIGHT, 0, poses, 60, 30) == [0, 1]
    assert passes_along(STRAIGHT, 1, poses, 60, 30) == [1]


def test_forced_moves_and_pivots_are_judged_too() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    blue = vehicle("blue", "car", 600, 650, heading=0, player=1)  # across the Gate 2 line
    g = race(red, blue, dice=[1, 6, 3, 3], progress={"blue": 1})  # player 2 has Pole
    assert g.state.pole == 1
    flow = forced_move(g, red, "short_straight", source="test", page=0)
    assert next(flow, None) is None  # nothing to decide: red is not the pole holder
    assert passed(g) == [("red", 1)]
    # Blue turns on the spot over Gate 2's line: turning in place passes nothing (SR-1).
    flow = pivot_vehicle(g, blue, 90.0, "test", 0)
    assert next(flow, None) is None and blue.pose.heading == pytest.approx(90.0)
    g.scenario.check_end(g)
    assert passed(g) == [("red", 1)]
    # Shoved forwards over it (a motion the engine gives only as its ends): judged straight.
    blue.pose = Pose(600, 760, 90)
    g.scenario.check_end(g)
    assert passed(g) == [("red", 1), ("blue", 2)]


def test_time_extended_discards_hazards_after_a_gate() -> None:
    red = vehicle("red", "car", 600, 415, player=0, hazards=3)
    red.perks.append("time_extended")
    g = race(red, far_car(), dice=[6, 1, 3])
    d = drive(g, template=["short_straight"], skid_dice=0)
    assert d is not None and d.kind == "time_extended" and values(d) == [0, 1, 2, 3]
    g.apply(3)
    assert red.hazards == 0 and passed(g) == [("red", 1)]


def test_time_extended_is_not_offered_without_a_gate() -> None:
    red = vehicle("red", "car", 300, 415, player=0, hazards=3)  # beside the gate
    red.perks.append("time_extended")
    g = race(red, far_car(), dice=[6, 1])
    d = drive(g, template=["short_straight"], skid_dice=0)
    assert d is None or d.kind != "time_extended"
    assert red.hazards == 3 and passed(g) == []


# -- weapons inactive until Gate 1 --------------------------------------------------------------
def test_weapons_are_off_until_gate_1() -> None:
    # Red sits beside Gate 1; after its move Blue is 80 mm ahead: in Medium range.
    red = vehicle("red", "car", 300, 380, player=0, weapons=[("machine_gun", "front")])
    blue = vehicle("blue", "car", 300, 640, player=1)
    g = race(red, blue, dice=[6, 1])
    play(g, "short_straight", 0, "done")
    d = g.pending()
    assert d is not None and d.kind == "template" and d.vehicle == "blue"  # no attack step
    assert not ev(g, "declare_attack")


def test_weapons_work_once_past_gate_1_and_after_a_respawn() -> None:
    red = vehicle("red", "car", 300, 380, player=0, weapons=[("machine_gun", "front")])
    blue = vehicle("blue", "car", 300, 640, player=1)
    g = race(red, blue, dice=[6, 1], progress={"red": 1})
    play(g, "short_straight", 0, "done")
    d = g.pending()
    assert d is not None and d.kind == "attack" and any("machine_gun" in str(v)
                                                        for v in values(d))
    assert g.scenario.weapons_on(g.state, red)


def test_smash_attacks_still_happen_before_gate_1() -> None:
    red = vehicle("red", "car", 300, 380, player=0, weapons=[("machine_gun", "front")])
    blue = vehicle("blue", "car", 300, 470, heading=180, player=1)  # in red's path
    g = race(red, blue, dice=[6, 1])
    d = drive(g, template=["short_straight"], skid_dice=0)
    assert d is not None and d.kind == "collision_reaction" and "smash" in values(d)


# -- Pole Position ------------------------------------------------------------------------------
def test_pole_holder_passing_a_gate_hands_pole_to_a_chosen_player() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car("blue", 1), far_car("green", 2), dice=[6, 1, 1, 3, 3], players=3)
    assert g.state.pole == 0
    d = drive(g, template=["short_straight"], skid_dice=0)
    assert d is not None and d.kind == "pass_pole" and d.player == 0 and values(d) == [1, 2]
    g.apply(2)
    assert g.state.pole == 2
    pole = [e for e in ev(g, "pole") if e["reason"] == "passed a gate"]
    assert pole == [{"player": 2, "reason": "passed a gate"}]


def test_pole_never_passes_clockwise_and_a_non_holder_hands_nothing() -> None:
    red = vehicle("red", "car", 100, 100, player=0)
    blue = vehicle("blue", "car", 600, 415, player=1)
    g = race(red, blue, dice=[6, 1, 3], max_rounds=1)
    drive(g, template=["short_straight", "short_straight"], skid_dice=0)
    assert passed(g) == [("blue", 1)] and not ev(g, "pass_pole")
    assert g.state.pole == 0 and [e["reason"] for e in ev(g, "pole")] == ["roll-off"]


def test_the_starting_line_mid_race_hands_pole_to_nobody() -> None:
    red = vehicle("red", "car", 600, 265, heading=0, player=0)  # just short of the start
    red.pose = Pose(535, 300, 0)
    g = race(red, far_car(), dice=[6, 1, 3], track=LOOP, progress={"red": 3})
    drive(g, template=["short_straight"], skid_dice=0)
    assert passed(g) == [("red", 0)] and g.state.pole == 0 and not g.state.finished
    assert g.scenario.progress(g.state, red) == 4  # lap 2 begins


def test_carpe_diem_may_hold_the_hand_off() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car(), dice=[6, 1, 3])
    hold_pole(g, 1)
    drive(g, template=["short_straight"], skid_dice=0)
    # Only player 2 to hand it to (a forced choice), and the hold keeps it where it is.
    assert ev(g, "forced_choice") and ev(g, "pole_held") == [
        {"player": 0, "held_by": 1, "reason": "passed a gate"}]
    assert g.state.pole == 0


def test_team_games_never_hand_pole_to_a_teammate() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car("blue", 1), far_car("green", 2), far_car("gold", 3),
             dice=[6, 1, 1, 1, 3, 3, 3], players=4,
             before=lambda g: install_team_game(g, [[0, 2], [1, 3]]))
    d = drive(g, template=["short_straight"], skid_dice=0)
    assert d is not None and d.kind == "pass_pole" and values(d) == [1, 3]


# -- catch-up votes -----------------------------------------------------------------------------
def test_catch_up_rolls_for_each_other_player_on_a_first_pass() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car("blue", 1), far_car("green", 2), dice=[6, 1, 1, 5, 4], players=3,
             progress={"green": 0})
    drive(g, template=["short_straight"], skid_dice=0, pass_pole=1)
    rolls = [e for e in ev(g, "roll") if e["why"] == "catch-up"]
    assert [(e["player"], e["behind"], e["dice"]) for e in rolls] == [(1, 1, [5]), (2, 1, [4])]
    votes = [e for e in ev(g, "audience_vote") if e.get("reason") == "catch-up"]
    assert [e["player"] for e in votes] == [1]  # 5 + 1 gate behind = 6: a vote; 4 + 1: none
    assert g.state.votes[1] == 1 and g.state.votes[2] == 0


def test_catch_up_counts_gates_behind_the_front_most_vehicle() -> None:
    red = vehicle("red", "car", 600, 665, player=0)  # about to be first through Gate 2
    blue = far_car("blue", 1)
    g = race(red, blue, dice=[6, 1, 4], progress={"red": 1, "blue": 0})
    drive(g, template=["short_straight"], skid_dice=0, pass_pole=1)
    rolls = [e for e in ev(g, "roll") if e["why"] == "catch-up"]
    assert [(e["behind"], e["dice"]) for e in rolls] == [(2, [4])]  # 4 + 2 = 6: a vote
    assert g.state.votes[1] == 1


def test_no_catch_up_for_a_gate_already_passed_by_someone() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car(), dice=[6, 1], progress={"blue": 1})
    g.state.scenario["first"] = {"0": "blue"}
    drive(g, template=["short_straight"], skid_dice=0, pass_pole=1)
    assert passed(g) == [("red", 1)]
    assert not [e for e in ev(g, "roll") if e["why"] == "catch-up"]


# -- respawn ------------------------------------------------------------------------------------
def test_respawn_touches_the_last_gate_passed() -> None:
    red = vehicle("red", "car", 600, 800, player=0)
    g = race(red, far_car(), dice=[6, 1], progress={"red": 2})
    red.status = Status.DISQUALIFIED
    spots = g.scenario.respawn_positions(g, red)
    gate2 = STRAIGHT.gates[2].line
    assert len(spots) >= 20
    for pose in spots.values():
        poly = Rect(pose, red.length, red.width).polygon()
        assert gate2.touches(poly)
        assert all(penetration(poly, o.polygon()) < 0 for o in g.state.obstacles.values())
    headings = {round((p.heading - 90.0) % 360.0) for p in spots.values()}
    assert headings == {0, 45, 90, 135, 180, 225, 270, 315}  # facing any way
    # Through the vote's own flow: the controller picks one; progress is kept.
    flow = respawn(g, red, 0, source="respawn", page=90)
    d = next(flow)
    assert d.kind == "respawn_position" and set(values(d)) == set(spots)
    pick = values(d)[0]
    with pytest.raises(StopIteration):
        flow.send(pick)
    assert red.in_play and red.pose == spots[pick]
    assert g.scenario.progress(g.state, red) == 2 and g.scenario.weapons_on(g.state, red)


def test_a_vehicle_that_passed_no_gate_respawns_at_the_starting_line() -> None:
    red = vehicle("red", "car", 600, 300, player=0)
    g = race(red, far_car(), dice=[6, 1])
    red.status = Status.DISQUALIFIED
    start = STRAIGHT.start.line
    assert all(start.touches(Rect(p, 60, 30).polygon())
               for p in g.scenario.respawn_positions(g, red).values())


# -- the finish ---------------------------------------------------------------------------------
def test_crossing_the_finish_after_every_gate_wins_at_once() -> None:
    red = vehicle("red", "car", 600, 915, player=0)
    g = race(red, far_car(), dice=[6, 1], progress={"red": 2})
    drive(g, template=["short_straight"], skid_dice=0)
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.reason == "red crossed the finish line"
    assert ev(g, "finish_line") == [{"vehicle": "red", "player": 0}]
    assert g.state.scenario["places"] == [0, 1]


def test_a_wreck_skidding_over_the_finish_line_neither_passes_it_nor_wins() -> None:
    # Red, one Hull Point left, 35 mm short of the Finish Line with every gate passed, is
    # wrecked: its skid to a halt (a Short Straight, p.43) carries it over the line, but a
    # wreck is no longer racing (DTH-6; SC-44). Its explosion check rolls a 1.
    red = wound(vehicle("red", "car", 600, 915, player=0), 1)
    g = race(red, far_car(), dice=[6, 1, 1], progress={"red": 2})
    flow = suffer_damage(g, red, 1, source="test", page=43)
    assert next(flow, None) is None
    assert len(ev(g, "forced_move", vehicle="red", source="skid_to_a_halt")) == 1
    assert red.status is Status.WRECKED and red.pose.y > 950 + red.length / 2
    assert passed(g) == [] and not ev(g, "finish_line") and not g.state.finished
    assert g.scenario.progress(g.state, red) == 2


def test_a_wreck_skidding_through_a_gate_does_not_pass_it() -> None:
    red = wound(vehicle("red", "car", 600, 415, player=0), 1)
    g = race(red, far_car(), dice=[6, 1, 1])
    flow = suffer_damage(g, red, 1, source="test", page=43)
    assert next(flow, None) is None
    assert red.status is Status.WRECKED and red.pose.y > 450
    assert passed(g) == [] and not ev(g, "catch_up")


def test_the_finish_line_needs_every_earlier_gate() -> None:
    red = vehicle("red", "car", 600, 915, player=0)
    g = race(red, far_car(), dice=[6, 1], progress={"red": 1})  # Gate 2 missed
    drive(g, template=["short_straight"], skid_dice=0)
    assert not ev(g, "finish_line") and not g.state.finished


def test_a_helicopter_over_the_finish_does_not_win() -> None:
    heli = vehicle("heli", "helicopter", 600, 905, player=0)
    g = race(heli, far_car(), dice=[6, 1, 3], progress={"heli": 2})
    drive(g, template=["short_straight"], skid_dice=0)
    assert passed(g) == [("heli", 3)] and ev(g, "finish_line")
    assert not g.state.finished


def test_laps_finish_only_on_the_last_lap() -> None:
    red = vehicle("red", "car", 535, 300, heading=0, player=0)
    g = race(red, far_car(), dice=[6, 1], track=LOOP, progress={"red": 7})
    drive(g, template=["short_straight"], skid_dice=0)
    assert g.outcome() is not None and g.state.winner == 0


def test_last_player_standing_wins_only_at_the_end_of_a_gear_phase() -> None:
    red = vehicle("red", "car", 100, 100, player=0)
    blue = vehicle("blue", "car", 1100, 100, player=1, heading=0)
    g = race(red, blue, dice=[6, 1])
    blue.status = Status.WRECKED  # as Gear Phase 1 begins
    g.scenario.check_end(g)
    assert not g.state.finished  # not mid-phase: red still has its move
    play(g, "short_straight", 0, "done")
    out = g.outcome()
    assert out is not None and out.winner == 0 and "last player" in out.reason
    over = g.log.of_kind("game_over")[0].seq
    assert [e.data["phase"] for e in g.log.of_kind("gear_phase")] == [1]
    assert g.log.of_kind("move")[-1].seq < over


def test_nobody_left_is_no_result_yet() -> None:
    red = vehicle("red", "car", 100, 100, player=0)
    blue = vehicle("blue", "car", 1100, 100, player=1, heading=0)
    g = race(red, blue, dice=[6, 1])
    red.status = blue.status = Status.DISQUALIFIED
    g.scenario.last_standing(g)
    assert not g.state.finished


def test_runners_up_nearest_the_finish_among_those_with_every_gate() -> None:
    red = vehicle("red", "car", 600, 915, player=0)
    blue = vehicle("blue", "car", 600, 860, player=1)  # on its last leg, 90 mm off
    green = vehicle("green", "car", 600, 930, player=2)  # nearer, but Gate 2 missed
    gold = vehicle("gold", "car", 400, 800, player=3)  # on its last leg, further off
    g = race(red, blue, green, gold, dice=[6, 1, 1, 1], players=4,
             progress={"red": 2, "blue": 2, "green": 1, "gold": 2})
    drive(g, template=["short_straight"], skid_dice=0)
    assert g.state.winner == 0
    assert g.state.scenario["vehicle_places"] == ["red", "blue", "gold", "green"]
    assert g.state.scenario["places"] == [0, 1, 3, 2]
    rows = {r.key: r for r in g.scenario.report(g)}
    assert rows["places"].text == "1. Red, 2. Blue, 3. Yellow, 4. Green"  # seats by colour
    board = g.scenario.scoreboard(g)
    assert board is not None and board.title == "Gates passed"
    ranked = board.to_json({0: "Reds", 1: "Blues", 2: "Greens", 3: "Golds"}, winner=0)["rows"]
    assert [r["name"] for r in ranked] == ["Reds", "Blues", "Golds", "Greens"]  # the places
    assert ranked[0]["leading"] and not any(r["leading"] for r in ranked[1:])
    assert [r["score"] for r in ranked] == ["finished", "2 of 3 gates", "2 of 3 gates",
                                            "1 of 3 gates"]


# -- what the table shows, and the bot's goal ---------------------------------------------------
def test_drawables_and_report() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car(), dice=[6, 1], track=LOOP)
    marks = g.scenario.drawables(g)
    assert [(m.kind, m.number, m.label) for m in marks] == [
        ("gate", 0, "START / FINISH"), ("gate", 1, "GATE 1"), ("gate", 2, "GATE 2"),
        ("gate", 3, "GATE 3")]
    assert marks[1].direction == pytest.approx((0.0, 1.0))
    rows = {r.key: r for r in g.scenario.report(g)}
    assert rows["finish_crossed"].text == "nobody yet"
    assert rows["next_gate:red"].text == "next gate 1, lap 1 of 2"
    assert rows["next_gate:red"].value == 1


def test_goal_is_the_next_gate_and_comes_round_from_the_wrong_side() -> None:
    red = vehicle("red", "car", 600, 300, player=0)
    g = race(red, far_car(), dice=[6, 1])
    sc = g.scenario
    goal = sc.goal(g.state, red)
    assert goal is not None and goal.centre == pytest.approx((600.0, 450.0))
    assert goal.normal == pytest.approx((0.0, 1.0)) and goal.length < LONG_STRAIGHT - POST_SIZE
    g.state.scenario["progress"]["red"] = 1
    assert sc.goal(g.state, red).centre == pytest.approx((600.0, 700.0))
    red.pose = Pose(600, 760, 270)  # beyond Gate 2 without passing it
    assert sc.goal(g.state, red).centre == pytest.approx((600.0, 700.0 - LONG_STRAIGHT))


def test_the_active_vehicle_is_judged_in_its_own_activation() -> None:
    red = vehicle("red", "car", 600, 415, player=0)
    g = race(red, far_car(), dice=[6, 1, 3])
    drive(g, template=["short_straight"], skid_dice=0, pass_pole=1)
    assert g.state.scenario["seen"]["red"] == red.pose


def test_bot_advice_for_the_race() -> None:
    from carnage.games.refuelled.engine.game import ask

    front = vehicle("red", "car", 600, 430, player=0)
    back = vehicle("red2", "car", 600, 300, player=0)
    blue = far_car()
    g = race(front, back, blue, dice=[6, 1], progress={"blue": 0, "red": 1})
    sc = g.scenario
    # The racer in front activates first; Pole goes to the player furthest behind.
    assert sc.bot_choice(g, ask(0, "activate", "", [("red2", ""), ("red", "")])) == "red"
    green = far_car("green", 2)
    g.state.vehicles["green"] = green
    g.state.scenario["progress"]["green"] = 0
    g.state.scenario["progress"]["blue"] = 2
    assert sc.bot_choice(g, ask(0, "pass_pole", "", [(1, ""), (2, "")])) == 2
    # No faster than gear 3 and few Hazards on a twisty track; evade rather than trade blows.
    skid = ask(0, "skid_dice", "", [(n, "") for n in range(4)], vehicle="red")
    assert sc.bot_choice(g, skid) == 1
    front.gear = 3
    assert sc.bot_choice(g, skid) == 0
    react = ask(0, "collision_reaction", "", [("smash", ""), ("evade", "")], vehicle="red",
                target="blue")
    assert sc.bot_choice(g, react) == "evade"
    # A grid place nearest the middle of the Starting Line.
    g.state.scenario["grid"] = sc._grid_plan(g.state)
    slots = sc.grid_slots(g.state, blue)
    pick = sc.bot_choice(g, ask(1, "grid", "", [(k, "") for k in slots], vehicle="blue"))
    centre = STRAIGHT.start.line.centre
    assert math.dist((slots[pick].x, slots[pick].y), centre) == min(
        math.dist((p.x, p.y), centre) for p in slots.values())


def test_a_slide_carries_a_vehicle_through_a_gate() -> None:
    # A Short Straight leaves red's nose 10 mm short of Gate 1; a Slide takes it on over.
    still = vehicle("red", "car", 600, 290, player=0, gear=2)
    g = race(still, far_car(), dice=[6, 1])
    play(g, "short_straight", 0)
    assert still.pose.y == pytest.approx(410.0) and passed(g) == []
    red = vehicle("red", "car", 600, 290, player=0, gear=2)
    g = race(red, far_car(), dice=[6, 1, 3, 3])  # the skid die shows a Slide; catch-up 3
    play(g, "short_straight", 1, "no", "left")
    assert red.pose.heading == pytest.approx(180.0) and passed(g) == [("red", 1)]


def test_given_gates_off_the_table_or_without_room_for_the_grid_are_refused() -> None:
    off = (("gates", [{"x": 1190, "y": 600, "heading": 90}, {"x": 600, "y": 600, "heading": 0},
                      {"x": 300, "y": 600, "heading": 0}]),)
    with pytest.raises(SetupError, match="gate 0 lies partly off the 1200 x 1200 mm table"):
        build_game(GameSetup(scenario="death-race", scenario_options=off))
    edge = (("gates", [{"x": 600, "y": 10, "heading": 90}, {"x": 600, "y": 600, "heading": 90},
                       {"x": 600, "y": 900, "heading": 90}]),)
    with pytest.raises(SetupError, match="no room on the starting grid behind the Starting"):
        build_game(GameSetup(scenario="death-race", scenario_options=edge),
                   dice=ScriptedDice([6, 1]))


def test_team_games_last_side_standing_at_the_end_of_a_gear_phase() -> None:
    red = vehicle("red", "car", 100, 100, player=0)
    gold = vehicle("gold", "car", 300, 100, player=2)
    blue = vehicle("blue", "car", 1100, 100, heading=0, player=1)
    green = vehicle("green", "car", 1100, 300, heading=0, player=3)
    g = race(red, blue, gold, green, dice=[6, 1, 1, 1], players=4,
             before=lambda g: install_team_game(g, [[0, 2], [1, 3]]))
    blue.status = green.status = Status.WRECKED
    drive(g, template=["short_straight", "short_straight"], skid_dice=0)
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.reason == "last team with vehicles in play"
