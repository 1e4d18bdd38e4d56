"""Costs, build slots and budget (Refuelled pp.63-65, 83-85, 91-103), hand-computed."""

from __future__ import annotations

from collections.abc import Callable

from carnage.team import TeamReport

CheckFn = Callable[..., TeamReport]


def rules(r: TeamReport) -> list[str]:
    return [e.rule for e in r.errors]


MG_FRONT = {"id": "machine_gun", "facing": "front"}


def test_intro_team_costs_22(check: CheckFn) -> None:
    # car 12 + MG 2 = 14; buggy 6 + MG 2 = 8 (Roll Cage built in); team 14 + 8 = 22
    r = check(
        {"name": "Car", "type": "car", "weapons": [MG_FRONT]},
        {"name": "Buggy", "type": "buggy", "weapons": [MG_FRONT]},
        cans=22,
    )
    assert r.valid, [e.message for e in r.errors]
    assert [v.cans for v in r.vehicles] == [14, 8]
    assert r.total_cans == 22
    assert [(v.slots_used, v.slots) for v in r.vehicles] == [(1, 2), (1, 2)]


def test_budget_one_can_over_is_rejected(check: CheckFn) -> None:
    # car 12 + MG 2 = 14 against a budget of 13: over by 1
    r = check({"name": "Car", "type": "car", "weapons": [MG_FRONT]}, cans=13)
    assert rules(r) == ["budget"]
    assert r.errors[0].message == "Team: the team costs 14 cans, over its budget of 13 by 1 (p.64)"


def test_buggy_roll_cage_is_built_in_free_and_slotless(check: CheckFn) -> None:
    # buggy 6, its Roll Cage 0 cans 0 slots; naming it in the file changes nothing: 6
    r = check({"name": "B", "type": "buggy", "upgrades": ["roll_cage"]})
    v = r.vehicles[0]
    assert (v.cans, v.slots_used) == (6, 0)
    assert [(u.id, u.built_in, u.cans) for u in v.upgrades] == [("roll_cage", True, 0)]


def test_second_roll_cage_on_buggy_is_bought(check: CheckFn) -> None:
    # buggy 6 + built-in cage 0 + bought cage 4 = 10; slots 0 + 1 = 1
    r = check({"name": "B", "type": "buggy", "upgrades": ["roll_cage", "roll_cage"]})
    v = r.vehicles[0]
    assert (v.cans, v.slots_used) == (10, 1)


def test_roll_cage_on_a_car_costs_4_and_a_slot(check: CheckFn) -> None:
    # car 12 + roll cage 4 = 16; 1 slot
    v = check({"name": "C", "type": "car", "upgrades": ["roll_cage"]}).vehicles[0]
    assert (v.cans, v.slots_used) == (16, 1)


def test_turret_mounting_costs_three_times_the_weapon(check: CheckFn) -> None:
    # front minigun: car 12 + 5 = 17; turret minigun: car 12 + 5 x 3 = 27 (p.85)
    front = check({"name": "C", "type": "car",
                   "weapons": [{"id": "minigun", "facing": "front"}]}).vehicles[0]
    turret = check({"name": "C", "type": "car",
                    "weapons": [{"id": "minigun", "facing": "turret"}]}).vehicles[0]
    assert (front.cans, turret.cans) == (17, 27)
    assert turret.weapons[0].slots == 1  # the mounting itself takes no slot


def test_tank_turret_rule_frees_the_dearest_turret_mount(check: CheckFn) -> None:
    # tank 40 + 125mm cannon turret 6 (mount free, p.71) + HMG turret 3 x 3 = 9 -> 55
    r = check({"name": "T", "type": "tank", "weapons": [
        {"id": "heavy_machine_gun", "facing": "turret"},
        {"id": "125mm_cannon", "facing": "turret"},
    ]}, sponsor="rutherford")
    v = r.vehicles[0]
    assert [w.cans for w in v.weapons] == [9, 6]
    assert v.cans == 55
    assert r.valid, [e.message for e in r.errors]


