"""The workshop's pricing between games (Refuelled p.164): scrapping at half rounded down,
perks sold for nothing and kept with their vehicle, new vehicles with no perks or career, the
sponsor's limits, at most 8 vehicles."""

from __future__ import annotations

from typing import Any

from carnage.team import parse_team
from carnage.team.model import TeamSpec
from carnage.team.workshop import price_change


def team(*vehicles: dict[str, Any], sponsor: str | None = "miyazaki") -> TeamSpec:
    data: dict[str, Any] = {"name": "Crew", "cans": 50, "vehicles": list(vehicles)}
    if sponsor is not None:
        data["sponsor"] = sponsor
    return parse_team(data)


def car(name: str = "Red", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": "car", **extra}


HMG = {"id": "heavy_machine_gun", "facing": "front"}  # 3 cans (p.67)
MG = {"id": "machine_gun", "facing": "front"}  # 2 cans


def lines(bill: Any) -> list[tuple[str, str, str, int]]:
    return sorted((x.vehicle, x.item, x.action, x.cans) for x in bill.lines)


def test_no_change_costs_nothing() -> None:
    t = team(car(weapons=[HMG]))
    bill = price_change(t, t, 0)
    assert (bill.cost, bill.refund, bill.net, bill.valid, bill.lines) == (0, 0, 0, True, ())


def test_buying_a_weapon_and_an_upgrade() -> None:
    old = team(car())
    new = team(car(weapons=[HMG], upgrades=[{"id": "ram", "facing": "front"}]))
    bill = price_change(old, new, 7)
    assert (bill.cost, bill.refund, bill.net, bill.stash_after) == (7, 0, 7, 0)
    assert bill.valid
    assert lines(bill) == [("Red", "heavy_machine_gun front", "buy", 3),
                           ("Red", "ram front", "buy", 4)]


def test_too_little_in_the_stash() -> None:
    bill = price_change(team(car()), team(car(weapons=[HMG])), 2)
    assert not bill.valid
    assert any("1 short" in p for p in bill.problems)


def test_scrapping_pays_half_rounded_down_per_item() -> None:
    old = team(car(weapons=[HMG, MG]))
    new = team(car())
    bill = price_change(old, new, 0)
    assert lines(bill) == [("Red", "heavy_machine_gun front", "scrap", 1),
                           ("Red", "machine_gun front", "scrap", 1)]
    assert (bill.refund, bill.net, bill.stash_after) == (2, -2, 2)


def test_selling_a_vehicle_scraps_it_and_its_weapons_and_loses_its_perks() -> None:
    old = team(car(weapons=[HMG], perks=["evasive"]), car("Blue"))
    new = team(car("Blue"))
    bill = price_change(old, new, 0)
    assert lines(bill) == [("Red", "car", "scrap", 6), ("Red", "evasive", "scrap", 0),
                           ("Red", "heavy_machine_gun front", "scrap", 1)]
    assert bill.refund == 7 and bill.valid


def test_perks_sell_for_nothing_and_never_move() -> None:
    old = team(car(perks=["evasive"]), car("Blue"))
    new = team(car(), car("Blue", perks=["evasive"]))
    bill = price_change(old, new, 5)
    assert lines(bill) == [("Blue", "evasive", "buy", 5), ("Red", "evasive", "scrap", 0)]
    assert (bill.cost, bill.refund, bill.valid) == (5, 0, True)


def test_a_new_vehicle_pays_for_everything_and_has_no_career() -> None:
    old = team(car())
    new = team(car(), car("Blue", weapons=[MG], perks=["evasive"]))
    bill = price_change(old, new, 19)
    assert bill.cost == 12 + 2 + 5 and bill.valid
    worn = team(car(), car("Blue", career={"dents": 2}))
    bill = price_change(old, worn, 50)
    assert any("newly bought vehicle has no career" in p for p in bill.problems)


def test_a_renamed_vehicle_is_a_sale_and_a_purchase() -> None:
    old = team(car(weapons=[HMG]))
    new = team(car("Crimson", weapons=[HMG]))
    bill = price_change(old, new, 20)
    assert (bill.refund, bill.cost) == (6 + 1, 12 + 3)


def test_careers_stay_with_their_vehicle() -> None:
    old = team(car(career={"dents": 3, "injuries": ["shakes"]}))
    same = team(car(weapons=[MG], career={"dents": 3, "injuries": ["shakes"]}))
    assert price_change(old, same, 2).valid
    healed = team(car(career={"dents": 0}))
    bill = price_change(old, healed, 2)
    assert any("keeps a vehicle's career" in p for p in bill.problems)


def test_the_sponsors_limits_still_apply() -> None:
    # Miyazaki offers Daring and Precision perks only (p.92).
    bill = price_change(team(car()), team(car(perks=["road_warrior"])), 10)
    assert any("Road Warrior is a badass perk" in p for p in bill.problems)
    bill = price_change(team(car()), team(car(), sponsor="rutherford"), 10)
    assert any("sponsor stays miyazaki" in p for p in bill.problems)


def test_the_budget_is_the_stash_not_the_team_cans() -> None:
    old = team(*(car(f"V{i}", weapons=[HMG]) for i in range(3)))  # 45 of a 50-can team
    new = team(*(car(f"V{i}", weapons=[HMG]) for i in range(4)))  # 60: over the 50
    bill = price_change(old, new, 15)
    assert bill.valid and bill.cost == 15


def test_at_most_eight_vehicles() -> None:
    old = team(*(car(f"V{i}") for i in range(8)))
    new = team(*(car(f"V{i}") for i in range(9)))
    bill = price_change(old, new, 100)
    assert any("never have more than 8" in p for p in bill.problems)


def test_type_changes_are_refused() -> None:
    bill = price_change(team(car()), team({"name": "Red", "type": "buggy"}), 10)
    assert any("cannot become a Buggy" in p for p in bill.problems)


def test_badass_free_perk_added_with_its_injury_costs_nothing() -> None:
    old = team(car(career={"dents": 0, "injuries": ["badass"], "free_perks": []}))
    new = team(car(perks=["road_warrior"],
                   career={"dents": 0, "injuries": ["badass"], "free_perks": ["road_warrior"]}))
    bill = price_change(old.model_copy(update={"vehicles": (
        old.vehicles[0].model_copy(update={"career": new.vehicles[0].career}),)}), new, 0)
    assert bill.valid and bill.cost == 0
    assert lines(bill) == [("Red", "road_warrior", "buy", 0)]


def test_bill_json() -> None:
    bill = price_change(team(car()), team(car(weapons=[MG])), 5)
    j = bill.to_json()
    assert j == {"valid": True, "cost": 2, "refund": 0, "net": 2, "stash": 5,
                 "stash_after": 3, "problems": [],
                 "lines": [{"vehicle": "Red", "item": "machine_gun front", "kind": "weapon",
                            "action": "buy", "cans": 2, "page": 164}]}
