"""Street Race (Refuelled p.62): table, pole roll-off, starting grid, pole passing, victory."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.builders import play, race, values, vehicle

from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import GameState, Status
from carnage.games.refuelled.scenarios import SCENARIOS, Line, StreetRace, crosses, scenario_class
from carnage.games.refuelled.setup import GameSetup, checked_team
from carnage.geometry.shapes import Pose, Rect, penetration
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game
from carnage.team import parse_team

LONG = 180.0


def kinds(g: Game, kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in g.log.of_kind(kind)]


# -- the table --------------------------------------------------------------------------------
def test_registry_and_lines_a_long_straight_wide_three_apart() -> None:
    assert SCENARIOS["street-race"] is StreetRace and scenario_class("street-race") is StreetRace
    with pytest.raises(ValueError, match=r"unknown scenario 'x' \(known: .*street-race"):
        scenario_class("x")
    sc = StreetRace()
    for line in (sc.start_line, sc.finish_line):
        assert line.length == pytest.approx(LONG)
        assert all(0 < x < sc.width and 0 < y < sc.height for x, y in (line.a, line.b))
    gap = abs(sc.finish_line.centre[1] - sc.start_line.centre[1])
    assert gap >= 3 * LONG
    assert sc.finish_line.normal == (0.0, 1.0)  # crossed driving away from the start


def test_terrain_lies_between_the_lines_and_clear_of_them() -> None:
    sc = StreetRace()
    st = GameState(sc.width, sc.height, 2)
    sc.lay_out(st)
    obs = list(st.obstacles.values())
    assert len(obs) >= 3 and any(o.destructible for o in obs)
    lo, hi = sc.start_line.centre[1], sc.finish_line.centre[1]
    for o in obs:
        poly = o.polygon()
        assert all(lo < y < hi for _, y in poly)
        assert not sc.start_line.touches(poly) and not sc.finish_line.touches(poly)
    for i, a in enumerate(obs):
        for b in obs[i + 1:]:
            assert penetration(a.polygon(), b.polygon()) < 0


def test_default_teams_are_a_car_and_a_buggy_with_front_machine_guns() -> None:
    teams = StreetRace().default_teams(2)
    assert len(teams) == 2 and teams[0].name != teams[1].name
    for p, spec in enumerate(teams):
        report = checked_team(spec, f"player {p + 1}")
        assert sorted(v.type for v in report.vehicles) == ["buggy", "car"]
        for v in report.vehicles:
            assert [(w.id, str(w.facing)) for w in v.weapons] == [("machine_gun", "front")]


def test_games_built_from_the_cached_default_teams_share_nothing_mutable() -> None:
    # The default teams are parsed once (frozen team files, shared like their reports) and
    # the grid-room trial remembers a field that fitted: two games built from them each have
    # their own state, vehicles, poses, log, effects and dice, and playing one leaves the
    # other as it was.
    assert StreetRace().default_teams(2) is StreetRace().default_teams(2)
    setup = GameSetup()
    a, b = build_game(setup, 3), build_game(setup, 3)
    assert a.state is not b.state and a.log is not b.log and a.effects is not b.effects
    assert a.dice is not b.dice and a.choices is not b.choices
    assert a.state.scenario is not b.state.scenario and a.state.counts is not b.state.counts
    assert set(a.state.vehicles) == set(b.state.vehicles)
    for vid, v in a.state.vehicles.items():
        w = b.state.vehicles[vid]
        assert v is not w and v.weapons is not w.weapons and v == w
    before = b.snapshot()
    while (d := a.pending()) is not None and a.state.round < 1:
        if d.options:
            a.apply(d.options[0].value)
        else:
            assert d.domain is not None, "a decision with neither options nor a domain"
            a.apply(d.domain.low)
    assert a.state.scenario.get("deployed") and not b.state.scenario.get("deployed")
    assert b.snapshot() == before


def test_a_remembered_grid_room_trial_still_refuses_a_field_that_does_not_fit() -> None:
    # The trial remembers only fields that fitted: after a field of four fitted, a bigger one
    # on the same table is tried afresh and refused.
    from carnage.games.refuelled.setup import SetupError

    build_game(GameSetup(), 0)
    bikes = [{"name": f"Bike {i}", "type": "bike"} for i in range(20)]
    teams = tuple(parse_team({"name": f"{c} Bikes", "cans": 500, "vehicles": bikes})
                  for c in ("Red", "Blue"))
    for _ in range(2):
        with pytest.raises(SetupError, match="no room on the starting grid"):
            build_game(GameSetup(teams=teams), 0)


# -- pole position and the starting grid -------------------------------------------------------
def test_roll_off_highest_takes_pole_ties_reroll() -> None:
    g = build_game(GameSetup(), dice=ScriptedDice([4, 4, 3, 5]))
    rolls = [e for e in g.log.of_kind("roll") if e.data["why"] == "pole roll-off"]
    assert [(r.data["player"], r.data["dice"]) for r in rolls] == [
        (0, [4]), (1, [4]), (0, [3]), (1, [5])
    ]
    assert all(r.page == 62 for r in rolls)
    assert g.state.pole == 1 and kinds(g, "pole")[0] == {"player": 1, "reason": "roll-off"}

    g3 = build_game(GameSetup(players=3), dice=ScriptedDice([6, 6, 2, 1, 5]))
    assert [r.data["player"] for r in g3.log.of_kind("roll")] == [0, 1, 2, 0, 1]
    assert g3.state.pole == 1


def test_deployment_alternates_from_pole_touching_the_line_not_each_other() -> None:
    g = build_game(GameSetup(), dice=ScriptedDice([2, 5]))
    sc = g.scenario
    assert isinstance(sc, StreetRace)
    deciders = []
    while (d := g.pending()) is not None and d.kind in ("deploy", "grid"):
        deciders.append((d.player, d.kind))
        if d.kind == "grid":
            # Every slot offered touches the line inside the flags and no placed vehicle.
            v = next(x for x in g.state.vehicles.values() if x.name in d.prompt)
            placed = [g.state.vehicles[i].polygon() for i in g.state.scenario.get("deployed", [])]
            for o in d.options:
                x = sc.start_line.centre[0] + float(str(o.value))
                assert abs(x - sc.start_line.centre[0]) <= LONG / 2
                body = Rect(Pose(x, sc.start_line.centre[1] - v.length / 2, 90), v.length,
                            v.width).polygon()
                assert all(penetration(body, p) < 0 for p in placed)
        g.apply(d.options[0].value)  # leftmost: four cars fit between the flags
    deploys = kinds(g, "deploy")
    assert [e["player"] for e in deploys] == [1, 0, 1, 0]  # pole (player 2) places first
    assert [p for p, k in deciders if k == "grid"] == [1, 0, 1, 0]
    assert len({e["vehicle"] for e in deploys}) == 4
    vs = list(g.state.vehicles.values())
    for v in vs:
        front = v.rect().front_centre()
        assert front[1] == pytest.approx(sc.start_line.centre[1])  # front edge on the line
        assert v.pose.heading == pytest.approx(90.0)
    for i, a in enumerate(vs):
        for b in vs[i + 1:]:
            assert penetration(a.polygon(), b.polygon()) < 0
    assert d is not None and d.kind == "activate" and d.player == 1  # pole activates first


def test_a_war_rig_deploys_with_its_trailer_on_the_table() -> None:
    # The start line is 150 mm from the table edge; a War Rig (80 mm cab, 150 mm trailer)
    # with its front edge on the line cannot trail its trailer straight back: it is folded
    # just enough to lie on the table (ruling SR-4), clear of what is already deployed.
    rig = parse_team({"name": "Rig", "cans": 60, "vehicles": [
        {"name": "Rig", "type": "war_rig"}, {"name": "Rig Car", "type": "car"}]})
    g = build_game(GameSetup(teams=(rig, rig)), dice=ScriptedDice([2, 5]))
    while (d := g.pending()) is not None and d.kind in ("deploy", "grid"):
        g.apply(d.options[0].value)
    st = g.state
    rigs = [v for v in st.vehicles.values() if v.trailer is not None]
    assert len(rigs) == 2
    for v in rigs:
        assert v.rect().front_centre()[1] == pytest.approx(150)
        assert v.trailer is not None and 0 < abs(v.trailer.hinge) <= 90
        for _, body in v.bodies():
            assert all(0 <= x <= st.width and 0 <= y <= st.height for x, y in body.polygon())
    bodies = [(v.id, r.polygon()) for v in st.vehicles.values() for _, r in v.bodies()]
    for i, (a, pa) in enumerate(bodies):
        for b, pb in bodies[i + 1:]:
            assert penetration(pa, pb) <= (1e-6 if a == b else 0), (a, b)


def test_a_war_rig_respawned_on_the_grid_folds_its_trailer_onto_the_table() -> None:
    # SR-4 and SP-3: a rig brought back on the starting grid (no wreck left) folds its
    # trailer to fit, as at deployment.
    from carnage.games.refuelled.engine.votes import respawn

    class Respawning(StreetRace):
        def setup(self, game: Game) -> Flow:
            yield from respawn(game, game.state.vehicles["rig"], 0, source="test", page=90)
            game.finish(None, "done", draw=True)

    rig = vehicle("rig", "war_rig", -500, -500, player=0)
    rig.special_rules = ["articulated"]
    rig.status = Status.REMOVED
    sc = Respawning()
    st = GameState(sc.width, sc.height, 2)
    sc.lay_out(st)
    st.vehicles["rig"] = rig
    g = Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice([]))
    d = g.pending()
    assert d is not None and d.kind == "respawn_position"
    g.apply(d.options[0].value)
    assert rig.in_play and rig.rect().front_centre()[1] == pytest.approx(150)
    assert rig.trailer is not None and 0 < abs(rig.trailer.hinge) <= 90
    for _, body in rig.bodies():
        assert all(0 <= x <= st.width and 0 <= y <= st.height for x, y in body.polygon())


def test_grid_slots_drop_touching_places_and_spill_past_the_flags_when_full() -> None:
    sc = StreetRace()
    st = GameState(sc.width, sc.height, 2)
    sc.lay_out(st)
    cars = [vehicle(f"c{i}", "car", 0, 0) for i in range(5)]
    for c in cars:
        st.vehicles[c.id] = c
    first = sc.grid_slots(st, cars[0])
    assert list(first) == [f"{k * 15:+.0f}" for k in range(-5, 6)]
    for c, slot in zip(cars[:3], ("-60", "+0", "+60"), strict=True):
        c.pose = sc.grid_slots(st, c)[slot]
        st.scenario.setdefault("deployed", []).append(c.id)
    # 30 mm wide bodies need centres 45 mm apart: nothing is free between the flags, so the
    # places carry on past them (ruling SR-3), the nearest 105 mm from the centre.
    spill = sc.grid_slots(st, cars[3])
    assert spill and all(abs(float(k)) > LONG / 2 for k in spill)
    assert min(abs(float(k)) for k in spill) == 105
    assert "-105" in spill and "+105" in spill


def test_the_grid_room_trial_takes_the_first_place_of_the_full_search() -> None:
    # ``first=True`` (the set-up's grid-room trial) stops at the first free place: it must
    # be the first of the whole search's, trailer hinge included, also once places spill
    # past the flags, and none where there is none.
    rig = parse_team({"name": "Rig", "cans": 60, "vehicles": [
        {"name": "Rig", "type": "war_rig"}, {"name": "Rig Car", "type": "car"}]})
    g = build_game(GameSetup(teams=(rig, rig)), dice=ScriptedDice([2, 5]))
    sc, st = g.scenario, g.state
    assert isinstance(sc, StreetRace) and not st.scenario.get("deployed")
    racers = list(st.vehicles.values()) + [vehicle(f"c{i}", "car", 0, 0) for i in range(6)]
    for r in racers:
        st.vehicles[r.id] = r
    assert sum(r.trailer is not None for r in racers) == 2
    checked = 0
    for r in racers:
        slots, hinges = sc.grid_places(st, r)
        first, first_hinges = sc.grid_places(st, r, first=True)
        assert list(first.items()) == list(slots.items())[:1]
        assert first_hinges == {k: v for k, v in hinges.items() if k in first}
        if slots:
            r.pose = next(iter(slots.values()))
            st.scenario.setdefault("deployed", []).append(r.id)
            checked += 1
    assert checked >= 5 and any(abs(float(k)) > LONG / 2 for k in first)


def test_remembered_grid_places_are_the_places_worked_out_afresh() -> None:
    # ``grid_places`` remembers its answers by what it reads: every answer, remembered or
    # not, must be the one worked out afresh (``_grid_places``) as racers are placed, a
    # crate moves onto the grid, a racer grows and respawn lists name who to keep clear of;
    # and each caller gets dicts of its own.
    from carnage.games.refuelled.scenarios import street_race

    sc = StreetRace()
    st = GameState(sc.width, sc.height, 2)
    sc.lay_out(st)
    cars = [vehicle(f"c{i}", "car", i % 2, 0) for i in range(5)]
    for c in cars:
        st.vehicles[c.id] = c
    street_race._GRID_PLACES.clear()

    def same(v: Any, placed: list[str] | None = None) -> dict[str, Pose]:
        for first in (False, True):
            fresh = sc._grid_places(st, v, placed, first)
            for _ in range(2):  # worked out, then remembered
                got = sc.grid_places(st, v, placed, first=first)
                assert got == fresh and got[0] is not fresh[0]
                got[0].clear()  # the caller's own: the memory keeps its answer
        return sc.grid_places(st, v, placed)[0]

    first = same(cars[0])
    assert len(street_race._GRID_PLACES) == 2 and len(first) == 11
    for c, slot in zip(cars[:3], ("-60", "+0", "+60"), strict=True):
        c.pose = same(c)[slot]
        st.scenario.setdefault("deployed", []).append(c.id)
    assert same(cars[3]) != first  # the places taken are read
    crate = st.obstacles["crate-1"]
    crate.pose = Pose(sc.start_line.centre[0] - 40.0, sc.start_line.centre[1] - 20.0, 0.0)
    with_crate = same(cars[4], placed=[])
    assert with_crate != same(cars[4], placed=["c0"]) and "-45" not in with_crate
    cars[4].length += 40.0
    assert same(cars[4], placed=[]) != with_crate


# -- pole passing -------------------------------------------------------------------------------
def test_pole_passes_clockwise_after_every_gear_phase() -> None:
    red = vehicle("red", "car", 200, 300, player=0)
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1], max_rounds=1)
    assert g.state.pole == 0
    # Gear phase 1: red (pole) then blue, each a Short Straight (trivial: its free Shift is
    # discarded), no skid dice; nothing in range to shoot.
    for _ in range(2):
        assert [d.kind for d in play(g, "short_straight", 0, "done")] == [
            "template", "skid_dice", "spend_shift"
        ]
    assert g.pending() is None  # gear phases 2-6 have no qualifying vehicle; round cap
    passes = [e for e in g.log.of_kind("pole") if e.data["reason"] == "passed clockwise"]
    assert [e.data["player"] for e in passes] == [1, 0, 1, 0, 1, 0]
    phases = [e.seq for e in g.log.of_kind("gear_phase")]
    assert len(phases) == 6 and all(p.seq > ph for p, ph in zip(passes, phases, strict=True))
    acts = kinds(g, "activation")
    assert [a["vehicle"] for a in acts] == ["red", "blue"]


# -- victory -----------------------------------------------------------------------------------
def test_first_vehicle_across_the_finish_line_wins_at_once() -> None:
    red = vehicle("red", "car", 450, 920, player=0)  # nose 30 mm short of the line
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1])
    play(g, "medium_straight", 0, "done")  # 0 skid dice; discard the free Shift
    out = g.outcome()
    assert out is not None and out.winner == 0 and not out.draw
    assert out.reason == "red crossed the finish line"
    assert kinds(g, "finish_line") == [{"vehicle": "red", "player": 0}]
    ev = g.log.of_kind("finish_line")[0]
    assert ev.source == "street_race" and ev.page == 62
    assert not g.log.of_kind("declare_attack") and g.pending() is None


def test_passing_beside_the_flags_or_crossing_backwards_does_not_win() -> None:
    beside = vehicle("red", "car", 330, 920, player=0)  # outside the flag at x=360
    back = vehicle("blue", "car", 450, 1140, heading=270, player=1)  # beyond, facing home
    g = race(beside, back, dice=[6, 1])
    play(g, "medium_straight", 0, "done")
    assert beside.pose.y > 1050 and not g.state.finished
    _until(g, "template")  # red's attack step, if any; then blue's activation
    assert g.state.active == "blue"
    play(g, "medium_straight", 0, "done")
    assert back.pose.y < 1050  # drove back over the line the wrong way
    assert not g.log.of_kind("finish_line") and not g.state.finished


def _until(g: Game, kind: str) -> None:
    """Answer (stop, else the first option) every decision before the next one of ``kind``."""
    probe = g.pending()
    while probe is not None and probe.kind != kind:
        g.apply("stop" if "stop" in values(probe) else probe.options[0].value)
        probe = g.pending()


def test_reversing_across_the_line_counts_the_way_it_travels() -> None:
    red = vehicle("red", "car", 450, 990, heading=270, player=0)  # rear 10 mm short
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1])
    play(g, "short_straight/reverse", 0, "done")
    assert g.outcome() is not None and g.state.winner == 0


def test_crossing_by_a_forced_move_is_judged_at_the_next_check() -> None:
    red = vehicle("red", "car", 450, 1000, player=0)
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1])
    sc = g.scenario
    red.pose = Pose(450, 1120, 90)  # as a flip's Medium Straight would move it
    sc.check_end(g)
    assert g.state.winner == 0 and g.outcome() is not None


def test_last_player_with_vehicles_in_play_wins() -> None:
    red = vehicle("red", "car", 200, 300, player=0)
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1])
    blue.status = Status.WRECKED
    g.scenario.check_end(g)
    out = g.outcome()
    assert out is not None and out.winner == 0 and "last player" in out.reason


@pytest.mark.parametrize(
    ("poses", "expected"),
    [
        ([Pose(450, 900, 90), Pose(450, 1020, 90)], True),  # nose ends exactly on the line
        ([Pose(450, 900, 90), Pose(450, 1019.9, 90)], False),  # 0.1 mm short
        ([Pose(450, 1020, 90), Pose(450, 1020, 0)], False),  # turning on the spot
        ([Pose(300, 900, 90), Pose(300, 1200, 90)], False),  # beside the flags
        ([Pose(590, 1000, 135), Pose(530, 1060, 135)], True),  # corner clips the flag end
        ([Pose(450, 1200, 270), Pose(450, 900, 270)], False),  # the wrong way
        ([Pose(450, 700, 90), Pose(450, 1400, 90)], True),  # one long jump over it
    ],
)
def test_crossing_geometry(poses: list[Pose], expected: bool) -> None:
    line = Line((360.0, 1050.0), (540.0, 1050.0), (0.0, 1.0))
    assert crosses(line, poses, 60.0, 30.0) is expected
    assert math.isclose(line.heading(), 90.0)


def test_example_of_play_pp58_60_pole_passes_to_red_between_gear_phases() -> None:
    # pp.58-60 through the round flow of a Street Race: Blue wins the roll-off and activates
    # first in Gear Phase 1 (Medium Straight, free Shift to gear 2, two Handguns at Red);
    # Red follows (head-on crash). Pole Position then passes clockwise to Red, so Red moves
    # first in Gear Phase 2 (and wipes out) before Blue.
    haz, spin, slide, shift = 1, 2, 3, 4  # skid faces on a D6 (ruling R-1)
    blue = vehicle("blue", "car", 175, 650, heading=270, player=0)
    red = vehicle("red", "car", 150, 300, heading=90, player=1)
    roll_off, handguns = [6, 1], [3, 6, 6]
    red_first = [shift, 5, slide, 6, 6, 4, 1, 2, 4, 5, 4, 1, 2]
    red_second = [haz, haz, spin, spin, spin, 5]
    g = race(blue, red, dice=roll_off + handguns + red_first + red_second)
    play(g, "medium_straight", 0, "gear_up", "handgun>red", "handgun>red")
    assert (blue.pose.y, blue.gear, blue.hazards, red.damage) == (pytest.approx(470), 2, 1, 1)
    play(g, "medium_straight", 3, "no", "cancel:2", "gear_up", "gear_up", "smash", "smash")
    assert (red.gear, red.hazards, red.damage, blue.damage) == (3, 4, 4, 5)
    assert kinds(g, "pole")[-1] == {"player": 1, "reason": "passed clockwise"}
    # Gear Phase 2: Red first, touching Blue so ignoring it; Push It, gear down, Spin, no
    # shot, wipe out (flip check 5 in gear 2: no flip); Blue turns Red about.
    play(g, "medium_straight", 3, "0,1", "gear_down", 30.0, "stop", 180.0)
    assert (red.gear, red.hazards) == (1, 0)
    assert kinds(g, "flip_check")[0]["flipped"] is False
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("template", 0)  # now Blue's turn
    order = [(e["phase"], e["vehicle"]) for e in kinds(g, "activation")]
    assert order == [(1, "blue"), (1, "red"), (2, "red"), (2, "blue")]
    assert [e["pole"] for e in kinds(g, "gear_phase")] == [0, 1]
