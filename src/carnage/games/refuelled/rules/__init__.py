"""Carnage rules layer: Refuelled's special rules as installers on hooks, one module per family
(composed into the Refuelled ruleset by carnage/games/refuelled/ruleset.py)."""
