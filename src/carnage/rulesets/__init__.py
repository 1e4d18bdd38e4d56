"""The rulesets Carnage plays, by name, and the one place a game is assembled.

``RULESETS`` is an immutable collection (``Rulesets.with_ruleset`` returns a new one with
another ruleset added, e.g. in a test); ``get_ruleset(name)`` finds one.
"""

from __future__ import annotations

from carnage.kernel.ruleset import Ruleset, Rulesets
from carnage.rulesets.devilsrun import DEVILS_RUN_RULESET
from carnage.rulesets.kart import KART
from carnage.rulesets.legacy import LEGACY
from carnage.rulesets.refuelled import REFUELLED, refuelled_ruleset

RULESETS = Rulesets({REFUELLED.name: REFUELLED, DEVILS_RUN_RULESET.name: DEVILS_RUN_RULESET,
                     KART.name: KART, LEGACY.name: LEGACY})


def get_ruleset(name: str | Ruleset = "refuelled") -> Ruleset:
    """The ruleset called ``name`` (a ``Ruleset`` is returned as it is); ``KeyError`` naming
    the known ones."""
    return name if isinstance(name, Ruleset) else RULESETS[name]


__all__ = ["KART", "LEGACY", "REFUELLED", "RULESETS", "Ruleset", "Rulesets", "get_ruleset",
           "refuelled_ruleset"]
