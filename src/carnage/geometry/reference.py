"""The plain definitions of the separating-axis overlap and the polygon distance.

``shapes.penetration`` and ``shapes.distance`` are written out inline for speed; they must
give these loops' floats bit for bit (``tests/geometry/test_shapes_exact.py``), and
``benchmarks/shapes.py`` times them side by side. Not used by the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from carnage.geometry.shapes import Point, _axes, _project, _seg_point_dist


def plain_penetration(a: Sequence[Point], b: Sequence[Point]) -> float:
    """The minimum overlap depth over every edge normal of both polygons."""
    best = math.inf
    for axis in (*_axes(a), *_axes(b)):
        alo, ahi = _project(a, axis)
        blo, bhi = _project(b, axis)
        depth = min(ahi - blo, bhi - alo)
        if depth < best:
            best = depth
    return best


def plain_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """0 when the polygons touch or overlap, else the least vertex-to-edge distance."""
    if plain_penetration(a, b) >= 0.0:
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for p in poly:
            for i in range(n):
                d = _seg_point_dist(p, other[i], other[(i + 1) % n])
                if d < best:
                    best = d
    return best
