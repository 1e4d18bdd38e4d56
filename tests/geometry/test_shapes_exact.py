"""The fast separating-axis and distance code gives the very same floats as the plain loops.

``penetration``, ``overlaps`` and ``distance`` are written out inline for speed (rectangles
unrolled, early exits where only a sign is needed). The plain versions
(``geometry/reference.py``) are the definitions they must match bit for bit: outcomes of
seeded games depend on these values.
"""

from __future__ import annotations

import math
import random
import struct

import pytest

from carnage.geometry.convex import convex_hull
from carnage.geometry.reference import plain_distance, plain_penetration
from carnage.geometry.shapes import (
    EPS,
    Point,
    Pose,
    Rect,
    _axes,
    deeper_than,
    distance,
    norm_heading,
    overlaps,
    penetration,
)


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _rect(rng: random.Random, spread: float) -> list[Point]:
    pose = Pose(rng.uniform(-spread, spread), rng.uniform(-spread, spread),
                rng.choice([0.0, 90.0, 180.0, 270.0, rng.uniform(0.0, 360.0)]))
    return Rect(pose, rng.uniform(0.5, 120.0), rng.uniform(0.5, 60.0)).polygon()


def _convex(rng: random.Random, spread: float) -> list[Point]:
    cx, cy = rng.uniform(-spread, spread), rng.uniform(-spread, spread)
    r = rng.uniform(1.0, 60.0)
    pts = [(cx + r * math.cos(t), cy + r * math.sin(t))
           for t in (rng.uniform(0.0, 2 * math.pi) for _ in range(rng.randint(3, 9)))]
    return convex_hull(pts)


def _segment(rng: random.Random, spread: float) -> list[Point]:
    x, y = rng.uniform(-spread, spread), rng.uniform(-spread, spread)
    return [(x, y), (x + rng.uniform(-80, 80), y + rng.uniform(-80, 80))]


def _shape(rng: random.Random, spread: float) -> list[Point]:
    kind = rng.random()
    if kind < 0.6:
        return _rect(rng, spread)
    if kind < 0.85:
        return _convex(rng, spread)
    if kind < 0.97:
        return _segment(rng, spread)
    x, y = rng.uniform(-spread, spread), rng.uniform(-spread, spread)
    return [(x, y), (x, y)]  # a point given as a degenerate segment


def _pairs(seed: int, n: int) -> list[tuple[list[Point], list[Point]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        spread = rng.choice([30.0, 100.0, 400.0])
        a = _shape(rng, spread)
        # half the time the second shape is a copy of the first moved so they touch, share an
        # edge or a corner, or overlap exactly: the ties and zero depths
        if rng.random() < 0.3 and len(a) == 4:
            dx = rng.choice([0.0, a[1][0] - a[0][0], a[2][0] - a[0][0]])
            dy = rng.choice([0.0, a[1][1] - a[0][1], a[2][1] - a[0][1]])
            b = [(x + dx, y + dy) for x, y in a]
        else:
            b = _shape(rng, spread)
        out.append((a, b))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_penetration_and_distance_are_the_plain_loops_bit_for_bit(seed: int) -> None:
    touching = 0
    for a, b in _pairs(seed, 1500):
        assert bits(penetration(a, b)) == bits(plain_penetration(a, b)), (a, b)
        assert bits(distance(a, b)) == bits(plain_distance(a, b)), (a, b)
        for tol in (0.0, 1e-6, 0.1, 10.0):
            assert overlaps(a, b, tol) is (plain_penetration(a, b) >= -tol), (a, b, tol)
        touching += plain_penetration(a, b) >= 0.0
    # the cases include both sides of the overlap test
    assert 50 < touching < 1450


def test_exact_touching_rectangles_and_shared_corners() -> None:
    a = Rect(Pose(10.0, 10.0, 0.0), 40.0, 20.0).polygon()
    for b in (Rect(Pose(50.0, 10.0, 0.0), 40.0, 20.0).polygon(),   # edge to edge
              Rect(Pose(50.0, 30.0, 0.0), 40.0, 20.0).polygon(),   # corner to corner
              Rect(Pose(10.0, 10.0, 0.0), 40.0, 20.0).polygon(),   # the same
              Rect(Pose(70.0, 10.0, 45.0), 40.0, 20.0).polygon()):  # apart, turned
        assert bits(penetration(a, b)) == bits(plain_penetration(a, b))
        assert bits(distance(a, b)) == bits(plain_distance(a, b))
    assert penetration(a, Rect(Pose(50.0, 10.0, 0.0), 40.0, 20.0).polygon()) == 0.0
    assert distance(a, Rect(Pose(70.0, 10.0, 0.0), 40.0, 20.0).polygon()) == 20.0


def test_degenerate_outlines_have_no_axes() -> None:
    p = [(3.0, 4.0), (3.0, 4.0)]
    assert penetration(p, p) == math.inf == plain_penetration(p, p)
    assert distance(p, [(0.0, 0.0), (0.0, 0.0)]) == 0.0  # no axis separates: touching
    assert _axes(p) == [] and EPS > 0


def test_empty_outline_is_an_error_as_before() -> None:
    with pytest.raises(IndexError):
        penetration([], Rect(Pose(0.0, 0.0, 0.0), 2.0, 2.0).polygon())


@pytest.mark.parametrize("seed", range(4))
def test_rectangle_corners_are_the_pose_frame_bit_for_bit(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        pose = Pose(rng.choice([0.0, -0.0, rng.uniform(-900, 900)]),
                    rng.choice([0.0, rng.uniform(-900, 900)]),
                    rng.choice([0.0, 90.0, 180.0, -90.0, rng.uniform(-720, 720)]))
        r = Rect(pose, rng.choice([0.0, rng.uniform(0.1, 200)]), rng.uniform(0.1, 100))
        hl, hw = r.length / 2.0, r.width / 2.0
        plain = (pose.to_world((hl, hw)), pose.to_world((hl, -hw)),
                 pose.to_world((-hl, -hw)), pose.to_world((-hl, hw)))
        got = r.corners()
        assert [bits(v) for pt in got for v in pt] == [bits(v) for pt in plain for v in pt]
        fl, fr, rr, rl = plain
        assert [bits(v) for pt in r.polygon() for v in pt] == [
            bits(v) for pt in (rl, rr, fr, fl) for v in pt]


@pytest.mark.parametrize("seed", range(4))
def test_deeper_than_is_the_penetration_compared(seed: int) -> None:
    for a, b in _pairs(100 + seed, 1500):
        pen = plain_penetration(a, b)
        for depth in (pen, math.nextafter(pen, -math.inf), math.nextafter(pen, math.inf),
                      1e-6, -1e-6, 0.1, 0.0, -30.0, math.inf, -math.inf):
            assert deeper_than(a, b, depth) is (pen > depth), (a, b, depth)


def test_headings_already_in_range_come_back_as_the_remainder_gives_them() -> None:
    def plain(deg: float) -> float:
        h = math.fmod(deg, 360.0)
        if h < 0:
            h += 360.0
        return 0.0 if h >= 360.0 - 1e-12 else h

    rng = random.Random(9)
    edge = [0.0, -0.0, 1e-300, 359.999999999999, 360.0 - 1e-12, math.nextafter(360.0 - 1e-12, 0),
            360.0, -360.0, 720.5, -1e-15, 90, 0, -90, 450]
    for deg in edge + [rng.uniform(-1000, 1000) for _ in range(5000)]:
        got, want = norm_heading(deg), plain(deg)
        assert type(got) is type(want) and bits(got) == bits(want), deg
