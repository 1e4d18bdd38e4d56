"""Vehicle special rules (Refuelled pp.66-71): exact tables, scripted dice, and every rule run
with and without it so that the test fails if the rule is removed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.builders import (
    activate,
    collide,
    ev,
    move,
    play,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.catalog import TemplateUse, Weight
from carnage.games.refuelled.engine.attack import Sight, legal_shots
from carnage.games.refuelled.engine.damage import suffer_damage
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import template_options, template_use, touching_ids
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.rules.dropped import drops_allowed
from carnage.games.refuelled.setup import vehicle_state
from carnage.geometry.arcs import Arc
from carnage.geometry.shapes import Pose, Rect, distance
from carnage.geometry.surfaces import Surface, SurfaceKind
from carnage.kernel.effects import run_flows
from carnage.team import TeamSpec, check_team
from carnage.team.model import VehicleSpec, WeaponSpec

SHIFT, HAZARD, SPIN, SLIDE = 4, 1, 2, 3  # skid faces on a D6 (ruling R-1)


def ruled(v: VehicleState, *rules: str, on: bool = True) -> VehicleState:
    """``v`` carrying ``rules`` (or none of them with ``on=False``)."""
    v.special_rules = list(rules) if on else []
    return v


def start_of(vid: str) -> Callable[[Game], Flow]:
    """A step: only the ``activation_start`` flows of ``vid``."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active = vid
        yield from run_flows(g, "activation_start", {"game": g, "vehicle": v})

    return step


def pending_kind(g: Game) -> str | None:
    d = g.pending()
    return None if d is None else d.kind


def kinds_asked(g: Game, *choices: Any) -> list[str]:
    return [d.kind for d in play(g, *choices)]


# -- Roll Cage (p.66) -------------------------------------------------------------------------
@pytest.mark.parametrize(("on", "pick", "damage"), [
    (True, "ignore", 0), (True, "take", 2), (False, None, 2),
])
def test_roll_cage_may_ignore_the_flip_hits(on: bool, pick: str | None, damage: int) -> None:
    b = ruled(vehicle("b", "buggy", 600, 600, gear=3, hazards=6), "roll_cage", on=on)
    g = run_step(table(b), wipeouts("b"), dice=[1])  # flip check 1 < gear 3: a Flip
    d = g.pending()
    assert d is not None
    if on:
        assert (d.kind, d.player, values(d)) == ("roll_cage", 0, ["ignore", "take"])
        play(g, pick)
    assert pending_kind(g) == "lose_control"
    play(g, 0.0)
    assert b.damage == damage
    assert ev(g, "flip")[0]["hits"] == damage
    assert len(ev(g, "roll_cage")) == (1 if pick == "ignore" else 0)
    # The flip's forced Medium Straight still happens: 120 mm of template plus its length.
    assert b.pose.y == pytest.approx(780)


def test_buggy_from_the_team_builder_is_asked_once() -> None:
    spec = TeamSpec(name="t", cans=50, vehicles=(VehicleSpec(name="b", type="buggy"),))
    report = check_team(spec)
    assert report.valid
    b = vehicle_state(report.vehicles[0], vid="b", player=0, pose=Pose(600, 600, 90))
    assert "roll_cage" in b.special_rules and "roll_cage" in b.upgrades
    b.gear, b.hazards = 3, 6
    g = run_step(table(b), wipeouts("b"), dice=[2])
    assert kinds_asked(g, "ignore") == ["roll_cage"]
    assert pending_kind(g) == "lose_control"
    assert b.damage == 0


# -- Slip Away (p.66) --------------------------------------------------------------------------
def slip_table(on: bool = True, car_heading: float = 90.0) -> GameState:
    """A car 25 mm south of a performance car's side, about to T-bone it with a Short
    Straight (the performance car across its path, facing east)."""
    perf = ruled(vehicle("perf", "performance_car", 600, 600, heading=0, player=1),
                 "slip_away", on=on)
    car = vehicle("car", "car", 600, 530, heading=car_heading, player=0)
    return table(car, perf)


