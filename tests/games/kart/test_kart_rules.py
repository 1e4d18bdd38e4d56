"""The Kart variant's rules (MK ids of the rules inventory), each with scripted dice and exact
poses through Refuelled's real flow: the Item Attack, collisions, smash weights, wipeouts."""

from __future__ import annotations

import pytest
from tests.builders import (
    BLUE,
    RED,
    armed,
    attack_game,
    collide,
    ev,
    play,
    rock,
    rolls,
    run_step,
    table,
    vehicle,
    wipeouts,
)

from carnage.catalog import Weight
from carnage.games.kart.rules import SOURCE, kart_data, kart_weight_bonus, random_heading
from carnage.games.refuelled.engine.attack import STOP
from carnage.rulesets import KART, REFUELLED, get_ruleset


def kart_rules(g: object) -> list[str]:
    return [str(e["rule"]) for e in ev(g, "kart_rule")]


def test_kart_is_an_overlay_of_refuelled_adding_one_game_rule() -> None:
    assert get_ruleset("kart") is KART and KART.parent == "refuelled"
    assert KART.rules.get("ruleset", "kart") is not None
    assert REFUELLED.rules.get("ruleset", "kart") is None
    assert set(REFUELLED.rules.rules) | {("ruleset", "kart")} == set(KART.rules.rules)
    assert KART.hooks is REFUELLED.hooks and KART.catalog is REFUELLED.catalog
    assert sorted(KART.scenarios) == ["death-race", "street-race"]
    assert KART.view == {"hull": False} and REFUELLED.view == {}


def test_item_attack_hits_become_hazards_and_never_damage() -> None:
    # MK-18..20: a machine gun (2 dice) rolls 4 (a hit) and 6 (two hits); the target in gear
    # 2 rolls 2 evade dice, 6 and 1: one cancelled. The two left give 2 Hazards, no damage.
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", *RED, player=1, gear=2)
    g = attack_game(table(car, red), "car", dice=[4, 6, 6, 1], ruleset=KART)
    play(g, "machine_gun#0>red", STOP)
    assert g.pending() is None
    assert rolls(g) == [("attack", [4, 6]), ("evade", [6, 1])]
    assert ev(g, "evade")[0] == {"vehicle": "red", "hits": 3, "cancelled": 1}
    assert (red.hazards, red.damage, red.hull_points) == (2, 0, red.hull)
    assert ev(g, "damage") == []
    assert ev(g, "kart_rule") == [{"rule": "MK-20", "what": "hits become Hazards",
                                   "vehicle": "red", "hits": 2, "cause": "attack"}]
    assert [e.source for e in g.log if e.kind == "kart_rule"] == [SOURCE]


def test_the_same_attack_in_refuelled_damages() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", *RED, player=1, gear=2)
    g = attack_game(table(car, red), "car", dice=[4, 6, 6, 1])
    play(g, "machine_gun#0>red", STOP)
    assert (red.hazards, red.damage) == (0, 2) and not ev(g, "kart_rule")


def test_t_bone_smash_uses_the_variants_weight_bonus_and_a_flat_hazard() -> None:
    # MK-32, MK-35: car (middle, gear 5) T-bones a buggy (light): 5 + 1 = 6 dice (Refuelled:
    # 7). 1,1,2,4,4,5 -> 3 hits; the buggy evades with gear 2: 3,6 -> 1 cancelled. MK-29,
    # MK-30: 2 Hazards from hits and 1 flat each; nobody is damaged.
    buggy = vehicle("buggy", "buggy", 600, 600, heading=0, player=1, gear=2)
    car = vehicle("car", "car", 600, 555, heading=90, player=0, gear=5)
    g = run_step(table(car, buggy), collide("car", "buggy"),
                 dice=[1, 1, 2, 4, 4, 5, 3, 6], ruleset=KART)
    play(g, "smash", "evade")
    assert g.pending() is None
    assert ev(g, "smash_attack") == [{"attacker": "car", "target": "buggy", "dice": 6, "hits": 3}]
    assert (car.hazards, buggy.hazards) == (1, 3)
    assert (car.damage, buggy.damage) == (0, 0) and ev(g, "damage") == []
    assert kart_rules(g) == ["MK-35", "MK-20", "MK-30", "MK-30"]


def test_both_evade_each_kart_still_gains_a_hazard() -> None:
    # MK-30: head-on, both evade: no dice, one Hazard each.
    a = vehicle("a", "car", 600, 300, heading=90, player=0, gear=3)
    b = vehicle("b", "car", 600, 360, heading=270, player=1, gear=2)
    g = run_step(table(a, b), collide("a", "b"), ruleset=KART)
    play(g, "evade", "evade")
    assert g.pending() is None and rolls(g) == []
    assert (a.hazards, b.hazards) == (1, 1)


