"""The rulesets Carnage plays, by name, and the one place a game is assembled.

``RULESETS`` is an immutable collection (``Rulesets.with_ruleset`` returns a new one with
another ruleset added, e.g. in a test); ``get_ruleset(name)`` finds one.
"""

from __future__ import annotations

from carnage.games.devilsrun.ruleset import DEVILS_RUN_RULESET
from carnage.games.kart.ruleset import KART
from carnage.games.legacy.ruleset import LEGACY
from carnage.games.refuelled.ruleset import REFUELLED, refuelled_ruleset
from carnage.kernel.ruleset import Ruleset, Rulesets

RULESETS = Rulesets({REFUELLED.name: REFUELLED, DEVILS_RUN_RULESET.name: DEVILS_RUN_RULESET,
                     KART.name: KART, LEGACY.name: LEGACY})


def get_ruleset(name: str | Ruleset = "refuelled") -> Ruleset:
    """The ruleset called ``name`` (a ``Ruleset`` is returned as it is); ``KeyError`` naming
    the known ones."""
    return name if isinstance(name, Ruleset) else RULESETS[name]


__all__ = ["KART", "LEGACY", "REFUELLED", "RULESETS", "Ruleset", "Rulesets", "get_ruleset",
           "refuelled_ruleset"]