def test_slip_away_free_activation_after_evading_a_t_bone() -> None:
    g = run_step(slip_table(), activate("car"), dice=[3, 2])  # smash die 3 (miss), evade 2
    asked = kinds_asked(g, "short_straight", 0, "done", "smash", "evade")
    assert asked[-2:] == ["collision_reaction", "collision_reaction"]
    assert ev(g, "collision")[0]["orientation"] == "t_bone"
    assert ev(g, "slip_away") == [{"vehicle": "perf", "other": "car"}]
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("slip_away", 1)
    # The car's activation is over before the performance car moves.
    assert [e.kind for e in g.log][-1] == "activation_end"
    play(g, "activate", "short_straight", 0, "done")
    d = g.pending()
    assert d is not None and d.kind == "attack"  # its own Attack Step: the car is in range
    play(g, "stop")
    assert g.pending() is None
    acts = ev(g, "activation")
    assert [a["vehicle"] for a in acts] == ["car", "perf"]
    assert acts[1]["free"] is True and "free" not in acts[0]
    perf = g.state.vehicles["perf"]
    assert perf.pose.x == pytest.approx(720)
    # A free activation does not count as its activation in this Gear Phase.
    assert perf.activated_phases == set()
    assert g.state.vehicles["car"].activated_phases == {1}


def test_slip_away_may_be_declined_and_needs_the_rule() -> None:
    g = run_step(slip_table(), activate("car"), dice=[3, 2])
    play(g, "short_straight", 0, "done", "smash", "evade", "decline")
    assert g.pending() is None
    assert [a["vehicle"] for a in ev(g, "activation")] == ["car"]
    g = run_step(slip_table(on=False), activate("car"), dice=[3, 2])
    play(g, "short_straight", 0, "done", "smash", "evade")
    assert g.pending() is None and not ev(g, "slip_away")


def test_slip_away_needs_an_evade_against_a_smash() -> None:
    # The performance car smashes back: no free activation.
    g = run_step(slip_table(), activate("car"), dice=[3, 3])
    play(g, "short_straight", 0, "done", "smash", "smash")
    assert g.pending() is None and not ev(g, "slip_away")
    # The car evades and the performance car evades: nobody smashed it.
    g = run_step(slip_table(), activate("car"), dice=[])
    play(g, "short_straight", 0, "done", "evade", "evade")
    assert g.pending() is None and not ev(g, "slip_away")


def test_slip_away_not_from_a_head_on_smash() -> None:
    perf = ruled(vehicle("perf", "performance_car", 600, 600, heading=270, player=1),
                 "slip_away")
    car = vehicle("car", "car", 600, 530, player=0)
    g = run_step(table(car, perf), activate("car"), dice=[6, 6, 6])
    play(g, "short_straight", 0, "done", "smash", "evade")
    assert ev(g, "collision")[0]["orientation"] == "head_on"
    assert g.pending() is None and not ev(g, "slip_away")


# -- Jet Engine (p.70) -------------------------------------------------------------------------
@pytest.mark.parametrize("on", [True, False])
def test_jet_engine_boosts_every_activation_and_may_not_reverse(on: bool) -> None:
    dr = ruled(vehicle("dr", "drag_racer", 600, 200), "jet_engine", on=on)
    g = run_step(table(dr), activate("dr"))
    d = g.pending()
    assert d is not None and d.kind == "template"
    assert any("/reverse" in str(v) for v in values(d)) is not on
    if on:
        # No choice: a forced Long Straight, then Hazards up to 5.
        assert ev(g, "forced_move")[0]["y"] == pytest.approx(440)
        assert dr.hazards == 5
    play(g, "medium_straight", 0, "discard_hazard" if on else "done")
    assert g.pending() is None
    assert dr.pose.y == pytest.approx(620 if on else 380)
    # The trivial Shift discarded a Hazard; the end of the step tops it up again.
    assert dr.hazards == (5 if on else 0)
    assert [h["hazards"] for h in ev(g, "hazards")] == ([5, 4, 5] if on else [])


