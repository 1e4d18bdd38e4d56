"""What a seat (or a spectator) may read of a game with hidden information.

The engine's log keeps every secret (kernel/secrets.py): the replay file and snapshots hold
them and replay exactly. Everything the server shows a client passes through here first: the
game view's log lines (REST and websocket frames), the log download, the raw events, the
replay steps and the terminal's log. Events carrying a secret another seat holds are shown
redacted (their hidden fields blanked), and the seat's own secrets are listed in its view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from carnage.kernel.events import Event
from carnage.kernel.game import KernelGame
from carnage.kernel.secrets import REDACTED, redact_all, visible_secrets
from carnage.web.plain import Names, player_name
from carnage.web.schemas import SecretView


def viewer_key(viewers: Iterable[int]) -> tuple[int, ...]:
    """The seats a view is for, as a cache key (spectators: the empty tuple)."""
    return tuple(sorted(set(viewers)))


def events_for(game: KernelGame, events: Sequence[Event], viewers: Iterable[int]) -> list[Event]:
    """``events`` as ``viewers`` may read them."""
    return redact_all(events, viewers)


def secret_views(game: KernelGame, viewers: Iterable[int]) -> list[SecretView]:
    """The secrets ``viewers`` hold or may see, for their view."""
    if getattr(game.state, "secrets", None) is None:
        return []
    return [SecretView(key=k, kind=s.kind, label=s.label, text=s.text, owner=s.owner)
            for k, s in visible_secrets(game, viewers)]


def _whose(names: Names, seat: object) -> str:
    return "" if seat is None else f"{player_name(names, seat)}'s "


def secret_sentence(e: Event, names: Names) -> str | None:
    """The log sentence of a secret-carrying or redacted event; None for any other (the
    ordinary sentences apply)."""
    d = e.data
    label = str(d.get("label") or "secret")
    who = d.get("player")
    if e.kind == "secret":
        if d.get(REDACTED):
            owner = "The table" if who is None else player_name(names, who)
            return f"{owner} now holds a {label.lower()}, face down"
        return f"{_whose(names, who) or 'The table: '}{label.lower()}: {d.get('text')}"
    if e.kind == "secret_revealed":
        why = d.get("why")
        return (f"{_whose(names, who)}{label.lower()} is revealed: {d.get('text')}"
                + (f" ({why})" if why else ""))
    if not d.get(REDACTED):
        return None
    if e.kind in ("decision", "forced_choice"):
        what = str(d.get("decision") or "").replace("_", " ")
        return f"{player_name(names, who)} chose in secret ({what})"
    if e.kind == "roll":
        return f"Dice rolled face down ({d.get('why')})"
    return f"{e.kind.replace('_', ' ').capitalize()} (kept secret)"
