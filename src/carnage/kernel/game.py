"""The driver every ruleset's game shares: pending decision, apply, outcome, clone, snapshot.

A ruleset writes its flow of play as generators that ``yield`` a ``Decision`` whenever a player
must choose (OpenSpiel's one driver loop; python-chess's ``push``). The driver keeps all of a
game's memory in its state, so that a game can be copied and saved at any decision:

* **State** (a ``KernelState`` subclass) holds the board, the flow's position, the effects'
  memory (``memory``, keyed by effect id), event counters (``counts``) and the *effect
  journal* (``installed``): every installer that ran, in order, with JSON arguments.
  Handlers are rebuilt from the journal on a copy, so they never point into another game.
* **Checkpoints.** The flow calls ``checkpoint()`` at the points it can resume from its state
  alone (Refuelled: the start of a player's turn in a Gear Phase). The driver keeps a copy of
  the state and the dice there (with ``lazy_checkpoints``, a game that changes only through
  ``apply``, only when needed: it marks the place, and the first copy made after it copies
  the state there while it replays). ``clone()`` copies that checkpoint, rebuilds the effects from
  the journal, re-enters the flow and re-applies the few choices made since; ``snapshot()``
  writes the same as a versioned JSON document and ``restore`` reads it back.
* **Effects attach only in installers.** Attaching a handler outside an installer (or a
  ``temporary`` scope that removes it again) raises, since it could not be rebuilt.
"""

from __future__ import annotations

import copy
import operator
import pickle
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

import orjson
from mypy_extensions import mypyc_attr

from carnage.kernel.base_state import KernelState as KernelState  # where rulesets find it
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.dice import DiceSource, SeededDice, dice_from_json, dice_to_json
from carnage.kernel.effects import EffectRegistry
from carnage.kernel.events import Event, EventLog, JsonValue, LogLines, log_from_lines

Flow = Generator[Decision, Any, None]
"""A step of play: yields decisions, receives the chosen values."""

SNAPSHOT_VERSION = 2
"""The version ``snapshot()`` writes: 2 writes the log compactly (``events.log_to_lines``:
each distinct kind, source, page and data keys once, each event as an array of its values)
and the dice generator's words packed in one string; otherwise as version 1."""
SNAPSHOT_VERSIONS = (1, 2)
"""The versions ``restore`` reads. Version 1 wrote each event as an object
(``Event.to_json``) and the generator's words as a list of numbers."""


class GameOver(IllegalChoice):
    """A choice was applied to a finished game."""


