"""Shooting templates (Refuelled pp.27–28) and the range band between two bodies."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carnage.geometry.convex import signed_area
from carnage.geometry.ranges import BURSTS, RANGE_BANDS, range_band, shooting_template
from carnage.geometry.shapes import Pose, Rect, distance
from carnage.geometry.templateset import default_template_set


def car(x: float, y: float, h: float = 0.0) -> list[tuple[float, float]]:
    return Rect(Pose(x, y, h), 60, 30).polygon()


@pytest.mark.parametrize(("name", "length"), [("short", 60), ("medium", 120), ("long", 180)])
def test_rulers_are_the_straights(name: str, length: float) -> None:
    t = shooting_template(name)
    xs = [p[0] for p in t.polygon]
    ys = [p[1] for p in t.polygon]
    assert (min(xs), max(xs)) == (0, length)
    assert (min(ys), max(ys)) == (-17.5, 17.5)
    assert t.near_half == 17.5
    assert not t.is_burst


def test_double_is_medium_plus_long() -> None:
    d = shooting_template("double")
    assert d.length == shooting_template("medium").length + shooting_template("long").length
    assert max(p[0] for p in d.polygon) == 300


@pytest.mark.parametrize(("name", "length", "width"), [("small_burst", 80, 40),
                                                       ("large_burst", 150, 70)])
def test_bursts_are_teardrops(name: str, length: float, width: float) -> None:
    t = shooting_template(name)
    assert t.is_burst and t.polygon[0] == (0.0, 0.0)
    # Inscribed polygon: within 0.1 mm of the true length and width, never beyond.
    assert length - 0.1 <= max(p[0] for p in t.polygon) <= length + 1e-9
    assert width / 2 - 0.1 <= max(p[1] for p in t.polygon) <= width / 2 + 1e-9
    assert signed_area(t.polygon) > 0  # counter-clockwise
    # convex: every turn is to the left
    pts = t.polygon
    n = len(pts)
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        assert (bx - ax) * (cy - by) - (by - ay) * (cx - bx) >= -1e-9
    # the sides open at the half-wedge angle
    r, d = width / 2, length - width / 2
    assert t.tip_half_angle == pytest.approx(math.degrees(math.asin(r / d)))


def test_names_are_forgiving_but_unknown_is_an_error() -> None:
    assert shooting_template("Large Burst").id == "large_burst"
    assert shooting_template("small-burst").id == "small_burst"
    with pytest.raises(ValueError, match="unknown shooting template 'huge'"):
        shooting_template("huge")


def test_scaled_set_scales_templates() -> None:
    ts = default_template_set().scaled(1.3)
    assert shooting_template("medium", ts).length == pytest.approx(156)
    assert max(p[1] for p in shooting_template("medium", ts).polygon) == pytest.approx(22.75)
    big = shooting_template("large_burst", ts)
    assert max(p[0] for p in big.polygon) == pytest.approx(195, abs=0.15)


@pytest.mark.parametrize(
    ("gap", "band"),
    [(0.0, "short"), (60.0, "short"), (60.01, "medium"), (120.0, "medium"), (150.0, "long"),
     (180.0, "long"), (180.01, "double"), (300.0, "double"), (300.01, None)],
)
def test_band_boundaries(gap: float, band: str | None) -> None:
    # Front edge of a at x=30; rear edge of b at 30 + gap.
    assert range_band(car(0, 0), car(60 + gap, 0)) == band


def test_band_uses_closest_points_not_centres() -> None:
    # Side by side, 100 mm apart centre to centre but only 70 mm between the bodies.
    assert range_band(car(0, 0, 90), car(100, 0, 90)) == "medium"
    # Corner to corner on the diagonal: gap is the corner distance.
    a, b = car(0, 0), car(60 + 40, 30 + 40)
    assert distance(a, b) == pytest.approx(math.hypot(40, 40))
    assert range_band(a, b) == "short"


def test_band_names_are_in_order() -> None:
    assert RANGE_BANDS == ("short", "medium", "long", "double")
    assert BURSTS == ("small_burst", "large_burst")


coords = st.floats(-400, 400, allow_nan=False)
angles = st.floats(0, 360, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(coords, coords, angles, coords, coords, angles, angles)
def test_band_is_invariant_under_moving_the_whole_table(
    x1: float, y1: float, h1: float, x2: float, y2: float, h2: float, turn: float
) -> None:
    a, b = Rect(Pose(x1, y1, h1), 60, 30), Rect(Pose(x2, y2, h2), 80, 40)
    frame = Pose(123.0, -45.0, turn)
    a2 = Rect(frame.compose(a.pose), 60, 30)
    b2 = Rect(frame.compose(b.pose), 80, 40)
    gap = distance(a.polygon(), b.polygon())
    # Skip knife-edge cases where rounding could move a gap across a ruler length.
    if any(abs(gap - r) < 1e-6 for r in (60, 120, 180, 300)):
        return
    assert range_band(a.polygon(), b.polygon()) == range_band(a2.polygon(), b2.polygon())


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 400), st.floats(0, 400))
def test_band_never_shrinks_with_distance(g1: float, g2: float) -> None:
    order = {"short": 0, "medium": 1, "long": 2, "double": 3, None: 4}
    lo, hi = sorted((g1, g2))
    assert order[range_band(car(0, 0), car(60 + lo, 0))] <= order[range_band(car(0, 0),
                                                                              car(60 + hi, 0))]