def test_team_total_sums_vehicles_weapons_upgrades_perks(check: CheckFn) -> None:
    # Warden (aggression, badass perks):
    # car 12 - 4 (Prison Car) = 8 + HMG 3 + Armour Plating 4 + Road Warrior 2 = 17
    # truck 15 + Extra Crewmember 4 + Battlehammer 4 = 23; team 17 + 23 = 40
    r = check(
        {"name": "Coffin", "type": "car", "weapons": [{"id": "hmg", "facing": "front"}],
         "upgrades": ["prison_car", "armour_plating"], "perks": ["road_warrior"]},
        {"name": "Hauler", "type": "truck", "upgrades": ["extra_crewmember"],
         "perks": ["battlehammer"]},
        sponsor="warden", cans=40,
    )
    assert r.valid, [e.message for e in r.errors]
    assert [v.cans for v in r.vehicles] == [17, 23]
    assert r.total_cans == 40


def test_build_slots_overflow(check: CheckFn) -> None:
    # car has 2 slots: MG 1 + MG 1 + Ram 1 = 3 > 2
    r = check({"name": "Overload", "type": "car",
               "weapons": [MG_FRONT, {"id": "machine_gun", "facing": "rear"}],
               "upgrades": [{"id": "ram", "facing": "front"}]})
    assert rules(r) == ["build_slots"]
    assert r.errors[0].message == (
        "Overload: weapons and upgrades need 3 build slots but the vehicle has 2 (p.65)")


def test_zero_slot_items_fit_anywhere(check: CheckFn) -> None:
    # car 2 slots: MG 1 + HMG 1 = 2; nitro, extra crew, grenades, oil slick take 0
    # cans: 12 + 2 + 3 + 6 + 4 + 1 + 2 = 30
    r = check({"name": "Stuffed", "type": "car",
               "weapons": [MG_FRONT, {"id": "hmg", "facing": "rear"}, "grenades",
                           {"id": "oil_slick_dropper", "facing": "rear"}],
               "upgrades": ["nitro_booster", "extra_crewmember"]})
    assert r.valid, [e.message for e in r.errors]
    v = r.vehicles[0]
    assert (v.slots_used, v.slots, v.cans) == (2, 2, 30)


def test_slime_spiked_fist_rams_take_no_slots(check: CheckFn) -> None:
    # car 2 slots: MG 1 + MG 1 + Ram 0 + Ram 0 = 2 with Slime; 12 + 2 + 2 + 4 + 4 = 24
    car = {"name": "Spiky", "type": "car",
           "weapons": [MG_FRONT, {"id": "machine_gun", "facing": "side"}],
           "upgrades": [{"id": "ram", "facing": "front"}, {"id": "ram", "facing": "rear"}]}
    slime = check(car, sponsor="slime")
    assert slime.valid, [e.message for e in slime.errors]
    assert (slime.vehicles[0].slots_used, slime.vehicles[0].cans) == (2, 24)
    # without Slime the rams take a slot each: 1 + 1 + 1 + 1 = 4 > 2
    plain = check(car)
    assert rules(plain) == ["build_slots"]
    assert plain.vehicles[0].slots_used == 4


def test_bombs_away_dropped_weapons_take_no_slots(check: CheckFn) -> None:
    # gyrocopter has 0 slots; mine dropper 1 slot -> 0 (p.70); 10 + 1 + 1 = 12
    r = check({"name": "Gyro", "type": "gyrocopter",
               "weapons": [{"id": "mine_dropper", "facing": "rear"},
                           {"id": "caltrop_dropper", "facing": "side"}]})
    assert r.valid, [e.message for e in r.errors]
    assert (r.vehicles[0].slots_used, r.vehicles[0].cans) == (0, 12)


def test_bombs_away_does_not_cover_guns(check: CheckFn) -> None:
    # gyrocopter 0 slots; a machine gun still needs 1
    r = check({"name": "Gyro", "type": "gyrocopter", "weapons": [MG_FRONT]})
    assert rules(r) == ["build_slots"]


