"""Derived starting stats after upgrades and perks (pp.83-85, 96, 99, 102-103, 110)."""

from __future__ import annotations

from collections.abc import Callable

from carnage.catalog import Weight
from carnage.team import TeamReport, VehicleReport

CheckFn = Callable[..., TeamReport]


def stats(v: VehicleReport) -> tuple[int, int, int, int]:
    return (v.hull, v.handling, v.max_gear, v.crew)


def test_base_stats_pass_through(check: CheckFn) -> None:
    # Performance Car: hull 8, handling 4, max gear 6, crew 1, middleweight (p.66)
    v = check({"name": "P", "type": "performance_car"}).vehicles[0]
    assert stats(v) == (8, 4, 6, 1)
    assert v.weight is Weight.MIDDLEWEIGHT


def test_tank_tracks_plus_handling_minus_gear(check: CheckFn) -> None:
    # car 10/3/5/2 -> handling 3 + 1 = 4, max gear 5 - 1 = 4; cans 12 + 4 = 16
    v = check({"name": "C", "type": "car", "upgrades": ["tank_tracks"]}).vehicles[0]
    assert stats(v) == (10, 4, 4, 2)
    assert v.cans == 16


def test_nuclear_engine_capped_at_gear_6(check: CheckFn) -> None:
    # car max gear 5 + 2 = 7 -> 6; truck 4 + 2 = 6; cans 12 + 5 = 17, 15 + 5 = 20
    r = check({"name": "C", "type": "car", "upgrades": ["nuclear_engine"]},
              {"name": "T", "type": "truck", "upgrades": ["nuclear_engine"]}, sponsor="mishkin")
    assert [v.max_gear for v in r.vehicles] == [6, 6]
    assert [v.cans for v in r.vehicles] == [17, 20]


def test_nuclear_engine_and_tank_tracks_cap_after_summing(check: CheckFn) -> None:
    # ruling TB-4: car 5 + 2 - 1 = 6 (cap after all changes), not min(5 + 2, 6) - 1 = 5
    v = check({"name": "C", "type": "car", "upgrades": ["nuclear_engine", "tank_tracks"]},
              sponsor="mishkin").vehicles[0]
    assert (v.max_gear, v.handling) == (6, 4)


def test_extra_crewmember_adds_crew(check: CheckFn) -> None:
    # bus crew 8 + 3 = 11; cans 30 + 3 x 4 = 42
    v = check({"name": "Bus", "type": "bus", "upgrades": ["extra_crewmember"] * 3}).vehicles[0]
    assert (v.crew, v.cans) == (11, 42)


def test_prison_car_minus_two_hull(check: CheckFn) -> None:
    # truck hull 12 - 2 = 10, cans 15 - 4 = 11
    v = check({"name": "T", "type": "truck", "upgrades": ["prison_car"]},
              sponsor="warden").vehicles[0]
    assert (v.hull, v.cans) == (10, 11)


def test_prison_car_plus_armour_and_microplate_mix(check: CheckFn) -> None:
    # homebrew lets a Warden car take Verney's MicroPlate: hull 10 - 2 + 2 + 2 = 12
    # cans 12 - 4 + 4 + 6 = 18
    r = check({"name": "Tin", "type": "car",
               "upgrades": ["prison_car", "armour_plating", "microplate_armour"]},
              sponsor="warden", homebrew=True)
    v = r.vehicles[0]
    assert r.valid and (v.hull, v.cans) == (12, 18)
    assert [e.rule for e in r.relaxed] == ["sponsor_only"]


def test_expertise_adds_handling(check: CheckFn) -> None:
    # Miyazaki car handling 3 + 1 = 4; cans 12 + 3 = 15
    v = check({"name": "Ace", "type": "car", "perks": ["expertise"]},
              sponsor="miyazaki").vehicles[0]
    assert (v.handling, v.cans) == (4, 15)


def test_trailer_makes_the_tower_articulated(check: CheckFn) -> None:
    v = check({"name": "Hauler", "type": "truck", "upgrades": ["trailer_middleweight"]},
              sponsor="rusty").vehicles[0]
    assert v.articulated
    assert {"articulated", "ponderous", "piledriver"} <= set(v.special_rules)
    assert v.weight is Weight.MIDDLEWEIGHT  # the trailer does not change the weight class
