"""Decisions: what the engine asks a controller (human, bot, test, web client) to choose.

The engine never prompts. It exposes a ``Decision`` (who decides, what kind, the legal options or
a continuous domain) and takes a choice; an illegal choice raises ``IllegalChoice`` with the
reason and leaves the game unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr


class IllegalChoice(ValueError):
    """A choice that the pending decision does not allow; the message says why."""


# Plain frozen dataclasses of the value classes' fields, in order, with their defaults: what
# ``dataclasses.fields``, ``replace`` and ``is_dataclass`` read for ``Option`` and ``Decision``
# (compiled classes, built for every option and decision asked), and their parameters
# (frozen).
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class _OptionFields:
    value: str | int
    label: str = ""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class _DecisionFields:
    player: int
    kind: str
    prompt: str
    options: tuple[Option, ...] = ()
    domain: Interval | None = None
    source: str = "core"
    page: int | None = None
    vehicle: str | None = None
    target: str | None = None
    weapon: str | None = None
    hidden: bool = False
    confirm: bool = False


_FIELDS = ("player", "kind", "prompt", "options", "domain", "source", "page", "vehicle",
           "target", "weapon", "hidden", "confirm")


class Option:
    """One legal choice: its ``value`` and the ``label`` shown for it. Immutable, compared and
    hashed by its fields like the frozen dataclass it was (see ``Decision``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]] = _OptionFields.__dataclass_fields__
    __dataclass_params__: ClassVar[Any] = vars(_OptionFields)["__dataclass_params__"]
    __match_args__ = ("value", "label")
    VALUE_FIELDS: ClassVar[tuple[str, ...]] = ("value", "label")

    value: Final[str | int]
    label: Final[str]

    def __init__(self, value: str | int, label: str = "") -> None:
        self.value = value
        self.label = label

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Option)
        return self.value == other.value and self.label == other.label

    def __hash__(self) -> int:
        return hash((self.value, self.label))

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(value={self.value!r}, label={self.label!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Option, (self.value, self.label))


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Interval:
    """A continuous choice, e.g. a spin angle in degrees within [low, high]."""

    low: float
    high: float
    unit: str = "deg"

    def contains(self, x: float) -> bool:
        return self.low - 1e-9 <= x <= self.high + 1e-9


@mypyc_attr(allow_interpreted_subclasses=True)
class Decision:
    """What the engine asks a controller to choose: who decides, what kind, the legal
    ``options`` or a continuous ``domain`` (exactly one of the two).

    A compiled class (``carnage/compiled.py``), made for every choice of every game, that
    behaves as the frozen dataclass it replaced: built by position or keyword with the same
    defaults, compared and hashed by its fields (and its class), printed, pickled and copied
    the same way; ``dataclasses.fields`` and ``dataclasses.replace`` read the fields of a
    plain twin (``_DecisionFields``). Rules code may extend it (the table's ``DiceEntry``):
    compiled code looks its methods up on the object, so an override is used."""

    __dataclass_fields__: ClassVar[dict[str, Any]] = _DecisionFields.__dataclass_fields__
    __dataclass_params__: ClassVar[Any] = vars(_DecisionFields)["__dataclass_params__"]
    __match_args__ = ("player", "kind", "prompt", "options", "domain", "source", "page",
                      "vehicle", "target", "weapon", "hidden", "confirm")
    VALUE_FIELDS: ClassVar[tuple[str, ...]] = _FIELDS

    player: Final[int]
    kind: Final[str]
    """E.g. ``activate``, ``template``, ``skid_dice``, ``spend_shift``, ``spin``, ``target``."""
    prompt: Final[str]
    options: Final[tuple[Option, ...]]
    domain: Final[Interval | None]
    source: Final[str]
    page: Final[int | None]
    vehicle: Final[str | None]
    """Id of the vehicle the decision is about (the active vehicle, the one deploying ...)."""
    target: Final[str | None]
    """Id of the other vehicle or object it concerns (the one shot at, collided with ...)."""
    weapon: Final[str | None]
    """Key of the weapon or upgrade mount it concerns (``machine_gun#0``)."""
    hidden: Final[bool]
    """A secret choice: the log shows it only to ``player`` (kernel/secrets.py)."""
    confirm: Final[bool]
    """Asked even with one option: a step the people at a real table take by hand before
    play goes on (a Spin turned, then Done), never taken for them as a forced choice."""

    def __init__(self, player: int, kind: str, prompt: str, options: Sequence[Option] = (),
                 domain: Interval | None = None, source: str = "core", page: int | None = None,
                 vehicle: str | None = None, target: str | None = None,
                 weapon: str | None = None, hidden: bool = False,
                 confirm: bool = False) -> None:
        if bool(options) == (domain is not None):
            raise ValueError("a decision has either options or a continuous domain")
        self.player = player
        self.kind = kind
        self.prompt = prompt
        # any sequence of options is taken, kept as a tuple (immutable, as the decision is)
        self.options = options if type(options) is tuple else tuple(options)
        self.domain = domain
        self.source = source
        self.page = page
        self.vehicle = vehicle
        self.target = target
        self.weapon = weapon
        self.hidden = hidden
        self.confirm = confirm

    def _fields(self) -> tuple[Any, ...]:
        return (self.player, self.kind, self.prompt, self.options, self.domain, self.source,
                self.page, self.vehicle, self.target, self.weapon, self.hidden, self.confirm)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Decision)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._fields(), strict=True))
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        if type(self) is Decision:
            return (Decision, self._fields())
        # a subclass (the table's DiceEntry): its own fields kept in its __dict__
        return (_rebuilt, (type(self), self._fields(), dict(self.__dict__)))

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


def _rebuilt(cls: type[Decision], fields: tuple[Any, ...], extra: dict[str, Any]) -> Decision:
    """A pickled or copied instance of a subclass of ``Decision``: its fields set by
    ``Decision``'s own ``__init__``, the subclass's kept as they were."""
    out = cls.__new__(cls)
    Decision.__init__(out, *fields)
    out.__dict__.update(extra)
    return out


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
