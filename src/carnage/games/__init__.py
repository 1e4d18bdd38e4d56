"""The games Carnage plays, one package each: Refuelled, the Kart variant (an overlay
of Refuelled), Gaslands: Legacy and Devil's Run. Generic layers reach them only
through the ruleset registry (``carnage.rulesets``)."""
