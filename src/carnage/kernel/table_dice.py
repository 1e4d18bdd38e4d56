"""Dice from the real table: people roll real dice and type the faces in.

The engine's only randomness is its dice source (``kernel/dice.py``). ``TableDice`` is a
source whose table rolls come from a *tape* of faces the people entered; when the tape has no
faces left for a roll, it raises ``DiceWanted`` instead of rolling. Rolls of the groups kept
on screen (``TableDice.screen``, e.g. the skid dice) come from the seeded dice as before.

``TableDiceGame`` wraps any game (a ``KernelGame`` of the Refuelled family, Devil's Run: any
object with ``pending``/``apply``/``clone``/``choices`` and a ``dice`` attribute) so that
every ruleset takes the one path here:

* Before it applies a choice it keeps a copy of the game (``clone()``). When the dice want
  faces, the half-applied game is dropped for the copy, and the pending decision becomes a
  ``DiceEntry``: "enter the faces of N dice" for the choice just made.
* Answering it puts the faces on the tape and applies the original choice again on a fresh
  copy, as often as more dice are wanted (each group of dice is one entry).
* ``choices`` holds every answer in order, the entries too (``"6,4"``): applying them to a
  new game of the same set-up and seed rebuilds it exactly (``replay``).

A game is best wrapped *before* it starts (``TableDiceGame.unstarted``, given a maker of the
built game with table dice): its set-up's rolls (the roll-off for Pole Position) are then
asked like any other, each an entry for the set-up (a ``DiceEntry`` whose ``then`` is of kind
``setup``); answering one builds the game afresh with the faces so far on the tape and starts
it again. A game wrapped after it started (a ruleset whose table set-up cannot build it
unstarted) rolled its set-up on screen; those dice are kept on the tape, so a copy replays
them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from carnage.kernel.decisions import Decision, IllegalChoice, Option
from carnage.kernel.dice import DiceSource, SeededDice, _check

ENTRY_KIND = "table_dice"
"""The kind of a ``DiceEntry`` decision."""
MAX_LISTED = 924
"""An entry lists every set of faces (ignoring order) up to this many (6D6: 462, 7D6: 792);
beyond, only the all-alike ones. Any faces are accepted whether listed or not."""
SETUP_KIND = "setup"
"""The kind of the decision a set-up's dice entry answers (no player chose anything: the game
is being set up)."""
SKID_DICE = "skid_dice"
"""The group of the Refuelled family's skid dice (the ``source`` of their rolls)."""


class DiceWanted(BaseException):
    """The table must roll ``n`` dice of ``sides`` faces (``group``: what they are for).
    A ``BaseException``, so that no rule's ``except Exception`` swallows it on its way out."""

    def __init__(self, n: int, sides: int, group: str, why: str,
                 player: int | None = None, told: str = "") -> None:
        super().__init__(f"{n}D{sides} wanted from the table ({why or group})")
        self.n, self.sides, self.group, self.why = n, sides, group, why
        self.player = player
        """The seat the roll is for, when the rule names one (a roll-off's roller)."""
        self.told = told
        """Who rolls what and why, in plain words, when the rule says (else empty)."""


