"""Arcs of fire: template placement per arc (Refuelled pp.28–30) and exact reach."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carnage.geometry.arcs import (
    Arc,
    arc_region,
    can_reach,
    family_gap,
    fixed_families,
    parse_arc,
    turret_families,
    turret_reach,
    turret_reach_facing,
)
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, distance, penetration

CAR = Rect(Pose(0, 0, 0), 60, 30)  # front edge x=30, sides y=±15
SHORT = shooting_template("short")
MEDIUM = shooting_template("medium")
LONG = shooting_template("long")
SMALL_BURST = shooting_template("small_burst")
LARGE_BURST = shooting_template("large_burst")


def box(x: float, y: float, length: float = 60, width: float = 30, h: float = 0) -> list[Point]:
    return Rect(Pose(x, y, h), length, width).polygon()


def dot(x: float, y: float) -> list[Point]:
    """A 2 mm square target centred on (x, y)."""
    return box(x, y, 2, 2)


def test_parse_arc_aliases_and_errors() -> None:
    assert parse_arc("Front") is Arc.FRONT
    assert parse_arc("turret") is Arc.TURRET
    assert parse_arc("360") is Arc.TURRET
    assert parse_arc("360-degree") is Arc.TURRET
    assert parse_arc("sides") is Arc.SIDE
    with pytest.raises(ValueError, match="unknown arc 'up'"):
        parse_arc("up")


def test_front_reach_straight_ahead_is_the_ruler_length() -> None:
    assert can_reach(CAR, box(30 + 60 + 30, 0), Arc.FRONT, SHORT)
    assert not can_reach(CAR, box(30 + 60 + 30.01, 0), Arc.FRONT, SHORT)
    assert can_reach(CAR, box(30 + 120 + 30, 0), Arc.FRONT, MEDIUM)


def test_front_template_may_overhang_the_front_edge() -> None:
    # Near edge touching the front edge at its corner: the template's far side is
    # W/2 + template width = 15 + 35 = 50 mm off the centreline.
    assert can_reach(CAR, dot(60, 51), Arc.FRONT, SHORT)
    assert not can_reach(CAR, dot(60, 51.01), Arc.FRONT, SHORT)
    assert can_reach(CAR, dot(60, -51), Arc.FRONT, SHORT)


def test_front_arc_never_reaches_beside_or_behind() -> None:
    assert not can_reach(CAR, dot(0, 40), Arc.FRONT, LONG)  # level with the car, to its left
    assert not can_reach(CAR, dot(-60, 0), Arc.FRONT, LONG)
    # ...but in the plane of the front edge (x = 30) it touches.
    assert can_reach(CAR, box(29, 40, 4, 10), Arc.FRONT, LONG)


def test_rear_and_sides() -> None:
    behind, left, right = dot(-100, 0), dot(0, 100), dot(0, -100)
    assert can_reach(CAR, behind, Arc.REAR, MEDIUM)
    assert not can_reach(CAR, behind, Arc.FRONT, MEDIUM)
    assert can_reach(CAR, left, Arc.LEFT, MEDIUM) and not can_reach(CAR, left, Arc.RIGHT, MEDIUM)
    assert can_reach(CAR, right, Arc.RIGHT, MEDIUM) and not can_reach(CAR, right, Arc.LEFT, MEDIUM)
    assert can_reach(CAR, left, Arc.SIDE, MEDIUM) and can_reach(CAR, right, Arc.SIDE, MEDIUM)
    # Side placements slide the length of the side, overhanging each end by a template width.
    assert can_reach(CAR, dot(30 + 35 + 1, 60), Arc.LEFT, MEDIUM)
    assert not can_reach(CAR, dot(30 + 35 + 1.02, 60), Arc.LEFT, MEDIUM)


def test_fixed_families_are_flush_and_parallel() -> None:
    car = Rect(Pose(200, -50, 37), 80, 40)
    for arc, want in [(Arc.FRONT, 37), (Arc.REAR, 217), (Arc.LEFT, 127), (Arc.RIGHT, 307)]:
        (fam,) = fixed_families(car, arc, MEDIUM)
        assert fam.heading == pytest.approx(want)
        for t in (0.0, 0.3, 1.0):
            placed = fam.placed(MEDIUM, t)
            # lies outside the body, touching it
            assert penetration(placed, car.polygon()) <= 1e-9
            assert distance(placed, car.polygon()) <= 1e-9
    assert len(fixed_families(car, Arc.SIDE, MEDIUM)) == 2
    with pytest.raises(ValueError):
        fixed_families(car, Arc.TURRET, MEDIUM)


def test_burst_tip_must_be_on_the_edge() -> None:
    # A burst's tip slides only along the front edge itself (no overhang for a point).
    (fam,) = fixed_families(CAR, Arc.FRONT, LARGE_BURST)
    assert fam.start == pytest.approx((30, -15)) and fam.end == pytest.approx((30, 15))
    assert can_reach(CAR, dot(30 + 149, 0), Arc.FRONT, LARGE_BURST)
    assert not can_reach(CAR, dot(30 + 152, 0), Arc.FRONT, LARGE_BURST)


def test_side_mounted_flamethrower_catches_two_cars() -> None:
    # A truck's Large Burst laid square to its side reaches two cars parked beside it
    # (the worked example with the side-mounted Flamethrower).
    truck = Rect(Pose(0, 0, 0), 60, 30)
    car_a = box(-20, 15 + 60, 30, 60, 90)  # two cars side by side off the left flank
    car_b = box(25, 15 + 60, 30, 60, 90)
    assert can_reach(truck, car_a, Arc.LEFT, LARGE_BURST)
    assert can_reach(truck, car_b, Arc.LEFT, LARGE_BURST)
    assert not can_reach(truck, car_a, Arc.RIGHT, LARGE_BURST)


def test_turret_reaches_past_a_corner_by_the_template_diagonal() -> None:
    # Off the front-left corner (30, 15) along the diagonal, the farthest touch is the
    # template's far corner: sqrt(60^2 + 35^2) = 69.46 mm for Short range.
    limit = math.hypot(60, 35)
    u = 1 / math.sqrt(2)

    def probe(d: float) -> list[Point]:
        # a tiny target whose nearest corner is d from the car's corner, on the diagonal
        return box(30 + d * u + 1, 15 + d * u + 1, 2, 2)

    assert can_reach(CAR, probe(limit - 0.2), Arc.TURRET, SHORT)
    assert not can_reach(CAR, probe(limit + 0.2), Arc.TURRET, SHORT)
    # Straight ahead the turret, tilting the template and touching with a corner of its
    # near edge, outreaches the front arc (ruling GF-2) but never the diagonal.
    ahead = dot(30 + 65 + 1, 0)
    assert can_reach(CAR, ahead, Arc.TURRET, SHORT)
    assert not can_reach(CAR, ahead, Arc.FRONT, SHORT)
    assert not can_reach(CAR, dot(30 + limit + 0.2 + 1, 0), Arc.TURRET, SHORT)


def _brute_gap(body: Rect, target: list[Point], tpl_name: str, step: float) -> float:
    tpl = shooting_template(tpl_name)
    n = round(360 / step)
    return min(family_gap(turret_families(body, tpl, 360 * i / n), tpl, target)
               for i in range(n))


@settings(max_examples=6, deadline=None)
@given(st.floats(0, 360), st.floats(40, 110), st.floats(0, 360),
       st.sampled_from(["short", "small_burst"]))
def test_turret_reach_agrees_with_a_dense_facing_scan(
    bearing: float, dist: float, spin: float, tpl_name: str
) -> None:
    body = Rect(Pose(0, 0, 0), 60, 30)
    b = math.radians(bearing)
    target = box(dist * math.cos(b), dist * math.sin(b), 20, 10, spin)
    if penetration(target, body.polygon()) > -1e-6:
        return
    tpl = shooting_template(tpl_name)
    answer = turret_reach(body, target, tpl)
    step = 0.5
    gap = _brute_gap(body, target, tpl_name, step)
    slack = (tpl.near_half + tpl.reach) * math.radians(step) / 2  # Lipschitz bound of the scan
    if gap <= 1e-6:
        assert answer
    if gap > 0.1 + slack:
        assert not answer


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 360), st.sampled_from(["short", "long", "small_burst", "large_burst"]),
       st.floats(0, 360))
def test_turret_placements_touch_the_shooter_and_never_cut_into_it(
    theta: float, tpl_name: str, heading: float
) -> None:
    body = Rect(Pose(10, -20, heading), 80, 40)
    tpl = shooting_template(tpl_name)
    fams = turret_families(body, tpl, theta)
    assert fams, "every facing has some placement"
    for fam in fams:
        for t in (0.0, 0.5, 1.0):
            placed = fam.placed(tpl, t)
            assert penetration(placed, body.polygon()) <= 1e-6
            assert distance(placed, body.polygon()) <= 1e-6


coords = st.floats(-300, 300)


@settings(max_examples=30, deadline=None)
@given(coords, coords, st.floats(0, 360), st.floats(0, 360),
       st.sampled_from(list(Arc)), st.sampled_from(["short", "medium", "large_burst"]))
def test_reach_is_invariant_under_moving_the_whole_table(
    tx: float, ty: float, heading: float, turn: float, arc: Arc, tpl_name: str
) -> None:
    tpl = shooting_template(tpl_name)
    shooter = Rect(Pose(0, 0, heading), 60, 30)
    target = Rect(Pose(tx, ty, heading + 30), 60, 30)
    if distance(shooter.polygon(), target.polygon()) <= 0:
        return
    frame = Pose(-77.0, 512.0, turn)
    s2 = Rect(frame.compose(shooter.pose), 60, 30)
    t2 = Rect(frame.compose(target.pose), 60, 30)
    a = can_reach(shooter, target.polygon(), arc, tpl)
    b = can_reach(s2, t2.polygon(), arc, tpl)
    if a != b:
        # only a knife-edge graze may differ by rounding: confirm it is one
        if arc is Arc.TURRET:
            return
        fams = fixed_families(shooter, arc, tpl)
        assert min(distance(f.swept(tpl), target.polygon()) for f in fams) < 1e-6


def test_arc_region_for_drawing() -> None:
    (front,) = arc_region(CAR, Arc.FRONT, SHORT)
    xs = [p[0] for p in front]
    ys = [p[1] for p in front]
    assert (min(xs), max(xs)) == pytest.approx((30, 90))
    assert (min(ys), max(ys)) == pytest.approx((-50, 50))
    assert len(arc_region(CAR, Arc.TURRET, SHORT, steps=8)) >= 8


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 360), st.floats(40, 110), st.floats(0, 360),
       st.sampled_from(["short", "medium", "small_burst"]))
def test_reach_facing_is_a_witness(bearing: float, dist: float, spin: float, tpl_name: str) -> None:
    body = Rect(Pose(0, 0, 20), 60, 30)
    b = math.radians(bearing)
    target = box(dist * math.cos(b), dist * math.sin(b), 20, 10, spin)
    if distance(target, body.polygon()) <= 1e-6:
        return  # touching or overlapping: any facing will do
    tpl = shooting_template(tpl_name)
    facing = turret_reach_facing(body, target, tpl)
    assert (facing is not None) == turret_reach(body, target, tpl)
    if facing is not None:
        assert family_gap(turret_families(body, tpl, facing), tpl, target) <= 0.1


@settings(max_examples=30, deadline=None)
@given(st.floats(-250, 250), st.floats(-250, 250), st.floats(0, 360),
       st.sampled_from(["short", "long", "large_burst"]))
def test_mirroring_the_table_swaps_left_and_right(
    tx: float, ty: float, spin: float, tpl_name: str
) -> None:
    # Reflect everything in the shooter's centreline (y -> -y): left and right trade places.
    tpl = shooting_template(tpl_name)
    target = Rect(Pose(tx, ty, spin), 60, 30)
    mirrored = Rect(Pose(tx, -ty, -spin), 60, 30)
    if distance(CAR.polygon(), target.polygon()) <= 1e-6:
        return
    for a, b in [(Arc.LEFT, Arc.RIGHT), (Arc.FRONT, Arc.FRONT), (Arc.REAR, Arc.REAR),
                 (Arc.SIDE, Arc.SIDE)]:
        assert can_reach(CAR, target.polygon(), a, tpl) == \
            can_reach(CAR, mirrored.polygon(), b, tpl)
