"""The sweep kernel: separating-axis depth, unit-speed motion pieces, first contact to a
hundredth of a millimetre, and backing up past overlaps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carnage.geometry import Obstruction, Pose, Rect
from carnage.geometry.shapes import distance, penetration
from carnage.geometry.sweep import (
    RESOLUTION,
    Motion,
    arc_piece,
    first_contact,
    last_clear,
    line_piece,
    rot_piece,
    sat,
)

HL, HW = 30.0, 15.0
RHO = math.hypot(HL, HW)


def box(id: str, x0: float, y0: float, x1: float, y1: float) -> Obstruction:
    return Obstruction(id, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def body_at(m: Motion, u: float) -> Rect:
    return Rect(m.pose(u), 2 * HL, 2 * HW)


def test_sat_is_gap_or_depth() -> None:
    ob = box("b", 50, -5, 60, 5)
    assert sat(HL, HW, (0, 0, 0), ob) == pytest.approx(-20)  # front at 30, box at 50
    assert sat(HL, HW, (25, 0, 0), ob) == pytest.approx(5)  # 5 mm overlap
    # Rotated: agrees with the general polygon routine.
    kin = (10.0, 3.0, 0.4)
    poly = Rect(Pose(10, 3, math.degrees(0.4)), 60, 30).polygon()
    assert sat(HL, HW, kin, ob) == pytest.approx(penetration(poly, list(ob.polygon)))


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["line", "arc", "rot"]),
    r=st.floats(20, 300),
    u=st.floats(0, 1),
    du=st.floats(1e-3, 5),
)
def test_pieces_move_points_at_most_one_mm_per_unit(kind: str, r: float, u: float,
                                                    du: float) -> None:
    if kind == "line":
        p = line_piece(0, 0, 0.6, 0.8, 100, 0.3, RHO)
    elif kind == "arc":
        p = arc_piece(5, -r, r, math.pi / 2, -1, math.pi / 2, 0.0, RHO)
    else:
        p = rot_piece(10, 0, -10, 0, 0.0, math.pi / 2, math.hypot(2 * HL, HW))
    u0 = u * p.length
    u1 = min(u0 + du, p.length)
    a = Rect(Pose(*_deg(p.at(u0))), 2 * HL, 2 * HW).polygon()
    b = Rect(Pose(*_deg(p.at(u1))), 2 * HL, 2 * HW).polygon()
    moved = max(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(a, b, strict=True))
    assert moved <= (u1 - u0) + 1e-9
    # ... and the piece's circle (and ring, for arcs) holds the body all along.
    cx, cy, cr = p.circle
    for x, y in a + b:
        assert math.hypot(x - cx, y - cy) <= cr + 1e-9
        if p.ring is not None:
            rx, ry, r_in, r_out = p.ring
            assert r_in - 1e-9 <= math.hypot(x - rx, y - ry) <= r_out + 1e-9


def _deg(k: tuple[float, float, float]) -> tuple[float, float, float]:
    return (k[0], k[1], math.degrees(k[2]))


def test_first_contact_straight_to_a_hundredth() -> None:
    m = Motion(HL, HW, [line_piece(0, 0, 1, 0, 200, 0, RHO)])
    ob = box("b", 123.456, -50, 130, 50)
    hit = first_contact(m, ob)
    assert hit is not None
    lo, hi = hit
    assert hi - lo <= RESOLUTION
    assert 93.456 - RESOLUTION <= lo <= 93.456 + 1e-9
    assert distance(body_at(m, lo).polygon(), ob.polygon) <= RESOLUTION


def test_first_contact_on_an_arc_matches_fine_sampling() -> None:
    r = 115.0
    m = Motion(HL, HW, [arc_piece(0, -r, r, math.pi / 2, -1, math.pi / 3, 0.0, RHO)])
    ob = box("b", 60, -40, 80, -20)
    hit = first_contact(m, ob)
    assert hit is not None
    # Brute force over u at 0.001 steps.
    u = 0.0
    while penetration(body_at(m, u).polygon(), list(ob.polygon)) < 0:
        u += 0.001
    assert hit[0] == pytest.approx(u, abs=RESOLUTION + 0.001)


def test_no_contact_when_passing_clear() -> None:
    m = Motion(HL, HW, [line_piece(0, 0, 1, 0, 300, 0, RHO)])
    assert first_contact(m, box("b", 100, 15.2, 120, 30)) is None  # 0.2 mm beside the path
    # A pass within the resolution counts as touching.
    assert first_contact(m, box("b", 100, 15.005, 120, 30)) is not None
    assert first_contact(m, box("far", 1000, 1000, 1010, 1010)) is None
    assert m.near(box("far", 1000, 1000, 1010, 1010)) == []


def test_first_contact_respects_the_limit() -> None:
    m = Motion(HL, HW, [line_piece(0, 0, 1, 0, 200, 0, RHO)])
    assert first_contact(m, box("b", 100, -5, 110, 5), limit=60) is None
    assert first_contact(m, box("b", 100, -5, 110, 5), limit=80) is not None


def test_last_clear_backs_out_of_overlap() -> None:
    m = Motion(HL, HW, [line_piece(0, 0, 1, 0, 200, 0, RHO)])
    ob = box("b", 50, -5, 60, 5)
    # At u = 100 the body (70..130) is past the box; at u = 40 it overlaps it (10..70).
    assert last_clear(m, 100, [ob]) == 100
    got = last_clear(m, 40, [ob])
    assert 20 - RESOLUTION <= got <= 20  # front edge back to x = 50
    assert last_clear(m, 10, [box("home", -40, -5, 0, 5)]) == 0.0  # overlapping at the start


def test_multi_piece_motion_is_continuous() -> None:
    r = 60.0
    pieces = [
        line_piece(-30, 0, 1, 0, 30, 0, RHO),
        arc_piece(0, -r, r, math.pi / 2, -1, math.pi / 2, 0.0, RHO),
    ]
    m = Motion(HL, HW, pieces)
    a = m.pose(pieces[0].length - 1e-9)
    b = m.pose(pieces[0].length + 1e-9)
    assert math.hypot(a.x - b.x, a.y - b.y) < 1e-6
    end = m.pose(m.length)
    assert (end.x, end.y, end.heading) == pytest.approx((60, -60, 270))
