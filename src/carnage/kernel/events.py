"""The event log: append-only, JSON-serialisable record of every roll, choice and change.

Each event names the rule that caused it (``source``) and its page, so the UI can explain every
ruling and a game can be replayed from its seed and decisions. Schema: ``docs/events.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from mypy_extensions import mypyc_attr

JsonValue = (
    None | bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"]
)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    """What happened: ``roll``, ``decision``, ``gear_change``, ``hazard``, ``damage`` ..."""
    data: dict[str, JsonValue]
    source: str = "core"
    """Rule id that caused it, e.g. ``skid_dice`` or ``perk:slick``."""
    page: int | None = None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"seq": self.seq, "kind": self.kind, "source": self.source}
        if self.page is not None:
            out["page"] = self.page
        out["data"] = self.data
        return out

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Event:
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


_SCALARS = frozenset({str, float, bool, type(None)})
_BIG = 1 << 63


def _plain(kind: object, source: object, page: object, data: Mapping[str, object]) -> bool:
    """True when the event is plainly JSON (str kind and source, int or no page, values of
    exactly str, float, bool, None or a modest int, or lists of those), so ``json.dumps``
    cannot fail on it; anything else is left to ``json.dumps`` itself."""
    if type(kind) is not str or type(source) is not str or \
            not (page is None or (type(page) is int and -_BIG < page < _BIG)):
        return False
    for v in data.values():
        if type(v) is list:
            if not all(_plain_scalar(x) for x in cast("list[object]", v)):
                return False
        elif not _plain_scalar(v):
            return False
    return True


def _plain_scalar(v: object) -> bool:
    """Exactly a str, float, bool, None or a modest int (one ``json.dumps`` prints)."""
    t = type(v)
    if t is int:
        return -_BIG < cast(int, v) < _BIG
    return t in _SCALARS


@mypyc_attr(native_class=False)
@dataclass
class EventLog:
    events: list[Event] = field(default_factory=list)

    def emit(
        self, kind: str, source: str = "core", page: int | None = None, **data: JsonValue
    ) -> Event:
        ev = Event(seq=len(self.events), kind=kind, data=data, source=source, page=page)
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
