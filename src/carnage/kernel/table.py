"""What the web table asks of a ruleset that draws its own tabletop (``TableOffer.tabletop``)
and how it asks for a new game (``TableRequest``), typed, so the table's one session path
reaches every ruleset's games through its ``Ruleset`` alone.

A ruleset with a tabletop (Refuelled's, shared by the Kart variant and Legacy:
``games/refuelled/table_view.py``) builds the whole view of a game for some seats; a ruleset
without one (Devil's Run) offers a partial ``TableOffer.view`` that the table frames with the
fields every view has. Nothing here names a rule of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from carnage.kernel.decisions import Decision
from carnage.kernel.events import Event


@dataclass(frozen=True)
class TableSeat:
    """A seat at the table: who plays it and the name of the team it brought ("" none)."""

    seat: int
    controller: str
    team: str = ""


@dataclass(frozen=True)
class TableContext:
    """What the session tells a tabletop about the view it asks for."""

    gid: str
    """The game's id on the table (its SVG is at ``/api/games/<gid>/svg``)."""
    seats: tuple[TableSeat, ...]
    viewers: tuple[int, ...]
    """The seats the view is for (none: a spectator): other seats' secrets are redacted."""
    your_seat: int | None
    seed: int
    seed_chosen: bool
    """False: the server drew the seed, unknown to everyone until the game ends."""
    log_cache: dict[int, Any] = field(default_factory=dict, compare=False)
    """Log lines already written for these viewers, by sequence number (events never change)."""
    events: Sequence[Event] | None = None
    """A step of a whole replay: only these events in its log (None: the newest)."""
    replay: tuple[int, int] | None = None
    """The view after ``step`` of ``steps`` choices, asked of a replay (None: the game now)."""
    with_preview: bool = True
    """Drawing help for the pending decision (replay steps go without)."""
    bot_notes: Sequence[Any] = ()
    """The search bots' latest decisions explained (the table's ``BotNoteView``), newest first."""


class Tabletop(Protocol):
    """How a ruleset that draws its own tabletop shows its games to the web table."""

    def view(self, game: Any, ctx: TableContext) -> Any:
        """The whole view of ``game`` for ``ctx.viewers``: a pydantic model (serialised by its
        ``model_dump_json``) or a JSON mapping."""
        ...

    def log_lines(self, game: Any, events: Sequence[Event],
                  cache: dict[int, Any]) -> Sequence[Any]:
        """``events`` as the table's log lines (``LogLine``), ``cache`` keeping those written."""
        ...

    def accept(self, d: Decision, choice: Any) -> Any:
        """``choice`` as ``d`` takes it; ``IllegalChoice`` if it names no option."""
        ...

    def refused(self, game: Any, d: Decision, choice: Any, reason: str) -> str:
        """The sentence for a refused choice, in the table's words."""
        ...

    def seat_label(self, seat: int) -> str:
        """A seat in plain words."""
        ...

    def board_svg(self, game: Any, title: str) -> str:
        """The table as SVG."""
        ...


@dataclass(frozen=True)
class TableRequest:
    """A new game as the table asks for it: a scenario (None: the ruleset's first), one
    entry per seat (a saved team's id, or None: the scenario's own), team-game sides, the
    dice seed. ``saved_team(seat, team_id)`` -> that saved team checked legal (a ``TeamSpec``);
    it raises ``SetupRefused`` naming the seat and what is wrong."""

    scenario: str | None
    team_ids: tuple[str | None, ...]
    sides: tuple[tuple[int, ...], ...]
    seed: int
    saved_team: Callable[[int, str], Any]


@dataclass(frozen=True)
class TableSetup:
    """How the table sets up, stores and rebuilds a ruleset's games (``TableOffer.setup``).
    Every function raises ``SetupRefused`` (a ``ValueError``) naming what is wrong."""

    new: Callable[[TableRequest], Any]
    """The set-up of a new game (the ruleset's own set-up object)."""
    from_json: Callable[[Mapping[str, Any]], Any]
    """A stored set-up read back."""
    to_json: Callable[[Any], dict[str, Any]]
    """A set-up as stored (it names ``ruleset`` and ``scenario``)."""
    build: Callable[[Any, int], Any]
    """``build(setup, seed)`` -> the game, started, no choice applied."""
    build_unstarted: Callable[[Any, int, Any], Any] | None = None
    """``build_unstarted(setup, seed, dice)`` -> the game built with the dice source ``dice``
    and not yet started (its ``start()`` runs the set-up), so a game with dice rolled at the
    table asks its set-up's rolls too (the roll-off for Pole Position: kernel/table_dice.py).
    None: such a game is wrapped after it started, its set-up rolled on screen."""
