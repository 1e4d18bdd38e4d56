"""The Legacy ruleset's play rules with scripted dice and exact poses, through Refuelled's
real flow: Televised Carnage (GL-020), Live Fast (GL-021), the Nano-Cloaking Device (GL-099,
GL-100), mutation traits; the ruleset as an overlay of Refuelled."""

from __future__ import annotations

import pytest
from tests.builders import (
    BLUE,
    RED,
    activate,
    armed,
    attack,
    drive,
    ev,
    fit,
    play,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
    wound,
)

from carnage.games.refuelled.engine.collision import weight_class
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.engine.wipeout import wipeout_threshold
from carnage.rulesets import LEGACY, REFUELLED, get_ruleset


def gunner(hazards: int = 0) -> VehicleState:
    return armed(vehicle("blue", "car", *BLUE, player=0, hazards=hazards),
                 ("minigun", "front", None), ("heavy_machine_gun", "front", None))


def test_legacy_is_an_overlay_of_refuelled() -> None:
    assert get_ruleset("legacy") is LEGACY and LEGACY.parent == "refuelled"
    assert LEGACY.rules.get("ruleset", "legacy") is not None
    assert LEGACY.rules.get("upgrade", "nano_cloaking_device") is not None
    assert REFUELLED.rules.get("ruleset", "legacy") is None
    assert set(REFUELLED.rules.rules) < set(LEGACY.rules.rules)
    assert "nano_cloaking_device" in LEGACY.catalog.upgrades.records
    assert "nano_cloaking_device" not in REFUELLED.catalog.upgrades.records
    assert "street-race" in LEGACY.scenarios and "tank-commander" not in LEGACY.scenarios


@pytest.mark.parametrize(("dice", "votes"), [
    # minigun 4 dice + heavy machine gun 3: three 6s are 6 hits, the evade (6) cancels one,
    # but the hits are counted before evades: a vote
    ([6, 6, 6, 1, 1, 1, 1, 6], 1),
    # 6, 6, 5, 1...: 5 hits, no vote
    ([6, 6, 5, 1, 1, 1, 1, 1], 0),
])
def test_televised_carnage_six_hits_before_evades(dice: list[int], votes: int) -> None:
    red = vehicle("red", "car", *RED, player=1, gear=1)
    g = run_step(table(gunner(), red), attack("blue"), dice, ruleset=LEGACY)
    play(g, "minigun#0>red", "heavy_machine_gun#1>red")
    assert g.pending() is None
    assert rolls(g) == [("attack", dice[:7]), ("evade", dice[7:])]
    assert g.state.votes == [votes, 0]
    assert [e["rule"] for e in ev(g, "legacy_rule")] == (["GL-020"] if votes else [])


def test_televised_carnage_counts_all_targets_of_the_step_once() -> None:
    # ruling GL-R23: 4 hits at red and 2 at green in one Attack Step make 6: one vote
    red = vehicle("red", "car", *RED, player=1, gear=1)
    green = vehicle("green", "car", 280, 450, 270.0, player=1, gear=1)
    g = run_step(table(gunner(), red, green), attack("blue"), [6, 6, 1, 1, 1, 1, 6, 1, 1],
                 ruleset=LEGACY)
    play(g, "minigun#0>red", "heavy_machine_gun#1>green")
    assert g.pending() is None
    assert g.state.votes == [1, 0]
    assert len(ev(g, "legacy_rule")) == 1


def test_refuelled_gives_no_televised_vote() -> None:
    red = vehicle("red", "car", *RED, player=1, gear=1)
    g = run_step(table(gunner(), red), attack("blue"), [6, 6, 6, 1, 1, 1, 1, 1])
    play(g, "minigun#0>red", "heavy_machine_gun#1>red")
    assert g.state.votes == [0, 0]


