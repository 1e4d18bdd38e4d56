"""Gaslands: Refuelled: its flow of play (``engine``), special rules (``rules``),
scenarios, set-up, heuristic bot (``ai``), odds and campaign modes."""

from carnage.kernel.codec import module_renamed

# Where Refuelled's modules lived before each game became one package: snapshots saved then
# name their classes by those modules.
for _old, _new in (("carnage.engine", "carnage.games.refuelled.engine"),
                   ("carnage.rules", "carnage.games.refuelled.rules"),
                   ("carnage.rules.scenarios", "carnage.games.refuelled.scenarios"),
                   ("carnage.rulesets.refuelled", "carnage.games.refuelled.ruleset"),
                   ("carnage.rulesets.setup", "carnage.games.refuelled.setup"),
                   ("carnage.campaign.savage", "carnage.games.refuelled.campaign.savage"),
                   ("carnage.campaign.seasons", "carnage.games.refuelled.campaign.seasons"),
                   ("carnage.campaign.televised", "carnage.games.refuelled.campaign.televised"),
                   ("carnage.ai.bots", "carnage.games.refuelled.ai.bots")):
    module_renamed(_old, _new)
