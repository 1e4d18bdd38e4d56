"""Our own shape data for a team's own templates (geometry/team_templates.py): what the
printed Legacy templates carried and the text does not (Gaslands: Legacy, "Unpredictable
Performance" and the Doughnut; inventory GL-069, GL-094, GL-110, GL-111). None of this is
from the book or its downloads: it is Carnage's design, documented in docs/rulings.md
(GL-R50..).

Distances are millimetres along the centreline at scale 1 of the provisional template set.
"""

from __future__ import annotations

from typing import Any

DOTTED_SHARE: dict[str, float] = {
    "short_straight": 2.0 / 3.0,
    "medium_straight": 2.0 / 3.0,
    "long_straight": 2.0 / 3.0,
    "gentle": 2.0 / 3.0,
    "turn": 2.0 / 3.0,
    "hard": 2.0 / 3.0,
    "hairpin": 2.0 / 3.0,
    "veer": 2.0 / 3.0,
    "swerve": 2.0 / 3.0,
    "doughnut": 2.0 / 3.0,
}
"""OURS (ruling GL-R60): where each template's dotted line crosses it, as a share of its
centreline from the starting edge. The dotted line runs straight across the template there,
square to the centreline, and its arrow points on along the centreline (away from the start).
Two thirds keeps a curve's own slide exit point (at the middle) on the part that stays."""

DEFAULT_DOTTED_SHARE = 2.0 / 3.0
"""For a template not listed above (a measured set's own)."""

DOUGHNUT_ID = "doughnut"

DOUGHNUT: dict[str, Any] = {
    "id": DOUGHNUT_ID,
    "name": "Doughnut",
    # A full circle: the vehicle drives one tight loop and rolls on one body length past
    # where it began, facing the way it started. The hole in the middle is 55 mm across.
    "segments": [{"arc": 360.0, "radius": 45.0}],
    # Slide exit point: on the outer edge half-way round (the far side of the loop).
    "slide_exit": 0.5,
    "slide_side": "left",
    # Gears 1..6: not in the slow gears; a plain loop in gear 3; hazardous at speed, and
    # doubly hazardous in gear 6.
    "gears": ["-", "-", "P", "H", "H", "HH"],
}
"""OURS (ruling GL-R70): the Doughnut template. The Legacy text names it and points to a
download we do not have; this shape, its permitted gears, icons and slide exit are Carnage's."""
