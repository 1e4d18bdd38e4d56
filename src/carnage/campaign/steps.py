"""Campaign decisions between games, offered one seat at a time in the book's order.

A campaign mode builds a ``Steps`` for what happens before a game (``pregame``) and after it
(``post_game``): a queue of *decisions* (a question for one seat: ``StepAsk``) and *actions*
(automatic work the book does at that point: rolling the wreck table, paying spoils), run in
order. Each resolved item may append records and queue further items (a wreck roll result
that asks which item to lose comes right after the roll).

- ``pending()`` is the question now open (or None once the sequence is done);
- ``choose(seat, value)`` answers it; a wrong seat or value raises ``SeasonError`` naming what
  is wrong and leaves the sequence exactly as it was (records, queue and dice);
- ``auto(policy)`` answers everything still open with a bot policy (default: each question's
  ``default``, the sensible choice its mode offers);
- ``records()`` is what the store appends, in one transaction, once nothing is pending.

Dice come from ``rng``, a ``random.Random(seed)``; the mode writes the seed into its records
(the game's ``seed``), so the same answers replay the same sequence exactly.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from carnage.campaign.store import Campaign, Record


class SeasonError(ValueError):
    """A season option, team, answer or change breaks the campaign's rules; one-line message."""


@dataclass(frozen=True)
class NextEvent:
    """The next game of a campaign: its number (1-based, counting every game played), its
    scenario and options, which seats play it (in engine order: engine seat ``i`` is
    ``seats[i]``), and what kind of game it is for the mode (``event``: a scheduled event;
    ``skirmish``: a Televised Season's Wasteland Skirmish; a mode may name others)."""

    number: int
    scenario: str
    seats: tuple[int, ...]
    kind: str = "event"
    label: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    """The scenario's options (``GameSetup.scenario_options``) as sorted pairs."""
    info: tuple[tuple[str, Any], ...] = ()
    """Anything else the mode wants shown or kept with the event (sorted pairs)."""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.number, "scenario": self.scenario, "seats": list(self.seats),
                "kind": self.kind, "label": self.label or self.scenario,
                "options": dict(self.options), **dict(self.info)}


def derive(seed: Any, *parts: Any) -> int:
    """A dice seed for one step sequence, from the campaign's seed and where it is."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def extended(c: Campaign, records: Sequence[Record]) -> Campaign:
    """``c`` as it will read once ``records`` are appended (nothing is written)."""
    from dataclasses import replace

    start = c.records[-1].seq + 1 if c.records else 0
    more = tuple(Record(r.kind, r.data, r.game_id, start + i, r.at)
                 for i, r in enumerate(records))
    return replace(c, records=c.records + more)


def _label(value: Any) -> str:
    return str(value)


@dataclass(frozen=True)
class StepAsk:
    """One question for one seat. ``options`` lists the legal values (``[{"value", "label"}]``)
    or is None when ``range`` (inclusive ``(low, high)``) gives a number, or when ``check``
    takes a free-form value (a whole team file as JSON in the workshop)."""

    seat: int
    kind: str
    prompt: str
    options: tuple[dict[str, Any], ...] | None = None
    range: tuple[int, int] | None = None
    rule: str = ""
    page: int | str = ""
    secret: bool = False
    """Only ``seat`` may see the question and its answer (Resistance Points, sabotage)."""
    default: Any = None
    """What a bot answers (the mode's sensible choice)."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt,
                "options": None if self.options is None else [dict(o) for o in self.options],
                "range": None if self.range is None else list(self.range),
                "rule": self.rule, "page": self.page, "secret": self.secret}

    def values(self) -> list[Any]:
        return [] if self.options is None else [o["value"] for o in self.options]


def choices(values: Iterable[Any], labels: Callable[[Any], str] = _label
            ) -> tuple[dict[str, Any], ...]:
    """``options`` for a ``StepAsk`` from plain values."""
    return tuple({"value": v, "label": labels(v)} for v in values)


Resolver = Callable[[Any, "Steps"], None]
Checker = Callable[[Any], Any]
Action = Callable[["Steps"], None]


@dataclass(frozen=True)
class Decision:
    ask: StepAsk
    resolve: Resolver
    check: Checker | None = None
    """Validates and normalises a free-form answer (raise ``SeasonError``); None: the answer
    must be one of ``ask.options`` or inside ``ask.range``."""


@dataclass(frozen=True)
class Auto:
    run: Action
    what: str = ""


Item = Decision | Auto


