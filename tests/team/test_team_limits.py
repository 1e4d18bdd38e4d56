"""Facings and per-item limits (Refuelled pp.65, 67, 72-78, 83-85, 102-104)."""

from __future__ import annotations

from collections.abc import Callable

from carnage.team import TeamReport

CheckFn = Callable[..., TeamReport]


def rules(r: TeamReport) -> list[str]:
    return [e.rule for e in r.errors]


def test_weapon_needs_a_facing(check: CheckFn) -> None:
    # car 12 + MG 2 = 14, but the MG declares no facing
    r = check({"name": "Blind", "type": "car", "weapons": ["machine_gun"]})
    assert rules(r) == ["facing_required"]
    assert r.errors[0].message == (
        "Blind: Machine Gun needs a facing: front, rear, side or turret (p.65)")
    assert r.vehicles[0].cans == 14


def test_crew_fired_takes_no_facing(check: CheckFn) -> None:
    # car 12 + magnum 3 = 15 either way; only the facing is wrong
    ok = check({"name": "C", "type": "car", "weapons": ["magnum"]})
    bad = check({"name": "C", "type": "car", "weapons": [{"id": "magnum", "facing": "turret"}]})
    assert ok.valid
    assert rules(bad) == ["no_facing"]
    assert "crew-fired" in bad.errors[0].message and "(p.67)" in bad.errors[0].message
    assert bad.vehicles[0].cans == 15  # no turret surcharge on a crew-fired weapon


def test_dropped_weapons_never_face_front(check: CheckFn) -> None:
    # car 12 + mine dropper 1 = 13 rear-mounted is fine; front is not (p.78)
    ok = check({"name": "C", "type": "car", "weapons": [{"id": "mines", "facing": "rear"}]})
    bad = check({"name": "C", "type": "car", "weapons": [{"id": "mines", "facing": "front"}]})
    assert ok.valid and ok.vehicles[0].cans == 13
    assert rules(bad) == ["dropped_not_front"]
    assert bad.errors[0].message == (
        "C: Mine Dropper is a dropped weapon and cannot face front (p.78)")


def test_bfg_front_only(check: CheckFn) -> None:
    # truck 15 + BFG 1 = 16 front; side is refused
    ok = check({"name": "T", "type": "truck", "weapons": [{"id": "bfg", "facing": "front"}]})
    bad = check({"name": "T", "type": "truck", "weapons": [{"id": "bfg", "facing": "side"}]})
    assert ok.valid and ok.vehicles[0].cans == 16
    assert rules(bad) == ["facing"]
    assert "allowed: front" in bad.errors[0].message


def test_one_ram_per_facing(check: CheckFn) -> None:
    # truck 3 slots: ram front + ram front = 2 slots, 15 + 8 = 23: two on one facing
    r = check({"name": "Plough", "type": "truck",
               "upgrades": [{"id": "ram", "facing": "front"}, {"id": "ram", "facing": "front"}]})
    assert rules(r) == ["max_per_facing"]
    assert r.errors[0].message == "Plough: 2 x Ram on the front facing; at most 1 per facing (p.85)"
    assert r.vehicles[0].cans == 23


def test_rams_on_three_facings_and_exploding_ram_alongside(check: CheckFn) -> None:
    # truck 3 slots: ram front/rear/side 3 slots; exploding ram 0 slots
    # cans 15 + 3 x 4 + 3 = 30
    r = check({"name": "Hedgehog", "type": "truck", "upgrades": [
        {"id": "ram", "facing": "front"}, {"id": "ram", "facing": "rear"},
        {"id": "ram", "facing": "side"}, {"id": "exploding_ram", "facing": "front"}]})
    assert r.valid, [e.message for e in r.errors]
    assert r.vehicles[0].cans == 30


def test_ram_needs_a_facing_and_no_turret(check: CheckFn) -> None:
    r = check({"name": "R", "type": "truck",
               "upgrades": ["ram", {"id": "exploding_ram", "facing": "turret"}]})
    assert rules(r) == ["facing_required", "facing"]