class SnapshotError(ValueError):
    """A snapshot document cannot be restored; the message says what is wrong."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Outcome:
    winner: int | None
    draw: bool
    reason: str
    rounds: int


@mypyc_attr(native_class=False)
class Checkpoint:
    """What a copy resumes from: the state (kept pickled when it pickles, and unpickled only
    when a copy or a snapshot asks for it; or, in a restored game, kept as the JSON text of
    the snapshot's state and decoded when asked for), the dice's state, and how much of the
    log and the choices it covers."""

    __slots__ = ("_blob", "_json", "_state", "choices_len", "dice", "log_len")

    def __init__(self, state: Any, dice: Any, log_len: int, choices_len: int,
                 blob: bytes | None = None, json: bytes | None = None) -> None:
        self._state = state
        self._blob = blob
        self._json = json
        self.dice = dice
        self.log_len = log_len
        self.choices_len = choices_len

    @staticmethod
    def of(state: Any, dice: Any, log_len: int, choices_len: int) -> Checkpoint:
        """A checkpoint holding an independent copy of ``state`` (as ``copy_state`` makes)."""
        try:
            blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return Checkpoint(copy.deepcopy(state), dice, log_len, choices_len)
        return Checkpoint(None, dice, log_len, choices_len, blob)

    @staticmethod
    def of_document(raw: Any, dice: Any, log_len: int, choices_len: int) -> Checkpoint | None:
        """A checkpoint holding the state that ``raw`` (an ``encode``d state, which has
        decoded and passed a restore's checks: finite numbers, whole numbers in range, every
        value of exactly a JSON type) describes, as orjson's text of it: a few microseconds,
        where pickling the decoded state costs several times that. None if orjson cannot
        write it (a key that is not text)."""
        try:
            text = orjson.dumps(raw, option=_EXACT)
        except TypeError:  # orjson.JSONEncodeError
            return None
        return Checkpoint(None, dice, log_len, choices_len, json=text)

    @property
    def pickled(self) -> bool:
        """Whether the state is kept as bytes (pickled, or JSON text), never changed once
        made."""
        return self._blob is not None or self._json is not None

    @property
    def state(self) -> Any:
        """The state at the checkpoint (read it, never change it)."""
        if self._state is None:
            if self._blob is not None:
                self._state = pickle.loads(self._blob)
            elif self._json is not None:
                self._state = self.state_copy()
        return self._state

    def state_copy(self) -> Any:
        """A fresh, independent copy of the state at the checkpoint."""
        if self._blob is not None:
            return pickle.loads(self._blob)
        if self._json is not None:
            from carnage.kernel.codec import decode

            # decoding the text costs more than unpickling: the first copy is pickled too, for
            # the copies after it (a restored game copied once pays about what pickling at the
            # restore cost; one only snapshotted or played on, nothing)
            state = decode(orjson.loads(self._json))
            with suppress(pickle.PicklingError, TypeError, AttributeError):
                self._blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
            return state
        return copy_state(self._state)

    def state_document(self) -> Any:
        """The state at the checkpoint as ``encode`` writes it (a new document each time)."""
        if self._json is not None:
            return orjson.loads(self._json)
        from carnage.kernel.codec import encode

        return encode(self.state)


_EXACT = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | \
    orjson.OPT_PASSTHROUGH_DATETIME
"""orjson refuses (``TypeError``) what it would otherwise write its own way: subclasses of
``str``, ``int``, ``dict`` and ``list``, dataclasses, dates."""


Installer = Callable[..., None]

StateT = TypeVar("StateT", bound=KernelState)
"""A ruleset's state class (Refuelled's ``GameState``): the type of ``KernelGame.state``."""


class AttachGuard:
    """Whether a game's effect registry may attach handlers now (its ``guard``): inside an
    installer or a temporary scope, or before the flow has started. The game keeps the counts
    here rather than on itself so that the registry's guard holds no reference back to the game:
    with none, a game and its registry form no cycle, and a finished game (its log, its state)
    is freed as soon as the last reference to it goes, not by the garbage collector."""

    installing: int
    temporary: int
    flowing: bool

    def __init__(self) -> None:
        self.installing = 0
        self.temporary = 0
        self.flowing = False

    def allows(self) -> bool:
        return self.installing > 0 or self.temporary > 0 or not self.flowing


class KernelGame(ABC, Generic[StateT]):
    """Base of every ruleset's game. Subclasses provide ``flow()`` (the top-level generator,
    resuming from the state), ``install_all()`` (the installers of a new game), ``installer``
    (the function behind a journal key) and ``config()`` / ``from_config()`` for snapshots.

    A compiled class (``carnage/compiled.py``) with its own ``__init__``: mypyc cannot make a
    dataclass of a generic or abstract class, and the generic ``state`` is what lets rules code
    read a ruleset's own state class (``Game.state`` is a ``GameState``) compiled."""

    state: StateT
    dice: DiceSource
    log: EventLog
    effects: EffectRegistry
    choices: list[JsonValue]
    _pending: Decision | None
    _flow: Flow | None
    _checkpoint: Checkpoint | None
    _attach: AttachGuard
    _replaying: bool
    lazy_checkpoints: bool
    """Copy the state at a checkpoint only when a copy or a snapshot needs it (``checkpoint``).
    For games that change only through ``apply`` (simulations, tourneys, the search bot's
    rollouts): a change made to the state from outside between two choices (a test placing
    a vehicle) would not be replayed by a copy made from an earlier checkpoint."""
    _mark: tuple[int, int] | None
    """The latest checkpoint reached but not yet copied (log length, choices), if any."""
    _target: tuple[int, int] | None
    """While a copy replays: the checkpoint (log length, choices) it is to copy the state at."""
    _resumed: tuple[int, int] | None
    """Where the last resume re-entered the flow (log length, choices): the checkpoint the
    flow reaches first there is the one it resumed from, already copied."""
    _log_lines: LogLines | None
    """The log's compact form as the last snapshot wrote it (``events.LogLines``)."""

    def __init__(self, state: StateT, dice: DiceSource | None = None,
                 log: EventLog | None = None, effects: EffectRegistry | None = None,
                 choices: list[JsonValue] | None = None, *,
                 lazy_checkpoints: bool = False) -> None:
        """``dice`` default: ``SeededDice(0)``; ``log``, ``effects``, ``choices``: new, empty."""
        self.state = state
        self.dice = SeededDice(0) if dice is None else dice
        self.log = EventLog() if log is None else log
        self.effects = EffectRegistry() if effects is None else effects
        self.choices = [] if choices is None else choices
        self._pending = None
        self._flow = None
        self._checkpoint = None
        self._attach = AttachGuard()
        self._replaying = False
        self.lazy_checkpoints = lazy_checkpoints
        self._mark = None
        self._target = None
        self._resumed = None
        self._log_lines = None

    ruleset_name: ClassVar[str] = "kernel"
    state_type: ClassVar[Any] = None
    """The class of this game's state: a snapshot's state is checked against its type hints
    (kernel/validate.py) before a game is built from it. None: not checked."""
    die_faces: ClassVar[int] = 6
    """The most faces a die this game rolls has (a scripted snapshot's results are checked)."""

    # -- to be provided by a ruleset ---------------------------------------------------------------
    @abstractmethod
    def flow(self) -> Flow:
        """The top-level flow, starting or resuming where ``state`` says."""

    def install_all(self) -> None:
        """Run the installers of a new game (through ``install``, so they are journaled).
        A game whose flow reads its rules from data has none."""
        return None

    def installer(self, key: str) -> Installer:
        """The installer a journal entry names (``KeyError`` if the ruleset has none)."""
        raise KeyError(key)

    def call_installer(self, fn: Installer, args: Sequence[JsonValue]) -> None:
        fn(self, *args)

    def config(self) -> dict[str, JsonValue]:
        """What besides state, dice and log rebuilds this game (scenario, options ...)."""
        return {}

    @abstractmethod
    def blank(self, state: Any, dice: DiceSource, log: EventLog) -> Self:
        """A game with this one's configuration and the given memory, nothing installed and
        no flow started (clone and restore fill it in)."""

    def check_state(self, state: Any) -> None:
        """The ruleset's invariants of a restored state, after its types are checked (gear
        within its range, poses on the table ...): ``validate.Invalid`` naming the field."""
        return None

    def outcome(self) -> Outcome | None:
        return None

    def visible_events(self, seats: Iterable[int]) -> list[Event]:
        """The log as ``seats`` may read it: events carrying other seats' secrets redacted
        (``kernel/secrets.py``); an empty ``seats``: what a spectator reads."""
        from carnage.kernel.secrets import redact_all

        return redact_all(self.log.events, seats)

    def order_simultaneous(self, event: str, ctx: dict[str, Any],
                           effects: list[str]) -> Generator[Decision, Any, int]:
        """Which of ``effects`` (flows due at the same moment) resolves first: an index into
        ``effects``. The kernel keeps their order; a ruleset may ask a player."""
        return 0
        yield  # a generator, for rulesets that ask

    # -- starting --------------------------------------------------------------------------------
    def start(self) -> None:
        """Install the effects of a new game and run its flow to the first decision."""
        attach = self._attach
        self.effects.guard = attach.allows
        self.install_all()
        self.checkpoint()
        self._flow = self.flow()
        attach.flowing = True
        self._advance(None, first=True)

    # -- the controller API ----------------------------------------------------------------------
    def pending(self) -> Decision | None:
        """The decision the game is waiting for, or None when the game is over."""
        return self._pending

    def apply(self, choice: Any) -> None:
        """Take ``choice`` for the pending decision; ``IllegalChoice`` leaves the game as it was."""
        d = self._pending
        if d is None:
            raise GameOver("the game is over: no decision is pending")
        value = d.validate(choice)
        self.choices.append(value)
        self.log.add("decision", d.source, d.page, _choice_data(d, value))
        self._count("decision")
        self._advance(value)

    def clone(self, *, lazy: bool | None = None) -> Self:
        """An independent copy at the same decision: both continue identically under the same
        choices and dice. ``lazy``: the copy's ``lazy_checkpoints`` (None: this game's). A
        checkpoint reached but not yet copied is copied by the replay (the copy keeps the
        state there), and this game keeps that copy too."""
        cp = self._checkpoint
        assert cp is not None, "a started game always has a checkpoint"
        log = EventLog(list(self.log.events[: cp.log_len]))
        g = self.blank(cp.state_copy(), _dice_copy(self.dice, cp.dice), log)
        g.lazy_checkpoints = self.lazy_checkpoints if lazy is None else lazy
        g._target = self._mark
        try:
            g._resume(cp, list(self.choices))
        finally:
            g._target = None
        if self._mark is not None and g._checkpoint is not None and (
                g._checkpoint.log_len, g._checkpoint.choices_len) == self._mark:
            self._checkpoint, self._mark = g._checkpoint, None
        return g

    def snapshot(self, version: int = SNAPSHOT_VERSION) -> dict[str, JsonValue]:
        """The game as a versioned JSON document: ``restore`` rebuilds it exactly. ``version``
        1 writes the older, larger form (which ``restore`` still reads); a log that the compact
        form cannot hold (``log_to_lines``) is written as version 1 too."""
        if version not in SNAPSHOT_VERSIONS:
            raise ValueError(f"no snapshot version {version!r} (known: {SNAPSHOT_VERSIONS})")
        if self._mark is not None:
            self.clone()  # copies the state at the latest checkpoint
        cp = self._checkpoint
        assert cp is not None
        log: JsonValue = None
        if version == 2:
            if self._log_lines is None:
                self._log_lines = LogLines()
            log = self._log_lines.update(self.log.events)
        if log is None:
            version = 1
            log = [e.to_json() for e in self.log.events]
        return {
            "carnage_snapshot": version,
            "ruleset": self.ruleset_name,
            "config": self.config(),
            "state": cp.state_document(),
            "dice": dice_to_json(self.dice, cp.dice, packed=version == 2),
            "log": log,
            "checkpoint": {"log": cp.log_len, "choices": cp.choices_len},
            "choices": list(self.choices),
        }

    def restored(self, doc: dict[str, Any]) -> Self:
        """A game rebuilt from ``doc`` (made by ``snapshot``) with this game's configuration
        class; ``SnapshotError`` if it does not fit."""
        from carnage.kernel.codec import CodecError, decode_exact
        from carnage.kernel.validate import Invalid

        try:
            compact = check_envelope(doc)
            cp_raw = doc["checkpoint"]
            log_len, n = int(cp_raw["log"]), int(cp_raw["choices"])
            events = log_from_lines(doc["log"]) if compact else \
                [Event.from_json(e) for e in doc["log"]]
            choices = list(doc["choices"])
            state, exact = decode_exact(doc["state"])
            dice, dice_state = dice_from_json(doc["dice"])
            check_script(dice, self.die_faces)
            if self.state_type is not None:
                from carnage.kernel.validate import check_value

                check_value(state, self.state_type, "state")
            self.check_state(state)
        # (one name per clause: compiled, a name keeps the type of its first clause)
        except Invalid as invalid:
            raise SnapshotError(f"snapshot: {invalid}") from None
        except (KeyError, TypeError, ValueError, CodecError) as bad:
            raise SnapshotError(f"snapshot: {bad}") from None
        if not 0 <= log_len <= len(events) or not 0 <= n <= len(choices):
            raise SnapshotError("snapshot: checkpoint outside the log or the choices")
        g = self.blank(state, dice, EventLog(events[:log_len]))
        # The state before the replay changes it: kept as its document's text when that reads
        # back as the same state (every value of exactly a JSON type), else pickled by _resume.
        cp = (Checkpoint.of_document(doc["state"], dice_state, log_len, n) if exact else None) \
            or Checkpoint(state, dice_state, log_len, n)
        try:
            g._resume(cp, choices)
        except IllegalChoice as illegal:
            raise SnapshotError(f"snapshot: its choices do not replay ({illegal})") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                AssertionError) as e:  # an installer's own check of its journaled arguments
            raise SnapshotError(f"snapshot: its state does not fit its ruleset "
                                f"({type(e).__name__}: {e})") from None
        if not _same_log(g.log.events, events, log_len):
            raise SnapshotError("snapshot: the game does not replay to the logged events")
        return g

    # -- helpers for rules code ------------------------------------------------------------------
    def emit(self, kind: str, source: str = "core", page: int | None = None,
             **data: JsonValue) -> None:
        self._emit(kind, source, page, data)

    def _emit(self, kind: str, source: str, page: int | None,
              data: dict[str, JsonValue]) -> None:
        """``emit`` with the data as a dict (the event's own)."""
        self.log.add(kind, source, page, data)
        counts = self.state.counts
        counts[kind] = counts.get(kind, 0) + 1
        # ``logged:<kind>`` notice: rules watching a logged change (their handlers get a copy of
        # the data, the event keeps the one logged). Each kind's name made once.
        notice = _NOTICES.get(kind)
        if notice is None:
            notice = _NOTICES.setdefault(kind, f"logged:{kind}")
        if self.effects.watched(notice):
            self.effects.run_event(notice, None, {"game": self, "data": dict(data)})

    def roll(self, n: int, why: str, source: str = "core", page: int | None = None, *,
             told: str = "", roller: int | None = None, **data: JsonValue) -> list[int]:
        """Roll ``n`` D6 together and log them. Dice that tell rolls apart (table dice,
        ``kernel/table_dice.py``) are told what the roll is for (``source``, ``why``) and,
        in ``told``, who rolls what and why in plain words for the people at a real table
        ("Blue Car's player rolls evade dice against 3 hits from Red Car's Handgun");
        ``roller``: the seat whose player rolls when the rule names one other than the seat
        deciding (an evade's target), so that a real table asks that player for the faces.
        Neither is logged (the logged ``player``, when a rule logs one, is the roller too)."""
        dice = self.dice
        # Seeded dice (the usual ones) tell no rolls apart: no look-up of a ``roll_as`` they
        # lack (a missing attribute read with a default builds and drops an AttributeError).
        roll_as = None if type(dice) is SeededDice else getattr(dice, "roll_as", None)
        who = roller if roller is not None else data.get("player")
        out = (roll_as(max(0, n), 6, source, why, who if isinstance(who, int) else None, told)
               if roll_as is not None
               else dice.roll(max(0, n)))
        self.log.add("roll", source, page, {"why": why, "dice": list(out), **data})
        self._count("roll")
        return out

    def count(self, kind: str) -> int:
        """How many events of ``kind`` have been logged in this game."""
        return int(self.state.counts.get(kind, 0))

    def memory(self, effect: str, name: str, default: Any) -> Any:
        """The effect's memory ``name`` (created as ``default``), kept in the state so that a
        copy of the game has its own. Installers take it once and keep the object."""
        return self.state.memory.setdefault(effect, {}).setdefault(name, default)

    def install(self, key: str, fn: Installer, *args: JsonValue) -> None:
        """Run installer ``fn`` (known to the ruleset as ``key``) with JSON ``args``, and
        journal it unless it runs inside another installer (which re-runs it) or is already
        journaled with the same arguments."""
        entry: list[JsonValue] = [key, *args]
        attach = self._attach
        if attach.installing == 0 and not self._replaying:
            if entry in self.state.installed:
                return
            self.state.installed.append(entry)
        attach.installing += 1
        try:
            self.call_installer(fn, args)
        finally:
            attach.installing -= 1

    def attach_untracked(self, event: str, effect: str, fn: Callable[[Any, dict[str, Any]], Any],
                         priority: int = 0) -> None:
        """Attach a handler outside any installer, e.g. from a test. It is not journaled: a
        copy of this game will not have it."""
        attach = self._attach
        attach.installing += 1
        try:
            self.effects.on(event, effect, fn, priority)
        finally:
            attach.installing -= 1

    def forget(self, key: str, *args: JsonValue) -> None:
        """Drop an installer's journal entry: its effect has ended (and removed its handlers),
        so a copy of the game must not rebuild it."""
        entry: list[JsonValue] = [key, *args]
        if entry in self.state.installed:
            self.state.installed.remove(entry)

    @contextmanager
    def temporary(self, effect: str) -> Iterator[None]:
        """Handlers attached inside are part of a step and removed when it is over (they are
        never at a checkpoint, so they need no journal)."""
        attach = self._attach
        attach.temporary += 1
        try:
            yield
        finally:
            attach.temporary -= 1
            self.effects.remove_effect(effect)

    def checkpoint(self) -> None:
        """The flow can resume from the state alone here: keep a copy of it to clone from. With
        ``lazy_checkpoints`` the state is copied only when it is needed: at the game's first
        checkpoint, and when a copy or a snapshot is made later (the copy's replay copies it
        on the way; until then the game only marks the place, so a game nobody copies pays
        nothing for its checkpoints)."""
        if self._replaying:
            return
        here = (len(self.log), len(self.choices))
        if here == self._resumed and self._checkpoint is not None:
            # The flow re-entering the checkpoint a copy resumed from (nothing logged or chosen
            # since): the state is the one that checkpoint holds (re-entering a checkpoint
            # leaves the state as it was, or copies of copies would drift), so it is kept.
            return
        if not self.lazy_checkpoints or self._checkpoint is None or here == self._target:
            self._checkpoint = Checkpoint.of(self.state, _dice_state(self.dice), *here)
            self._mark = None
        else:
            self._mark = here

    @property
    def since_checkpoint(self) -> int:
        """Choices a copy made now re-applies after its checkpoint."""
        cp = self._checkpoint
        return len(self.choices) - (0 if cp is None else cp.choices_len)

    # -- internals -------------------------------------------------------------------------------
    def _count(self, kind: str) -> None:
        counts = self.state.counts
        counts[kind] = counts.get(kind, 0) + 1

    def _resume(self, cp: Checkpoint, choices: list[JsonValue]) -> None:
        """Rebuild the effects from the journal, re-enter the flow at the checkpoint and
        re-apply the choices made since."""
        attach = self._attach
        self.effects.guard = attach.allows
        self._replaying = True
        try:
            for entry in list(self.state.installed):
                key, args = str(entry[0]), entry[1:]
                attach.installing += 1
                try:
                    self.call_installer(self.installer(key), args)
                finally:
                    attach.installing -= 1
        finally:
            self._replaying = False
        # The checkpoint's pickled copy is never changed: a copy resumed from it shares it (and
        # the dice's state at it, which nothing changes either: a tuple or a number).
        self._checkpoint = cp if cp.pickled else Checkpoint.of(
            self.state, cp.dice, cp.log_len, cp.choices_len)
        self._mark = None
        self._resumed = (cp.log_len, cp.choices_len)
        self.choices = list(choices[: cp.choices_len])
        self._flow = self.flow()
        attach.flowing = True
        self._advance(None, first=True)
        for c in choices[cp.choices_len:]:
            self.apply(c)

    def _advance(self, value: Any, first: bool = False) -> None:
        assert self._flow is not None
        try:
            d = next(self._flow) if first else self._flow.send(value)
            while len(d.options) == 1 and d.domain is None and not d.confirm:
                # One legal option is no choice: take it, and say so in the log.
                only = d.options[0].value
                self._emit("forced_choice", d.source, d.page, _choice_data(d, only))
                d = self._flow.send(only)
            self._pending = d
        except StopIteration:
            self._pending = None


