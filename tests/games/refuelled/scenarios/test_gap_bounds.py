"""The cheap bounds the token, spawn and flag placements settle comparisons with hold: the
exact gap between a body and a round piece's polygon lies between them, and the places
found with them are those the exact gaps give."""

from __future__ import annotations

import math
import random

from carnage.games.refuelled.scenarios.common import spawn
from carnage.games.refuelled.scenarios.common.gaps import disc_gap_bounds, point_to_convex
from carnage.games.refuelled.scenarios.common.tokens import disc
from carnage.geometry.shapes import Pose, Rect, distance


def test_point_to_convex_is_the_exact_distance_to_a_polygon() -> None:
    body = Rect(Pose(100.0, 50.0, 30.0), 40.0, 20.0).polygon()
    assert point_to_convex((100.0, 50.0), body) == 0.0  # inside
    assert point_to_convex((100.0, 50.0), body[::-1]) == 0.0  # either winding
    for p in ((200.0, 50.0), (100.0, -40.0), (60.0, 90.0)):
        assert math.isclose(point_to_convex(p, body), distance([p], body), abs_tol=1e-9)


def test_the_bounds_hold_the_exact_gap() -> None:
    rng = random.Random(3)
    for _ in range(400):
        body = Rect(Pose(rng.uniform(0, 300), rng.uniform(0, 300), rng.uniform(0, 360)),
                    rng.uniform(20, 80), rng.uniform(10, 40)).polygon()
        c = (rng.uniform(0, 300), rng.uniform(0, 300))
        size = rng.choice([20.0, 25.0, 30.0])
        piece = disc(c, size)  # 12 sides
        outer = size / 2.0 / math.cos(math.pi / 12)
        low, high = disc_gap_bounds(c, size / 2.0, outer, body)
        gap = distance(piece, body)
        assert low - 1e-9 <= gap <= high + 1e-9
        if high > 0.0:  # apart: a band under half a mm wide
            assert high - low <= outer - size / 2.0 + 1e-9


def test_spawn_reach_by_bounds_is_the_exact_answer() -> None:
    centre = (200.0, 200.0)
    ring = spawn._disc(centre, spawn.SPAWN_DIAMETER / 2.0)
    rng = random.Random(5)
    for _ in range(300):
        bodies = [Rect(Pose(centre[0] + rng.uniform(-120, 120), centre[1] + rng.uniform(-120, 120),
                            rng.uniform(0, 360)), 45.0, 25.0).polygon()]
        limit = rng.uniform(20.0, 80.0)
        exact = min(distance(poly, ring) for poly in bodies) > limit
        assert spawn._beyond(bodies, ring, centre, spawn.SPAWN_DIAMETER / 2.0, limit) == exact
