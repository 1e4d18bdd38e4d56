"""The 72 perks of the 12 perk classes (Refuelled pp.104-115), one module per class; each perk
is an installer in its module's ``RULES`` table (``@RULES.rule("perk", <id>)``, ids from
catalog/data/perks.yaml); ``PERK_RULES`` composes them."""

from carnage.games.refuelled.rules.perks import (
    aggression,
    badass,
    built,
    daring,
    horror,
    military,
    precision,
    pursuit,
    reckless,
    speed,
    technology,
    tuning,
)
from carnage.kernel.rules import RuleTable

PERK_RULES = RuleTable.merged([
    m.RULES for m in (aggression, badass, built, daring, horror, military, precision, pursuit,
                      reckless, speed, technology, tuning)
])