@pytest.mark.parametrize(("on", "status"), [(True, Status.REMOVED), (False, Status.WRECKED)])
def test_jet_engine_always_explodes_when_wrecked(on: bool, status: Status) -> None:
    dr = ruled(vehicle("dr", "drag_racer", 600, 200), "jet_engine", on=on)

    def step(g: Game) -> Flow:
        yield from suffer_damage(g, dr, 4, source="test", page=43)

    g = run_step(table(dr), step, dice=[1])  # explosion check 1, no ammo
    assert dr.status is status
    assert ev(g, "explosion_check")[0]["explodes"] is on


# -- Full Throttle (p.69) ----------------------------------------------------------------------
@pytest.mark.parametrize("on", [True, False])
def test_full_throttle_long_straight_in_any_gear(on: bool) -> None:
    bike = ruled(vehicle("bike", "bike", 600, 600), "full_throttle", on=on)
    g = run_step(table(bike), lambda g: iter(()))
    for gear in range(1, 7):
        use = template_use(g, bike, "long_straight", gear)
        expected = TemplateUse.PERMITTED if on or gear >= 5 else TemplateUse.NOT_PERMITTED
        assert use is expected
    assert template_use(g, bike, "hairpin", 1) is TemplateUse.PERMITTED  # others unchanged
    offered = [v for v, _ in template_options(g, bike, permitted_only=True)]
    assert ("long_straight" in offered) is on
    assert ("long_straight/reverse" in offered) is on  # permitted in gear 1: may reverse


def test_full_throttle_long_straight_in_gear_one_moves_180_without_skid_trouble() -> None:
    bike = ruled(vehicle("bike", "bike", 600, 300), "full_throttle")
    g = run_step(table(bike), move("bike"))
    play(g, "long_straight", 0)
    assert g.pending() is None
    assert bike.pose.y == pytest.approx(510)
    assert ev(g, "template")[0]["use"] == "P"
    assert not ev(g, "touch_it_use_it") and bike.hazards == 0


# -- Pivot (p.69) ------------------------------------------------------------------------------
def test_pivot_in_gear_one_turns_to_any_facing() -> None:
    bike = ruled(vehicle("bike", "bike", 600, 600), "pivot")
    g = run_step(table(bike), start_of("bike"))
    d = g.pending()
    assert d is not None and d.kind == "pivot" and d.domain is not None
    assert (d.domain.low, d.domain.high) == (-180.0, 180.0)
    play(g, 135.0)
    assert bike.pose.heading == pytest.approx(225.0)
    assert (bike.pose.x, bike.pose.y) == (600, 600)
    assert ev(g, "pivot")[0]["turned"] == pytest.approx(135.0)


@pytest.mark.parametrize(("gear", "on"), [(2, True), (1, False)])
def test_pivot_only_in_gear_one_and_only_with_the_rule(gear: int, on: bool) -> None:
    bike = ruled(vehicle("bike", "bike", 600, 600, gear=gear), "pivot", on=on)
    g = run_step(table(bike), start_of("bike"))
    assert g.pending() is None and not ev(g, "pivot")


def test_pivot_stops_short_of_an_obstruction_without_a_collision() -> None:
    bike = ruled(vehicle("bike", "bike", 600, 600), "pivot")
    # The bike (30 x 20) turning a quarter would reach x = 615; the rock starts there.
    g = run_step(table(bike, obstacles=[rock("r", 635, 600)]), start_of("bike"))
    play(g, -90.0)
    turned = ev(g, "pivot")[0]["turned"]
    assert -90.0 < turned < -20.0
    assert not ev(g, "collision") and not touching_ids(g, bike)