@dataclass
class TableDice:
    """Dice whose rolls come from faces entered at the table (``tape``), except the groups in
    ``screen`` (rolled by ``seeded``, as on the virtual table). ``live``: a roll past the end
    of the tape raises ``DiceWanted`` (False while a game is set up: the dice are rolled on
    screen and taped)."""

    seeded: SeededDice
    screen: frozenset[str] = frozenset()
    tape: list[int] = field(default_factory=list)
    at: int = 0
    live: bool = False
    before: int = 0
    """Dice the seeded dice rolled before they were taped (a game wrapped after it was built
    and started): a copy replaying from a checkpoint taken then rolls those from the seed."""

    def roll(self, n: int, sides: int = 6) -> list[int]:
        return self.roll_as(n, sides, "", "")

    def roll_as(self, n: int, sides: int, group: str, why: str,
                player: int | None = None, told: str = "") -> list[int]:
        """Roll ``n`` dice for ``group`` (a roll's source, e.g. ``skid_dice`` or ``attack``)
        and ``why`` (its words), by ``player`` if the rule names who rolls (``told``: who
        rolls what and why, in plain words): on screen, from the tape, or ``DiceWanted``."""
        _check(n, sides)
        if n == 0:
            return []
        if group in self.screen or why in self.screen or self.seeded.rolled < self.before:
            return self.seeded.roll(n, sides)
        if self.at + n > len(self.tape):
            if self.live:
                raise DiceWanted(n - (len(self.tape) - self.at), sides, group, why, player,
                                 told)
            self.tape.extend(self.seeded.roll(self.at + n - len(self.tape), sides))
        out = self.tape[self.at:self.at + n]
        bad = [v for v in out if not 1 <= v <= sides]
        if bad:
            raise IllegalChoice(f"entered dice: {bad[0]} is not a face of a D{sides}")
        self.at += n
        return list(out)

    def state(self) -> tuple[Any, ...]:
        return (self.at, self.seeded.state())

    def restore(self, state: Any) -> None:
        # A game wrapped after it was built holds checkpoints taken with its seeded dice
        # (``(rng, rolled)``): those are before any taped roll.
        if len(state) == 2 and isinstance(state[0], int) and not isinstance(state[0], bool):
            self.at = state[0]
            self.seeded.restore(state[1])
        else:
            self.at = 0
            self.seeded.restore(state)

    def fork(self) -> TableDice:
        return TableDice(self.seeded.fork(), self.screen, list(self.tape), self.at, self.live,
                         self.before)


class DiceEntry(Decision):
    """Enter the faces of ``n`` dice of ``sides`` faces, rolled at the table for the choice
    ``then`` (the decision it answered and the chosen value, in words in the prompt). When
    the rule says who rolls what and why (``told``: "Blue Car's player rolls evade dice
    against 3 hits from Red Car's Handgun"), the prompt says that instead. A choice is the
    faces in roll order: ``"6,4"`` or ``[6, 4]``."""

    n: int
    sides: int
    group: str
    then: dict[str, Any]

    def __init__(self, *, player: int, n: int, sides: int, group: str, why: str,
                 then: Decision, value: Any, entered: Sequence[int] = (),
                 told: str = "") -> None:
        label = next((o.label for o in then.options if o.value == value and o.label), None)
        done = label or str(value)
        what = why or group.replace("_", " ") or "dice"
        more = f"; entered so far: {', '.join(map(str, entered))}" if entered else ""
        faces = "the face" if n == 1 else "the faces"
        if told:  # "Red Car's player rolls attack dice for its Handgun at Blue Car (2D6): ..."
            before = (f" (dice entered so far: {', '.join(map(str, entered))})"
                      if entered else "")
            prompt = f"{told} ({n}D{sides}): enter {faces} rolled at the table{before}"
        elif then.kind == SETUP_KIND:  # "Player 1 rolls 1D6 ... for the pole roll-off"
            prompt = (f"{done} {n}D{sides} at the table for the {what} (setting up the game"
                      f"{more}): enter {faces}")
        else:
            prompt = (f"Roll {n}D{sides} at the table for the {what} and enter {faces} "
                      f"({then.prompt} — {done}{more})")
        super().__init__(
            player=player, kind=ENTRY_KIND, prompt=prompt,
            options=_listed(n, sides), source=then.source, page=then.page,
            vehicle=then.vehicle, target=then.target, weapon=then.weapon)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "group", group)
        object.__setattr__(self, "then", {"kind": then.kind, "prompt": then.prompt,
                                          "choice": value, "label": done,
                                          "player": then.player, "why": what,
                                          "told": told, "entered": list(entered)})

    def faces(self, choice: Any) -> list[int]:
        """The faces ``choice`` names; ``IllegalChoice`` naming what is wrong."""
        raw: list[Any]
        if isinstance(choice, str):
            raw = [p.strip() for p in choice.replace(" ", ",").split(",") if p.strip()]
        elif isinstance(choice, list | tuple):
            raw = list(choice)
        elif isinstance(choice, int) and not isinstance(choice, bool) and self.n == 1:
            raw = [choice]
        else:
            raise IllegalChoice(f"{ENTRY_KIND}: expected {self.n} faces like "
                                f"{','.join(['6'] * self.n)!r}")
        out: list[int] = []
        for x in raw:
            if isinstance(x, bool):
                raise IllegalChoice(f"{ENTRY_KIND}: {x!r} is not a face")
            try:
                v = int(x)
            except (TypeError, ValueError):
                raise IllegalChoice(f"{ENTRY_KIND}: {str(x)[:20]!r} is not a face") from None
            if not 1 <= v <= self.sides:
                raise IllegalChoice(f"{ENTRY_KIND}: {v} is not a face of a D{self.sides}")
            out.append(v)
        if len(out) != self.n:
            raise IllegalChoice(f"{ENTRY_KIND}: {len(out)} faces entered, {self.n} dice "
                                "were rolled")
        return out

    def validate(self, choice: Any) -> str:
        return ",".join(map(str, self.faces(choice)))


