"""The Legacy build mode of the team builder (GL-007, GL-013, GL-018, GL-046..GL-048,
GL-052, GL-121): exactly two vehicles, no sponsor, no slot total but the single-item limit,
uncapped Crew, electrical items, Turret Mounting at twice the weapon's cost, the
Nano-Cloaking Device; Refuelled teams are unchanged."""

from __future__ import annotations

from typing import Any

from carnage.games.legacy.team import LegacySpec
from carnage.team import TeamSpec, check_team, parse_team


def lteam(*vehicles: dict[str, Any], sponsor: str | None = None) -> TeamSpec:
    raw: dict[str, Any] = {"name": "Legacy", "cans": 20, "vehicles": list(vehicles)}
    if sponsor is not None:
        raw["sponsor"] = sponsor
    return parse_team(raw, "test")


def lv(name: str, vtype: str = "performance_car", **kw: Any) -> dict[str, Any]:
    legacy = kw.pop("legacy", {"rating": 20})
    return {"name": name, "type": vtype, "legacy": legacy, **kw}


def rules(t: TeamSpec) -> list[str]:
    return [e.rule for e in check_team(t).errors]


def test_no_slot_total_but_the_single_item_limit() -> None:
    # GL-013: three machine guns on a Performance Car (2 slots) is fine, a 125mm Cannon
    # (3 slots alone) is not; nor is a budget checked (ruling GL-R4: 20 cans, costs more).
    guns = [{"id": "machine_gun", "facing": "front"}] * 3
    ok = lteam(lv("A", weapons=[*guns, {"id": "rockets", "facing": "front"}]), lv("B"))
    report = check_team(ok)
    assert report.valid, [e.message for e in report.errors]
    assert report.vehicles[0].slots_used == 5 > report.vehicles[0].slots
    assert report.total_cans > 20
    bad = lteam(lv("A", weapons=[{"id": "125mm_cannon", "facing": "front"}]), lv("B"))
    errors = check_team(bad).errors
    assert [e.rule for e in errors] == ["legacy_item_slots"]
    assert "125mm Cannon needs 3 build slots on its own" in errors[0].message
    truck = lteam(lv("A", "truck", weapons=[{"id": "125mm_cannon", "facing": "front"}]), lv("B"))
    assert check_team(truck).valid


def test_the_same_vehicles_in_a_refuelled_team_break_the_slot_rule() -> None:
    guns = [{"id": "machine_gun", "facing": "front"}] * 3
    plain = parse_team({"name": "Plain", "cans": 50, "vehicles": [
        {"name": "A", "type": "performance_car", "weapons": guns}]}, "test")
    assert [e.rule for e in check_team(plain).errors] == ["build_slots"]


def test_exactly_two_legacy_vehicles_and_no_sponsor() -> None:
    assert rules(lteam(lv("A"))) == ["legacy_team_size"]
    assert rules(lteam(lv("A"), lv("B"), lv("C"))) == ["legacy_team_size"]
    assert rules(lteam(lv("A"), lv("B"), sponsor="mishkin")) == ["legacy_no_sponsor"]
    mixed = lteam(lv("A"), {"name": "B", "type": "car"})
    assert rules(mixed) == ["legacy_vehicle"]
    tank = lteam(lv("A"), lv("B", "tank"))
    assert rules(tank) == ["legacy_type"]


def test_perks_of_any_class_electrical_weapons_and_uncapped_crew() -> None:
    # GL-018: no sponsor, perks of any class; GL-046: electrical allowed; GL-047: Crew to any
    # value, and Extra Crewmembers beyond the base Crew (ruling GL-R6).
    a = lv("A", "buggy", perks=["crusher", "headshot", "evasive"],
           weapons=[{"id": "death_ray", "facing": "front"}],
           upgrades=["extra_crewmember"] * 3,
           legacy={"rating": 30, "crew": 4, "hull": 2, "handling": 1, "max_gear": 0})
    report = check_team(lteam(a, lv("B")))
    assert report.valid, [e.message for e in report.errors]
    v = report.vehicles[0]
    assert (v.crew, v.hull, v.handling) == (2 + 3 + 4, 6 + 2, 4 + 1)
    assert rules(lteam(lv("A", perks=["crusher", "crusher"]), lv("B"))) == ["perk_once"]


def test_turret_mounting_costs_twice_the_weapon_on_top_of_it() -> None:
    # GL-052, ruling GL-R11: the mounting costs 2x the Minigun (10), the Minigun itself 5, so
    # 15 in all, the same total as Refuelled's 3x (p.85); the turret facing is its 360 arc.
    t = lteam(lv("A", weapons=[{"id": "minigun", "facing": "turret"}]), lv("B"))
    line = check_team(t).vehicles[0].weapons[0]
    assert (str(line.facing), line.cans) == ("turret", 5 + 10)
    plain = parse_team({"name": "P", "cans": 50, "vehicles": [
        {"name": "A", "type": "performance_car",
         "weapons": [{"id": "minigun", "facing": "turret"}]}]}, "test")
    assert check_team(plain).vehicles[0].weapons[0].cans == 15


def test_the_nano_cloaking_device_is_a_legacy_upgrade() -> None:
    t = lteam(lv("A", upgrades=["nano_cloaking_device"]), lv("B"))
    report = check_team(t)
    assert report.valid and report.vehicles[0].upgrades[0].name == "Nano-Cloaking Device"
    assert report.vehicles[0].upgrades[0].cans == 5
    plain = parse_team({"name": "P", "cans": 50, "vehicles": [
        {"name": "A", "type": "car", "upgrades": ["nano_cloaking_device"]}]}, "test")
    assert [e.rule for e in check_team(plain).errors] == ["unknown_id"]


def test_filled_boxes_and_mutation_traits_reach_the_report() -> None:
    a = lv("A", "car", legacy={"rating": 12, "hull": 1, "filled": 2,
                                "traits": ["heavier", "hazard_tolerance", "heavier"]})
    v = check_team(lteam(a, lv("B"))).vehicles[0]
    assert v.hull == 10 + 1 - 2
    assert v.special_rules.count("legacy_heavier") == 2
    assert "legacy_hazard_tolerance" in v.special_rules


def test_legacy_fields_are_checked_as_the_file_is_read() -> None:
    import pytest

    from carnage.team import TeamFileError

    with pytest.raises(TeamFileError):
        lteam(lv("A", legacy={"rating": -1}), lv("B"))
    assert LegacySpec().rating == 0


def test_a_legacy_record_that_makes_no_sense_is_refused() -> None:
    bad = lv("A", "car", legacy={"rating": 5, "traits": ["wings"], "mutations": ["nope"],
                                 "corroded": 11, "filled": 10})
    assert rules(lteam(bad, lv("B"))) == ["legacy_trait", "legacy_mutation", "legacy_corrosion",
                                          "legacy_filled"]
    ok = lv("A", "car", legacy={"rating": 5, "traits": ["heavier"], "mutations": ["rust_gills"],
                                "corroded": 10, "filled": 9})
    assert check_team(lteam(ok, lv("B"))).valid
    worn = lv("A", "car", career={"dents": 2})
    assert rules(lteam(worn, lv("B"))) == ["legacy_career"]
