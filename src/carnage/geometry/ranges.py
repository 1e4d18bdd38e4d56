"""Shooting templates (Refuelled pp.27–28) and range bands between two bodies.

Short, Medium and Long are the matching straight movement templates; Double is Medium and
Long laid end to end; the two bursts are teardrops whose narrow end goes against the
shooter. Every shape comes from the one template data file (``templateset``), so scaled or
measured sets change them too.

A shooting template is described in its own frame: the origin is the middle of the edge
that is placed against the shooter (the tip of a burst), +x runs away from the shooter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from carnage.geometry.shapes import Point, distance
from carnage.geometry.templateset import TemplateSet, default_template_set

_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

RANGE_BANDS: tuple[str, ...] = ("short", "medium", "long", "double")
"""Rulers in increasing length (Refuelled p.27)."""

BURSTS: tuple[str, ...] = ("small_burst", "large_burst")

SHOOTING_TEMPLATES: tuple[str, ...] = RANGE_BANDS + BURSTS

BURST_ARC_STEP_DEG = 7.5
"""Angular step of the polygon standing in for a burst's round end. The polygon is
inscribed in the circle, so it falls short of the true outline by at most
r·(1 − cos 3.75°) < 0.1 mm for radii up to 45 mm (the Large Burst's is 35 mm)."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class ShootingTemplate:
    """A shooting template in its own frame (see module docstring)."""

    id: str
    polygon: tuple[Point, ...]
    """Counter-clockwise outline."""
    near_half: float
    """Half the length of the edge placed against the shooter; 0 for a burst's tip."""
    tip_half_angle: float
    """For a burst: the half-angle (degrees) of the wedge its sides make at the tip. 0 for
    rectangular rulers."""
    length: float

    @property
    def reach(self) -> float:
        """Largest distance from the origin to any point of the template."""
        return max(_hypot(x, y) for x, y in self.polygon)

    @property
    def is_burst(self) -> bool:
        return self.near_half == 0.0


def _ruler(tid: str, length: float, width: float) -> ShootingTemplate:
    hw = width / 2.0
    poly = ((0.0, -hw), (length, -hw), (length, hw), (0.0, hw))
    return ShootingTemplate(tid, poly, hw, 0.0, length)


def teardrop(tid: str, length: float, width: float) -> ShootingTemplate:
    """Convex hull of the tip (origin) and a circle of diameter ``width`` whose far side is
    ``length`` from the tip (our reading of the printed burst shapes; see docs/rulings.md)."""
    r = width / 2.0
    d = length - r
    if length <= 0 or width <= 0 or d <= r:
        raise ValueError(
            f"burst template {tid!r}: length {length} must exceed its width {width}"
        )
    half_wedge = math.degrees(math.asin(r / d))
    beta = 180.0 - math.degrees(math.acos(r / d))  # tangent points, seen from the centre
    steps = max(2, math.ceil(2 * beta / BURST_ARC_STEP_DEG))
    pts: list[Point] = [(0.0, 0.0)]
    for i in range(steps + 1):
        a = math.radians(-beta + 2 * beta * i / steps)
        pts.append((d + r * math.cos(a), r * math.sin(a)))
    return ShootingTemplate(tid, tuple(pts), 0.0, half_wedge, length)


def shooting_template(template_id: str, ts: TemplateSet | None = None) -> ShootingTemplate:
    """The named shooting template; ``ValueError`` for an unknown name."""
    ts = ts or default_template_set()
    key = template_id.strip().lower().replace("-", "_").replace(" ", "_")
    if key in ts.ranges:
        return _ruler(key, ts.ranges[key], ts.width)
    if key in ts.bursts:
        length, width = ts.bursts[key]
        return teardrop(key, length, width)
    known = ", ".join(sorted([*ts.ranges, *ts.bursts]))
    raise ValueError(f"unknown shooting template {template_id!r} (known: {known})")


def range_band(
    a: Sequence[Point], b: Sequence[Point], ts: TemplateSet | None = None
) -> str | None:
    """The shortest range ruler that reaches from body ``a`` to body ``b``: the gap between
    the two footprints (closest points, Refuelled p.28) against each ruler's length. ``None``
    when even Double range falls short."""
    ts = ts or default_template_set()
    gap = distance(a, b)
    for band in RANGE_BANDS:
        if band in ts.ranges and gap <= ts.ranges[band] + 1e-9:
            return band
    return None
