"""Bots for Carnage: the bot interface (``Bot``: ``choose(game, decision, rng)``, kept by
every ruleset's bots, which each ``Ruleset.bots`` declares), the loop that plays them
(``play_out``, ``bots_for``), and bots by name (``make_bot``, ``make_bot_for``). A game's own
bots live in its package (Refuelled's random and heuristic bots:
``carnage.games.refuelled.ai.bots``)."""

from carnage.ai.registry import BOTS, bots_of, make_bot
from carnage.ai.runner import StuckGame, bot_rng, bots_for, make_bot_for, play_out
from carnage.kernel.contract import Bot

__all__ = [
    "BOTS",
    "Bot",
    "StuckGame",
    "bot_rng",
    "bots_for",
    "bots_of",
    "make_bot",
    "make_bot_for",
    "play_out",
]