@pytest.mark.parametrize(("hazards", "hull_left", "votes"), [(5, 4, 1), (4, 4, 0), (2, 1, 1)])
def test_live_fast_more_hazards_than_hull_at_the_wipeout_step(hazards: int, hull_left: int,
                                                               votes: int) -> None:
    blue = wound(vehicle("blue", "car", *BLUE, player=0, hazards=hazards), hull_left)
    far = vehicle("red", "car", 900, 1000, player=1)
    g = run_step(table(blue, far), activate("blue"), [4] * 6, ruleset=LEGACY)
    left = drive(g, template="short_straight", attack="stop")
    assert left is None, left
    assert blue.hazards == hazards  # a trivial Short Straight in gear 1: no new Hazard
    assert g.state.votes == [votes, 0]
    assert [e["rule"] for e in ev(g, "legacy_rule")] == (["GL-021"] if votes else [])


def cloaked_table(red_hull_left: int | None = None, back: float = 0.0
                  ) -> tuple[VehicleState, VehicleState, VehicleState]:
    x, y, heading = BLUE
    blue = armed(vehicle("blue", "car", x, y - back, heading, player=0),
                 ("machine_gun", "front", None))
    red = fit(vehicle("red", "car", *RED, player=1, gear=1), "nano_cloaking_device")
    if red_hull_left is not None:
        wound(red, red_hull_left)
    green = vehicle("green", "car", 280, 450, 270.0, player=1, gear=1)
    return blue, red, green


def test_nano_cloak_cuts_hull_for_good_and_the_attacker_retargets() -> None:
    blue, red, green = cloaked_table(back=60.0)  # a Short Straight brings it back in range
    g = run_step(table(blue, red, green), activate("blue"), [6, 6, 1, 1], ruleset=LEGACY)
    d = drive(g, template="short_straight", attack=[])
    assert d is not None and d.kind == "attack"
    play(g, "machine_gun#0>red")
    d = g.pending()
    assert d is not None and (d.kind, d.player, values(d)) == ("nano_cloak", 1, ["no", "cloak"])
    play(g, "cloak")
    assert (red.hull, red.hull_points) == (9, 9)
    d = g.pending()
    assert d is not None and d.kind == "attack"
    # red may no longer be targeted; the machine gun and the crew attack are given back
    assert [v for v in values(d) if str(v).endswith(">red")] == []
    assert "machine_gun#0>green" in values(d)
    assert "(2 of 2 left)" in d.prompt
    play(g, "machine_gun#0>green", "stop")
    assert drive(g) is None
    assert rolls(g)[-2:] == [("attack", [6, 6]), ("evade", [1])]
    assert green.damage == 4 and red.damage == 0
    assert ev(g, "nano_cloak") == [{"vehicle": "red", "attacker": "blue", "weapon": "machine_gun#0",
                                    "hull": 9, "hull_points": 9}]
    assert "legacy_cloaked" not in red.conditions  # the cloak ends with the activation
    assert red.hull == 9  # the cut stays


def test_nano_cloak_may_be_declined_and_is_not_offered_at_one_hull_point() -> None:
    blue, red, green = cloaked_table()
    g = run_step(table(blue, red, green), attack("blue"), [6, 1, 1], ruleset=LEGACY)
    play(g, "machine_gun#0>red", "no", "stop")
    assert g.pending() is None and red.hull == 10 and red.damage == 2
    blue, red, green = cloaked_table(red_hull_left=1)
    g = run_step(table(blue, red, green), attack("blue"), [1, 1, 1], ruleset=LEGACY)
    play(g, "machine_gun#0>red", "stop")  # ruling GL-R22: no cloak decision at 1 Hull
    assert g.pending() is None and red.hull == 10 and ev(g, "nano_cloak") == []


def test_mutation_traits_weight_and_hazard_tolerance() -> None:
    buggy = vehicle("blue", "buggy", *BLUE, player=0, hazards=6)
    buggy.special_rules += ["legacy_heavier", "legacy_heavier", "legacy_heavier",
                            "legacy_hazard_tolerance"]
    g = run_step(table(buggy), wipeouts("blue"), [], ruleset=LEGACY)
    assert weight_class(g, buggy) == 3  # two steps up, capped at Heavyweight
    assert wipeout_threshold(g, buggy) == 7
    assert ev(g, "wipeout") == []  # 6 Hazards: no Wipeout at a threshold of 7
    plain = run_step(table(vehicle("blue", "buggy", *BLUE, player=0)), wipeouts("blue"), [],
                     ruleset=LEGACY)
    assert weight_class(plain, plain.state.vehicles["blue"]) == 1