def test_ordinary_upgrade_takes_no_facing(check: CheckFn) -> None:
    r = check({"name": "N", "type": "car", "upgrades": [{"id": "nitro", "facing": "front"}]})
    assert rules(r) == ["no_facing"]


def test_turret_mounting_is_a_facing_not_an_upgrade(check: CheckFn) -> None:
    r = check({"name": "T", "type": "car", "upgrades": ["turret_mounting"]})
    assert rules(r) == ["turret_mounting"]
    assert "facing: turret" in r.errors[0].message


def test_extra_crewmember_up_to_base_crew(check: CheckFn) -> None:
    # car crew 2: two extra crew fine (12 + 8 = 20, crew 4); three is one too many
    ok = check({"name": "C", "type": "car", "upgrades": ["extra_crewmember"] * 2})
    bad = check({"name": "C", "type": "car", "upgrades": ["extra_crewmember"] * 3})
    assert ok.valid and (ok.vehicles[0].cans, ok.vehicles[0].crew) == (20, 4)
    assert rules(bad) == ["limit_by_base_crew"]
    assert "starting Crew of 2 (p.84)" in bad.errors[0].message


def test_exploding_ram_not_on_lightweights(check: CheckFn) -> None:
    # buggy 6 + exploding ram 3 = 9, but buggies are lightweight
    r = check({"name": "Big Mama", "type": "buggy",
               "upgrades": [{"id": "exploding_ram", "facing": "front"}]})
    assert [e.message for e in r.errors] == [
        "Big Mama: Exploding Ram cannot be fitted to a lightweight vehicle (p.84)"]
    assert r.vehicles[0].cans == 9


def test_exploding_ram_only_once(check: CheckFn) -> None:
    r = check({"name": "Boom", "type": "car", "upgrades": [
        {"id": "exploding_ram", "facing": "front"}, {"id": "exploding_ram", "facing": "rear"}]})
    assert rules(r) == ["max_per_vehicle"]
    assert r.errors[0].message == (
        "Boom: Exploding Ram may be bought only once per vehicle (has 2) (p.84)")


def test_tank_tracks_once_and_not_on_tank_or_flyers(check: CheckFn) -> None:
    twice = check({"name": "C", "type": "truck", "upgrades": ["tank_tracks", "tank_tracks"]})
    gyro = check({"name": "G", "type": "gyrocopter", "upgrades": ["tank_tracks"]})
    heli = check({"name": "H", "type": "helicopter", "upgrades": ["tank_tracks"]})
    tank = check({"name": "T", "type": "tank", "upgrades": ["tank_tracks"]})
    assert rules(twice) == ["max_per_vehicle"]
    assert "forbidden_vehicle" in rules(gyro)
    assert rules(heli) == ["forbidden_vehicle"]
    assert rules(tank) == ["forbidden_vehicle"]


def test_nuclear_engine_once_and_not_on_lightweights(check: CheckFn) -> None:
    buggy = check({"name": "B", "type": "buggy", "upgrades": ["nuclear_engine"]},
                  sponsor="mishkin")
    twice = check({"name": "C", "type": "car", "upgrades": ["nuclear_engine"] * 2},
                  sponsor="mishkin")
    assert rules(buggy) == ["forbidden_weight"]
    assert rules(twice) == ["max_per_vehicle"]


def test_teleporter_once(check: CheckFn) -> None:
    # car 12 + 2 x 7 = 26; one too many teleporters
    r = check({"name": "Blink", "type": "car", "upgrades": ["teleporter"] * 2},
              sponsor="mishkin")
    assert rules(r) == ["max_per_vehicle"]
    assert r.vehicles[0].cans == 26


def test_armour_plating_stacks(check: CheckFn) -> None:
    # truck 15 + 3 x 4 = 27; hull 12 + 3 x 2 = 18; 3 of 3 slots
    r = check({"name": "Brick", "type": "truck", "upgrades": ["armour_plating"] * 3})
    assert r.valid, [e.message for e in r.errors]
    v = r.vehicles[0]
    assert (v.cans, v.hull, v.slots_used) == (27, 18, 3)


