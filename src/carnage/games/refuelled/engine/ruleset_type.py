"""The type of a ruleset on Refuelled's engine, for annotations only.

``RefuelledRuleset`` is the kernel's ``Ruleset`` with the parts a Refuelled game reads typed:
its catalogue (``Catalog``), its movement templates (``TemplateSet``), its scenarios (classes
of ``TableScenario``) and its game (``Game``). Refuelled, the Kart variant and Legacy are such
rulesets (``games/refuelled/ruleset.py`` makes them); ``on_refuelled_engine`` there tells one
from another game's ruleset at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from carnage.catalog.loader import Catalog
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.scenarios import TableScenario
    from carnage.geometry.templateset import TemplateSet
    from carnage.kernel.ruleset import Ruleset

    RefuelledRuleset: TypeAlias = Ruleset[Catalog, TemplateSet, type[TableScenario], Game]
