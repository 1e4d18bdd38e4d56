"""The one contract every game of every ruleset keeps, whatever drives it.

Controllers (a human at the terminal, a bot, the search, the reinforcement-learning
environment, a tourney, the web table) read and drive a game only through ``PlayableGame``:

* ``pending()``: the decision the game waits for (None: the game is over);
* ``apply(choice)``: take a choice for it (``IllegalChoice`` leaves the game as it was);
* ``outcome()``: who won, how, after how many rounds (None while the game runs);
* ``clone()``: an independent copy at the same decision;
* ``snapshot()``: the game as a JSON document, which its ruleset's ``restore`` reads back;
* ``log`` and ``choices``: the events so far and the choices made;
* ``players``: how many seats play;
* ``visible_events(seats)``: the log as those seats may read it (other seats' secrets
  redacted).

Refuelled's ``Game`` (and so the Kart variant's and Legacy's, which are Refuelled's) keeps it
through ``KernelGame``; Devil's Run's ``DevilsRunGame`` keeps it with its own state machine.
Each ruleset's module checks its game against the protocol for mypy, and a test checks every
ruleset of the registry at run time. Nothing here names a rule of any game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, Self, runtime_checkable

from carnage.kernel.decisions import Decision
from carnage.kernel.events import Event, EventLog, JsonValue
from carnage.kernel.game import Outcome


@runtime_checkable
class PlayableGame(Protocol):
    """A game as every controller sees it (see the module's docstring)."""

    @property
    def log(self) -> EventLog:
        """Every event so far, in order."""
        ...

    @property
    def choices(self) -> Sequence[JsonValue]:
        """Every choice applied so far, in order (what a log replays)."""
        ...

    @property
    def players(self) -> int:
        """How many seats play (seat numbers 0 .. players - 1)."""
        ...

    def pending(self) -> Decision | None:
        """The decision the game waits for, or None when it is over."""
        ...

    def apply(self, choice: Any) -> None:
        """Take ``choice`` for the pending decision."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it runs."""
        ...

    def clone(self) -> Self:
        """An independent copy at the same decision (same future under the same choices)."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The game as a JSON document; the ruleset's ``restore`` rebuilds it exactly."""
        ...

    def visible_events(self, seats: Iterable[int]) -> list[Event]:
        """The log as ``seats`` may read it (an empty iterable: a spectator)."""
        ...


Choice = str | int | float
"""What a controller answers: an option's value, or a number within a decision's domain."""


@runtime_checkable
class Bot(Protocol):
    """A controller that answers decisions: ``choose(game, decision, rng)`` returns a legal
    choice for ``decision`` (the game is read, never changed; ``rng`` is the bots' own
    randomness, never the dice). ``carnage.ai`` re-exports it; every ruleset declares its
    bots by name (``Ruleset.bots``). The game is typed loosely so that a ruleset's bot may
    read its own game's state (Refuelled's bots read ``Game``, Devil's Run's
    ``DevilsRunGame``); it is always a ``PlayableGame``."""

    @property
    def name(self) -> str:
        """The bot's name (``heuristic``, ``search:hard``)."""
        ...

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> Choice:
        ...


__all__ = ["Bot", "Choice", "PlayableGame"]
