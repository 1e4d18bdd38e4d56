"""Devil's Run: Route 666, a square-grid car-combat game on a rolling road, on the kernel.

``DEVILS_RUN.new_game(mission)`` starts a game; ``restore(doc)`` rebuilds one from a snapshot.
"""

from carnage.kernel.codec import module_renamed

# Where Devil's Run's modules lived before each game became one package (old snapshots).
module_renamed("carnage.devilsrun", "carnage.games.devilsrun")
module_renamed("carnage.devilsrun.ruleset", "carnage.games.devilsrun.missions")

from carnage.games.devilsrun.game import DevilsRunGame, Outcome, restore  # noqa: E402
from carnage.games.devilsrun.missions import DEVILS_RUN, replay  # noqa: E402

__all__ = ["DEVILS_RUN", "DevilsRunGame", "Outcome", "replay", "restore"]
