"""Skid dice resolution, with the book's two worked examples (Refuelled p.40)."""

from __future__ import annotations

import pytest

from carnage.games.refuelled.engine.skid import (
    CANCEL,
    DISCARD,
    DISCARD_HAZARD,
    GEAR_DOWN,
    GEAR_UP,
    SkidResolution,
)
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import ScriptedDice, SkidFace

# D6 -> skid face as ruled in docs/rulings.md: 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift.
HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def test_example_one_car_trivial_medium_straight() -> None:
    # Car, Handling 3, Gear 2, no Hazards; Medium Straight is trivial in Gear 2 (bonus Shift).
    s = SkidResolution(gear=2, max_gear=5, hazards=0, handling=3, trivial=True)
    assert s.roll(ScriptedDice([SLIDE, SHIFT, 5]), 3) == [
        SkidFace.SLIDE, SkidFace.SHIFT, SkidFace.SHIFT,
    ]
    assert s.shifts_available == 3
    s.spend(GEAR_UP)  # gear 3, +1 hazard
    assert (s.gear, s.hazards) == (3, 1)
    s.spend(DISCARD_HAZARD)
    s.spend(CANCEL, 0)  # the Slide
    assert s.shifts_available == 0
    gained, slide, spin = s.finish()
    assert (gained, slide, spin) == (0, False, False)
    assert (s.gear, s.hazards) == (3, 0)


def test_example_two_truck_pushes_it() -> None:
    # Truck, Handling 2, Gear 3, 4 Hazards; Hard is hazardous in Gear 3 (+1 on selection -> 5).
    s = SkidResolution(gear=3, max_gear=4, hazards=5, handling=2)
    dice = ScriptedDice([SLIDE, HAZ, 6, 4])
    s.roll(dice, 2)
    assert s.uncancelled(SkidFace.SLIDE) == 1 and s.uncancelled(SkidFace.HAZARD) == 1
    s.push_it(dice, [0, 1])  # sixth hazard, reroll both: two Shifts
    assert s.hazards == 6 and s.faces == [SkidFace.SHIFT, SkidFace.SHIFT]
    s.spend(DISCARD_HAZARD)
    s.spend(DISCARD_HAZARD)
    assert s.finish() == (0, False, False)
    assert (s.gear, s.hazards) == (3, 4)


def test_uncancelled_results_gain_hazards_and_flag_slide_spin() -> None:
    s = SkidResolution(gear=2, max_gear=6, hazards=0, handling=4)
    s.roll(ScriptedDice([SLIDE, SLIDE, SPIN, HAZ]), 4)
    assert s.legal_actions() == []  # no Shift to spend
    gained, slide, spin = s.finish()
    # Two Slides still place one Slide template but give two Hazards (p.24).
    assert (gained, slide, spin) == (4, True, True)
    assert s.hazards == 4


def test_limits_enforced() -> None:
    s = SkidResolution(gear=1, max_gear=2, hazards=0, handling=2, trivial=True)
    with pytest.raises(IllegalChoice, match="between 0 and Handling 2"):
        s.roll(ScriptedDice([4, 4, 4]), 3)
    s.roll(ScriptedDice([4, 5]), 2)
    acts = s.legal_actions()
    assert (GEAR_DOWN, None) not in acts  # gear 1 is the lowest
    assert (DISCARD_HAZARD, None) not in acts  # no hazard to discard
    s.spend(GEAR_UP)
    assert (GEAR_UP, None) not in s.legal_actions()  # max gear 2 reached
    with pytest.raises(IllegalChoice, match="already rolled"):
        s.roll(ScriptedDice([4]), 1)
    with pytest.raises(IllegalChoice, match="before spending"):
        s.push_it(ScriptedDice([4]), [0])
    s.spend(DISCARD)
    s.spend(DISCARD)
    with pytest.raises(IllegalChoice, match="no Shift results left"):
        s.spend(DISCARD)


def test_push_it_once_and_valid_dice() -> None:
    s = SkidResolution(gear=2, max_gear=6, hazards=0, handling=3)
    d = ScriptedDice([1, 1, 1, 4, 4])
    s.roll(d, 3)
    with pytest.raises(IllegalChoice, match="not distinct rolled dice"):
        s.push_it(d, [0, 0])
    with pytest.raises(IllegalChoice, match="not distinct rolled dice"):
        s.push_it(d, [3])
    s.push_it(d, [2, 0])
    assert s.faces == [SkidFace.SHIFT, SkidFace.HAZARD, SkidFace.SHIFT]
    with pytest.raises(IllegalChoice, match="only once"):
        s.push_it(d, [1])


def test_cancelling_twice_is_illegal() -> None:
    s = SkidResolution(gear=3, max_gear=6, hazards=0, handling=3)
    s.roll(ScriptedDice([SPIN, 4, 5]), 3)
    s.spend(CANCEL, 0)
    with pytest.raises(IllegalChoice):
        s.spend(CANCEL, 0)
    with pytest.raises(IllegalChoice):
        s.spend(CANCEL, 1)  # a Shift is not cancelled, it is spent
