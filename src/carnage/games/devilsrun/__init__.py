"""Devil's Run: Route 666, a square-grid car-combat game on a rolling road, on the kernel.

``DEVILS_RUN.new_game(mission)`` starts a game; ``restore(doc)`` rebuilds one from a snapshot.
"""

from carnage.devilsrun.game import DevilsRunGame, Outcome, restore
from carnage.devilsrun.ruleset import DEVILS_RUN, replay

__all__ = ["DEVILS_RUN", "DevilsRunGame", "Outcome", "replay", "restore"]