def test_each_perk_once_per_vehicle(check: CheckFn) -> None:
    # Rutherford car 12 + 2 x Dead-Eye 2 = 16; the second copy is refused
    r = check({"name": "Sniper", "type": "car", "perks": ["dead_eye", "dead_eye"]},
              sponsor="rutherford")
    assert rules(r) == ["perk_once"]
    assert r.vehicles[0].cans == 16


def test_one_trailer_per_vehicle(check: CheckFn) -> None:
    r = check({"name": "Double", "type": "heavy_truck",
               "upgrades": ["trailer_middleweight", "trailer_heavyweight"]}, sponsor="rusty")
    assert rules(r) == ["one_trailer"]


def test_trailer_weight_limits(check: CheckFn) -> None:
    # a middleweight trailer needs a middle- or heavyweight tower; a heavy one a heavyweight
    r = check({"name": "Pup", "type": "buggy", "upgrades": ["trailer_middleweight"]},
              {"name": "Pickup", "type": "truck", "upgrades": ["trailer_heavyweight"]},
              sponsor="rusty")
    assert rules(r) == ["forbidden_weight", "forbidden_weight"]


def test_war_rig_cannot_buy_a_trailer(check: CheckFn) -> None:
    r = check({"name": "Rig", "type": "war_rig", "upgrades": ["trailer_lightweight"]},
              sponsor="rusty")
    assert rules(r) == ["trailer_on_war_rig"]
    assert "(p.102)" in r.errors[0].message


def test_cargo_needs_a_trailer_and_only_one(check: CheckFn) -> None:
    none = check({"name": "Van", "type": "truck", "upgrades": ["siphon_pump"]},
                 {"name": "Rig", "type": "war_rig"}, sponsor="rusty")
    two = check({"name": "Rig", "type": "war_rig", "upgrades": ["siphon_pump", "cattle_hammer"]},
                sponsor="rusty")
    assert rules(none) == ["requires"]
    assert rules(two) == ["one_cargo"]


def test_stunt_driver_needs_light_or_middle_with_handling_3(check: CheckFn) -> None:
    # Miyazaki: car (middle, handling 3) may; ambulance (handling 2) and monster truck
    # (heavyweight) may not. Ambulance also breaks Elegance (base Handling 2).
    r = check({"name": "Car", "type": "car", "perks": ["stunt_driver"]},
              {"name": "Amb", "type": "ambulance", "perks": ["stunt_driver"]},
              {"name": "Monster", "type": "monster_truck", "perks": ["stunt_driver"]},
              sponsor="miyazaki")
    assert [(e.vehicle, e.rule) for e in r.errors] == [
        ("Amb", "perk_handling"), ("Amb", "elegance"), ("Monster", "perk_weight")]


def test_weapon_mount_only_on_articulated_vehicles(check: CheckFn) -> None:
    # War Rig 40 + MG on the trailer 2 = 42: fine. A car has no trailer to mount on.
    rig = check({"name": "Rig", "type": "war_rig",
                 "weapons": [{"id": "mg", "facing": "rear", "mount": "trailer"}]})
    car = check({"name": "Car", "type": "car",
                 "weapons": [{"id": "mg", "facing": "rear", "mount": "trailer"}]})
    assert rig.valid and rig.vehicles[0].cans == 42
    assert rules(car) == ["mount"]


def test_articulated_weapons_default_to_the_cab(check: CheckFn) -> None:
    # ruling TB-5: War Rig 40 + MG front with no mount 2 + MG rear on the trailer 2 = 44
    r = check({"name": "Rig", "type": "war_rig", "weapons": [
        {"id": "mg", "facing": "front"}, {"id": "mg", "facing": "rear", "mount": "trailer"}]},
        {"name": "Car", "type": "car", "weapons": [{"id": "mg", "facing": "front"}]})
    assert r.valid and r.vehicles[0].cans == 44
    assert [str(w.mount) for w in r.vehicles[0].weapons] == ["cab", "trailer"]
    assert r.vehicles[1].weapons[0].mount is None  # a car has no cab/trailer split
