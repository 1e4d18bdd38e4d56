"""Exact odds against Monte Carlo runs of the engine itself: its own dice (``SeededDice``)
and its own resolution (``resolve_attacks`` with the evade of ``take_hits``, the skid dice of
``SkidResolution``, the Wipeout's flip check, the wreck's explosion check, a real Collision).

The games run through the test builders' ``run_step`` on dice drawn from ``SeededDice``.
Every frequency must sit within 5 standard errors of the exact probability, and an outcome the
odds call impossible must never happen. Hypothesis draws the queries (bounded, derandomised,
so the runs are reproducible); each example seeds its own dice.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.builders import run_step, table, vehicle
from tests.games.refuelled.engine.test_collision import t_bone_table, tailgate_table

from carnage.games.refuelled.engine.attack import HANDGUN, Shot, resolve_attacks
from carnage.games.refuelled.engine.collision import resolve_collisions
from carnage.games.refuelled.engine.combat import score_attack
from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.skid import CANCEL, DISCARD, DISCARD_HAZARD, SkidResolution
from carnage.games.refuelled.engine.state import GameState, WeaponMount
from carnage.games.refuelled.engine.wipeout import wipeout
from carnage.games.refuelled.odds import (
    Dist,
    Side,
    attack_odds,
    hits_dist,
    p_explode,
    p_flip,
    skid_odds,
    smash_odds,
)
from carnage.kernel.dice import SeededDice, SkidFace

RUNS = settings(max_examples=8, deadline=None, derandomize=True)


def agrees(exact: Dist, seen: Counter[int], n: int) -> None:
    for k in set(range(exact.top + 1)) | set(seen):
        p = float(exact.p(k))
        f = seen[k] / n
        if p == 0:
            assert seen[k] == 0, f"{k} happened {seen[k]} times but is impossible"
            continue
        assert abs(f - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9, (k, f, p)


def agrees_p(p: Fraction, hits: int, n: int) -> None:
    """``hits`` successes in ``n`` runs agree with the exact probability ``p``."""
    agrees(Dist((p.denominator - p.numerator, p.numerator), p.denominator),
           Counter({1: hits, 0: n - hits}), n)


def game(state: GameState, step: Callable[[Game], Flow], rng: SeededDice, most: int) -> Game:
    """The step as a whole game on the next ``most`` dice of ``rng`` (the engine's seeded
    dice, replayed in order; the step uses as many of them as it rolls)."""
    return run_step(state, step, dice=rng.roll(most))


# -- attacks: the engine's resolve_attacks, evade included ----------------------------------------
def shooting_table(evade_gear: int) -> GameState:
    shooter = vehicle("shooter", "car", 600, 300, heading=90, player=0, gear=2)
    target = vehicle("target", "car", 600, 450, heading=90, player=1,
                     gear=max(1, evade_gear))
    target.hull = 99  # never wrecked: the damage is the whole count
    return table(shooter, target)


@RUNS
@given(dice=st.integers(0, 5), evade_gear=st.integers(1, 4), cover=st.booleans(),
       seed=st.integers(0, 10 ** 6))
def test_attack_damage_matches_the_engines_attack_resolution(
        dice: int, evade_gear: int, cover: bool, seed: int) -> None:
    exact = attack_odds(dice, evade_gear=evade_gear, cover=cover)
    rng = SeededDice(seed)
    n = 600
    seen: Counter[int] = Counter()
    # ``dice`` Handgun attacks (one die each) at one target: rolled together, one evade.
    shots = [Shot(HANDGUN, HANDGUN, "target", "medium", "360", cover=cover)] * dice
    for _ in range(n):
        state = shooting_table(evade_gear)

        def step(g: Game) -> Flow:
            yield from resolve_attacks(g, g.state.vehicles["shooter"], shots)

        g = game(state, step, rng, dice + evade_gear)
        assert g.pending() is None
        seen[g.state.vehicles["target"].damage] += 1
    agrees(exact.damage, seen, n)


@RUNS
@given(dice=st.integers(1, 8), penalty=st.integers(-2, 2), crit_hits=st.sampled_from([2, 3]),
       seed=st.integers(0, 10 ** 6))
def test_hits_match_the_engines_scoring_with_headshot_crits(
        dice: int, penalty: int, crit_hits: int, seed: int) -> None:
    rng = SeededDice(seed)
    n = 3000
    seen: Counter[int] = Counter()
    for _ in range(n):
        roll = score_attack(rng.roll(dice), penalty=penalty)
        seen[roll.hits + (crit_hits - 2) * roll.criticals] += 1  # Headshot's extra hit
    agrees(hits_dist(dice, penalty, crit_hits), seen, n)


# -- skid dice: the engine's SkidResolution -------------------------------------------------
def resolve_skid(rng: SeededDice, dice: int, push_it: bool, trivial: bool, hazards: int
                 ) -> SkidResolution:
    sk = SkidResolution(gear=3, max_gear=6, hazards=hazards, handling=dice, trivial=trivial)
    faces = sk.roll(rng, dice)
    bad = [i for i, f in enumerate(faces) if f is not SkidFace.SHIFT]
    if push_it and bad:
        sk.push_it(rng, bad)
    while sk.legal_actions():
        acts = sk.legal_actions()
        cancel = [a for a in acts if a[0] == CANCEL]
        if cancel:
            sk.spend(*cancel[0])
        elif (DISCARD_HAZARD, None) in acts:
            sk.spend(DISCARD_HAZARD)
        else:
            sk.spend(DISCARD)
    sk.finish()
    return sk


@RUNS
@given(dice=st.integers(0, 5), push_it=st.booleans(), trivial=st.booleans(),
       hazards=st.integers(0, 5), seed=st.integers(0, 10 ** 6))
def test_skid_odds_match_the_engines_skid_resolution(
        dice: int, push_it: bool, trivial: bool, hazards: int, seed: int) -> None:
    exact = skid_odds(dice, push_it=push_it, trivial=trivial, hazards=hazards)
    rng = SeededDice(seed)
    n = 2000
    after: Counter[int] = Counter()
    faces: dict[SkidFace, Counter[int]] = {f: Counter() for f in SkidFace}
    pushed = 0
    for _ in range(n):
        sk = resolve_skid(rng, dice, push_it, trivial, hazards)
        after[sk.hazards] += 1
        pushed += sk.pushed
        for f in SkidFace:
            faces[f][sum(1 for x in sk.faces if x is f) + (
                1 if trivial and f is SkidFace.SHIFT else 0)] += 1
    agrees(exact.hazards_after, after, n)
    agrees(exact.shifts, faces[SkidFace.SHIFT], n)
    agrees(exact.hazards, faces[SkidFace.HAZARD], n)
    agrees(exact.spins, faces[SkidFace.SPIN], n)
    agrees(exact.slides, faces[SkidFace.SLIDE], n)
    agrees_p(exact.pushed, pushed, n)
    agrees_p(exact.p_wipeout, sum(c for k, c in after.items() if k >= 6), n)


# -- flip and explosion checks: the Wipeout and the wreck sequence ---------------------------------
@RUNS
@given(gear=st.integers(1, 6), seed=st.integers(0, 10 ** 6))
def test_flip_odds_match_the_engines_wipeout(gear: int, seed: int) -> None:
    rng = SeededDice(seed)
    n = 400
    flips = 0
    for _ in range(n):
        v = vehicle("car", "car", 600, 600, gear=gear, hazards=6)
        v.hull = 99

        def step(g: Game) -> Flow:
            yield from wipeout(g, g.state.vehicles["car"], g.state.vehicles["car"])

        g = game(table(v), step, rng, 1)
        d = g.pending()
        assert d is not None and d.kind == "lose_control"
        g.apply(0.0)
        flips += sum(1 for e in g.log.of_kind("flip_check") if e.data["flipped"])
    agrees_p(p_flip(gear), flips, n)


@RUNS
@given(ammo=st.integers(0, 5), seed=st.integers(0, 10 ** 6))
def test_explosion_odds_match_the_engines_wreck(ammo: int, seed: int) -> None:
    rng = SeededDice(seed)
    n = 400
    booms = 0
    for _ in range(n):
        v = vehicle("car", "car", 600, 600)
        v.weapons = [WeaponMount("minigun#0", "minigun", "front", ammo)]

        def step(g: Game) -> Flow:
            yield from wreck(g, g.state.vehicles["car"])

        g = game(table(v), step, rng, 1)
        assert g.pending() is None
        booms += sum(1 for e in g.log.of_kind("explosion_check") if e.data["explodes"])
    agrees_p(p_explode(ammo), booms, n)


# -- smash collisions: the engine's resolve_collisions ---------------------------------------------
@RUNS
@given(car_gear=st.integers(1, 6), buggy_gear=st.integers(1, 6),
       reactions=st.sampled_from([("smash", "smash"), ("smash", "evade"), ("evade", "smash")]),
       seed=st.integers(0, 10 ** 6))
def test_t_bone_smash_odds_match_the_engines_collision(
        car_gear: int, buggy_gear: int, reactions: tuple[str, str], seed: int) -> None:
    # A middleweight car T-bones a lightweight buggy (p.57 table).
    exact = smash_odds("t_bone", Side(car_gear, 2, reactions[0]),
                       Side(buggy_gear, 1, reactions[1]))
    rng = SeededDice(seed)
    n = 300
    to_car: Counter[int] = Counter()
    to_buggy: Counter[int] = Counter()
    for _ in range(n):
        state = t_bone_table(car_gear, buggy_gear)
        for v in state.vehicles.values():
            v.hull = 99

        def step(g: Game) -> Flow:
            yield from resolve_collisions(g, g.state.vehicles["car"], ["buggy"])

        g = game(state, step, rng, 20)
        for r in reactions:
            d = g.pending()
            assert d is not None and d.kind == "collision_reaction"
            g.apply(r)
        assert g.pending() is None
        to_car[g.state.vehicles["car"].damage] += 1
        to_buggy[g.state.vehicles["buggy"].damage] += 1
        assert g.state.vehicles["car"].hazards == exact.a.hazards
    agrees(exact.a.damage, to_car, n)
    agrees(exact.b.damage, to_buggy, n)


@RUNS
@given(rear_gear=st.integers(1, 6), front_gear=st.integers(1, 6), seed=st.integers(0, 10 ** 6))
def test_tailgate_smash_odds_match_the_engines_collision(
        rear_gear: int, front_gear: int, seed: int) -> None:
    exact = smash_odds("tailgate", Side(rear_gear, 2), Side(front_gear, 2, rear_hit=True))
    rng = SeededDice(seed)
    n = 300
    to_leader: Counter[int] = Counter()
    for _ in range(n):
        state = tailgate_table(rear_gear, front_gear)
        for v in state.vehicles.values():
            v.hull = 99

        def step(g: Game) -> Flow:
            yield from resolve_collisions(g, g.state.vehicles["chaser"], ["leader"])

        g = game(state, step, rng, 20)
        asked = 0
        while g.pending() is not None:
            g.apply("smash")
            asked += 1
        assert (asked == 0) == exact.forced_evade
        to_leader[g.state.vehicles["leader"].damage] += 1
        assert g.state.vehicles["leader"].hazards == exact.b.hazards
    agrees(exact.b.damage, to_leader, n)
