"""Driving a game with bots: one loop for every scenario (ask, choose, apply)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from carnage.games.refuelled.ai.bots import Bot

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.kernel.decisions import Decision

MAX_CHOICES = 20_000
"""A game asking for more choices than this is stuck: ``play_out`` raises."""


class StuckGame(RuntimeError):
    """The game kept asking for choices past ``MAX_CHOICES``."""


def bot_rng(seed: int | str) -> random.Random:
    """The bots' own randomness for a game (separate from the dice)."""
    return random.Random(f"bots:{seed}")


def play_out(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    after: Callable[[Game, Decision], None] | None = None,
    max_choices: int = MAX_CHOICES,
) -> Game:
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
