"""Skid dice: rolling, Push It, spending Shifts and gaining Hazards (Refuelled pp.21-24, 40).

A ``SkidResolution`` holds one Movement Step's dice and the vehicle's gear and hazards while the
player resolves them. It offers the legal actions and applies one at a time, so the engine can
turn each into a decision. Pure: the dice come from the caller's ``DiceSource``.
"""

from __future__ import annotations

from typing import Final

from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import DiceSource, SkidFace, skid_face

# Action names offered while Shifts remain (Refuelled p.22; quick reference step 1.4).
CANCEL: Final = "cancel"  # with the index of a Hazard, Slide or Spin result
GEAR_UP: Final = "gear_up"
GEAR_DOWN: Final = "gear_down"
DISCARD_HAZARD: Final = "discard_hazard"
DISCARD: Final = "discard"  # throw away one Shift for no effect

_SHIFT: Final = SkidFace.SHIFT
_SLIDE: Final = SkidFace.SLIDE
_SPIN: Final = SkidFace.SPIN
"""The faces, read once: compiled code reads an enum's member through its class every time,
a slow look-up (the enum's metaclass has a ``__getattr__``)."""


class SkidResolution:
    """One Movement Step's skid dice (a compiled class: the compiled Movement Step reads its
    fields and calls its methods natively; every field rules set is declared below)."""

    gear: int
    max_gear: int
    hazards: int
    handling: int
    trivial: bool
    """A trivial manoeuvre adds one bonus Shift result (p.40)."""
    bonus_shifts: int
    """Bonus Shift results beyond a trivial manoeuvre's one (a team template's extra Shift
    icons, Gaslands: Legacy)."""
    min_gear: int
    """Lowest gear a Shift may change down to (an RC Car cannot change gear, p.79)."""
    # Perks (rules/perks/) set these through the ``skid_setup`` hook:
    extra_dice: int
    """Skid dice allowed beyond Handling (Overload, p.113)."""
    push_limit: int
    """Times Push It may be used (Chrome-Whisperer: any number, p.107)."""
    pushes: int
    hazard_discard: bool
    """Shifts may discard Hazards (not near Unnerving Eye Contact p.111, Don't Come Knocking)."""
    down_hazard: int
    """Hazards for a change down with a Shift (Restraint removes one instead: -1, p.110)."""
    locked: set[int]
    """Dice that must be resolved: Shifts may not cancel them (Momentum p.115, Taunt p.111)."""
    no_hazard: set[int]
    """Dice whose result is resolved without its Hazard (Purring, p.115)."""
    faces: list[SkidFace]
    cancelled: set[int]
    shifts_spent: int
    rolled: bool
    pushed: bool
    finished: bool
    gear_changes: int

    def __init__(self, gear: int, max_gear: int, hazards: int, handling: int,
                 trivial: bool = False, bonus_shifts: int = 0, min_gear: int = 1,
                 extra_dice: int = 0, push_limit: int = 1, pushes: int = 0,
                 hazard_discard: bool = True, down_hazard: int = 1,
                 locked: set[int] | None = None, no_hazard: set[int] | None = None,
                 faces: list[SkidFace] | None = None, cancelled: set[int] | None = None,
                 shifts_spent: int = 0, rolled: bool = False, pushed: bool = False,
                 finished: bool = False, gear_changes: int = 0) -> None:
        self.gear = gear
        self.max_gear = max_gear
        self.hazards = hazards
        self.handling = handling
        self.trivial = trivial
        self.bonus_shifts = bonus_shifts
        self.min_gear = min_gear
        self.extra_dice = extra_dice
        self.push_limit = push_limit
        self.pushes = pushes
        self.hazard_discard = hazard_discard
        self.down_hazard = down_hazard
        self.locked = set() if locked is None else locked
        self.no_hazard = set() if no_hazard is None else no_hazard
        self.faces = [] if faces is None else faces
        self.cancelled = set() if cancelled is None else cancelled
        self.shifts_spent = shifts_spent
        self.rolled = rolled
        self.pushed = pushed
        self.finished = finished
        self.gear_changes = gear_changes

    def __repr__(self) -> str:
        return (f"SkidResolution(gear={self.gear}, max_gear={self.max_gear}, "
                f"hazards={self.hazards}, handling={self.handling}, faces={self.faces!r}, "
                f"cancelled={self.cancelled!r}, shifts_spent={self.shifts_spent})")

    # -- rolling ---------------------------------------------------------------------------------
    def roll(self, dice: DiceSource, n: int) -> list[SkidFace]:
        """Declare and roll ``n`` skid dice together, 0 <= n <= handling (p.22)."""
        if self.rolled:
            raise IllegalChoice("skid dice: already rolled this Movement Step")
        if not 0 <= n <= self.handling + self.extra_dice:
            raise IllegalChoice(f"skid dice: {n} is not between 0 and Handling {self.handling}")
        self.faces = [skid_face(v) for v in dice.roll(n)]
        self.rolled = True
        return list(self.faces)

    def push_it(self, dice: DiceSource, indices: list[int]) -> list[SkidFace]:
        """Push It once, before spending Shifts: +1 Hazard, reroll any rolled dice (p.40)."""
        if not self.rolled:
            raise IllegalChoice("push it: roll the skid dice first")
        if self.pushes >= self.push_limit:
            raise IllegalChoice("push it: only once per Movement Step (p.40)")
        if self.shifts_spent or self.cancelled or self.finished:
            raise IllegalChoice("push it: only straight after rolling, before spending Shifts")
        bad = [i for i in indices if not 0 <= i < len(self.faces)]
        if bad or len(set(indices)) != len(indices):
            raise IllegalChoice(f"push it: dice {indices} are not distinct rolled dice")
        self.pushed = True
        self.pushes += 1
        self.hazards += 1
        new = dice.roll(len(indices))
        for i, v in zip(sorted(indices), new, strict=True):
            self.faces[i] = skid_face(v)
        return list(self.faces)

    # -- shifts ----------------------------------------------------------------------------------
    @property
    def shifts_available(self) -> int:
        rolled = 0
        for f in self.faces:
            if f is _SHIFT:
                rolled += 1
        return rolled + (1 if self.trivial else 0) + self.bonus_shifts - self.shifts_spent

    def uncancelled(self, face: SkidFace) -> int:
        return sum(1 for i, f in enumerate(self.faces) if f is face and i not in self.cancelled)

    def legal_actions(self) -> list[tuple[str, int | None]]:
        """Each legal way to spend the next Shift; empty when none remain."""
        if self.finished or self.shifts_available <= 0:
            return []
        acts: list[tuple[str, int | None]] = [
            (CANCEL, i)
            for i, f in enumerate(self.faces)
            if f is not _SHIFT and i not in self.cancelled and i not in self.locked
        ]
        if self.gear < self.max_gear:
            acts.append((GEAR_UP, None))
        if self.gear > max(1, self.min_gear):
            acts.append((GEAR_DOWN, None))
        if self.hazards > 0 and self.hazard_discard:
            acts.append((DISCARD_HAZARD, None))
        acts.append((DISCARD, None))
        return acts

    def spend(self, action: str, index: int | None = None) -> None:
        """Spend one Shift result (p.22): resolved one at a time, in any order."""
        if (action, index) not in self.legal_actions():
            why = "no Shift results left" if self.shifts_available <= 0 else "not legal now"
            what = action if index is None else f"{action} {index}"
            raise IllegalChoice(f"spend shift: {what}: {why}")
        self.shifts_spent += 1
        if action == CANCEL:
            assert index is not None
            self.cancelled.add(index)
        elif action == GEAR_UP:
            self.gear += 1
            self.gear_changes += 1
            self.hazards += 1  # changing gear gains a Hazard (p.23)
        elif action == GEAR_DOWN:
            self.gear -= 1
            self.gear_changes += 1
            self.hazards = max(0, self.hazards + self.down_hazard)
        elif action == DISCARD_HAZARD:
            self.hazards -= 1

    # -- gain hazards ----------------------------------------------------------------------------
    def finish(self) -> tuple[int, bool, bool]:
        """Discard unspent Shifts and gain 1 Hazard per uncancelled Hazard, Slide and Spin
        result (p.24). Returns (hazards gained, slide, spin)."""
        if self.finished:
            raise IllegalChoice("skid dice: already resolved")
        self.finished = True
        gained = sum(
            1
            for i, f in enumerate(self.faces)
            if f is not _SHIFT and i not in self.cancelled and i not in self.no_hazard
        )
        self.hazards += gained
        return gained, self.uncancelled(_SLIDE) > 0, self.uncancelled(_SPIN) > 0
