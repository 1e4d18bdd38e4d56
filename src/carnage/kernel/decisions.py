"""Decisions: what the engine asks a controller (human, bot, test, web client) to choose.

The engine never prompts. It exposes a ``Decision`` (who decides, what kind, the legal options or
a continuous domain) and takes a choice; an illegal choice raises ``IllegalChoice`` with the
reason and leaves the game unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


class IllegalChoice(ValueError):
    """A choice that the pending decision does not allow; the message says why."""


@dataclass(frozen=True)
class Option:
    value: str | int
    label: str = ""


@dataclass(frozen=True)
class Interval:
    """A continuous choice, e.g. a spin angle in degrees within [low, high]."""

    low: float
    high: float
    unit: str = "deg"

    def contains(self, x: float) -> bool:
        return self.low - 1e-9 <= x <= self.high + 1e-9


@dataclass(frozen=True)
class Decision:
    player: int
    kind: str
    """E.g. ``activate``, ``template``, ``skid_dice``, ``spend_shift``, ``spin``, ``target``."""
    prompt: str
    options: tuple[Option, ...] = ()
    domain: Interval | None = None
    source: str = "core"
    page: int | None = None
    vehicle: str | None = None
    """Id of the vehicle the decision is about (the active vehicle, the one deploying ...)."""
    target: str | None = None
    """Id of the other vehicle or object it concerns (the one shot at, collided with ...)."""
    weapon: str | None = None
    """Key of the weapon or upgrade mount it concerns (``machine_gun#0``)."""
    hidden: bool = False
    """A secret choice: the log shows it only to ``player`` (kernel/secrets.py)."""
    confirm: bool = False
    """Asked even with one option: a step the people at a real table take by hand before
    play goes on (a Spin turned, then Done), never taken for them as a forced choice."""

    def __post_init__(self) -> None:
        if bool(self.options) == (self.domain is not None):
            raise ValueError("a decision has either options or a continuous domain")

    def validate(self, choice: Any) -> str | int | float:
        """The choice in canonical form, or ``IllegalChoice`` naming what is wrong."""
        if self.domain is not None:
            if isinstance(choice, bool) or not isinstance(choice, int | float):
                raise IllegalChoice(f"{self.kind}: expected a number, got {_shown(choice)}")
            try:
                x = float(choice)
            except OverflowError:  # an integer beyond any float, e.g. 10**400
                x = math.inf
            if not math.isfinite(x) or not self.domain.contains(x):
                raise IllegalChoice(
                    f"{self.kind}: {_shown(choice)} is outside "
                    f"[{self.domain.low:g}, {self.domain.high:g}] {self.domain.unit}"
                )
            return x
        for opt in self.options:
            if opt.value == choice and type(opt.value) is type(choice):
                return opt.value
        legal = ", ".join(repr(o.value) for o in self.options)
        if isinstance(choice, bool):
            raise IllegalChoice(f"{self.kind}: {choice!r} is not an option (a boolean is never "
                                f"an option index; legal: {legal})")
        raise IllegalChoice(
            f"{self.kind}: {_shown(choice)} is not a legal choice (legal: {legal})")


def _shown(choice: Any) -> str:
    """A choice as an error message shows it: never a 400-digit number or a huge string."""
    if isinstance(choice, int) and not isinstance(choice, bool) and abs(choice) >= 10**30:
        return f"an integer of about {int(choice.bit_length() * 0.30103) + 1} digits"
    text = repr(choice[:61] if isinstance(choice, str) else choice)
    return text if len(text) <= 60 else text[:57] + "..."


def lenient_choice(d: Decision, choice: Any) -> str | int | float:
    """``choice`` validated for ``d``; a form's string "2" is taken for the option 2 (and a
    number for the option that prints as it), so browser controls need no type juggling.
    ``IllegalChoice`` if it still names nothing."""
    try:
        return d.validate(choice)
    except IllegalChoice:
        if d.domain is not None and isinstance(choice, str):
            try:
                return d.validate(float(choice))
            except ValueError:
                pass
        elif d.domain is None and not isinstance(choice, bool):
            for o in d.options:
                if str(o.value) == str(choice) or (
                    isinstance(choice, float) and choice.is_integer() and o.value == int(choice)
                    and isinstance(o.value, int)
                ):
                    return d.validate(o.value)
        raise