def _listed(n: int, sides: int) -> tuple[Option, ...]:
    """The entries listed as options: every set of faces (highest first) when few enough."""
    count = 1
    for k in range(n):  # C(n + sides - 1, n)
        count = count * (sides + k) // (k + 1)
    sets: Iterable[tuple[int, ...]]
    if count <= MAX_LISTED:
        sets = itertools.combinations_with_replacement(range(sides, 0, -1), n)
    else:
        sets = [(v,) * n for v in range(sides, 0, -1)]
    return tuple(Option(",".join(map(str, s)), " ".join(map(str, s))) for s in sets)


def setup_decision(player: int) -> Decision:
    """What a set-up's dice entry answers: no choice, the game being set up (``SETUP_KIND``);
    ``player`` is the seat the rule has roll (a roll-off's roller)."""
    return Decision(player=player, kind=SETUP_KIND, prompt="Setting up the game:",
                    options=(Option("start", f"Player {player + 1} rolls"),),
                    source="setup")


def roll_entry(d: DiceEntry, rng: random.Random) -> str:
    """A fair roll answering ``d`` (a bot's or a test's answer)."""
    return ",".join(str(rng.randint(1, d.sides)) for _ in range(d.n))


def is_entry(d: Decision | None) -> bool:
    return isinstance(d, DiceEntry)


