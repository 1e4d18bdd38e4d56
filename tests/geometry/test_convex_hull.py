"""The convex hull keeps every real corner, also of points nearly on one vertical line."""

from __future__ import annotations

import random

from carnage.geometry.arcs import turret_families
from carnage.geometry.convex import convex_hull, cross
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Pose, Rect, penetration

TILT = 2.0146099903624806e-14
"""Degrees: a shooter turned by this much puts the corners of its Minkowski sum with a ruler
a few 1e-15 mm off two vertical lines (found by the turret property test)."""


def _contains(hull: list[tuple[float, float]], p: tuple[float, float]) -> bool:
    n = len(hull)
    return all(cross(hull[i], hull[(i + 1) % n], p) >= -1e-9 for i in range(n))


def test_nearly_vertical_corners_are_kept() -> None:
    body = Rect(Pose(10, -20, TILT), 80, 40).polygon()
    pts = [pt for x, y in body for pt in ((x, y + 17.5), (x, y - 17.5))]
    hull = convex_hull(pts)
    assert all(_contains(hull, p) for p in pts)
    xs, ys = sorted(x for x, _ in hull), sorted(y for _, y in hull)
    assert round(xs[0], 9) == -30 and round(xs[-1], 9) == 50
    assert round(ys[0], 9) == -57.5 and round(ys[-1], 9) == 17.5


def test_hulls_of_turned_rectangles_hold_every_point() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        heading = rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.choice([0.0, 1e-14, -1e-13, 1e-12])
        body = Rect(Pose(rng.uniform(-50, 50), rng.uniform(-50, 50), heading),
                    rng.uniform(20, 90), rng.uniform(10, 50)).polygon()
        a = rng.uniform(0, 30)
        pts = [pt for x, y in body for pt in ((x, y + a), (x, y - a), (x + a, y), (x - a, y))]
        hull = convex_hull(pts)
        assert all(_contains(hull, p) for p in pts), (heading, a)


def test_ruler_placements_of_a_slightly_turned_shooter_touch_it_without_cutting_in() -> None:
    body = Rect(Pose(10, -20, TILT), 80, 40)
    for name in ("short", "long"):
        tpl = shooting_template(name)
        for theta in (0.0, 90.0, 180.0, 270.0):
            for fam in turret_families(body, tpl, theta):
                for t in (0.0, 0.5, 1.0):
                    assert penetration(fam.placed(tpl, t), body.polygon()) <= 1e-6
