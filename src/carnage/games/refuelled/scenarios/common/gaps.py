"""Cheap bounds on the gap between a round piece (a token, a spawn point: a regular polygon
standing for a disc) and a convex body, so that the exact ``geometry.shapes.distance`` is
worked out only when a bound cannot settle a comparison."""

from __future__ import annotations

import math
from collections.abc import Sequence

from carnage.geometry.shapes import Point

SLACK = 1e-6
"""How far (mm) a bound must clear the value compared with to settle the comparison: far
above the rounding of either side."""


def point_to_convex(p: Point, poly: Sequence[Point]) -> float:
    """Euclidean distance from ``p`` to the convex polygon ``poly`` (either winding; 0 on or
    inside it)."""
    px, py = p
    n = len(poly)
    best = math.inf
    pos = neg = False
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        cross = ex * (py - ay) - ey * (px - ax)
        if cross > 0:
            pos = True
        elif cross < 0:
            neg = True
        ll = ex * ex + ey * ey
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * ex + (py - ay) * ey) / ll))
        best = min(best, math.hypot(px - ax - t * ex, py - ay - t * ey))
    return best if pos and neg else 0.0


def disc_gap_bounds(c: Point, inner: float, outer: float, body: Sequence[Point]
                    ) -> tuple[float, float]:
    """Bounds (low, high) on the gap between ``body`` (convex) and a convex piece holding the
    circle of radius ``inner`` round ``c`` and lying within the one of radius ``outer``: the
    piece is no nearer than its outer circle and no farther than its inner one."""
    d = point_to_convex(c, body)
    return d - outer, max(0.0, d - inner)