@dataclass
class Steps:
    """A sequence of campaign decisions and actions (see the module docstring)."""

    seed: int | None = None
    dice: random.Random | None = None
    """Dice to use instead of ``random.Random(seed)`` (scripted dice in tests)."""
    rng: random.Random = field(init=False)
    answers: list[dict[str, Any]] = field(default_factory=list)
    """Every answer given, in order (seat, kind, value), for the record and for replays."""
    _records: list[Record] = field(default_factory=list)
    _queue: deque[Item] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.rng = self.dice if self.dice is not None else random.Random(self.seed)

    # -- building ------------------------------------------------------------------------------
    def add(self, *records: Record) -> None:
        """Records written at this point of the sequence."""
        self._records.extend(records)

    def then(self, item: Item | Action) -> Steps:
        """Queue ``item`` after everything already queued."""
        self._queue.append(item if isinstance(item, Decision | Auto) else Auto(item))
        return self

    def now(self, *items: Item | Action) -> None:
        """Queue ``items`` (in order) before everything already queued: follow-ups of the item
        being resolved."""
        for item in reversed(items):
            self._queue.appendleft(item if isinstance(item, Decision | Auto) else Auto(item))

    def ask(self, ask: StepAsk, resolve: Resolver, check: Checker | None = None) -> Steps:
        return self.then(Decision(ask, resolve, check))

    def start(self) -> Steps:
        """Run the actions at the front of the queue up to the first decision."""
        self._advance()
        return self

    # -- answering -----------------------------------------------------------------------------
    def pending(self) -> StepAsk | None:
        self._advance()
        head = self._queue[0] if self._queue else None
        return head.ask if isinstance(head, Decision) else None

    def written(self) -> list[Record]:
        """The records so far (also while decisions are still open)."""
        return list(self._records)

    def choose(self, seat: int, value: Any) -> None:
        """Answer the open question as ``seat``. ``SeasonError`` (nothing changed) for the
        wrong seat, a value that is not offered, or one the rules refuse."""
        ask = self.pending()
        if ask is None:
            raise SeasonError("no campaign decision is open")
        if seat != ask.seat:
            raise SeasonError(f"it is seat {ask.seat}'s decision ({ask.kind}), not seat "
                              f"{seat}'s")
        head = self._queue[0]
        assert isinstance(head, Decision)
        value = self._checked(head, value)
        saved = (list(self._records), deque(self._queue), self.rng.getstate(),
                 list(self.answers))
        try:
            self._queue.popleft()
            self.answers.append({"seat": seat, "kind": ask.kind, "value": value})
            head.resolve(value, self)
            self._advance()
        except SeasonError:
            self._records, self._queue, state, self.answers = saved
            self.rng.setstate(state)
            raise

    def _checked(self, head: Decision, value: Any) -> Any:
        ask = head.ask
        if head.check is not None:
            return head.check(value)
        if ask.options is not None:
            for v in ask.values():
                if v == value or (not isinstance(v, str) and str(v) == str(value)):
                    return v
            shown = ", ".join(str(v) for v in ask.values())
            raise SeasonError(f"{ask.kind}: {value!r} is not one of the choices ({shown})")
        if ask.range is not None:
            try:
                n = int(value)
                if isinstance(value, bool) or str(n) != str(value).strip():
                    raise ValueError
            except (TypeError, ValueError):
                raise SeasonError(f"{ask.kind}: {value!r} is not a whole number") from None
            low, high = ask.range
            if not low <= n <= high:
                raise SeasonError(f"{ask.kind}: {n} is outside {low}..{high}")
            return n
        return value

    def auto(self, policy: Callable[[StepAsk], Any] | None = None) -> Steps:
        """Answer every open question with ``policy`` (each question's ``default`` when None
        or when the policy returns None)."""
        guard = 0
        while (ask := self.pending()) is not None:
            guard += 1
            if guard > 10_000:
                raise SeasonError("campaign decisions do not come to an end")
            value = policy(ask) if policy is not None else None
            self.choose(ask.seat, ask.default if value is None else value)
        return self

    def records(self) -> list[Record]:
        """Everything the sequence wrote; ``SeasonError`` while a decision is still open."""
        ask = self.pending()
        if ask is not None:
            raise SeasonError(f"seat {ask.seat} still has a decision to make ({ask.kind})")
        return list(self._records)

    def _advance(self) -> None:
        guard = 0
        while self._queue and isinstance(self._queue[0], Auto):
            guard += 1
            if guard > 100_000:
                raise SeasonError("campaign actions do not come to an end")
            item = self._queue.popleft()
            assert isinstance(item, Auto)
            item.run(self)


class ScriptedRandom(random.Random):
    """Dice that give the listed results in order (``randint``/``randrange``), for tests and
    for replaying recorded rolls; ``SeasonError`` if a result is out of range or runs out."""

    def __init__(self, results: Iterable[int]) -> None:
        super().__init__(0)
        self.results = list(results)

    def _next(self, low: int, high: int) -> int:
        if not self.results:
            raise SeasonError("scripted dice ran out")
        n = self.results.pop(0)
        if not low <= n <= high:
            raise SeasonError(f"scripted die {n} is outside {low}..{high}")
        return n

    def randint(self, a: int, b: int) -> int:
        return self._next(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start - 1) if stop is None else (start, stop - 1)
        return self._next(low, high)


def done(records: Sequence[Record] = ()) -> Steps:
    """A sequence with nothing to decide that writes ``records``."""
    s = Steps()
    s.add(*records)
    return s


HIDDEN = "hidden"
"""Record data key: the names of the record's fields only ``SEEN_BY`` may read."""
SEEN_BY = "seen_by"
"""Record data key: the seats that may read the hidden fields."""


def secret(data: dict[str, Any], seen_by: Sequence[int], *hidden: str) -> dict[str, Any]:
    """``data`` marked so that only ``seen_by`` may read its ``hidden`` fields (the same
    idea as the kernel's game secrets, ``carnage.kernel.secrets``)."""
    return {**data, HIDDEN: sorted(hidden), SEEN_BY: sorted(seen_by)}


def may_see(r: Record, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may read everything in ``r``."""
    hidden = r.data.get(HIDDEN)
    return not hidden or (seat is not None and seat in r.data.get(SEEN_BY, []))


def redacted(records: Sequence[Record], seat: int | None) -> list[Record]:
    """``records`` as ``seat`` may see them: a record with another seat's secret is left out
    altogether (even that it exists is secret: a contact with the Resistance, p.162)."""
    return [r for r in records if may_see(r, seat)]
