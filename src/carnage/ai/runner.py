"""Driving a game with bots: one loop for every scenario of every ruleset (ask, choose,
apply), over the game contract (``kernel/contract.py``) only."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from carnage.kernel.contract import Bot, PlayableGame

if TYPE_CHECKING:
    from carnage.kernel.decisions import Decision
    from carnage.kernel.ruleset import Ruleset

G = TypeVar("G", bound=PlayableGame)

MAX_CHOICES = 20_000
"""A game asking for more choices than this is stuck: ``play_out`` raises."""


class StuckGame(RuntimeError):
    """The game kept asking for choices past ``MAX_CHOICES``."""


def bot_rng(seed: int | str) -> random.Random:
    """The bots' own randomness for a game (separate from the dice)."""
    return random.Random(f"bots:{seed}")


SEARCH = ("search", "search:easy", "search:normal", "search:hard")
"""The search bot's names: it plays every game through the game contract (ai/search.py)."""


def make_bot_for(ruleset: Ruleset, name: str) -> Bot:
    """A new bot called ``name`` for ``ruleset``: one of its own (``Ruleset.bots``), else the
    search bot at a level with the ruleset's search adapter; ``ValueError`` naming both."""
    if name in ruleset.bots:
        return ruleset.make_bot(name)
    if name in SEARCH:
        from carnage.ai.search import SearchBot

        # With the ruleset's own adapter (``Ruleset.search``; None: the generic one).
        return SearchBot("normal" if name == "search" else name.split(":", 1)[1],
                         adapter=ruleset.search)
    known = ", ".join([*ruleset.bots, *(s for s in SEARCH if s not in ruleset.bots)])
    raise ValueError(f"unknown bot {name!r} for {ruleset.title} (bots: {known})")


def bots_for(ruleset: Ruleset, names: Sequence[str]) -> list[Bot]:
    """New bots of ``ruleset`` by name, one per seat (``ValueError`` naming its bots)."""
    return [make_bot_for(ruleset, n) for n in names]


def play_out(
    game: G,
    bots: Sequence[Bot],
    rng: random.Random,
    after: Callable[[G, Decision], None] | None = None,
    max_choices: int = MAX_CHOICES,
) -> G:
    """Let ``bots[player]`` answer every decision until the game ends; ``after`` is called
    after each applied choice (with the decision it answered)."""
    n = 0
    while (d := game.pending()) is not None:
        n += 1
        if n > max_choices:
            raise StuckGame(f"no result after {max_choices} choices")
        game.apply(bots[d.player % len(bots)].choose(game, d, rng))
        if after is not None:
            after(game, d)
    return game
