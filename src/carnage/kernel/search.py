"""What the search bot (``ai/search.py``) asks of a ruleset, as a protocol: its adapter.

A ruleset declares a factory of adapters (``Ruleset.search``: players -> adapter); the search
bot finds it through the game's ruleset, never by the ruleset's name. ``ai/search.py``
``Adapter`` is the generic one (random rollouts, outcomes only) that rulesets extend
(Refuelled's: ``games/refuelled/ai/search_adapter.py``, Devil's Run's:
``games/devilsrun/search.py``). Nothing here names a rule of any game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from carnage.kernel.contract import Choice
from carnage.kernel.decisions import Decision

Policy = Callable[[Any, Decision, random.Random], Choice]
"""A rollout policy: ``(game, decision, rng) -> legal choice``."""


class SearchAdapter(Protocol):
    """The search's view of one ruleset's games: who plays the rollouts, in which order a
    decision's candidates are weighed, what a position is worth, how a copy gets its own dice."""

    players: int
    """Seats of the games it is made for."""
    me: int
    """The seat the bot searches for (set for each decision)."""

    @property
    def policy(self) -> Policy:
        """The rollout policy (every seat's decisions below the tree)."""
        ...

    def ordered(self, game: Any, d: Decision, rng: random.Random) -> list[tuple[Choice, str]]:
        """``d``'s candidates, the policy's pick first, each with a label."""
        ...

    def worth_searching(self, game: Any, d: Decision) -> bool:
        """Is ``d`` worth the search's time? (No: the policy answers at once.)"""
        ...

    def values(self, game: Any) -> list[float]:
        """Each player's value of the position (0..1)."""
        ...

    def redeal(self, game: Any, seed: int) -> None:
        """Give the copy ``game`` its own dice from ``seed`` (never the real ones)."""
        ...

    def budget(self, level: str, game: Any) -> Mapping[str, int]:
        """The ruleset's own settings of the search level named ``level`` for ``game`` (its
        scenario may call for others), each replacing the level's (``"iterations"``,
        ``"horizon"``, ``"depth"``, ``"candidates"``, and ``"corrected"`` 1 for the root's
        bar corrected for the candidates tested; the time limit stays the level's); empty:
        the level as it is."""
        ...


SearchAdapterFactory = Callable[[int], SearchAdapter]
"""``Ruleset.search``: the number of players -> a new adapter."""