def _same_log(got: list[Event], want: list[Event], kept: int) -> bool:
    """Whether the replayed log ``got`` says what the snapshot's ``want`` does, event by event
    as JSON. The first ``kept`` events of ``got`` were handed over from ``want`` (the log up
    to the checkpoint): while they are the very same objects they are equal, so only the
    events since are compared, unless one was replaced."""
    if len(got) != len(want):
        return False
    if all(map(operator.is_, got[:kept], want[:kept])):
        return [e.to_json() for e in got[kept:]] == [e.to_json() for e in want[kept:]]
    return [e.to_json() for e in got] == [e.to_json() for e in want]


def check_envelope(doc: Any) -> bool:
    """The parts of a snapshot every ruleset shares: ``validate.Invalid`` naming the field.
    True when the log is in the compact form of version 2 (the document says version 2; one
    that says no version is read as version 1)."""
    from carnage.kernel.validate import Invalid, check_value, json_value, run_check

    if not isinstance(doc, dict):
        raise Invalid("snapshot", "expected a JSON object")
    cp = doc.get("checkpoint")
    if not isinstance(cp, dict):
        raise Invalid("checkpoint", "expected an object with log and choices")
    for key in ("log", "choices"):
        check_value(cp.get(key), int, f"checkpoint.{key}")
        if cp[key] < 0:
            raise Invalid(f"checkpoint.{key}", f"{cp[key]} is negative")
    version = doc.get("carnage_snapshot", 1)
    if type(version) is not int or version not in SNAPSHOT_VERSIONS:
        raise Invalid("carnage_snapshot", f"{version!r} is not a version this code reads "
                                          f"({', '.join(map(str, SNAPSHOT_VERSIONS))})")
    compact = version == 2
    if compact and not isinstance(doc.get("log"), dict):
        raise Invalid("log", "expected an object of forms and lines (snapshot version 2)")
    for key in ("choices",) if compact else ("log", "choices"):
        if not isinstance(doc.get(key), list):
            raise Invalid(key, "expected a list")
    run_check(json_value, doc["choices"], "choices")
    return compact