def test_pivot_never_leaves_the_vehicle_touching() -> None:
    bike = ruled(vehicle("bike", "bike", 600, 600), "pivot")
    # Touching the rock's face with its right side: a small turn still touches it.
    g = run_step(table(bike, obstacles=[rock("r", 630, 600)]), start_of("bike"))
    play(g, 10.0)
    assert ev(g, "pivot")[0]["turned"] == 0.0 and bike.pose.heading == 90.0
    assert not ev(g, "collision")


def test_at_a_real_table_a_pivot_is_turned_by_the_people_short_of_anything() -> None:
    # On the virtual table the rock would stop the turn short; at a real table the people
    # turn it by the same rule (p.69, VR-3): nothing measured or asked, no Collision, the turn
    # told in the log as made on the real table (CP-19).
    bike = ruled(vehicle("bike", "bike", 600, 600), "pivot")
    g = run_step(table(bike, obstacles=[rock("r", 635, 600)]), start_of("bike"),
                 options=RuleOptions(physical=True))
    d = g.pending()
    assert d is not None and d.kind == "pivot"
    play(g, -90.0)
    assert ev(g, "pivot") == [{"vehicle": "bike", "requested": -90.0, "touched": []}]
    assert g.pending() is None and not ev(g, "collision") and not ev(g, "table_fact")


# -- Infuriating Jingle (p.70) -----------------------------------------------------------------
def jingle_table(on: bool) -> GameState:
    ice = ruled(vehicle("ice", "ice_cream_truck", 600, 600, heading=0, player=1),
                "infuriating_jingle", on=on)
    car = vehicle("car", "car", 600, 555, player=0, gear=2)
    return table(car, ice)


@pytest.mark.parametrize(("on", "car_hazards"), [(True, 0), (False, 2)])
def test_infuriating_jingle_smashers_gain_no_hazards(on: bool, car_hazards: int) -> None:
    g = run_step(jingle_table(on), collide("car", "ice"), dice=[1, 1, 1])
    play(g, "smash", "smash")
    assert g.pending() is None
    car, ice = g.state.vehicles["car"], g.state.vehicles["ice"]
    assert (car.hazards, ice.hazards) == (car_hazards, 2)
    assert len(ev(g, "infuriating_jingle")) == (1 if on else 0)


def test_infuriating_jingle_not_for_a_vehicle_that_evades() -> None:
    g = run_step(jingle_table(True), collide("car", "ice"), dice=[1])
    play(g, "evade", "smash")
    assert g.state.vehicles["car"].hazards == 2 and not ev(g, "infuriating_jingle")


# -- Airborne (p.70) ---------------------------------------------------------------------------
def test_airborne_flies_over_low_terrain_and_vehicles() -> None:
    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 300), "airborne")
    car = vehicle("car", "car", 600, 480, heading=0, player=1)
    g = run_step(table(gyro, car, obstacles=[rock("r", 600, 400)]), move("gyro"))
    play(g, "medium_straight", 0, "done")
    assert g.pending() is None
    assert gyro.pose.y == pytest.approx(480)  # over the rock, onto the car: it ignores both
    assert not ev(g, "collision") and ev(g, "move")[0]["touched"] == []


def test_airborne_off_collides_with_the_rock() -> None:
    gyro = vehicle("gyro", "gyrocopter", 600, 300)
    g = run_step(table(gyro, obstacles=[rock("r", 600, 400)]), move("gyro"), dice=[1] * 4)
    play(g, "medium_straight", 0, "done", "evade")
    assert ev(g, "collision") and gyro.pose.y == pytest.approx(350, abs=0.05)


def test_airborne_stopped_by_tall_terrain_but_never_collides() -> None:
    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 300), "airborne")
    g = run_step(table(gyro, obstacles=[rock("r", 600, 400, tall=True)]), move("gyro"))
    play(g, "medium_straight", 0, "done")
    assert g.pending() is None
    assert gyro.pose.y == pytest.approx(350, abs=0.05)  # stopped against the tall rock
    assert not ev(g, "collision")
    assert ev(g, "collision_skipped")[0]["reason"] == "cannot be involved in a Collision"


