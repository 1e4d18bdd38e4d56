"""A scenario's table marks (engine/scenario_view.py ``Drawable``) as shapes the SVG renderer
draws: lines and gates as thin strips, zones as their polygon, tokens and spawn points as small
markers. Labels have no shape of their own (their text rides on ``data-label``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from carnage.geometry.shapes import Point, Pose, Rect
from carnage.render.drawable import Drawable
from carnage.render.svg import TemplateShape

LINE_WIDTH = 4.0
"""A line or gate is drawn as a strip this wide (mm)."""
TOKEN_RADIUS = 10.0
"""A token or spawn marker's radius (mm)."""


def _strip(a: Point, b: Point) -> tuple[Point, ...]:
    heading = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    centre = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)
    return tuple(Rect(Pose(*centre, heading), math.dist(a, b), LINE_WIDTH).polygon())


def _marker(at: Point, sides: int, heading: float = 90.0) -> tuple[Point, ...]:
    return tuple((at[0] + TOKEN_RADIUS * math.cos(math.radians(heading + 360.0 * k / sides)),
                  at[1] + TOKEN_RADIUS * math.sin(math.radians(heading + 360.0 * k / sides)))
                 for k in range(sides))


def drawable_polygons(d: Drawable) -> tuple[tuple[Point, ...], ...]:
    """The polygons one drawable is drawn as (none for a label)."""
    if d.kind in ("line", "gate"):
        return tuple(_strip(a, b) for a, b in zip(d.points, d.points[1:], strict=False))
    if d.kind == "zone":
        return (tuple(d.points),)
    if d.kind == "token":
        return (_marker(d.points[0], 8),)
    if d.kind == "spawn":
        facing = 90.0 if d.direction is None else math.degrees(
            math.atan2(d.direction[1], d.direction[0]))
        return (_marker(d.points[0], 3, facing),)  # a triangle pointing the way it faces
    return ()


def drawable_shapes(drawables: Sequence[Drawable]) -> list[TemplateShape]:
    """The scenario's marks as renderer shapes (class ``template scenario``)."""
    return [TemplateShape(polys, "scenario", d.label or d.id)
            for d in drawables if (polys := drawable_polygons(d))]