def test_trailer_stowage_adds_slots(check: CheckFn) -> None:
    # Rusty's: truck 3 slots + middleweight trailer (+1) = 4: four MGs fit
    # cans: truck 15 + trailer 8 + 4 x MG 2 = 31
    r = check({"name": "Hauler", "type": "truck", "upgrades": ["trailer_middleweight"],
               "weapons": [MG_FRONT, {"id": "mg", "facing": "rear"},
                           {"id": "mg", "facing": "side"}, {"id": "mg", "facing": "front"}]},
              sponsor="rustys_bootleggers")
    assert r.valid, [e.message for e in r.errors]
    v = r.vehicles[0]
    assert (v.slots_used, v.slots, v.cans) == (4, 4, 31)


def test_heavy_trailer_adds_three_slots(check: CheckFn) -> None:
    # heavy truck 5 + heavyweight trailer 3 = 8 slots; cans 25 + 12 = 37
    v = check({"name": "Road Train", "type": "heavy_truck",
               "upgrades": ["trailer_heavyweight"]}, sponsor="rusty").vehicles[0]
    assert (v.slots, v.cans) == (8, 37)


def test_idris_n2o_addict_halves_nitro(check: CheckFn) -> None:
    # Idris: car 12 + nitro 6 / 2 = 15; unsponsored: 12 + 6 = 18
    car = {"name": "Zoom", "type": "car", "upgrades": ["nitro"]}
    assert check(car, sponsor="idris").vehicles[0].cans == 15
    assert check(car).vehicles[0].cans == 18


def test_scarlett_crew_quarters_halves_extra_crew(check: CheckFn) -> None:
    # Scarlett: truck 15 + 3 x (4 / 2) = 21, crew 3 + 3 = 6; unsponsored 15 + 12 = 27
    truck = {"name": "Galleon", "type": "truck", "upgrades": ["extra_crewmember"] * 3}
    scar = check(truck, sponsor="scarlett").vehicles[0]
    assert (scar.cans, scar.crew) == (21, 6)
    assert check(truck).vehicles[0].cans == 27


def test_prison_car_rebate_and_floor(check: CheckFn) -> None:
    # car 12 - 4 = 8; ice cream truck 8 - 4 = 4 -> raised to the floor of 5 (p.96)
    car = check({"name": "Cell", "type": "car", "upgrades": ["prison_car"]}, sponsor="warden")
    ice = check({"name": "Cone", "type": "ice_cream_truck", "upgrades": ["prison_car"]},
                sponsor="warden")
    assert (car.vehicles[0].cans, ice.vehicles[0].cans) == (8, 5)
    assert car.valid and ice.valid


def test_rusty_haulage_cargo_on_trailer(check: CheckFn) -> None:
    # Rusty's: truck 15 + middleweight trailer 8 + one cargo 0 (Haulage) = 23
    r = check({"name": "Still", "type": "truck",
               "upgrades": ["trailer_middleweight", "peach_moonshine"]}, sponsor="rustys")
    assert r.valid, [e.message for e in r.errors]
    v = r.vehicles[0]
    assert v.cans == 23
    assert [u.cans for u in v.upgrades] == [8, 0]


def test_handgun_is_free(check: CheckFn) -> None:
    # every vehicle has handguns for free (p.31): car 12 + handgun 0 = 12
    r = check({"name": "C", "type": "car", "weapons": ["handgun"]})
    assert r.valid and r.vehicles[0].cans == 12


def test_homebrew_never_relaxes_arithmetic(check: CheckFn) -> None:
    # car 12 + MG 2 + MG 2 + MG 2 = 18 > 15 budget, and 3 slots > 2: both stay errors
    r = check({"name": "C", "type": "car",
               "weapons": [MG_FRONT, MG_FRONT, {"id": "mg", "facing": "rear"}]},
              cans=15, homebrew=True)
    assert rules(r) == ["build_slots", "budget"]
    assert r.relaxed == ()
