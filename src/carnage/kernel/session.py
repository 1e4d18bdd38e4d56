"""What a ruleset offers the command line, the bots' runners and the tourneys, typed: how to
make games from a request (``GameRequest`` -> ``GameMaker``), how to write and replay a game's
log (``ReplayReport``), and a scenario's report rows.

``carnage play|simulate|replay --ruleset R`` reach every ruleset of the registry through
these, never through a game package. Nothing here names a rule of any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from carnage.kernel.contract import PlayableGame
from carnage.kernel.events import JsonValue


class SetupRefused(ValueError):
    """A request, a team file or a log that cannot make a game; the message names what is
    wrong (one line, for the command line)."""


@dataclass(frozen=True)
class GameRequest:
    """What the command line asks of a ruleset: a scenario and who plays it. Options a
    ruleset does not offer are refused by it with a ``SetupRefused`` naming the option."""

    scenario: str | None = None
    """A scenario id (None: the ruleset's first)."""
    players: int | None = None
    """None: one per team file, else the scenario's own count (2 where it may vary)."""
    team_files: tuple[Path, ...] = ()
    max_rounds: int | None = None
    """A game still running after this many rounds is a draw (None: the ruleset's own)."""
    options: tuple[str, ...] = ()
    """Scenario variants as ``name=value``."""
    sides: str | None = None
    """Team games: the seats of each side, e.g. ``1,3/2,4``."""
    table: Path | None = None
    """A table laid out by hand (a layout file)."""
    random_teams: bool = False
    """New random legal teams for every game (from its seed)."""
    cans: int = 50
    """The budget of each random team."""
    sponsored: bool | None = None
    """Random teams: True a sponsor and perks for each, False none, None any sponsor or none."""
    physical: bool = False
    """Companion mode: the games are played with real cars and templates on a real table,
    the people reporting what the rules measure (a ruleset offering it sets
    ``Ruleset.physical``; others refuse it)."""
    only_apply: bool = False
    """The games change only through ``apply`` (bots' games): a ruleset may then copy its
    checkpoints only when a copy is made (``KernelGame.lazy_checkpoints``)."""


@dataclass(frozen=True)
class ReportRow:
    """One row of a scenario's progress: ``label: text``; ``tally`` rows are counted across
    games by ``carnage simulate`` under ``key`` (when ``value`` is set)."""

    key: str
    label: str
    text: str
    tally: bool = False
    value: JsonValue = None


class GameMaker(Protocol):
    """Games of one request: each begun from a seed, with its log and report."""

    @property
    def scenario_name(self) -> str:
        """The scenario's name, as a title shows it."""
        ...

    @property
    def players(self) -> int:
        ...

    def new_game(self, seed: int) -> PlayableGame:
        """A started game from ``seed`` (``SetupRefused`` if the request cannot make it)."""
        ...

    def log_text(self, game: PlayableGame, seed: int) -> str:
        """The game's log (JSON lines: a header naming the ruleset, then its events), which
        ``carnage replay`` reads back."""
        ...

    def report(self, game: PlayableGame) -> Sequence[ReportRow]:
        """The scenario's progress rows for this game."""
        ...

    def end_reason(self, game: PlayableGame) -> str:
        """How a finished game ended, in words that name no vehicle nor number (so games
        ending the same way count together)."""
        ...


@dataclass
class ReplayReport:
    """A log replayed: the game rebuilt, what the header said, and the first difference
    between the logged and the regenerated events (None: identical)."""

    game: PlayableGame
    scenario: str
    seed: int | str
    choices: int
    events: int
    difference: tuple[int, dict[str, Any] | None, dict[str, Any] | None] | None = None
    crash: str | None = None
    """The error the game raised again while replaying (as when it was played), or None."""

    @property
    def identical(self) -> bool:
        return self.difference is None


def compare_events(logged: Sequence[dict[str, Any]], fresh: Sequence[dict[str, Any]]
                   ) -> tuple[int, dict[str, Any] | None, dict[str, Any] | None] | None:
    """The first (index, logged, regenerated) pair of events that differ, or None."""
    for i in range(max(len(logged), len(fresh))):
        a = logged[i] if i < len(logged) else None
        b = fresh[i] if i < len(fresh) else None
        if a != b:
            return (i, a, b)
    return None


__all__ = ["GameMaker", "GameRequest", "ReplayReport", "ReportRow", "SetupRefused",
           "compare_events"]
