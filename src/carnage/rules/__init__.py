"""Carnage rules layer."""
from carnage.rules import (
    dropped,  # noqa: F401  (S3: dropped weapons pp.77-80)
    perks,  # noqa: F401  (P2: the 72 perks, pp.104-115)
    sponsors,  # noqa: F401  (P1: sponsors in play, pp.91-103)
    trailers,  # noqa: F401  (S4: trailers and trailer cargo pp.102-103)
    upgrades,  # noqa: F401  (S4: upgrades pp.83-85)
    vehicles,  # noqa: F401  (S1: vehicle special rules pp.66-71)
    war_rig,  # noqa: F401  (S1: the War Rig pp.116-121)
    weapons,  # noqa: F401  (S2: shooting weapons, pp.72-82)
)