def test_other_vehicles_drive_through_an_aircraft() -> None:
    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 380, heading=0, player=1), "airborne")
    car = vehicle("car", "car", 600, 300)
    g = run_step(table(car, gyro), move("car"))
    play(g, "medium_straight", 0, "done")
    assert g.pending() is None
    assert car.pose.y == pytest.approx(480) and not ev(g, "collision")
    # Touching the aircraft does not distract either of them.
    assert not touching_ids(g, car) and not touching_ids(g, gyro)


@pytest.mark.parametrize(("on", "cover"), [(True, False), (False, True)])
def test_an_aircraft_gives_no_cover(on: bool, cover: bool) -> None:
    shooter = vehicle("s", "car", 600, 300, weapons=[("machine_gun", "front")])
    target = vehicle("t", "car", 600, 500, player=1)
    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 400, heading=0, player=1), "airborne",
                 on=on)
    g = run_step(table(shooter, target, gyro), lambda g: iter(()))
    assert Sight(g, shooter).check(target, Arc.FRONT, "double").cover is cover
    # The aircraft itself is still a target.
    assert any(s.target == "gyro" for s in legal_shots(g, shooter))


def test_an_explosion_still_reaches_an_aircraft() -> None:
    from carnage.games.refuelled.engine.damage import explode

    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 400, player=1), "airborne")
    blast = Rect(Pose(600, 300, 90), 60, 30).polygon()

    def step(g: Game) -> Flow:
        yield from explode(g, "boom", blast, Weight.MIDDLEWEIGHT)

    g = run_step(table(gyro), step, dice=[6, 6, 1, 1, 6])
    assert ev(g, "explosion")[0]["targets"] == ["gyro"]
    assert gyro.damage == 3  # two criticals (4 hits), one evaded by its gear 1 die


def test_an_aircraft_ignores_surfaces_and_dropped_templates() -> None:
    gyro = ruled(vehicle("gyro", "gyrocopter", 600, 300), "airborne")
    st = table(gyro)
    st.surfaces["mud"] = Surface("mud", SurfaceKind.TREACHEROUS,
                                 tuple(Rect(Pose(600, 400, 0), 60, 60).polygon()))
    g = run_step(st, move("gyro"))
    play(g, "medium_straight", 0, "done")
    assert gyro.hazards == 0
    assert g.effects.run_event("ignores_dropped", False,
                               {"game": g, "vehicle": gyro, "template": None}) is True


# -- Airwolf (p.70) ----------------------------------------------------------------------------
def test_airwolf_two_hazards_for_a_pivot_up_to_90() -> None:
    heli = ruled(vehicle("heli", "helicopter", 600, 600), "airwolf")
    g = run_step(table(heli), start_of("heli"))
    d = g.pending()
    assert d is not None and values(d) == ["no", "pivot"]
    play(g, "pivot")
    d = g.pending()
    assert d is not None and d.kind == "airwolf_pivot" and d.domain is not None
    assert (d.domain.low, d.domain.high) == (-90.0, 90.0)
    play(g, -60.0)
    assert heli.hazards == 2 and heli.pose.heading == pytest.approx(30.0)


@pytest.mark.parametrize("on", [True, False])
def test_airwolf_declined_or_absent(on: bool) -> None:
    heli = ruled(vehicle("heli", "helicopter", 600, 600), "airwolf", on=on)
    g = run_step(table(heli), start_of("heli"))
    if on:
        play(g, "no")
    assert g.pending() is None and heli.hazards == 0 and heli.pose.heading == 90.0


