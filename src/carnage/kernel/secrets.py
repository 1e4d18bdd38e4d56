"""Hidden information per seat: secrets kept in the game state, and events that carry them.

Some rules hide things from the other players: a delivery slip dealt face down, a terrain piece
noted in secret, a Televised Season's Resistance Points (Refuelled pp.137, 141, 156). The kernel
keeps each secret in the state (``KernelState.secrets``, so clones, snapshots and replays carry
them) with the seats that may see it. The log stays complete: an event that carries a secret
names its hidden fields (``HIDDEN``) and the seats that may read them (``SEEN_BY``); whoever
shows the log to a seat or a spectator redacts the others' (``redacted``). A decision may be
secret too (``Decision.hidden``): its logged choice is then seen only by the deciding seat.

Nothing here names a rule of any game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.kernel.events import Event, JsonValue

if TYPE_CHECKING:
    from carnage.kernel.game import KernelGame

HIDDEN = "hidden"
"""Event data key: the names of the event's data fields that only ``SEEN_BY`` may read."""
SEEN_BY = "seen_by"
"""Event data key: the seats that may read the hidden fields (an empty list: nobody)."""
REDACTED = "redacted"
"""Event data key set on a redacted copy: True."""


@dataclass
class Secret:
    """One secret: its value, who may see it, what it is (``kind``, for rules) and how it
    reads (``label``: "Delivery slip"; ``text``: the value in words, as secret as the value)."""

    value: JsonValue
    seen_by: list[int]
    kind: str
    label: str
    text: str = ""
    owner: int | None = None
    """The seat it belongs to (whose slip, whose note), if any; None: the table's."""


def secrets_of(game: KernelGame[Any]) -> dict[str, Secret]:
    out: dict[str, Secret] = game.state.secrets
    return out


def keep_secret(game: KernelGame[Any], key: str, value: JsonValue, seen_by: Iterable[int], *,
                kind: str, label: str, text: str = "", owner: int | None = None,
                source: str = "core", page: int | None = None) -> Secret:
    """Keep (or replace) the secret ``key`` and log it: the table learns that ``owner`` has
    a ``label``; only ``seen_by`` learn its value."""
    seats = sorted(set(seen_by))
    s = Secret(value, seats, kind, label, text or str(value), owner)
    secrets_of(game)[key] = s
    game.emit("secret", source=source, page=page, key=key, what=kind, label=label,
              player=owner, value=value, text=s.text, hidden=["value", "text"], seen_by=seats)
    return s


def secret(game: KernelGame[Any], key: str) -> Secret | None:
    return secrets_of(game).get(key)


def reveal(game: KernelGame[Any], key: str, *, source: str = "core", page: int | None = None,
           why: str = "") -> Secret:
    """Show the secret ``key`` to everyone and forget it (``KeyError`` if there is none)."""
    s = secrets_of(game).pop(key)
    game.emit("secret_revealed", source=source, page=page, key=key, what=s.kind,
              label=s.label, player=s.owner, value=s.value, text=s.text, why=why)
    return s


def may_see(seen_by: Sequence[int] | None, viewers: Iterable[int]) -> bool:
    return seen_by is not None and bool(set(seen_by) & set(viewers))


def visible_secrets(game: KernelGame[Any], viewers: Iterable[int]) -> list[tuple[str, Secret]]:
    """The secrets ``viewers`` (seats; none: a spectator) may see, by key, in key order."""
    seats = set(viewers)
    return [(k, s) for k, s in sorted(secrets_of(game).items()) if seats & set(s.seen_by)]


def is_hidden_from(e: Event, viewers: Iterable[int]) -> bool:
    """Does ``e`` carry something ``viewers`` may not read?"""
    hidden = e.data.get(HIDDEN)
    if not hidden:
        return False
    seen = e.data.get(SEEN_BY)
    return not may_see(seen if isinstance(seen, list) else [], viewers)


def redacted(e: Event, viewers: Iterable[int]) -> Event:
    """``e`` as ``viewers`` may see it: its hidden fields blanked (None) and ``REDACTED`` set
    when they may not read them; ``e`` itself otherwise."""
    if not is_hidden_from(e, viewers):
        return e
    hidden = e.data.get(HIDDEN)
    names = {str(h) for h in hidden} if isinstance(hidden, list) else set()
    data: dict[str, Any] = {k: (None if k in names else v) for k, v in e.data.items()}
    data[REDACTED] = True
    return Event(e.seq, e.kind, data, source=e.source, page=e.page)


def redact_all(events: Iterable[Event], viewers: Iterable[int]) -> list[Event]:
    seats = list(viewers)
    return [redacted(e, seats) for e in events]


__all__ = ["HIDDEN", "REDACTED", "SEEN_BY", "Secret", "is_hidden_from", "keep_secret",
           "may_see", "redact_all", "redacted", "reveal", "secret", "secrets_of",
           "visible_secrets"]
