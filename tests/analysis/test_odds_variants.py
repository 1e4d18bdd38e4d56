"""Exact odds of Devil's Run and the Kart variant: hand-derived answers, and Monte Carlo runs
of each engine itself on its own seeded dice (``SeededDice``): Devil's Run's shots through
``DevilsRunGame`` on an arranged road, the Kart variant's Item Attacks and Collisions through
Refuelled's flow with the Kart ruleset. Frequencies must sit within 5 standard errors."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.analysis.test_odds_monte_carlo import RUNS, agrees, agrees_p, shooting_table
from tests.builders import collide, play, run_step, table, vehicle
from tests.games.devilsrun.helpers import arranged

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.odds import (
    d10_test,
    offensive_odds,
    repair_dist,
    shoot_odds,
    shot_dice,
)
from carnage.games.kart.odds import (
    kart_attack_odds,
    kart_smash_dice,
    kart_smash_odds,
    wipeout_facings,
)
from carnage.games.refuelled.engine.attack import HANDGUN, Shot, resolve_attacks
from carnage.games.refuelled.engine.collision import EVADE, SMASH
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.odds import OddsError, Side, smash_odds
from carnage.kernel.dice import SeededDice
from carnage.rulesets import KART


# -- Devil's Run: hand-derived --------------------------------------------------------------
def test_d10_tests_succeed_at_most_the_target_number() -> None:
    assert [d10_test(t) for t in (-1, 0, 1, 6, 9, 10, 14)] == [
        0, 0, F(1, 10), F(3, 5), F(9, 10), 1, 1]


def test_one_die_at_bs_5_against_armour_1() -> None:
    # faces 2-5 hit, a 1 is a critical; a hit gets through on a failed save (D6 above 1: 5/6)
    odds = shoot_odds(1, 5, 1)
    assert odds.hits.probabilities() == {0: F(1, 2), 1: F(1, 2)}
    assert odds.criticals.probabilities() == {0: F(9, 10), 1: F(1, 10)}
    assert odds.damage.probabilities() == {0: F(7, 12), 1: F(1, 3), 2: F(1, 12)}
    assert odds.damage.mean() == F(1, 2)


def test_a_one_always_hits_as_a_critical_even_at_bs_0() -> None:
    odds = shoot_odds(1, 0, 0)
    assert odds.damage.probabilities() == {0: F(9, 10), 1: 0, 2: F(1, 10)}


def test_saves_stop_at_the_first_failure() -> None:
    # Two sure hits (BS 10) against armour 3: both saved 1/4; two criticals (1/100) with the
    # first save failed (1/2) let both through: 4 damage, 1/200 (a failed second save alone
    # lets only the second through).
    odds = shoot_odds(2, 10, 3)
    assert odds.damage.p(0) == F(1, 4)
    assert odds.damage.p(4) == F(1, 200)
    # armour 6 saves every hit
    assert shoot_odds(3, 10, 6).damage.probabilities() == {0: 1}


def test_a_flamer_allows_no_saves_and_loses_dice_with_range() -> None:
    assert [shot_dice(3, flamer=True, range_=r) for r in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert shot_dice(3, range_=3) == 3
    odds = shoot_odds(3, 7, 6, flamer=True, range_=3)
    assert (odds.dice, odds.saves) == (1, False)
    assert odds.damage.probabilities() == {0: F(3, 10), 1: F(3, 5), 2: F(1, 10)}
    assert shoot_odds(3, 7, 2, flamer=True, range_=4).damage.probabilities() == {0: 1}


def test_chance_of_a_wreck_from_the_chassis_points() -> None:
    odds = shoot_odds(1, 5, 1, cp=2)
    assert odds.p_wreck == F(1, 12)
    assert odds.to_json()["p_wreck"] == pytest.approx(1 / 12)
    assert shoot_odds(1, 5, 1).p_wreck is None


def test_offensive_totals_add_a_d3_each() -> None:
    # ram: 3 against 2; the difference of two D3 is -2..2 in 1, 2, 3, 2, 1 of 9 ways
    ram = offensive_odds("ram", 3, 2)
    assert ram.to_target.probabilities() == {0: F(1, 3), 1: F(1, 3), 2: F(2, 9), 3: F(1, 9)}
    assert ram.to_attacker.probabilities() == {0: F(8, 9), 1: F(1, 9)}
    # on the brakes: each side takes the other's whole total
    brakes = offensive_odds("ram_on_the_brakes", 1, 2)
    assert brakes.to_target.probabilities() == {0: 0, 1: 0, 2: F(1, 3), 3: F(1, 3), 4: F(1, 3)}
    assert brakes.to_attacker.probabilities() == {k: (F(1, 3) if k >= 3 else 0)
                                                  for k in range(6)}
    with pytest.raises(OddsError, match="unknown offensive move"):
        offensive_odds("barrel_roll", 1, 1)


def test_repair_roll_needs_two_sixes_on_three_dice() -> None:
    d = repair_dist()
    assert d.probabilities() == {0: F(25, 27), 1: F(15, 216), 2: 0, 3: F(1, 216)}


@pytest.mark.parametrize(("call", "match"), [
    (lambda: shoot_odds(-1, 5), "RoF must be between 0 and 30, not -1"),
    (lambda: shoot_odds(2, 5, 7), "armour must be between 0 and 6, not 7"),
    (lambda: shoot_odds(2, 5, cp=0), "chassis points"),
    (lambda: shoot_odds(2, 5, flamer=True, range_=0), "range must be between 1 and 99, not 0"),
    (lambda: d10_test(True), "whole number"),
    (lambda: offensive_odds("ram", -1, 0), "attacker's total"),
])
def test_bad_queries_name_what_is_wrong(call: object, match: str) -> None:
    assert callable(call)
    with pytest.raises(OddsError, match=match):
        call()


# -- Devil's Run: the engine's own shots ---------------------------------------------------
@RUNS
@given(case=st.sampled_from([
    ("law-bike", 0, {"law-bike": (3, 3), "ha-bike": (3, 6)}, "ha-bike"),  # pistol, A1
    ("law-buggy", 0, {"law-buggy": (3, 4), "ha-trike": (4, 6)}, "ha-trike"),  # MG (RoF 3)
    ("ha-trike", 1, {"ha-trike": (3, 5), "law-bike": (3, 3)}, "law-bike"),  # flamer at 2
    ("ha-trike", 1, {"ha-trike": (3, 5), "law-buggy": (2, 4)}, "law-buggy"),  # flamer at 1, A2
]), seed=st.integers(0, 10 ** 6))
def test_shots_match_the_engines_shooting(
        case: tuple[str, int, dict[str, tuple[int, int]], str], seed: int) -> None:
    shooter, mount, positions, target = case
    g = arranged("devils-run", positions, [])
    (tid, mod, dist), = g.weapon_targets(shooter, mount)
    assert tid == target
    v, t = g.vehicle(shooter), g.vehicle(target)
    vt, tt = B.vtype(v), B.vtype(t)
    m = vt.mounts[mount]
    exact = shoot_odds(m.weapon.rof, vt.bs(m.slot) + mod, tt.a, flamer=m.weapon.flamer,
                       range_=dist)
    g.dice = SeededDice(seed)
    n = 1500
    seen: Counter[int] = Counter()
    hits: Counter[int] = Counter()
    for _ in range(n):
        t.cp = 99  # never wrecked: the damage is the whole count
        start = len(g.log)
        g._shoot(v, mount, tid)
        new = g.log.events[start:]
        seen[sum(int(e.data["points"]) for e in new if e.kind == "damage")] += 1
        hits[sum(int(e.data.get("hits", 0)) for e in new if e.kind == "shot")] += 1
    agrees(exact.damage, seen, n)
    agrees(exact.hits, hits, n)


# -- Kart: hand-derived from the rules tests' worked examples --------------------------------
def test_kart_smash_dice_follow_the_variants_weights() -> None:
    # A car (middle, gear 5) T-bones a buggy (light): 5 + 1 = 6 dice (Refuelled: 7); the
    # buggy would smash back with 2 - 1 = 1. A car in gear 3 head-on into a wall: 3 - 1 = 2;
    # the wall, Heavyweight, 3 + 1 = 4 (tests/games/kart/test_kart_rules.py).
    car, buggy = Side(5, 2), Side(2, 1)
    assert (kart_smash_dice("t_bone", car, buggy), kart_smash_dice("t_bone", buggy, car)) == (6, 1)
    wall = Side(0, 2, obstacle=True)
    car3 = Side(3, 2)
    assert kart_smash_dice("head_on", car3, wall) == 2
    assert kart_smash_dice("head_on", wall, car3) == 4
    odds = kart_smash_odds("head_on", car3, Side(0, 1, obstacle=True))
    assert (odds.smash.a.smash_dice, odds.smash.b.smash_dice) == (2, 4)  # any obstacle: heavy


def test_kart_collision_hazards_are_hits_plus_one_flat_hazard() -> None:
    # Both evade head-on: no dice, one Hazard each (MK-30; Refuelled would give 1 as well,
    # but 2 when they smash).
    both = kart_smash_odds("head_on", Side(3, 2, EVADE), Side(2, 2, EVADE))
    assert both.gained(both.smash.a).probabilities() == {0: 0, 1: 1}
    # A T-bones B with 1 die (gear 1, same weight); B evades with gear 1: B's Hazards are
    # 1 + the hits left. One die: 1/2 none, 1/3 one hit, 1/6 two; one evade die cancels one
    # on a 6.
    one = kart_smash_odds("t_bone", Side(1, 2), Side(1, 2, EVADE))
    hits_left = {0: F(1, 2) + F(1, 3) * F(1, 6), 1: F(1, 3) * F(5, 6) + F(1, 6) * F(1, 6),
                 2: F(1, 6) * F(5, 6)}
    assert one.gained(one.smash.b).probabilities() == {0: 0, **{k + 1: p for k, p in
                                                              hits_left.items()}}
    assert one.p_wipeout(one.smash.b, 4) == 1 - hits_left[0]  # 4 + 1 + a hit or two
    assert one.p_wipeout(one.smash.b, 3) == hits_left[2]  # 3 + 1 + both hits
    assert one.p_wipeout(one.smash.a, 5) == 1  # B evades: A gains its flat Hazard
    # Refuelled's own smash of the same: 2 Hazards each, damage instead
    assert smash_odds("t_bone", Side(1, 2), Side(1, 2, EVADE)).b.hazards == 2


def test_a_sideswipe_counts_as_a_t_bone() -> None:
    a, b = Side(4, 2), Side(2, 3)
    side = kart_smash_odds("sideswipe", a, b)
    assert side.smash.orientation == "t_bone"
    assert side.to_json() == kart_smash_odds("t_bone", a, b).to_json()
    with pytest.raises(OddsError, match="unknown orientation"):
        kart_smash_odds("sideways", a, b)


def test_kart_attack_gives_hazards_and_the_chance_of_a_wipeout() -> None:
    # One die, no evade: 1/3 one hit, 1/6 two: from 4 Hazards, 6 needs the two (1/6).
    odds = kart_attack_odds(1, hazards=4)
    assert odds.attack.damage.probabilities() == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    assert odds.p_wipeout == F(1, 6)
    assert kart_attack_odds(1, hazards=6).p_wipeout == 1
    assert kart_attack_odds(0, hazards=3).p_wipeout == 0


def test_a_kart_wipeout_faces_one_of_36_headings() -> None:
    data = wipeout_facings()
    headings = data["headings"]
    assert isinstance(headings, dict) and len(headings) == 36
    assert set(headings) == {f"{10 * k:g}" for k in range(36)}
    assert all(p == pytest.approx(1 / 36) for p in headings.values())


# -- Kart: the engine's own Item Attacks and Collisions ----------------------------------------
@RUNS
@given(dice=st.integers(0, 5), evade_gear=st.integers(1, 4), hazards=st.integers(0, 5),
       seed=st.integers(0, 10 ** 6))
def test_kart_attack_hazards_match_the_engine(dice: int, evade_gear: int, hazards: int,
                                               seed: int) -> None:
    exact = kart_attack_odds(dice, evade_gear=evade_gear, hazards=hazards)
    rng = SeededDice(seed)
    n = 500
    seen: Counter[int] = Counter()
    wiped = 0
    shots = [Shot(HANDGUN, HANDGUN, "target", "medium", "360")] * dice
    for _ in range(n):
        state = shooting_table(evade_gear)
        tgt = state.vehicles["target"]
        tgt.hazards = hazards

        def step(g: Game) -> Flow:
            yield from resolve_attacks(g, g.state.vehicles["shooter"], shots)

        g = run_step(state, step, dice=rng.roll(dice + evade_gear), ruleset=KART)
        assert g.pending() is None and tgt.damage == 0
        seen[tgt.hazards - hazards] += 1
        wiped += tgt.hazards >= exact.wipeout_at
    agrees(exact.attack.damage, seen, n)
    agrees_p(exact.p_wipeout, wiped, n)


@RUNS
@given(car_gear=st.integers(1, 6), buggy_gear=st.integers(1, 3),
       buggy_reacts=st.sampled_from([SMASH, EVADE]), seed=st.integers(0, 10 ** 6))
def test_kart_t_bone_hazards_match_the_engines_collision(
        car_gear: int, buggy_gear: int, buggy_reacts: str, seed: int) -> None:
    # A car T-bones a buggy (the rules test's layout), both as karts.
    exact = kart_smash_odds("t_bone", Side(car_gear, 2), Side(buggy_gear, 1, buggy_reacts))
    rng = SeededDice(seed)
    n = 400
    seen_car: Counter[int] = Counter()
    seen_buggy: Counter[int] = Counter()
    for _ in range(n):
        buggy = vehicle("buggy", "buggy", 600, 600, heading=0, player=1, gear=buggy_gear)
        car = vehicle("car", "car", 600, 555, heading=90, player=0, gear=car_gear)
        g = run_step(table(car, buggy), collide("car", "buggy"), dice=rng.roll(16),
                     ruleset=KART)
        play(g, SMASH, buggy_reacts)
        assert g.pending() is None
        seen_car[car.hazards] += 1
        seen_buggy[buggy.hazards] += 1
    agrees(exact.gained(exact.smash.a), seen_car, n)
    agrees(exact.gained(exact.smash.b), seen_buggy, n)


def test_each_kart_wipes_out_at_its_own_threshold() -> None:
    # Both evade head-on: one Hazard each. From 5 Hazards A reaches 6; B, with a threshold
    # of 8 (Dutch Courage), does not.
    odds = kart_smash_odds("head_on", Side(3, 2, EVADE), Side(2, 2, EVADE), hazards_a=5,
                           hazards_b=5, other_wipeout_at=8)
    assert odds.p_wipeout(odds.smash.a, 5) == 1 and odds.p_wipeout(odds.smash.b, 5) == 0
    out = odds.to_json()
    assert (out["a"]["wipeout_at"], out["b"]["wipeout_at"]) == (6, 8)
    assert (out["a"]["p_wipeout"], out["b"]["p_wipeout"]) == (1.0, 0.0)
    same = kart_smash_odds("head_on", Side(3, 2, EVADE), Side(2, 2, EVADE), hazards_b=5)
    assert same.to_json()["b"]["wipeout_at"] == 6 and same.to_json()["b"]["p_wipeout"] == 1.0
