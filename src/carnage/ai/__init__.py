"""Bots for Carnage: random and heuristic controllers, and the loop that plays them."""

from carnage.ai.registry import BOTS, make_bot
from carnage.ai.runner import StuckGame, bot_rng, play_out
from carnage.games.refuelled.ai.bots import Bot, HeuristicBot, RandomBot, fallback

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "StuckGame",
    "bot_rng",
    "fallback",
    "make_bot",
    "play_out",
]
