"""Dice sources: the only randomness the engine may use.

A game receives a ``DiceSource``. ``SeededDice`` is the default (reproducible from its seed);
``ScriptedDice`` replays a fixed list of results and is what rules tests use.
"""

from __future__ import annotations

import base64
import binascii
import random
import struct
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable


class DiceExhausted(RuntimeError):
    """A scripted dice source was asked for more dice than the script holds."""


@runtime_checkable
class DiceSource(Protocol):
    def roll(self, n: int, sides: int = 6) -> list[int]:
        """Roll ``n`` dice of ``sides`` faces together; results in roll order."""
        ...


@runtime_checkable
class KeyedDice(Protocol):
    """Dice that draw each roll from what it is for (the search bot's simulated dice,
    ``ai/search.py`` ``PurposeDice``): a game that names a roll's purpose (``key``: the rule,
    the turn, the vehicles) lets such dice give the same roll to the same event in two lines
    of play that rolled different dice before it. Real dice never need it; a game asks for
    ``roll_for`` only when its dice have it."""

    def roll_for(self, key: str, n: int, sides: int = 6) -> list[int]:
        """Roll ``n`` dice of ``sides`` faces for the purpose ``key``."""
        ...


def check_dice_source(dice: object) -> None:
    """``ValueError`` naming what was given if ``dice`` cannot roll (a game's ``dice`` option
    takes a dice source such as ``SeededDice``, never a name or a number)."""
    if dice is not None and not callable(getattr(dice, "roll", None)):
        raise ValueError(f"dice: expected a dice source with roll(n, sides) (e.g. SeededDice), "
                         f"not {type(dice).__name__} {dice!r:.40}")