# -- Bombs Away (p.70) -------------------------------------------------------------------------
@pytest.mark.parametrize(("on", "many"), [(True, True), (False, False)])
def test_bombs_away_any_number_of_drops(on: bool, many: bool) -> None:
    heli = ruled(vehicle("heli", "helicopter", 600, 600), "bombs_away", on=on)
    g = run_step(table(heli), lambda g: iter(()))
    assert (drops_allowed(g, heli) > 5) is many
    assert drops_allowed(g, heli) >= 1


# -- Uppers and Downers (p.69) -----------------------------------------------------------------
def ambulance_table(rules: tuple[str, ...], car_gear: int = 2, car_hazards: int = 0
                    ) -> GameState:
    amb = vehicle("amb", "ambulance", 600, 555, player=0, gear=1)
    amb.special_rules = list(rules)
    car = vehicle("car", "car", 600, 600, heading=0, player=1, gear=car_gear,
                  hazards=car_hazards)
    return table(amb, car)


def test_uppers_both_change_up_after_both_evade() -> None:
    g = run_step(ambulance_table(("uppers",)), collide("amb", "car"))
    play(g, "evade", "evade")
    amb, car = g.state.vehicles["amb"], g.state.vehicles["car"]
    # +1 Hazard each for both evading, then a gear up each (+1 Hazard each).
    assert (amb.gear, car.gear) == (2, 3)
    assert (amb.hazards, car.hazards) == (2, 2)
    assert [e["vehicle"] for e in ev(g, "uppers")] == ["amb", "car"]


def test_uppers_at_max_gear_only_the_hazard() -> None:
    g = run_step(ambulance_table(("uppers",), car_gear=5), collide("amb", "car"))
    play(g, "evade", "evade")
    car = g.state.vehicles["car"]
    assert (car.gear, car.hazards) == (5, 2)


def test_uppers_needs_both_to_evade_and_the_rule() -> None:
    g = run_step(ambulance_table(("uppers",)), collide("amb", "car"), dice=[1])
    play(g, "smash", "evade")
    assert g.state.vehicles["car"].gear == 2 and not ev(g, "uppers")
    g = run_step(ambulance_table(()), collide("amb", "car"))
    play(g, "evade", "evade")
    assert g.state.vehicles["car"].gear == 2 and g.state.vehicles["car"].hazards == 1


