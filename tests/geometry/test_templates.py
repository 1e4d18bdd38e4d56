"""Golden pose tables: every movement template, both ways up, reversed, and with slides.

Expected poses are worked out by hand here from the provisional data (NOTES.md), not taken from
the code. A car (60 x 30) starts at the origin facing +x, so the template starts at its front
edge centre (30, 0) (Refuelled p.22) or, reversing, at its rear edge centre (-30, 0) (p.39).

For a centreline arc turning right through angle t on radius r, starting at P heading h, the
end point is P + rot(h) (r sin t, -r (1 - cos t)) and the heading h - t (left: mirror y, +t).
The final position puts the rear edge centre on the far end, so the centre is half a body
length further along the end heading (p.25).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from carnage.geometry import Pose, Rect, final_pose, footprint, path_for, template_path
from carnage.geometry.templateset import TemplateSet, default_template_set

HALF = 30.0  # half the car's length
W = 35.0  # template width
SLIDE = 45.0  # Slide template length


def rot(x: float, y: float, deg: float) -> tuple[float, float]:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return (x * c - y * s, x * s + y * c)


def arc(r: float, t: float) -> tuple[float, float]:
    """Displacement of a right-turning arc of t degrees, in its own frame."""
    return (r * math.sin(math.radians(t)), -r * (1 - math.cos(math.radians(t))))


# Centreline end (x, y, heading) of each template from (0, 0) heading 0, right way up.
def centreline_end(tid: str) -> tuple[float, float, float]:
    if tid in ("short_straight", "medium_straight", "long_straight"):
        return ({"short_straight": 60.0, "medium_straight": 120.0, "long_straight": 180.0}[tid],
                0.0, 0.0)
    if tid in ("gentle", "turn", "hard", "hairpin"):
        t, r = {"gentle": (30, 230), "turn": (60, 115), "hard": (90, 60), "hairpin": (180, 40)}[tid]
        x, y = arc(r, t)
        return (x, y, -t)
    if tid == "veer":
        x, y = arc(150, 30)
        return (40 + x, y, -30.0)
    assert tid == "swerve"
    x1, y1 = arc(120, 30)
    x2, y2 = rot(x1, -y1, -30)  # the second arc turns left, starting at heading -30
    return (x1 + x2, y1 + y2, 0.0)


ALL = ["gentle", "hairpin", "hard", "long_straight", "medium_straight", "short_straight", "swerve",
       "turn", "veer"]

CAR = Rect(Pose(0, 0, 0), 60, 30)


def expected_final(tid: str, mirror: bool, reverse: bool) -> Pose:
    ex, ey, eh = centreline_end(tid)
    if mirror:
        ey, eh = -ey, -eh
    if not reverse:
        x, y, h = 30 + ex, ey, eh
        return Pose(x + HALF * math.cos(math.radians(h)), y + HALF * math.sin(math.radians(h)),
                    h % 360)
    # Reversing: the template runs backwards (heading 180) from the rear edge; the body keeps
    # facing away from the direction of travel, its front edge on the far end.
    dx, dy = rot(ex, ey, 180)
    travel = 180 + eh
    x, y = -30 + dx, dy
    return Pose(x + HALF * math.cos(math.radians(travel)),
                y + HALF * math.sin(math.radians(travel)), eh % 360)


def close(a: Pose, b: Pose, tol: float = 1e-6) -> bool:
    dh = abs((a.heading - b.heading + 180) % 360 - 180)
    return math.hypot(a.x - b.x, a.y - b.y) <= tol and dh <= tol


def test_swerve_is_a_lane_change() -> None:
    ex, ey, eh = centreline_end("swerve")
    # Two equal opposite arcs: forward 2 r sin 30 = r, sideways 2 r (1 - cos 30).
    assert ex == pytest.approx(120.0)
    assert ey == pytest.approx(-240 * (1 - math.cos(math.radians(30))))
    assert eh == 0


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("tid", ALL)
def test_golden_final_positions(tid: str, mirror: bool, reverse: bool) -> None:
    got = final_pose(CAR, tid, mirror=mirror, reverse=reverse)
    want = expected_final(tid, mirror, reverse)
    assert close(got, want), (got, want)


@pytest.mark.parametrize("tid", ALL)
def test_golden_table_holds_anywhere_on_the_table(tid: str) -> None:
    start = Pose(312.5, -140.25, 137.0)
    got = final_pose(Rect(start, 60, 30), tid, mirror=True)
    want = start.compose(expected_final(tid, True, False))
    assert close(got, want)


def test_specific_numbers() -> None:
    # A few poses written out in full as a check on the helpers above.
    assert close(final_pose(CAR, "medium_straight"), Pose(180, 0, 0))
    assert close(final_pose(CAR, "hard"), Pose(90, -90, 270))
    assert close(final_pose(CAR, "hard", mirror=True), Pose(90, 90, 90))
    # Hairpin: back where it came from, 80 mm to the side, facing the other way.
    assert close(final_pose(CAR, "hairpin"), Pose(0, -80, 180))
    assert close(final_pose(CAR, "short_straight", reverse=True), Pose(-120, 0, 0))


def expected_curve_slide(tid: str, mirror: bool) -> Pose:
    """Slide off a curve: ride to the middle of the centreline, then out through the outer
    edge, across the Slide template; the car keeps its heading, side edge on the far end."""
    spec = default_template_set().movement[tid]
    half = spec.length / 2
    if tid == "veer":
        t = math.degrees((half - 40) / 150)
        x, y = arc(150, t)
        px, py, h = 40 + x, y, -t
    elif tid == "swerve":
        x, y = arc(120, 30)
        px, py, h = x, y, -30.0
    else:
        tt, r = {"gentle": (30, 230), "turn": (60, 115), "hard": (90, 60),
                 "hairpin": (180, 40)}[tid]
        x, y = arc(r, tt / 2)
        px, py, h = x, y, -tt / 2
    if mirror:
        py, h = -py, -h
    out = h + (-90 if mirror else 90)  # outer edge: left for a right turn
    d = W / 2 + SLIDE + 15  # half template, the Slide template, half the car's width
    return Pose(30 + px + d * math.cos(math.radians(out)), py + d * math.sin(math.radians(out)),
                h % 360)


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("tid", ["gentle", "turn", "hard", "hairpin", "veer", "swerve"])
def test_golden_slides_off_curves(tid: str, mirror: bool) -> None:
    got = final_pose(CAR, tid, mirror=mirror, slide="right" if mirror else "left")
    assert close(got, expected_curve_slide(tid, mirror), 1e-6)


@pytest.mark.parametrize("tid,length", [("short_straight", 60), ("medium_straight", 120),
                                        ("long_straight", 180)])
def test_golden_slides_off_straights(tid: str, length: float) -> None:
    # Far end of the straight, then the Slide template, then half the car's width (p.26).
    x = 30 + length + SLIDE + 15
    assert close(final_pose(CAR, tid, slide="left"), Pose(x, 0, 90))
    assert close(final_pose(CAR, tid, slide="right"), Pose(x, 0, 270))
    assert close(final_pose(CAR, tid, slide="right", slide_facing=90), Pose(x, 0, 90))
    # Reversing off a straight: the far end lies behind the car.
    xr = -30 - length - SLIDE - 15
    assert close(final_pose(CAR, tid, reverse=True, slide="left"), Pose(xr, 0, 90))


def test_path_geometry() -> None:
    p = path_for(CAR, "turn")
    assert p.length == pytest.approx(math.radians(60) * 115)
    assert close(p.start, Pose(30, 0, 0))
    mid = p.pose_at(p.length / 2)
    x, y = arc(115, 30)
    assert close(mid, Pose(30 + x, y, 330))
    # Beyond the ends the centreline runs straight on.
    assert close(p.pose_at(-10), Pose(20, 0, 0))
    e = p.end
    beyond = p.pose_at(p.length + 10)
    assert beyond.x == pytest.approx(e.x + 10 * math.cos(math.radians(e.heading)))
    # The slide exit point is on the outer (left) edge at the middle.
    ex, ey = p.slide_exit_point()
    n = (math.sin(math.radians(30)), math.cos(math.radians(30)))
    assert (ex, ey) == pytest.approx((30 + x + n[0] * 17.5, y + n[1] * 17.5))
    assert path_for(CAR, "turn", mirror=True).slide_side == "right"
    assert path_for(CAR, "long_straight").slide_side == "end"


def test_template_path_takes_the_edge_centre_pose() -> None:
    p = template_path("short_straight", Pose(10, 5, 90))
    assert close(p.end, Pose(10, 65, 90))
    r = template_path("short_straight", Pose(10, 5, 90), reverse=True)
    assert close(r.end, Pose(10, -55, 270))


def test_outline_is_the_template_band() -> None:
    p = path_for(CAR, "medium_straight")
    xs = [q[0] for q in p.outline()]
    ys = [q[1] for q in p.outline()]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((30, 150, -17.5, 17.5))
    turn = path_for(CAR, "hard")
    # Every outline point is within half the width of the arc's circle (centre (30, -60)).
    for x, y in turn.outline():
        d = math.hypot(x - 30, y + 60)
        assert 60 - 17.5 - 1e-9 <= d <= 60 + 17.5 + 1e-9
    # Convex pieces contain the outline.
    from carnage.geometry.shapes import penetration

    pieces = turn.convex_pieces()
    assert len(pieces) >= 30
    for q in turn.outline():
        tiny = [(q[0] - 0.01, q[1] - 0.01), (q[0] + 0.01, q[1] - 0.01), (q[0], q[1] + 0.01)]
        assert any(penetration(list(pc), tiny) >= -1e-6 for pc in pieces)


def test_slide_template_placement() -> None:
    s = path_for(CAR, "medium_straight").slide_template()
    assert close(s.pose, Pose(150 + 22.5, 0, 0))
    assert (s.length, s.width) == (45, 35)


def test_scaled_set_scales_positions() -> None:
    ts = default_template_set().scaled(1.3)
    got = final_pose(CAR, "turn", ts=ts)
    x, y = arc(115 * 1.3, 60)
    h = -60
    assert close(got, Pose(30 + x + 30 * math.cos(math.radians(h)),
                           y + 30 * math.sin(math.radians(h)), 300))


def test_unknown_template_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown movement template 'drift'"):
        final_pose(CAR, "drift")


def test_measured_slide_side() -> None:
    import yaml

    raw = yaml.safe_load(
        (Path(__file__).parents[2] / "src/carnage/geometry/data/templates.yaml").read_text())
    raw["movement"]["turn"]["slide_side"] = "right"
    ts = TemplateSet.from_mapping(raw, "measured")
    assert ts.movement["turn"].slide_side == "right"
    assert path_for(CAR, "turn", ts=ts).slide_side == "right"
    assert final_pose(CAR, "turn", slide="right", ts=ts).y < -57.5  # slides off the inside
    raw["movement"]["turn"]["slide_side"] = "up"
    with pytest.raises(ValueError, match="slide_side must be end, left or right"):
        TemplateSet.from_mapping(raw, "measured")
    raw["movement"]["turn"]["slide_side"] = "left"
    raw["vehicle_types"]["car"] = "limo"
    with pytest.raises(ValueError, match="vehicle type car names unknown footprint 'limo'"):
        TemplateSet.from_mapping(raw, "measured")


@pytest.mark.parametrize("vtype,size", [
    ("bike", (30, 20)), ("bike_with_sidecar", (30, 20)), ("car", (60, 30)),
    ("performance_car", (60, 30)), ("monster_truck", (80, 40)), ("heavy_truck", (80, 40)),
    ("helicopter", (80, 40)), ("tank", (80, 40)), ("bus", (100, 40)), ("war_rig", (80, 50)),
    ("war_rig_trailer", (150, 50)),
])
def test_footprints(vtype: str, size: tuple[float, float]) -> None:
    assert footprint(vtype) == size  # Refuelled p.177


def test_footprint_errors_and_scaling() -> None:
    with pytest.raises(ValueError, match="unknown vehicle type 'hovercraft'"):
        footprint("hovercraft")
    assert footprint("bus", default_template_set().scaled(0.7)) == pytest.approx((70, 28))
