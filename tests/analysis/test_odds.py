"""Exact odds (odds.py) against distributions worked out by hand, face by face.

Each expected value is written as the small arithmetic that derives it: a D6 attack die misses
on 1-3 (1/2), hits once on 4-5 (1/3) and twice on a 6 (1/6); in cover 5 is the only plain hit;
an evade die saves on a 6; a skid die is 1 Hazard, 1 Spin, 1 Slide and 3 Shift faces.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carnage.catalog import Weight
from carnage.games.refuelled.odds import (
    Dist,
    OddsError,
    Side,
    Volley,
    attack_odds,
    explode_odds,
    hits_dist,
    p_explode,
    p_flip,
    parse_weight,
    saves_dist,
    skid_odds,
    smash_odds,
    smash_table,
)

MISS, HIT, CRIT = F(1, 2), F(1, 3), F(1, 6)


def probs(d: Dist) -> dict[int, F]:
    return {k: p for k, p in d.probabilities().items() if p}


def test_one_attack_die_by_modifier() -> None:
    assert probs(hits_dist(1)) == {0: MISS, 1: HIT, 2: CRIT}
    # Cover: 5+ to hit, so 1-4 miss, a 5 hits once, a natural 6 is still two hits (p.42).
    assert probs(hits_dist(1, penalty=1)) == {0: F(4, 6), 1: F(1, 6), 2: F(1, 6)}
    # +1 to hit: 3+; the 6 is still the only Critical Hit (Dead-Eye, p.109).
    assert probs(hits_dist(1, penalty=-1)) == {0: F(2, 6), 1: F(3, 6), 2: F(1, 6)}
    # Cover and -2 more: only the natural 6 hits.
    assert probs(hits_dist(1, penalty=3)) == {0: F(5, 6), 2: F(1, 6)}
    # Headshot: a Critical Hit is three hits (p.109).
    assert probs(hits_dist(1, crit_hits=3)) == {0: MISS, 1: HIT, 3: CRIT}


def test_two_attack_dice_hits() -> None:
    assert probs(hits_dist(2)) == {
        0: MISS * MISS,
        1: 2 * MISS * HIT,
        2: HIT * HIT + 2 * MISS * CRIT,
        3: 2 * HIT * CRIT,
        4: CRIT * CRIT,
    }
    assert hits_dist(2).mean() == 2 * (HIT + 2 * CRIT)


def test_attack_against_one_evade_die() -> None:
    save, fail = F(1, 6), F(5, 6)
    a = attack_odds(2, evade_gear=1)
    h = probs(hits_dist(2))
    assert probs(a.damage) == {
        0: h[0] + h[1] * save,
        1: h[1] * fail + h[2] * save,
        2: h[2] * fail + h[3] * save,
        3: h[3] * fail + h[4] * save,
        4: h[4] * fail,
    }
    # Each evade success removes one hit unless there are none left to remove.
    assert a.expected_damage == h[1] * fail + 2 * h[2] * fail + h[2] * save + \
        3 * h[3] * fail + 2 * h[3] * save + 4 * h[4] * fail + 3 * h[4] * save
    assert a.p_at_least(1) == 1 - (h[0] + h[1] * save)
    assert a.p_at_least(5) == 0


def test_evade_gear_two_against_one_die_caps_cancels_at_the_hits() -> None:
    # One die, target in gear 2: two evade dice, P(at least one 6) = 1 - (5/6)^2.
    one_or_more = 1 - F(5, 6) ** 2
    two = F(1, 6) ** 2
    a = attack_odds(1, evade_gear=2)
    assert a.damage.p(2) == CRIT * (1 - one_or_more)
    assert a.damage.p(1) == HIT * (1 - one_or_more) + CRIT * (one_or_more - two)
    assert a.damage.p(0) == MISS + HIT * one_or_more + CRIT * two


def test_evade_bonus_and_evasive() -> None:
    # +1: 5+ saves (2 faces); Evasive +5: everything but the natural 1 saves (5 faces).
    assert probs(saves_dist(1, bonus=1)) == {0: F(4, 6), 1: F(2, 6)}
    assert probs(saves_dist(1, bonus=5, evasive=True)) == {0: F(1, 6), 1: F(5, 6)}
    assert probs(saves_dist(1, bonus=5)) == {1: F(1)}


def test_unevadable_hits_and_volleys_with_their_own_cover() -> None:
    assert attack_odds(2, evade_gear=6, evadable=False).damage == hits_dist(2)
    # Two weapons at one target, one of them in cover: the hits add up (one roll, p.32).
    mixed = attack_odds([Volley(1), Volley(1, cover=True)])
    open_, covered = probs(hits_dist(1)), probs(hits_dist(1, penalty=1))
    assert mixed.hits.p(0) == open_[0] * covered[0]
    assert mixed.hits.p(4) == open_[2] * covered[2]
    assert mixed.hits.p(1) == open_[1] * covered[0] + open_[0] * covered[1]


def test_skid_one_die_and_push_it() -> None:
    plain = skid_odds(1)
    assert probs(plain.shifts) == {0: F(1, 2), 1: F(1, 2)}
    assert probs(plain.hazards) == probs(plain.spins) == probs(plain.slides) == {
        0: F(5, 6), 1: F(1, 6)}
    pushed = skid_odds(1, push_it=True)
    # Push It only when the die is not a Shift (1/2), rerolling it: Shift 1/2 + 1/2 * 1/2.
    assert pushed.pushed == F(1, 2)
    assert pushed.shifts.p(1) == F(1, 2) + F(1, 2) * F(1, 2)
    assert pushed.spins.p(1) == F(1, 2) * F(1, 6)
    # Hazards after, from 0: kept Shift 0; pushed then Shift: 1 - 1 = 0; pushed and not: 2.
    assert probs(pushed.hazards_after) == {0: F(1, 2) + F(1, 4), 2: F(1, 4)}


def test_skid_trivial_bonus_shift_and_hazardous_hazard() -> None:
    t = skid_odds(1, trivial=True, hazards=1)
    assert probs(t.shifts) == {1: F(1, 2), 2: F(1, 2)}
    # 1 Hazard; rolled Shift: two Shifts, discard it -> 0; non-Shift: cancel it -> 1.
    assert probs(t.hazards_after) == {0: F(1, 2), 1: F(1, 2)}
    h = skid_odds(0, hazardous=True, hazards=5)
    assert probs(h.hazards_after) == {6: F(1)} and h.p_wipeout == 1


def test_skid_example_two_truck_pushing_it() -> None:
    # Refuelled p.22 example: 4 Hazards, a hazardous manoeuvre (5), two skid dice.
    # Without Push It: 0 non-Shifts -> 3, one -> 5, two -> 7: P(wipeout) = P(two) = 1/4.
    assert skid_odds(2, hazardous=True, hazards=4).p_wipeout == F(1, 4)
    # Pushing whenever a die is not a Shift (6 Hazards once pushed):
    # one non-Shift (1/2) rerolled: 6 + 1 - 1 - 2*[Shift] -> 6 unless it comes up Shift (1/2);
    # two (1/4) rerolled: 8 - 2 * (Shifts among the two) -> 6+ unless both are Shifts (3/4).
    p = skid_odds(2, push_it=True, hazardous=True, hazards=4).p_wipeout
    assert p == F(1, 2) * F(1, 2) + F(1, 4) * F(3, 4)


def test_skid_wipeout_threshold() -> None:
    assert skid_odds(1, hazards=5).p_wipeout == F(1, 2)  # a non-Shift adds the sixth
    assert skid_odds(1, hazards=5, wipeout_at=8).p_wipeout == 0  # Dutch Courage
    assert skid_odds(0, hazards=6).p_wipeout == 1


def test_flip_checks() -> None:
    assert p_flip(1) == 0  # no D6 is below 1
    assert p_flip(4) == F(3, 6)  # 1, 2, 3
    assert p_flip(6) == F(5, 6)
    assert p_flip(4, modifier=1) == F(2, 6)


def test_explosion_checks() -> None:
    assert p_explode(0) == F(1, 6)  # only a 6
    assert p_explode(2) == F(3, 6)  # 4, 5, 6
    assert p_explode(5) == 1
    assert p_explode(0, bonus=2) == F(3, 6)  # Powder Keg adds to the check
    blast = explode_odds(0, weight=Weight.LIGHTWEIGHT)
    assert blast["explosion_dice"] == 2
    assert parse_weight("heavy") is Weight.HEAVYWEIGHT
    assert parse_weight("2") is Weight.MIDDLEWEIGHT


def test_smash_head_on_both_smash_and_one_evades() -> None:
    both = smash_odds("head_on", Side(1, 2), Side(1, 2))
    assert both.a.smash_dice == both.b.smash_dice == 2  # gear 1 + gear 1
    assert both.a.damage == both.b.damage == hits_dist(2)
    assert both.a.hazards == both.b.hazards == 2
    evading = smash_odds("head_on", Side(1, 2), Side(1, 2, "evade"))
    assert probs(evading.a.damage) == {0: F(1)}  # B rolls no smash dice
    h = probs(hits_dist(2))
    assert evading.b.damage.p(0) == h[0] + h[1] * F(1, 6)  # B's one evade die (gear 1)
    both_evade = smash_odds("head_on", Side(3, 2, "evade"), Side(2, 2, "evade"))
    assert both_evade.a.hazards == 1 and both_evade.a.damage.mean() == 0


def test_smash_worked_example_p57_t_bone_and_weights() -> None:
    # A gear 5 middleweight car T-bones a gear 2 lightweight buggy: 5 + 2 (one class
    # heavier) = 7 dice; the buggy evades with 2 dice.
    o = smash_odds("t_bone", Side(5, 2), Side(2, 1, "evade"))
    assert o.a.smash_dice == 7 and o.b.smash_dice == 0
    assert o.b.damage == attack_odds(7, evade_gear=2).damage
    # Heavyweight vs lightweight: +4 and -2 dice (p.56); a lighter party can roll none.
    heavy = smash_odds("t_bone", Side(1, 3), Side(1, 1))
    assert (heavy.a.smash_dice, heavy.b.smash_dice) == (5, 0)


def test_smash_tailgate_and_obstacles() -> None:
    # The vehicle in front (hit on its rear) in the higher gear: both must evade (p.53).
    forced = smash_odds("tailgate", Side(2, 2), Side(4, 2, rear_hit=True))
    assert forced.forced_evade and forced.a.reaction == forced.b.reaction == "evade"
    assert forced.a.hazards == 1
    slower = smash_odds("tailgate", Side(4, 2), Side(1, 2, rear_hit=True))
    assert not slower.forced_evade and slower.a.smash_dice == slower.b.smash_dice == 3
    # An obstacle: head-on whatever was asked, gear 0, always smashes, takes nothing (p.54).
    rock = smash_odds("t_bone", Side(3, 2, "evade"), Side(4, 3, "evade", obstacle=True))
    assert rock.orientation == "head_on"
    assert rock.b.smash_dice == 3 + 2 and rock.b.hazards == 0  # gear 0 + 3, heavier by one
    assert rock.a.damage == attack_odds(5, evade_gear=3).damage
    assert len(smash_table("head_on", 2, 2, 2, 2)) == 4


@pytest.mark.parametrize(("call", "message"), [
    (lambda: hits_dist(-1), "attack dice must be between 0 and 60, not -1"),
    (lambda: attack_odds(2, evade_gear=7), "evade gear must be between 0 and 6, not 7"),
    (lambda: skid_odds(2, trivial=True, hazardous=True), "either trivial or hazardous"),
    (lambda: skid_odds(13), "skid dice must be between 0 and 12, not 13"),
    (lambda: p_flip(0), "gear must be between 1 and 6, not 0"),
    (lambda: p_explode(-2), "ammo tokens must be between 0 and 99, not -2"),
    (lambda: parse_weight("huge"), "unknown weight 'huge'"),
    (lambda: smash_odds("sideways", Side(1, 1), Side(1, 1)), "unknown orientation"),
    (lambda: smash_odds("head_on", Side(1, 1, "ram"), Side(1, 1)), "smash or evade"),
    (lambda: smash_odds("head_on", Side(1, 4), Side(1, 1)), "weight class must be between"),
])
def test_bad_queries_name_the_problem(call: object, message: str) -> None:
    with pytest.raises(OddsError, match=message):
        assert callable(call)
        call()


def test_floats_and_at_least_are_consistent() -> None:
    d = attack_odds(3, evade_gear=2, cover=True).damage
    fl = d.floats()
    assert abs(sum(fl.values()) - 1) < 1e-12
    at = d.at_least_floats()
    assert list(at) == [str(k) for k in range(1, d.top + 1)]
    for k in range(1, d.top + 1):
        assert at[str(k)] == pytest.approx(float(d.at_least(k)))
        assert at[str(k)] == pytest.approx(sum(fl[str(j)] for j in range(k, d.top + 1)))


def test_no_automatic_miss_on_a_natural_one() -> None:
    # Ruling OD-1: the book has no automatic miss, so at +3 to hit (Dead-Eye, Loader and
    # Double-Barreled together) every face hits; only the natural 6 is a Critical Hit.
    assert probs(hits_dist(1, penalty=-3)) == {1: F(5, 6), 2: F(1, 6)}
    assert probs(hits_dist(1, penalty=-4)) == probs(hits_dist(1, penalty=-3))


def test_skid_wipeout_that_flips_in_the_current_gear() -> None:
    # 5 Hazards, one die: Wipeout on a non-Shift (1/2); in gear 4 it flips on 1-3 (1/2).
    s = skid_odds(1, hazards=5, gear=4)
    assert s.p_wipeout_flip == F(1, 2) * F(3, 6)
    assert s.to_json()["p_wipeout_flip"] == 0.25
    assert skid_odds(1).p_wipeout_flip is None and "p_wipeout_flip" not in skid_odds(1).to_json()
    with pytest.raises(OddsError, match="gear must be between 1 and 6, not 0"):
        skid_odds(1, gear=0)


# -- invariants over many queries (Hypothesis, bounded) --------------------------------------
@settings(max_examples=60, deadline=None, derandomize=True)
@given(dice=st.integers(0, 12), gear=st.integers(0, 6), cover=st.booleans(),
       bonus=st.integers(-2, 2), crit=st.integers(2, 3))
def test_attack_distributions_are_proper_and_monotone(
        dice: int, gear: int, cover: bool, bonus: int, crit: int) -> None:
    a = attack_odds(dice, evade_gear=gear, cover=cover, to_hit_bonus=bonus, crit_hits=crit)
    for d in (a.hits, a.damage):
        assert sum(d.probabilities().values()) == 1
        assert all(d.at_least(k) >= d.at_least(k + 1) for k in range(d.top + 1))
    assert a.expected_damage <= a.hits.mean() == dice * (
        F(sum(1 for f in range(1, 6) if f >= 4 + (1 if cover else 0) - bonus), 6) + F(crit, 6))
    # One more evade die, or cover, never makes any amount of damage more likely to be reached.
    more = attack_odds(dice, evade_gear=min(6, gear + 1), cover=cover, to_hit_bonus=bonus,
                       crit_hits=crit)
    covered = attack_odds(dice, evade_gear=gear, cover=True, to_hit_bonus=bonus, crit_hits=crit)
    for k in range(a.damage.top + 1):
        assert more.p_at_least(k) <= a.p_at_least(k)
        assert covered.p_at_least(k) <= a.p_at_least(k) or cover


@settings(max_examples=60, deadline=None, derandomize=True)
@given(dice=st.integers(0, 8), push=st.booleans(), hazards=st.integers(0, 8),
       use=st.sampled_from(["", "trivial", "hazardous"]))
def test_skid_distributions_are_proper(dice: int, push: bool, hazards: int, use: str) -> None:
    s = skid_odds(dice, push_it=push, hazards=hazards, trivial=use == "trivial",
                  hazardous=use == "hazardous")
    for d in (s.shifts, s.hazards, s.spins, s.slides, s.hazards_after):
        assert sum(d.probabilities().values()) == 1
    bonus = 1 if use == "trivial" else 0
    # Every die is a Shift or one of the three other results.
    assert s.shifts.mean() - bonus + s.hazards.mean() + s.spins.mean() + s.slides.mean() == dice
    # Pushing turns non-Shifts into Shifts: never fewer Shifts to spend.
    plain = skid_odds(dice, hazards=hazards, trivial=use == "trivial",
                      hazardous=use == "hazardous")
    assert s.shifts.mean() >= plain.shifts.mean()
    assert s.pushed == (1 - F(1, 2) ** dice if push else 0)