def check_script(dice: DiceSource, faces: int) -> None:
    """A scripted snapshot's dice: results a die of ``faces`` shows. A script may be empty
    or used up (a test's game that rolls no more dice): a roll past its end raises
    ``DiceExhausted``, which is how scripted dice end. The web table saves only seeded dice
    and resumes nothing else (web/sessions.py ``resume``)."""
    from carnage.kernel.dice import ScriptedDice
    from carnage.kernel.validate import Invalid

    if not isinstance(dice, ScriptedDice):
        return
    results = dice._results
    for i, v in enumerate(results):
        if type(v) is not int or not 1 <= v <= faces:
            raise Invalid(f"dice.results[{i}]", f"{v!r} is not a result of a D{faces}")


def _choice_data(d: Decision, choice: JsonValue) -> dict[str, JsonValue]:
    """The data of a ``decision`` or ``forced_choice`` event: who chose what for which kind of
    decision; a secret decision's choice is read only by its player (kernel/secrets.py)."""
    data: dict[str, JsonValue] = {"player": d.player, "decision": d.kind, "choice": choice}
    if d.hidden:
        data["hidden"] = ["choice"]
        data["seen_by"] = [d.player]
    return data


_NOTICES: dict[str, str] = {}
"""``logged:<kind>`` for each event kind logged so far (``KernelGame.emit``)."""


def copy_state(state: Any) -> Any:
    """An independent copy of a state (plain data: dataclasses, lists, dicts, sets)."""
    try:
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(state)


def _dice_state(dice: DiceSource) -> Any:
    fn = getattr(dice, "state", None)
    return fn() if callable(fn) else None


def _dice_copy(dice: DiceSource, state: Any) -> DiceSource:
    out = copy.copy(dice)
    fn = getattr(out, "fork", None)
    if callable(fn):
        out = fn()
    restore = getattr(out, "restore", None)
    if callable(restore) and state is not None:
        restore(state)
    return out
