"""The Kart variant: an overlay of Refuelled (its rule changes, ruleset, odds)."""
