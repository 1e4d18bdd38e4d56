"""The bounds on the numbers a Legacy vehicle's record may carry (ruling IN-1, ours: the book
sets none), each far above what a campaign reaches; the rest of Carnage's bounds are in
``carnage/bounds.py``."""

from __future__ import annotations

from carnage import bounds

LEGACY_MUTATIONS = 100
"""IN-1 (ours): the most mutations one Legacy vehicle may record. Chapters 1-5 give each
vehicle one mutation a game (Legacy "gain one mutation"), and Team Handicaps a few more
before each chapter (GL-050, GL-051): well under 20 in a whole campaign. ``carnage legacy
mutate`` and the web generator go this far too."""
LEGACY_GAIN_PER_MUTATION = {"hull": 3, "handling": 1, "crew": 1, "max_gear": 1}
"""The most one mutation adds to each stat (``legacy/data/mutations.yaml``; a ``heavier``
trait on a Heavyweight gives +1 Hull, ruling GL-R9). Checked against the table by the tests."""
LEGACY_GENERATOR_MAX = {"hull": 3, "handling": 1, "crew": 1, "max_gear": 1}
"""The most the Legacy generator's bonus rolls add (``legacy/data/generator.yaml``)."""


def _legacy_gain(stat: str) -> int:
    return LEGACY_GENERATOR_MAX[stat] + LEGACY_MUTATIONS * LEGACY_GAIN_PER_MUTATION[stat]


LEGACY_MAX_HULL = _legacy_gain("hull")
"""Hull a Legacy vehicle may have gained over its type's (IN-1: generator + mutations)."""
LEGACY_MAX_HANDLING = _legacy_gain("handling")
"""Handling gained (IN-1); Handling is the skid dice a vehicle may roll (Refuelled p.12)."""
LEGACY_MAX_CREW = _legacy_gain("crew")
"""Crew gained (IN-1); Legacy Crew is never capped (GL-047) but only mutations add it."""
LEGACY_MAX_GEAR_GAIN = bounds.MAX_GEAR
"""Max Gear gained: never more than the cap of 6 (p.83; the generator stops at 6)."""
LEGACY_MAX_BOXES = 26 + LEGACY_MAX_HULL
"""Hull boxes a Legacy vehicle may mark (corroded, filled in): the largest type's Hull
(War Rig 26, Refuelled p.68) plus the most it may have gained."""
