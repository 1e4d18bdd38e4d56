"""The event log: append-only, JSON-serialisable record of every roll, choice and change.

Each event names the rule that caused it (``source``) and its page, so the UI can explain every
ruling and a game can be replayed from its seed and decisions. Schema: ``docs/events.md``.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final, cast

from mypy_extensions import mypyc_attr

JsonValue = (
    None | bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"]
)


class Event:
    """One logged change: ``seq`` (its place in the log), ``kind`` (what happened: ``roll``,
    ``decision``, ``gear_change``, ``hazard``, ``damage`` ...), ``data``, ``source`` (the rule
    id that caused it, e.g. ``skid_dice`` or ``perk:slick``) and its ``page``. Immutable and
    compared by value like a frozen dataclass of those fields (``VALUE_FIELDS``); a plain
    compiled class, made for every line of every game."""

    VALUE_FIELDS: ClassVar[tuple[str, ...]] = ("seq", "kind", "data", "source", "page")
    __match_args__ = ("seq", "kind", "data", "source", "page")

    def __init__(self, seq: int, kind: str, data: dict[str, JsonValue], source: str = "core",
                 page: int | None = None) -> None:
        self.seq: Final = seq
        self.kind: Final = kind
        self.data: Final = data
        self.source: Final = source
        self.page: Final = page

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self.seq == other.seq and self.kind == other.kind and \
            self.data == other.data and self.source == other.source and self.page == other.page

    def __hash__(self) -> int:
        return hash((self.seq, self.kind, self.data, self.source, self.page))

    def __repr__(self) -> str:
        return (f"Event(seq={self.seq!r}, kind={self.kind!r}, data={self.data!r}, "
                f"source={self.source!r}, page={self.page!r})")

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        return (Event, (self.seq, self.kind, self.data, self.source, self.page))

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"seq": self.seq, "kind": self.kind, "source": self.source}
        if self.page is not None:
            out["page"] = self.page
        out["data"] = self.data
        return out

    @staticmethod
    def from_json(raw: Any) -> Event:
        """The event a log line holds; ``ValueError`` naming a malformed one (any JSON value
        may come in: typed ``Any`` so that compiled code checks it here, not at the call)."""
        if type(raw) is dict:  # a line as ``to_json`` writes it: taken as it is
            seq, kind = raw.get("seq"), raw.get("kind")
            source, page = raw.get("source", "core"), raw.get("page")
            data = raw.get("data", {})
            if (type(seq) is int and type(kind) is str and type(source) is str
                    and type(data) is dict and (page is None or type(page) is int)):
                return Event(seq, kind, dict(data), source, page)
        if not isinstance(raw, Mapping):
            raise ValueError(f"malformed event {raw!r}: not an object")
        try:
            return Event(
                seq=int(raw["seq"]),
                kind=str(raw["kind"]),
                data=dict(raw.get("data", {})),
                source=str(raw.get("source", "core")),
                page=None if raw.get("page") is None else int(raw["page"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"malformed event {raw!r}: {e}") from e


_SHORT: Final = 1 << 60
"""Whole numbers strictly within this bound are checked without a call (compiled, they are
small integers: a comparison in C)."""


def _modest(v: int) -> bool:
    """``-2**63 < v < 2**63``: a whole number ``json.dumps`` prints as it is and every JSON
    reader takes back."""
    if -_SHORT < v < _SHORT:
        return True
    return v.bit_length() < 64


def _plain(kind: object, source: object, page: object, data: dict[str, JsonValue]) -> bool:
    """True when the event is plainly JSON (str kind and source, int or no page, values that
    ``_plain_value`` passes), so ``json.dumps`` cannot fail on it; anything else is left to
    ``json.dumps`` itself. (Made for every event: typed so that compiled, it walks the data
    as a dict and compares small numbers in C.)"""
    if type(kind) is not str or type(source) is not str:
        return False
    if page is not None and not (type(page) is int and _modest(page)):
        return False
    for v in data.values():  # noqa: SIM110 (a plain loop: compiled, no generator)
        if not _plain_value(v, _DEPTH):
            return False
    return True


_DEPTH: Final = 3
"""How deeply lists and dicts are looked into by the quick check (an attack's hits are a
list of dicts of plain values); deeper ones are left to ``json.dumps``."""


def _plain_value(v: object, depth: int) -> bool:
    """Exactly a str, float, bool, None or a modest int (one ``json.dumps`` prints), or, at
    most ``depth`` levels down, a list of such values or a dict of them by str keys."""
    t = type(v)
    if t is str or t is float or t is bool or v is None:
        return True
    if t is int:
        return _modest(cast(int, v))
    if depth <= 0:
        return False
    if t is list:
        for x in cast("list[object]", v):  # noqa: SIM110 (a plain loop, as above)
            if not _plain_value(x, depth - 1):
                return False
        return True
    if t is dict:
        for k, x in cast("dict[object, object]", v).items():
            if type(k) is not str or not _plain_value(x, depth - 1):
                return False
        return True
    return False


@mypyc_attr(native_class=False)
@dataclass
class EventLog:
    events: list[Event] = field(default_factory=list)

    def emit(
        self, kind: str, source: str = "core", page: int | None = None, **data: JsonValue
    ) -> Event:
        return self.add(kind, source, page, data)

    def add(self, kind: str, source: str, page: int | None, data: dict[str, JsonValue]) -> Event:
        """``emit`` with the data as a dict (kept as the event's own: not copied)."""
        ev = Event(len(self.events), kind, data, source, page)
        if not _plain(kind, source, page, data):
            json.dumps(ev.to_json())  # fail fast on anything that would not replay
        self.events.append(ev)
        return ev

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def to_jsonl(self) -> str:
        return "".join(json.dumps(e.to_json(), sort_keys=True) + "\n" for e in self.events)

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    @staticmethod
    def read(path: str | Path) -> EventLog:
        log = EventLog()
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not JSON ({e.msg})") from e
            log.events.append(Event.from_json(raw))
        return log


FormKey = tuple[str, str, int | None, tuple[str, ...]]


def log_to_lines(events: Sequence[Event]) -> dict[str, JsonValue] | None:
    """The log in a snapshot's compact form (snapshot version 2): ``forms``, each distinct
    ``[kind, source, page, [data's keys in order]]`` once, and ``lines``, each event as its
    form's index followed by its data's values. An event's ``seq`` is its place in the log.
    None when the log cannot be written so (an event whose ``seq`` is not its place, or data
    keyed by something other than strings): the caller writes the plain form instead."""
    return LogLines().update(events)


class LogLines:
    """A log's compact form (``log_to_lines``) kept from one snapshot to the next: the events
    encoded last time are encoded again only if they are no longer the very same objects
    at the start of the log (events never change once logged), so a game saved after every
    choice encodes only the events logged since. Each document gets its own lists."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.forms: dict[FormKey, int] = {}
        self.table: list[list[JsonValue]] = []
        self.lines: list[list[JsonValue]] = []

    def update(self, events: Sequence[Event]) -> dict[str, JsonValue] | None:
        """The compact form of ``events`` (None as ``log_to_lines`` says)."""
        done = self.events
        n = len(done)
        if n > len(events) or not all(map(operator.is_, done, events[:n])):
            done.clear()
            self.forms.clear()
            self.table.clear()
            self.lines.clear()
            n = 0
        forms, table, lines = self.forms, self.table, self.lines
        for seq in range(n, len(events)):
            e = events[seq]
            if e.seq != seq:
                return None
            data = e.data
            key: FormKey = (e.kind, e.source, e.page, tuple(data))
            i = forms.get(key)
            if i is None:
                for k in key[3]:
                    if type(k) is not str:
                        return None
                i = len(table)
                forms[key] = i
                table.append([e.kind, e.source, e.page, list(key[3])])
            line: list[JsonValue] = [i]
            line.extend(data.values())
            lines.append(line)
            done.append(e)
        return {"forms": [list(f) for f in table], "lines": [list(ln) for ln in lines]}


def _form(n: int, raw: Any) -> tuple[str, str, int | None, list[str]]:
    """Form ``n`` of a compact log; ``ValueError`` naming what is wrong with it."""
    if type(raw) is list and len(raw) == 4:
        kind, source, page, keys = raw[0], raw[1], raw[2], raw[3]
        if (type(kind) is str and type(source) is str
                and (page is None or type(page) is int) and type(keys) is list):
            if not all(type(k) is str for k in keys):
                raise ValueError(f"log.forms[{n}]: data keys must be strings")
            if len(set(keys)) != len(keys):
                raise ValueError(f"log.forms[{n}]: a data key is repeated")
            return kind, source, page, keys
    raise ValueError(f"log.forms[{n}]: expected [kind, source, page or null, [keys]], "
                     f"got {raw!r}")


def log_from_lines(raw: Any) -> list[Event]:
    """The events of a compact log (``log_to_lines``); ``ValueError`` naming a malformed
    part (any JSON value may come in)."""
    if type(raw) is not dict or len(raw) != 2 or "forms" not in raw or "lines" not in raw:
        raise ValueError("log: expected an object of forms and lines")
    forms_raw, lines_raw = raw["forms"], raw["lines"]
    if type(forms_raw) is not list or type(lines_raw) is not list:
        raise ValueError("log: forms and lines must be lists")
    forms = [_form(n, f) for n, f in enumerate(forms_raw)]
    lines: list[Any] = lines_raw
    count = len(forms)
    events: list[Event] = []
    for seq, line in enumerate(lines):
        if type(line) is not list or not line:
            raise ValueError(f"log.lines[{seq}]: expected [form, values...], got {line!r}")
        values: list[Any] = line  # typed: compiled code reads it as a list
        first = values[0]
        if type(first) is not int:
            raise ValueError(f"log.lines[{seq}]: no form {first!r}")
        i: int = first
        if not 0 <= i < count:
            raise ValueError(f"log.lines[{seq}]: no form {i!r}")
        form = forms[i]
        keys = form[3]
        if len(values) != len(keys) + 1:
            raise ValueError(f"log.lines[{seq}]: {len(values) - 1} values for "
                             f"{len(keys)} keys")
        data: dict[str, JsonValue] = {}
        j = 1
        for k in keys:
            data[k] = values[j]
            j += 1
        events.append(Event(seq, form[0], data, form[1], form[2]))
    return events
