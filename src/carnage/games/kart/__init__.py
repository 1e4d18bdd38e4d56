"""The Kart variant: an overlay of Refuelled (its rule changes, ruleset, odds)."""

from carnage.kernel.codec import module_renamed

# Where the variant's modules lived before each game became one package (old snapshots).
module_renamed("carnage.rules.kart", "carnage.games.kart.rules")
module_renamed("carnage.rulesets.kart", "carnage.games.kart.ruleset")