def test_wall_always_smashes_as_a_heavyweight() -> None:
    # MK-34, MK-36: head-on with a wall (gear 0). The kart (middle, gear 3) smashes with 3 - 1
    # = 2 dice; the wall, heavier by one class, with 3 + 1 = 4 (Refuelled: 5). 4,5 -> 2 hits
    # on the wall (nothing); 6,1,1,1 -> 2 hits on the kart: 2 Hazards + 1.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    g = run_step(table(car, obstacles=[rock("wall", 600, 345)]), collide("car", "wall"),
                 dice=[4, 5, 6, 1, 1, 1], ruleset=KART)
    play(g, "smash")
    assert g.pending() is None
    assert ev(g, "reaction")[1] == {"vehicle": "wall", "other": "car", "reaction": "smash",
                                    "why": "obstacle"}
    assert [(e["attacker"], e["dice"], e["hits"]) for e in ev(g, "smash_attack")] == [
        ("car", 2, 2), ("wall", 4, 2)]
    assert (car.hazards, car.damage) == (3, 0)


def test_a_middleweight_barrier_counts_as_heavyweight() -> None:
    # MK-36 (ruling MK-R7): a lighter barrel is still Heavyweight: 3 + 1 = 4 dice (Refuelled: 3).
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    barrel = rock("barrel", 600, 345, weight=Weight.MIDDLEWEIGHT)
    g = run_step(table(car, obstacles=[barrel]), collide("car", "barrel"),
                 dice=[1, 1, 1, 1, 1, 1, 1], ruleset=KART)
    play(g, "evade")
    assert ev(g, "smash_attack") == [{"attacker": "barrel", "target": "car", "dice": 4,
                                      "hits": 0}]


def test_wipeout_gear_one_no_hazards_random_facing_no_flip_check() -> None:
    # MK-23, MK-24 (ruling MK-R6): dice 3, 4 -> heading (2 * 6 + 3) * 10 = 150: a pivot of
    # +60 from 90, about the centre. No flip check is rolled.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=4, hazards=7)
    g = run_step(table(car), wipeouts("car"), dice=[3, 4], ruleset=KART)
    assert g.pending() is None
    assert rolls(g) == [("random facing", [3, 4])]
    assert not ev(g, "flip_check") and not ev(g, "flip") and not ev(g, "lose_control")
    assert (car.gear, car.hazards, car.damage) == (1, 0, 0)
    assert (car.pose.x, car.pose.y) == (600.0, 300.0)
    assert car.pose.heading == pytest.approx(150.0)
    assert ev(g, "kart_facing") == [{"vehicle": "car", "dice": [3, 4], "heading": 150.0,
                                     "pivot": 60.0}]


def test_wipeout_pivot_stops_at_first_contact() -> None:
    # The random facing pivots as Lose Control does: it stops at what it touches and collides.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=2, hazards=6)
    post = rock("post", 630, 300, length=20, width=20)
    g = run_step(table(car, obstacles=[post]), wipeouts("car"), dice=[4, 1, 1, 1, 1, 1, 1, 1],
                 ruleset=KART)  # heading 180: a 90 degree turn sweeps into the post
    while g.pending() is not None:
        play(g, "evade")
    piv = ev(g, "pivot")[0]
    assert piv["touched"] == ["post"] and abs(piv["turned"]) < 90.0
    assert car.damage == 0


def test_the_choices_are_data() -> None:
    data = kart_data()
    assert data["orientations"] == {"sideswipe": "t_bone"}
    assert [kart_weight_bonus(3, 1), kart_weight_bonus(2, 1), kart_weight_bonus(1, 1),
            kart_weight_bonus(1, 2), kart_weight_bonus(1, 3)] == [2, 1, 0, -1, -2]
    assert random_heading(1, 1) == 0.0 and random_heading(6, 6) == 350.0
    assert len({random_heading(a, b) for a in range(1, 7) for b in range(1, 7)}) == 36


def test_sideswipe_counts_as_a_t_bone() -> None:
    car = vehicle("car", "car", 600, 300, heading=90, player=0)
    g = run_step(table(car), wipeouts("car"), ruleset=KART)
    got = g.effects.run_event("collision_orientation", "sideswipe",
                              {"game": g, "vehicle": car, "parties": ()})
    assert got == "t_bone"
    assert g.effects.run_event("collision_orientation", "head_on",
                               {"game": g, "vehicle": car, "parties": ()}) == "head_on"


def test_the_log_names_the_kart_rule_applied() -> None:
    from carnage.games.refuelled.table_view import log_lines

    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=4, hazards=7)
    g = run_step(table(car), wipeouts("car"), dice=[3, 4], ruleset=KART)
    shown = [e for e in g.log if e.kind in ("kart_rule", "kart_facing")]
    assert [ln.text for ln in log_lines(g, shown, {})] == [
        "Kart variant: wipeout: gear 1, no Hazards, random facing (no flip check) (car)",
        "Car spins to a random facing: now facing north-west (dice 3, 4)",
    ]
    assert {ln.rule for ln in log_lines(g, shown, {})} == {SOURCE}
