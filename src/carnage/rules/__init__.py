"""Carnage rules layer."""
from carnage.rules import (
    perks,  # noqa: F401  (P2: the 72 perks, pp.104-115)
    upgrades,  # noqa: F401  (S4: upgrades pp.83-85)
    vehicles,  # noqa: F401  (S1: vehicle special rules pp.66-71)
    war_rig,  # noqa: F401  (S1: the War Rig pp.116-121)
)