class SeededDice:
    """Pseudo-random dice from a seed; ``state()``/``restore()`` make it part of a saved game."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.rolled = 0

    @staticmethod
    def at(seed: int | str, state: tuple[Any, ...]) -> SeededDice:
        """Dice of ``seed`` standing where ``state`` (from ``state()``) says: as
        ``SeededDice(seed)`` then ``restore(state)``, without seeding a generator first only to
        overwrite its state."""
        out = SeededDice.__new__(SeededDice)
        out.seed = seed
        out._rng = random.Random.__new__(random.Random)
        out.restore(state)
        return out

    def roll(self, n: int, sides: int = 6) -> list[int]:
        _check(n, sides)
        self.rolled += n
        # randint(1, sides) is 1 + _randbelow(sides) (random.py: randint -> randrange, whose
        # unit-step path is start + _randbelow(width)): the same draws, without two calls.
        below: Callable[[int], int] = self._rng._randbelow  # type: ignore[attr-defined]
        return [1 + below(sides) for _ in range(n)]

    def state(self) -> tuple[Any, ...]:
        return (self._rng.getstate(), self.rolled)

    def restore(self, state: tuple[Any, ...]) -> None:
        rng, self.rolled = state
        self._rng.setstate(rng)

    def fork(self) -> SeededDice:
        """Independent dice with the same seed (``restore`` then sets where they are)."""
        return SeededDice.at(self.seed, self.state())


class ScriptedDice:
    """Returns the scripted results in order; raises ``DiceExhausted`` when they run out."""

    def __init__(self, results: Iterable[int]) -> None:
        self._results = list(results)
        self._i = 0

    def roll(self, n: int, sides: int = 6) -> list[int]:
        _check(n, sides)
        if self._i + n > len(self._results):
            raise DiceExhausted(
                f"script has {len(self._results) - self._i} dice left, {n} were rolled"
            )
        out = self._results[self._i : self._i + n]
        self._i += n
        for v in out:
            if not 1 <= v <= sides:
                raise ValueError(f"scripted result {v} is not a face of a D{sides}")
        return out

    def state(self) -> int:
        return self._i

    def restore(self, state: int) -> None:
        self._i = int(state)

    def fork(self) -> ScriptedDice:
        out = ScriptedDice(self._results)
        out._i = self._i
        return out

    @property
    def remaining(self) -> int:
        return len(self._results) - self._i


def dice_to_json(dice: DiceSource, state: Any, *, packed: bool = False) -> dict[str, Any]:
    """The dice of a snapshot: their kind, seed or script, and where they stood (``state``,
    from their ``state()``). ``packed`` (snapshot version 2): the generator's words as one
    base64 string of little-endian 32-bit words, not a list of numbers."""
    if isinstance(dice, SeededDice):
        (version, internal, gauss), rolled = state
        words: Any = list(internal)
        if packed:
            words = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode()
        return {"kind": "seeded", "seed": dice.seed, "rng": [version, words, gauss],
                "rolled": rolled}
    if isinstance(dice, ScriptedDice):
        return {"kind": "scripted", "results": list(dice._results), "at": int(state)}
    raise ValueError(f"dice of type {type(dice).__name__} cannot be saved")


def _words(xs: Sequence[Any]) -> bool:
    """Whether every item is an int (not a bool) from 0 to 2**32 - 1."""
    if not xs:
        return True
    return {type(x) for x in xs} == {int} and min(xs) >= 0 and max(xs) < 2**32


def _unpacked(words: Any) -> Any:
    """The generator's words from their packed form (``dice_to_json(packed=True)``), as a
    tuple; a list (the plain form) or anything malformed as it is, for the checks that follow;
    None when the string is not base64 of whole 32-bit words."""
    if type(words) is not str:
        return words
    try:
        data = binascii.a2b_base64(words, strict_mode=True)  # b64decode(validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(data) % 4:
        return None
    return struct.unpack(f"<{len(data) // 4}I", data)


def dice_from_json(raw: Any) -> tuple[DiceSource, Any]:
    """Dice and their state from ``dice_to_json``; ``ValueError`` naming what is wrong."""
    if not isinstance(raw, dict):
        raise ValueError("dice: expected an object")
    kind = raw.get("kind")
    if kind == "seeded":
        seed = raw.get("seed")
        rng: Any = raw.get("rng")
        packed = isinstance(rng, list) and len(rng) == 3 and type(rng[1]) is str
        if packed:  # words unpacked from 32-bit fields: each an int from 0 to 2**32 - 1
            rng = [rng[0], _unpacked(rng[1]), rng[2]]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError("dice: seed must be an integer or a string")
        if (not isinstance(rng, list) or len(rng) != 3
                or not isinstance(rng[1], tuple if packed else list)
                or not (packed or _words(rng[1]))
                or type(rng[0]) is not int
                or not (rng[2] is None or type(rng[2]) is float)):
            raise ValueError("dice: bad generator state")
        rolled = raw.get("rolled", 0)
        if type(rolled) is not int or rolled < 0:
            raise ValueError("dice: rolled must be a whole number, at least 0")
        state = ((int(rng[0]), tuple(rng[1]), rng[2]), rolled)
        try:
            seeded = SeededDice.at(seed, state)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueError(f"dice: bad generator state ({e})") from None
        return seeded, state
    if kind == "scripted":
        results = raw.get("results")
        at = raw.get("at")
        if not isinstance(results, list) or not all(type(x) is int for x in results):
            raise ValueError("dice: a script is a list of integers")
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(results):
            raise ValueError("dice: script position out of range")
        scripted = ScriptedDice(results)
        scripted.restore(at)
        return scripted, at
    raise ValueError(f"dice: unknown kind {kind!r}")


def _check(n: int, sides: int) -> None:
    if n < 0:
        raise ValueError(f"cannot roll {n} dice")
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides, not {sides}")


class SkidFace(StrEnum):
    """Skid dice faces (Refuelled p.21): three Shifts, one each of Hazard, Spin and Slide."""

    HAZARD = "hazard"
    SPIN = "spin"
    SLIDE = "slide"
    SHIFT = "shift"


# Reading a plain D6 as a skid die (Refuelled p.21 table; its faces are lost in the text layer,
# see docs/rulings.md): 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift.
_SKID_FROM_D6 = {
    1: SkidFace.HAZARD,
    2: SkidFace.SPIN,
    3: SkidFace.SLIDE,
    4: SkidFace.SHIFT,
    5: SkidFace.SHIFT,
    6: SkidFace.SHIFT,
}


def skid_face(d6: int) -> SkidFace:
    try:
        return _SKID_FROM_D6[d6]
    except KeyError:
        raise ValueError(f"{d6} is not a D6 result") from None
