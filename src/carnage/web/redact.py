"""What a seat (or a spectator) may read of a game with hidden information.

The engine's log keeps every secret (kernel/secrets.py): the replay file and snapshots hold
them and replay exactly. Everything the server shows a client passes through here first: the
game view's log lines (REST and websocket frames), the log download, the raw events, the
replay steps and the terminal's log. Events carrying a secret another seat holds are shown
redacted (their hidden fields blanked), and the seat's own secrets are listed in its view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from carnage.kernel.events import Event
from carnage.kernel.game import KernelGame
from carnage.kernel.secrets import redact_all
from carnage.render.table_schemas import secret_views as secret_views  # re-exported


def viewer_key(viewers: Iterable[int]) -> tuple[int, ...]:
    """The seats a view is for, as a cache key (spectators: the empty tuple)."""
    return tuple(sorted(set(viewers)))


def events_for(game: KernelGame[Any], events: Sequence[Event],
               viewers: Iterable[int]) -> list[Event]:
    """``events`` as ``viewers`` may read them."""
    return redact_all(events, viewers)
