"""Bots for Carnage: the bot interface (``Bot``: ``choose(game, decision, rng)``, kept by
every ruleset's bots, which each ``Ruleset.bots`` declares), the loop that plays them
(``play_out``, ``bots_for``), and Refuelled's random and heuristic controllers."""

from carnage.ai.registry import BOTS, make_bot
from carnage.ai.runner import StuckGame, bot_rng, bots_for, make_bot_for, play_out
from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot, fallback
from carnage.kernel.contract import Bot

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "StuckGame",
    "bot_rng",
    "bots_for",
    "fallback",
    "make_bot",
    "make_bot_for",
    "play_out",
]
