"""Primitives: poses, oriented rectangles, separating axes, distances."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carnage.geometry import Pose, Rect, distance, overlaps, penetration
from carnage.geometry.shapes import closest_points, heading_diff, norm_heading

coord = st.floats(-500, 500)
angle = st.floats(-720, 720)


def test_headings() -> None:
    assert norm_heading(-90) == 270
    assert norm_heading(720) == 0
    assert heading_diff(350, 10) == pytest.approx(20)
    assert heading_diff(10, 350) == pytest.approx(-20)
    assert heading_diff(0, 180) == 180


def test_local_frame_is_forward_and_left() -> None:
    p = Pose(10, 20, 90)  # facing +y
    assert p.to_world((5, 0)) == pytest.approx((10, 25))  # forward
    assert p.to_world((0, 5)) == pytest.approx((5, 20))  # left is -x when facing +y


@given(coord, coord, angle, coord, coord, angle)
def test_compose_and_relative_are_inverse(x: float, y: float, h: float, lx: float, ly: float,
                                          lh: float) -> None:
    base = Pose(x, y, h)
    world = base.compose(Pose(lx, ly, lh))
    back = base.relative(world)
    assert (back.x, back.y) == pytest.approx((lx, ly), abs=1e-6)
    assert abs(heading_diff(back.heading, lh)) < 1e-6


def test_rect_corners_and_edges() -> None:
    r = Rect(Pose(0, 0, 90), 60, 30)  # long axis along y
    fl, fr, rr, rl = r.corners()
    assert fl == pytest.approx((-15, 30)) and fr == pytest.approx((15, 30))
    assert rr == pytest.approx((15, -30)) and rl == pytest.approx((-15, -30))
    assert r.front_centre() == pytest.approx((0, 30))
    assert r.rear_centre() == pytest.approx((0, -30))
    assert r.side_centre(left=True) == pytest.approx((-15, 0))
    assert r.contains((14, 29)) and not r.contains((16, 0))


def test_separating_axis_values() -> None:
    a = Rect(Pose(0, 0, 0), 60, 30).polygon()
    b = Rect(Pose(70, 0, 0), 20, 20).polygon()  # 30 + 10 = 40 edge to edge? gap 30
    assert penetration(a, b) == pytest.approx(-30)
    assert distance(a, b) == pytest.approx(30)
    assert not overlaps(a, b)
    c = Rect(Pose(35, 0, 0), 20, 20).polygon()  # overlaps by 5
    assert penetration(a, c) == pytest.approx(5)
    assert overlaps(a, c) and distance(a, c) == 0
    touching = Rect(Pose(40, 0, 0), 20, 20).polygon()
    assert overlaps(a, touching) and penetration(a, touching) == pytest.approx(0)


def test_corner_to_corner_distance_is_exact() -> None:
    a = Rect(Pose(0, 0, 0), 20, 20).polygon()
    b = Rect(Pose(30, 30, 0), 20, 20).polygon()
    # Corners (10, 10) and (20, 20): distance 10 sqrt 2; the axis gap is only 10.
    assert distance(a, b) == pytest.approx(10 * math.sqrt(2))
    assert penetration(a, b) == pytest.approx(-10)
    pa, pb, d = closest_points(a, b)
    assert pa == pytest.approx((10, 10)) and pb == pytest.approx((20, 20))
    assert d == pytest.approx(10 * math.sqrt(2))


@given(coord, coord, angle, coord, coord, angle)
def test_axis_gap_never_exceeds_distance(x1: float, y1: float, h1: float, x2: float, y2: float,
                                         h2: float) -> None:
    a = Rect(Pose(x1, y1, h1), 60, 30).polygon()
    b = Rect(Pose(x2, y2, h2), 40, 20).polygon()
    pen = penetration(a, b)
    d = distance(a, b)
    if pen < 0:
        # The separating-axis gap is a lower bound, within sqrt 2 for rectangles.
        assert -pen <= d + 1e-9
        assert d <= -pen * math.sqrt(2) + 1e-6
    else:
        assert d == 0


def test_a_bounding_circle_holds_every_corner_about_their_mean() -> None:
    from carnage.geometry.shapes import Pose, Rect, bounding_circle

    cx, cy, r = bounding_circle([(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)])
    assert (cx, cy) == (2.0, 1.0) and r == math.hypot(2.0, 1.0)
    poly = Rect(Pose(10.0, -5.0, 33.0), 60.0, 30.0).polygon()
    cx, cy, r = bounding_circle(poly)
    assert math.isclose(cx, 10.0) and math.isclose(cy, -5.0)
    assert all(math.hypot(x - cx, y - cy) <= r for x, y in poly)
    assert max(math.hypot(x - cx, y - cy) for x, y in poly) == r
