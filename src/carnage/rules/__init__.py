"""Carnage rules layer."""
from carnage.rules import upgrades  # noqa: F401  (S4: upgrades pp.83-85)