def downers_step(active: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        g.state.active = active
        yield from collide("amb", "car")(g)

    return step


def test_downers_discards_hazards_and_a_crew_until_the_phase_ends() -> None:
    g = run_step(ambulance_table(("downers",), car_hazards=3), downers_step("amb"),
                 dice=[1])
    play(g, "smash", "evade")
    car = g.state.vehicles["car"]
    assert car.hazards == 1  # 3, none gained, 2 discarded
    assert g.stat(car, "crew") == car.crew - 1
    assert ev(g, "downers") == [{"vehicle": "car", "crew": car.crew - 1}]
    g.effects.run_event("gear_phase_end", None, {"game": g, "phase": 1})
    assert g.stat(car, "crew") == car.crew


@pytest.mark.parametrize(("rules", "active", "react", "hazards"), [
    (("downers",), "car", "smash", 5),  # not during the ambulance's activation
    (("downers",), "amb", "evade", 4),  # the ambulance did not smash (both evaded: +1)
    ((), "amb", "smash", 5),  # no rule
])
def test_downers_needs_its_own_activation_and_a_smash(rules: tuple[str, ...], active: str,
                                                      react: str, hazards: int) -> None:
    g = run_step(ambulance_table(rules, car_hazards=3), downers_step(active), dice=[1, 1])
    play(g, react, "evade")
    car = g.state.vehicles["car"]
    assert car.hazards == hazards and g.stat(car, "crew") == car.crew
    assert not ev(g, "downers")


# -- All Terrain (p.71) ------------------------------------------------------------------------
@pytest.mark.parametrize(("on", "hazards"), [(True, 0), (False, 1)])
def test_all_terrain_ignores_rough_ground(on: bool, hazards: int) -> None:
    mt = ruled(vehicle("mt", "monster_truck", 600, 300), "all_terrain", on=on)
    st = table(mt)
    st.surfaces["scrub"] = Surface("scrub", SurfaceKind.ROUGH,
                                   tuple(Rect(Pose(600, 400, 0), 60, 60).polygon()))
    g = run_step(st, move("mt"))
    play(g, "medium_straight", 0, "done")
    assert mt.hazards == hazards


# -- Up and Over (p.71) ------------------------------------------------------------------------
def over_table(on: bool, other: Any) -> GameState:
    mt = ruled(vehicle("mt", "monster_truck", 600, 300), "up_and_over", on=on)
    if isinstance(other, VehicleState):
        return table(mt, other)
    return table(mt, obstacles=[other])


def test_up_and_over_drives_over_a_lighter_obstacle() -> None:
    small = rock("r", 600, 360, 20, 20, weight=Weight.LIGHTWEIGHT)
    g = run_step(over_table(True, small), move("mt"))
    asked = kinds_asked(g, "medium_straight", 0, "done", "evade")
    assert asked[-1] == "collision_reaction"
    d = g.pending()
    assert d is not None and d.kind == "up_and_over" and values(d) == ["over", "no"]
    play(g, "over")
    assert g.pending() is None
    mt = g.state.vehicles["mt"]
    assert mt.pose.y == pytest.approx(500)  # the whole Medium Straight, over the rock
    assert ev(g, "up_and_over") == [{"vehicle": "mt", "other": "r"}]
    assert len(ev(g, "collision")) == 1 and mt.hazards == 2


@pytest.mark.parametrize("on", [True, False])
def test_up_and_over_declined_or_absent_stops_at_the_obstacle(on: bool) -> None:
    small = rock("r", 600, 360, 20, 20, weight=Weight.LIGHTWEIGHT)
    g = run_step(over_table(on, small), move("mt"))
    play(g, "medium_straight", 0, "done", "evade", *(["no"] if on else []))
    assert g.pending() is None
    assert g.state.vehicles["mt"].pose.y == pytest.approx(310, abs=0.05)


@pytest.mark.parametrize("other", ["heavy_rock", "monster"])
def test_no_up_and_over_a_heavyweight_or_another_monster(other: str) -> None:
    if other == "heavy_rock":
        obj: Any = rock("r", 600, 360, 20, 20)
    else:
        obj = ruled(vehicle("mt2", "monster_truck", 600, 380, heading=0, player=1),
                    "up_and_over")
    g = run_step(over_table(True, obj), move("mt"), dice=[1] * 20)
    play(g, "medium_straight", 0, "done", "evade")
    while (d := g.pending()) is not None:
        assert d.kind != "up_and_over"
        play(g, values(d)[-1] if d.options else 0.0)


def test_up_and_over_a_lighter_vehicle_after_smashing_it() -> None:
    car = vehicle("car", "car", 600, 420, heading=0, player=1)
    mt = ruled(vehicle("mt", "monster_truck", 600, 250), "up_and_over")
    g = run_step(table(mt, car), move("mt"), dice=[1] * 9)
    play(g, "medium_straight", 0, "done", "smash", "evade", "over")
    assert g.pending() is None
    # Over the car it would end on top of it: it backs up clear of it (ruling GM-3), so it
    # stops where it first met it, having still resolved one Collision.
    assert ev(g, "up_and_over") == [{"vehicle": "mt", "other": "car"}]
    assert len(ev(g, "collision")) == 1
    assert mt.pose.y == pytest.approx(365, abs=0.05)


# -- Turret (p.71) -----------------------------------------------------------------------------
def test_tank_turret_is_a_team_rule_and_fires_all_round() -> None:
    spec = TeamSpec(name="t", cans=100, vehicles=(VehicleSpec(
        name="tank", type="tank", weapons=(WeaponSpec(id="heavy_machine_gun", facing="turret"),)),))
    report = check_team(spec)
    assert report.valid, [e.message for e in report.errors]
    tank = vehicle_state(report.vehicles[0], vid="tank", player=0, pose=Pose(600, 600, 90))
    behind = vehicle("behind", "car", 600, 450, player=1)
    g = run_step(table(tank, behind), lambda g: iter(()))
    assert "vehicle_rule:turret" not in unplayed_rules(g)
    assert [s.target for s in legal_shots(g, tank) if s.weapon == "heavy_machine_gun"] == [
        "behind"]
    assert rolls(g) == []


# -- Bots and whole games with every vehicle rule ----------------------------------------------
def test_heuristic_bot_declines_airwolf_and_turns_a_jackknife_like_lost_control() -> None:
    from carnage.games.refuelled.ai.bots import HeuristicBot
    from carnage.kernel.decisions import Decision, Interval

    heli = ruled(vehicle("heli", "helicopter", 600, 600), "airwolf")
    g = run_step(table(heli), start_of("heli"))
    d = g.pending()
    assert d is not None and d.kind == "airwolf"
    bot = HeuristicBot()
    assert bot.choose(g, d, random.Random(1)) == "no"
    jk = Decision(1, "jackknife_pivot", "pivot", domain=Interval(-180.0, 180.0), vehicle="heli")
    pick = bot.choose(g, jk, random.Random(1))
    assert pick == bot.best_pivot(g, heli, -180.0, 180.0, False)  # as for a lost control


SPECIAL_TYPES = ("war_rig", "performance_car", "drag_racer", "bike", "ice_cream_truck",
                 "gyrocopter", "ambulance", "monster_truck", "helicopter", "tank", "buggy")


def special_team(i: int, types: tuple[str, str]) -> TeamSpec:
    vs = []
    for k, t in enumerate(types):
        ws: tuple[WeaponSpec, ...] = ()
        if t == "war_rig":
            ws = (WeaponSpec(id="machine_gun", facing="rear", mount="trailer"),)
        elif t != "gyrocopter":  # no build slots
            ws = (WeaponSpec(id="machine_gun", facing="front"),)
        vs.append(VehicleSpec(name=f"v{k}", type=t, weapons=ws))
    return TeamSpec(name=f"t{i}", cans=200, vehicles=tuple(vs))


def test_bots_play_whole_games_with_every_vehicle_rule_and_replay_them() -> None:
    from tests.simulation import invariant_problems

    from carnage.ai import bot_rng, make_bot, play_out
    from carnage.games.refuelled.setup import (
        GameSetup,
        build_game,
        log_text,
        parse_log,
        record_game,
        replay,
    )

    asked: set[str] = set()
    for seed in range(12):
        types = [SPECIAL_TYPES[(seed * 4 + k) % len(SPECIAL_TYPES)] for k in range(4)]
        setup = GameSetup(teams=(special_team(0, (types[0], types[1])),
                                 special_team(1, (types[2], types[3]))), max_rounds=5)
        g = build_game(setup, seed)
        problems: list[str] = []

        def after(game: Game, d: Any, problems: list[str] = problems) -> None:
            asked.add(d.kind)
            if not problems:
                problems.extend(invariant_problems(game))
                for v in game.state.in_play():
                    # Hitched: the trailer meets its cab (corner to corner when folded).
                    t = v.trailer_rect()
                    if t is not None and distance(v.rect().polygon(), t.polygon()) > 1e-6:
                        problems.append(f"{v.id}: trailer unhitched")

        bots = [make_bot("random" if (seed + k) % 2 else "heuristic") for k in range(2)]
        play_out(g, bots, bot_rng(seed), after=after)
        assert g.outcome() is not None
        assert not problems, (seed, problems[:1])
        if seed % 4 == 0:
            again = replay(parse_log(log_text(record_game(g, setup, seed))))
            assert again.identical and again.crash is None
    assert {"tanker_anchor", "airwolf", "pivot"} <= asked