class TableDiceGame:
    """A game whose table dice are entered by people (see the module's docstring). Reads
    of anything else (``state``, ``log``, ``outcome()`` ...) go to the game it wraps."""

    def __init__(self, game: Any, screen: Iterable[str] = ()) -> None:
        seeded = game.dice
        if isinstance(seeded, TableDice):
            dice = seeded
        else:
            if not isinstance(seeded, SeededDice):
                raise ValueError("table dice wrap a game with seeded dice")
            dice = TableDice(seeded, frozenset(screen), before=seeded.rolled)
        dice.live = True
        game.dice = dice
        self.game = game
        self._screen = frozenset(screen)
        self.choices: list[Any] = list(game.choices)
        self._entry: DiceEntry | None = None
        self._base: Any = None
        """While an entry is pending: the game before the choice that wants the dice."""
        self._value: Any = None
        self._entered: list[int] = []
        self._make: Callable[[TableDice], Any] | None = None
        """A game wrapped before it started: makes it (built, not started) with given dice."""
        self._seed: Any = None
        self._setting_up = False
        """The pending entry is the set-up's: ``game`` is a half-started one, for its view."""

    @classmethod
    def unstarted(cls, make: Callable[[TableDice], Any], seed: int | str,
                  screen: Iterable[str] = ()) -> TableDiceGame:
        """The game ``make(dice)`` builds (not started), started with table dice: its set-up's
        rolls (the roll-off for Pole Position) are asked as entries like any other roll."""
        out = cls.__new__(cls)
        out.choices = []
        out._entry, out._base, out._value, out._entered = None, None, None, []
        out._make, out._seed, out._setting_up = make, seed, False
        out._screen = frozenset(screen)
        out._start([])
        return out

    def _start(self, tape: list[int]) -> None:
        """Build the game afresh and start it with ``tape``'s faces; more dice wanted: the
        pending decision is the set-up's next entry (the half-started game kept for views)."""
        assert self._make is not None
        dice = TableDice(SeededDice(self._seed), self._screen, list(tape), live=True)
        game = self._make(dice)
        try:
            game.start()
        except DiceWanted as w:
            self.game = game
            self._setting_up, self._entered = True, list(tape)
            self._base, self._value = None, None
            player = w.player if w.player is not None else 0
            self._entry = DiceEntry(player=player, n=w.n, sides=w.sides, group=w.group,
                                    why=w.why, then=setup_decision(player), value="start",
                                    entered=tape, told=w.told)
            return
        self.game = game
        self._entry, self._setting_up, self._entered = None, False, []

    # -- the controller contract -----------------------------------------------------------------
    def pending(self) -> Decision | None:
        return self._entry if self._entry is not None else self.game.pending()

    def apply(self, choice: Any) -> None:
        """Apply ``choice``: an entry's faces, or the wrapped game's pending decision (which
        may then want dice: ``pending()`` is an entry and the game is as it was)."""
        e = self._entry
        if e is None:
            d = self.game.pending()
            if d is None:
                self.game.apply(choice)  # the wrapped game's own "game over" error
                return
            value = d.validate(choice)
            base = self.game.clone()
            self.choices.append(value)
            try:
                self.game.apply(value)
            except DiceWanted as w:
                self._want(base, d, value, [], w)
            except BaseException:
                self.choices.pop()
                self.game = base
                raise
            return
        faces = e.faces(choice)
        self.choices.append(",".join(map(str, faces)))
        entered = self._entered + faces
        if self._setting_up:
            self._start(entered)
            return
        base, value = self._base, self._value
        trial = base.clone()
        _dice(trial).tape.extend(entered)
        try:
            trial.apply(value)
        except DiceWanted as w:
            d = base.pending()
            self._want(base, d, value, entered, w)
            return
        except BaseException:
            self.choices.pop()
            raise
        self.game = trial
        self._entry, self._base, self._value, self._entered = None, None, None, []

    def _want(self, base: Any, d: Decision, value: Any, entered: list[int],
              w: DiceWanted) -> None:
        self.game = base
        self._base, self._value, self._entered = base, value, entered
        # The roll's own player when the rule names one (an evade is its target's player's,
        # a Death Race catch-up roll its seat's), else the seat whose choice wants the dice.
        player = w.player if w.player is not None else d.player
        self._entry = DiceEntry(player=player, n=w.n, sides=w.sides, group=w.group,
                                why=w.why, then=d, value=value, entered=entered,
                                told=w.told)

    def clone(self, **options: Any) -> TableDiceGame:
        """An independent copy (``options`` go to the wrapped game's ``clone``, e.g. a
        ``KernelGame``'s ``lazy``), a pending entry with it."""
        out = TableDiceGame.__new__(TableDiceGame)
        out._make, out._seed, out._setting_up = self._make, self._seed, False
        out._screen = getattr(self, "_screen", frozenset())
        out.choices = list(self.choices)
        if self._setting_up:  # a half-started game has no copy: start one afresh
            out._start(list(self._entered))
            return out
        out.game = self.game.clone(**options)  # while an entry is pending, the game is its base
        out._entry, out._value, out._entered = self._entry, self._value, list(self._entered)
        out._base = out.game if self._base is not None else None
        return out

    def snapshot(self) -> dict[str, Any]:
        """Not a ruleset's snapshot (``Ruleset.restore`` refuses it): the table rebuilds a
        game with table dice from its choices (``replay``)."""
        dice = _dice(self.game)
        return {"carnage_snapshot": 1, "ruleset": "table-dice",
                "of": str(getattr(self.game, "ruleset_name", "")),
                "choices": list(self.choices), "tape": list(dice.tape),
                "screen": sorted(dice.screen)}

    def replay(self, choices: Sequence[Any]) -> None:
        """Apply ``choices`` (a game's ``choices``, entries included) in order."""
        for c in choices:
            self.apply(c)

    @property
    def entry(self) -> DiceEntry | None:
        return self._entry

    @property
    def dice(self) -> TableDice:
        return _dice(self.game)

    def outcome(self) -> Any:
        return self.game.outcome()

    def __getattr__(self, name: str) -> Any:
        if name == "game":  # not yet set (while being built): no recursion
            raise AttributeError(name)
        return getattr(self.game, name)


def _dice(game: Any) -> TableDice:
    d: DiceSource = game.dice
    if not isinstance(d, TableDice):
        raise TypeError("the wrapped game's dice are not table dice")
    return d
