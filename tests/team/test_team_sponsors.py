"""Sponsors' team-building rules, restricted vehicles and perk classes (pp.68, 91-104)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from carnage.catalog import load_catalog
from carnage.team import TeamReport
from carnage.team.effects import SPONSOR_RULES
from carnage.team.sponsors import (
    EXTRA_CREWMEMBER,
    GYROCOPTER,
    HELICOPTER,
    NITRO_BOOSTER,
    RAM,
    TANK,
)

CheckFn = Callable[..., TeamReport]


def rules(r: TeamReport) -> list[str]:
    return [e.rule for e in r.errors]


def test_registry_matches_the_catalogue_team_rules() -> None:
    # every team rule named in sponsors.yaml has code, and no code answers to a stray id
    cat = load_catalog()
    for sponsor in cat.sponsors:
        assert set(SPONSOR_RULES.get(sponsor.id, {})) == set(sponsor.team_rules), sponsor.id
    assert set(SPONSOR_RULES) <= set(cat.sponsors.records)


def test_ids_named_by_sponsor_rules_exist() -> None:
    cat = load_catalog()
    for vid in (TANK, HELICOPTER, GYROCOPTER):
        assert vid in cat.vehicles.records
    for uid in (NITRO_BOOSTER, EXTRA_CREWMEMBER, RAM):
        assert uid in cat.upgrades.records


def test_restricted_vehicles_need_a_sponsor_that_allows_them(check: CheckFn) -> None:
    # Tank 40 / Helicopter 30: fine with no sponsor (p.68); refused for Slime
    free = check({"name": "T", "type": "tank"}, {"name": "H", "type": "helicopter"})
    slime = check({"name": "T", "type": "tank"}, {"name": "H", "type": "helicopter"},
                  sponsor="slime")
    assert free.valid and free.total_cans == 70
    assert rules(slime) == ["restricted_vehicle", "restricted_vehicle"]
    assert slime.errors[0].message.endswith("(p.68)")


def test_homebrew_relaxes_restricted_vehicles(check: CheckFn) -> None:
    r = check({"name": "T", "type": "tank"}, sponsor="slime", homebrew=True)
    assert r.valid
    assert [e.rule for e in r.relaxed] == ["restricted_vehicle"]


def test_rutherford_military_hardware(check: CheckFn) -> None:
    # one Tank (40) and one Helicopter (30) = 70: allowed; a second Tank is not
    ok = check({"name": "T", "type": "tank"}, {"name": "H", "type": "helicopter"},
               sponsor="rutherford")
    two = check({"name": "T1", "type": "tank"}, {"name": "T2", "type": "tank"},
                sponsor="rutherford")
    assert ok.valid and ok.total_cans == 70
    assert rules(two) == ["military_hardware"]
    assert two.errors[0].message == (
        "Team: a Rutherford team may field one Tank, not 2 (Military Hardware, p.91)")


def test_rutherford_might_is_right(check: CheckFn) -> None:
    r = check({"name": "Zippy", "type": "bike"}, sponsor="rutherford")
    assert rules(r) == ["might_is_right"]
    assert r.errors[0].message == (
        "Zippy: a Rutherford team may not buy a lightweight vehicle (Bike) "
        "(Might Is Right, p.91)")


def test_rutherford_well_stocked_ammo(check: CheckFn) -> None:
    # Rockets ammo 3 -> 4; Grenades ammo 5 and Nitro (an upgrade) unchanged
    car = {"name": "Arsenal", "type": "car", "weapons": [
        {"id": "rockets", "facing": "front"}, "grenades"], "upgrades": ["nitro"]}
    ruth = check(car, sponsor="rutherford").vehicles[0]
    plain = check(car).vehicles[0]
    assert [w.ammo for w in ruth.weapons] == [4, 5]
    assert [w.ammo for w in plain.weapons] == [3, 5]
    assert ruth.upgrades[0].ammo == 1


def test_miyazaki_elegance(check: CheckFn) -> None:
    # truck and bus have base Handling 2; a performance car (4) is fine
    r = check({"name": "Truck", "type": "truck"}, {"name": "Bus", "type": "bus"},
              {"name": "Perf", "type": "performance_car"}, sponsor="miyazaki")
    assert [(e.vehicle, e.rule) for e in r.errors] == [("Truck", "elegance"),
                                                       ("Bus", "elegance")]


def test_elegance_uses_base_handling_not_tank_tracks(check: CheckFn) -> None:
    # Tank Tracks lift a truck to Handling 3, but the type's base Handling is still 2
    r = check({"name": "Tracked", "type": "truck", "upgrades": ["tank_tracks"]},
              sponsor="miyazaki")
    assert rules(r) == ["elegance"]
    assert r.vehicles[0].handling == 3


def test_idris_kiss_my_asphalt(check: CheckFn) -> None:
    r = check({"name": "Gyro", "type": "gyrocopter"}, sponsor="idris")
    assert rules(r) == ["kiss_my_asphalt"]


def test_mishkin_electrical_access(check: CheckFn) -> None:
    # Death Ray 3, Thumper 4, Nuclear Engine 5: car 12 + 3 + 4 + 5 = 24, slots 1 + 2 = 3 > 2
    # so use a truck: 15 + 3 + 4 + 5 = 27, slots 3 of 3
    truck = {"name": "Lab", "type": "truck",
             "weapons": [{"id": "death_ray", "facing": "front"}, "thumper"],
             "upgrades": ["nuclear_engine"]}
    mish = check(truck, sponsor="mishkin")
    ruth = check(truck, sponsor="rutherford")
    none = check(truck)
    assert mish.valid, [e.message for e in mish.errors]
    assert mish.vehicles[0].cans == 27
    assert rules(ruth) == ["sponsor_only"] * 3
    assert rules(none) == ["sponsor_only"] * 3
    assert ruth.errors[0].message == (
        "Lab: Death Ray is only for Mishkin teams (Thumpermonkey, p.93)")


def test_warden_prison_car_access_and_weight(check: CheckFn) -> None:
    other = check({"name": "Cell", "type": "car", "upgrades": ["prison_car"]}, sponsor="slime")
    heavy = check({"name": "Bus", "type": "bus", "upgrades": ["prison_car"]}, sponsor="warden")
    twice = check({"name": "Cell", "type": "car", "upgrades": ["prison_car"] * 2},
                  sponsor="warden")
    assert rules(other) == ["sponsor_only"]
    assert "(Prison Cars, p.96)" in other.errors[0].message
    assert rules(heavy) == ["forbidden_weight"]
    assert rules(twice) == ["max_per_vehicle"]


def test_highway_patrol_louder_siren(check: CheckFn) -> None:
    # car 12 + Louder Siren 2 = 14
    car = {"name": "Cruiser", "type": "car", "upgrades": ["louder_siren"]}
    hp = check(car, sponsor="highway_patrol")
    assert hp.valid and hp.vehicles[0].cans == 14
    assert rules(check(car, sponsor="verney")) == ["sponsor_only"]


def test_verney_microplate_armour(check: CheckFn) -> None:
    # car 12 + MicroPlate 6 = 18, hull 10 + 2 = 12, 0 slots
    car = {"name": "Frank", "type": "car", "upgrades": ["microplate_armour"]}
    v = check(car, sponsor="verney")
    assert v.valid
    assert (v.vehicles[0].cans, v.vehicles[0].hull, v.vehicles[0].slots_used) == (18, 12, 0)
    assert rules(check(car, sponsor="warden")) == ["sponsor_only"]


def test_rusty_trailer_trash_needs_a_hauler(check: CheckFn) -> None:
    # only a buggy towing a lightweight trailer: no middle/heavyweight trailer, no War Rig
    light = check({"name": "Pup", "type": "buggy", "upgrades": ["trailer_lightweight"]},
                  sponsor="rusty")
    rig = check({"name": "Rig", "type": "war_rig"}, {"name": "Bike", "type": "bike"},
                sponsor="rusty")
    assert rules(light) == ["trailer_trash"]
    assert rig.valid


def test_trailers_are_rustys_only(check: CheckFn) -> None:
    r = check({"name": "Van", "type": "truck", "upgrades": ["trailer_middleweight"]},
              sponsor="idris")
    assert rules(r) == ["sponsor_only"]
    assert "(Trailer Trash, p.102)" in r.errors[0].message


def test_perks_need_a_sponsor(check: CheckFn) -> None:
    # ruling TB-1: no sponsor, no perk classes, so no perks; homebrew allows them
    car = {"name": "Ace", "type": "car", "perks": ["expertise"]}
    strict = check(car)
    home = check(car, homebrew=True)
    assert rules(strict) == ["perk_needs_sponsor"]
    assert home.valid and [e.rule for e in home.relaxed] == ["perk_needs_sponsor"]
    assert home.vehicles[0].cans == 15  # car 12 + Expertise 3


def test_perks_only_from_the_sponsors_classes(check: CheckFn) -> None:
    # Rutherford offers Badass and Military; Expertise is Precision
    r = check({"name": "Ace", "type": "car", "perks": ["expertise", "headshot"]},
              sponsor="rutherford")
    assert rules(r) == ["perk_class"]
    assert r.errors[0].message == (
        "Ace: Expertise is a precision perk; Rutherford offers badass and military (p.104)")


def test_unknown_sponsor_with_suggestion(check: CheckFn) -> None:
    r = check({"name": "C", "type": "car"}, sponsor="rutherfrod")
    assert rules(r) == ["unknown_id"]
    assert "did you mean 'rutherford'" in r.errors[0].message


@pytest.mark.parametrize(("alias", "sid"), [
    ("beverly", "beverly"), ("the warden", "warden"), ("Rusty's Bootleggers", "rustys_bootleggers"),
])
def test_sponsor_aliases(check: CheckFn, alias: str, sid: str) -> None:
    r = check({"name": "Rig", "type": "war_rig"}, sponsor=alias)
    assert r.valid and r.sponsor == sid
