"""Moving along templates among obstructions: the examples of Refuelled pp.45–51 as scenes,
slides into obstructions, spins, wide and narrow vehicles, and bad input."""

from __future__ import annotations

import math
from typing import Any

import pytest

from carnage.geometry import (
    Obstruction,
    Pose,
    Rect,
    final_pose,
    footprint,
    hitch_trailer,
    pivot,
    resolve_move,
    trailer_behind,
)
from carnage.geometry.shapes import distance, penetration

# Deliberately wrong values, typed Any so the checks can be exercised.
NOT_A_SIDE: Any = "up"
NOT_AN_OBSTRUCTION: Any = ((0, 0), (1, 0), (0, 1))


def car(x: float = 0.0, y: float = 0.0, h: float = 0.0, vtype: str = "car") -> Rect:
    length, width = footprint(vtype)
    return Rect(Pose(x, y, h), length, width)


def box(id: str, x0: float, y0: float, x1: float, y1: float) -> Obstruction:
    return Obstruction(id, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def vehicle(id: str, x: float, y: float, h: float = 0.0) -> Obstruction:
    return Obstruction.from_rect(id, car(x, y, h))


def gap(r: Rect, ob: Obstruction) -> float:
    return distance(r.polygon(), ob.polygon)


def overlap(r: Rect, ob: Obstruction) -> float:
    return penetration(r.polygon(), list(ob.polygon))


def near(a: Pose, b: Pose, tol: float) -> bool:
    dh = abs((a.heading - b.heading + 180) % 360 - 180)
    return math.hypot(a.x - b.x, a.y - b.y) <= tol and dh <= tol


def brute_turn_contact(ob: Obstruction, r: float = 115.0, step: float = 0.002) -> Pose:
    """Independent reference: ride a car from the origin along a right-turning arc of radius
    ``r`` (centre half a length behind the template to start), sampling finely, and return the
    last pose before it touches ``ob``."""
    prev = Pose(0, 0, 0)
    s = -30.0
    while s < 200:
        if s < 0:
            pose = Pose(30 + s, 0, 0)
        else:
            phi = s / r
            pose = Pose(30 + r * math.sin(phi), -r * (1 - math.cos(phi)), -math.degrees(phi))
        if penetration(Rect(pose, 60, 30).polygon(), list(ob.polygon)) >= 0:
            return prev
        prev = pose
        s += step
    raise AssertionError("no contact")


# ------------------------------------------------------------------ p.45: plain interruption


def test_clear_move_reaches_its_final_position() -> None:
    rock = box("rock", 300, 300, 320, 320)
    res = resolve_move(car(), "turn", [rock])
    assert not res.interrupted and res.touched == []
    assert near(res.pose, final_pose(car(), "turn"), 1e-9)
    assert res.travel == 1.0


def test_head_on_stop_to_a_hundredth() -> None:
    # A wall across a Medium Straight: the front edge stops at the wall (x = 100).
    wall = box("wall", 100, -50, 110, 50)
    res = resolve_move(car(), "medium_straight", [wall])
    assert res.interrupted and res.touched == ["wall"]
    assert 69.99 - 1e-9 <= res.pose.x <= 70.0
    assert res.pose.y == pytest.approx(0) and res.pose.heading == pytest.approx(0)
    assert 0 <= gap(res.body, wall) <= 0.1


def test_p47_turn_into_red_car_matches_brute_force() -> None:
    # Refuelled p.47 example: Blue's Turn template overlaps Red; Blue rides the template until
    # it touches Red, and stops there.
    red = vehicle("red", 120, -40, 30)
    res = resolve_move(car(), "turn", [red])
    assert res.interrupted and res.touched == ["red"]
    ref = brute_turn_contact(red)
    assert near(res.pose, ref, 0.05), (res.pose, ref)
    assert 0 <= gap(res.body, red) <= 0.1
    # The body rides centred on the centreline: its centre is on the arc (centre (30, -115)).
    assert math.hypot(res.pose.x - 30, res.pose.y + 115) == pytest.approx(115, abs=1e-6)


def test_reversing_into_a_wall_behind() -> None:
    wall = box("wall", -80, -50, -70, 50)
    res = resolve_move(car(), "medium_straight", [wall], reverse=True)
    assert res.interrupted and res.touched == ["wall"]
    assert res.pose.x == pytest.approx(-40, abs=0.011)  # rear edge at -70
    assert res.pose.heading == pytest.approx(0)


# ------------------------------------------------------------------ pp.48–49: ignoring


def red_touching_blue() -> Obstruction:
    # Red's rear edge touches Blue's front edge, and Red hangs over Blue's template.
    return vehicle("red", 60, 28)


def test_p48_example_a_ignored_car_is_driven_through() -> None:
    red = red_touching_blue()
    res = resolve_move(car(), "medium_straight", [red])
    assert res.ignored == ["red"]
    assert not res.interrupted and res.touched == []
    assert near(res.pose, Pose(180, 0, 0), 1e-9)


def test_p48_example_b_collides_with_black_on_final_position() -> None:
    red = red_touching_blue()
    black = box("black", 190, -10, 210, 10)
    res = resolve_move(car(), "medium_straight", [red, black])
    assert res.interrupted and res.touched == ["black"]
    assert res.pose.x == pytest.approx(160, abs=0.011)


def test_p48_example_c_cannot_fit_so_does_not_move() -> None:
    red = red_touching_blue()
    black = box("black", 100, -10, 120, 10)
    res = resolve_move(car(), "medium_straight", [red, black])
    # Touching Black would leave Blue overlapping Red: back up until clear of both, which is
    # the start. No collision: Red is ignored and Black is no longer touched.
    assert res.interrupted
    assert near(res.pose, Pose(0, 0, 0), 0.011)
    assert res.touched == []


def test_explicitly_ignored_obstruction() -> None:
    black = box("black", 190, -10, 210, 10)
    res = resolve_move(car(), "medium_straight", [black], ignoring={"black"})
    # Ignored, but the final position overlaps it: back up until clear (ruling M-2).
    assert res.interrupted and res.touched == []
    assert res.pose.x == pytest.approx(160, abs=0.011)


def test_p49_destructible_obstacle_then_clear_run() -> None:
    crate = box("crate", 115, -50, 130, -35)
    res = resolve_move(car(), "turn", [crate])
    assert res.interrupted and res.touched == ["crate"]
    # The crate is removed after the collision; the move is checked again from the start.
    again = resolve_move(car(), "turn", [])
    assert not again.interrupted
    assert near(again.pose, final_pose(car(), "turn"), 1e-9)


def test_simultaneous_contacts_are_listed_in_input_order() -> None:
    a = box("a", 100, 2, 110, 12)
    b = box("b", 100, -12, 110, -2)
    res = resolve_move(car(), "medium_straight", [b, a])
    assert res.touched == ["b", "a"]


# ------------------------------------------------------------------ p.47: wide vehicles


def test_p47_wide_vehicle_squeezes_past() -> None:
    # A bus (40 wide) is wider than the template (35): an obstacle beside the template but
    # inside the bus's track is squeezed past while nothing overlaps template or final spot.
    post = box("post", 100, 18, 120, 30)
    bus = car(vtype="bus")
    res = resolve_move(bus, "medium_straight", [post])
    assert not res.interrupted and res.touched == []
    assert near(res.pose, Pose(220, 0, 0), 1e-9)


def test_p47_wide_vehicle_bumps_the_near_obstacle_when_interrupted_later() -> None:
    post = box("post", 100, 18, 120, 30)
    wall = box("wall", 240, -50, 250, 50)  # over the final position
    res = resolve_move(car(vtype="bus"), "medium_straight", [post, wall])
    assert res.interrupted and res.touched == ["post"]
    assert res.pose.x == pytest.approx(50, abs=0.011)


def test_narrow_vehicle_never_touching_reaches_final_position() -> None:
    # Ruling M-1: the template overlaps the obstacle but a bike's body never touches it.
    post = box("post", 60, 12, 80, 30)
    bike = car(vtype="bike")
    res = resolve_move(bike, "medium_straight", [post])
    assert not res.interrupted and res.touched == []
    assert near(res.pose, final_pose(bike, "medium_straight"), 1e-9)


def test_ignored_obstruction_across_the_whole_path_keeps_vehicle_home() -> None:
    wall = box("wall", 30, 13, 230, 43)  # touching at the start, along the whole route
    res = resolve_move(car(), "medium_straight", [wall])
    assert res.ignored == ["wall"] and res.interrupted
    assert near(res.pose, Pose(0, 0, 0), 0.011)


# ------------------------------------------------------------------ p.50: slides


def test_slide_into_obstruction_on_the_slide_template() -> None:
    free = resolve_move(car(), "turn", slide="left")
    assert not free.interrupted
    # An obstacle just beyond the Slide template: the car slides sideways into it.
    st = free.slide_template
    assert st is not None
    fx, fy = free.pose.x, free.pose.y
    rock = Obstruction.from_rect("rock", Rect(Pose(fx, fy, st.pose.heading), 20, 20))
    res = resolve_move(car(), "turn", [rock], slide="left")
    assert res.interrupted and res.touched == ["rock"]
    assert res.pose.heading == pytest.approx(330)  # heading at the slide exit, kept
    # Its centre lies on the line of the slide (out from the exit, square to the template).
    mid = res.path.pose_at(res.path.length / 2)
    ux, uy = math.cos(math.radians(st.pose.heading)), math.sin(math.radians(st.pose.heading))
    rx, ry = res.pose.x - mid.x, res.pose.y - mid.y
    assert abs(rx * uy - ry * ux) < 1e-6 and rx * ux + ry * uy > 0
    assert 0 <= gap(res.body, rock) <= 0.1


def test_slide_interrupted_before_the_exit_is_found_as_normal() -> None:
    red = vehicle("red", 90, 5, 0)
    res = resolve_move(car(), "turn", [red], slide="left")
    plain = resolve_move(car(), "turn", [red])
    assert res.interrupted and res.touched == ["red"]
    assert near(res.pose, plain.pose, 1e-9)


def test_template_beyond_the_slide_exit_is_ignored_when_sliding() -> None:
    # A crate on the last part of the Hard template, clear of the slide and its final spot.
    end = final_pose(car(), "hard")
    crate = Obstruction.from_rect("crate", Rect(Pose(end.x, end.y + 20, 0), 12, 12))
    assert resolve_move(car(), "hard", [crate]).interrupted
    slid = resolve_move(car(), "hard", [crate], slide="left")
    assert not slid.interrupted and slid.touched == []
    assert near(slid.pose, final_pose(car(), "hard", slide="left"), 1e-9)


def test_slide_off_straight_hits_obstruction_sideways() -> None:
    # The car pivots at the far end (centre at x = 150) to face left, then slides along +x.
    crate = box("crate", 185, 14, 205, 40)  # over the Slide template's corner
    res = resolve_move(car(), "medium_straight", [crate], slide="left")
    assert res.interrupted and res.touched == ["crate"]
    assert res.pose.heading == pytest.approx(90)
    assert res.pose.x == pytest.approx(170, abs=0.011) and res.pose.y == pytest.approx(0)


def test_slide_off_straight_pivot_blocked_stops_part_way() -> None:
    # Ruling M-3: touching something while pivoting at the exit point stops the pivot there.
    crate = box("crate", 160, 22, 200, 40)  # over the final position, above the template
    res = resolve_move(car(), "medium_straight", [crate], slide="left")
    assert res.interrupted and res.touched == ["crate"]
    # Front-left corner (30, 15) about the pivot (150, 0) reaches y = 22 when
    # 30 sin p + 15 cos p = 22.
    rr = math.hypot(30, 15)
    expect = math.degrees(math.asin(22 / rr)) - math.degrees(math.atan2(15, 30))
    assert res.pose.heading == pytest.approx(expect, abs=0.03)
    assert (res.pose.x, res.pose.y) == pytest.approx((150, 0))


def test_slide_errors() -> None:
    with pytest.raises(ValueError, match="slides to the left"):
        resolve_move(car(), "turn", slide="right")
    with pytest.raises(ValueError, match="slides to the right"):
        resolve_move(car(), "turn", mirror=True, slide="left")
    with pytest.raises(ValueError, match="square to the vehicle"):
        resolve_move(car(), "long_straight", slide="left", slide_facing=45)
    with pytest.raises(ValueError, match="only applies to straights"):
        resolve_move(car(), "gentle", slide="left", slide_facing=90)
    with pytest.raises(ValueError, match="without a slide"):
        resolve_move(car(), "gentle", slide_facing=90)
    with pytest.raises(ValueError, match="slide must be"):
        resolve_move(car(), "gentle", slide=NOT_A_SIDE)


# ------------------------------------------------------------------ p.24: spins


def test_spin_about_centre_and_front() -> None:
    res = resolve_move(car(), "medium_straight", spin=90)
    assert near(res.pose, Pose(180, 0, 90), 1e-9) and res.spin_applied == 90
    res = resolve_move(car(), "medium_straight", spin=-90, spin_about_front=True)
    # About the front-edge centre (210, 0): the centre swings to (210, 30).
    assert near(res.pose, Pose(210, 30, 270), 1e-9)
    assert pivot(car(180, 0), -90, about_front=True).pose == res.pose


def test_spin_stops_at_first_touch() -> None:
    # After a Medium Straight the car sits at x 150..210, y -15..15. A crate above its front
    # end: the anticlockwise spin swings the front-left corner into it.
    crate = box("crate", 190, 25, 230, 60)
    res = resolve_move(car(), "medium_straight", [crate], spin=60)
    assert not res.interrupted and res.touched == ["crate"]
    assert 0 < res.spin_applied < 60
    # Front-left corner (30, 15) about (180, 0) reaches y = 25 when 30 sin a + 15 cos a = 25.
    rr = math.hypot(30, 15)
    expect = math.degrees(math.asin(25 / rr)) - math.degrees(math.atan2(15, 30))
    assert res.pose.heading == pytest.approx(expect, abs=0.03)


def test_no_spin_after_interruption() -> None:
    wall = box("wall", 100, -50, 110, 50)
    res = resolve_move(car(), "medium_straight", [wall], spin=45)
    assert res.interrupted and res.spin_applied == 0
    assert res.pose.heading == pytest.approx(0)


def test_spin_range_and_free_pivot() -> None:
    with pytest.raises(ValueError, match=r"outside -90\.\.90"):
        resolve_move(car(), "medium_straight", spin=91)
    assert pivot(car(), 135).pose.heading == 135  # free pivots have no limit
    with pytest.raises(ValueError, match="finite"):
        pivot(car(), math.nan)


# ------------------------------------------------------------------ rendering data and errors


def test_swept_poses_follow_the_actual_travel() -> None:
    wall = box("wall", 100, -50, 110, 50)
    res = resolve_move(car(), "medium_straight", [wall])
    sw = res.swept(10)
    assert len(sw) == 11 and near(sw[0], Pose(0, 0, 0), 1e-9) and near(sw[-1], res.pose, 1e-9)
    assert near(res.intended, Pose(180, 0, 0), 1e-9)
    assert res.path.template_id == "medium_straight" and res.slide_template is None


def test_bad_input_errors() -> None:
    with pytest.raises(ValueError, match="duplicate obstruction id 'a'"):
        resolve_move(car(), "turn", [box("a", 0, 50, 1, 51), box("a", 0, 60, 1, 61)])
    with pytest.raises(ValueError, match="positive length and width"):
        resolve_move(Rect(Pose(0, 0, 0), 0, 30), "turn")
    with pytest.raises(ValueError, match="non-finite"):
        resolve_move(Rect(Pose(math.nan, 0, 0), 60, 30), "turn")
    with pytest.raises(ValueError, match="Obstruction objects"):
        resolve_move(car(), "turn", [NOT_AN_OBSTRUCTION])
    with pytest.raises(ValueError, match="spin must be"):
        resolve_move(car(), "turn", spin=math.inf)


# ------------------------------------------------------------------ War Rig trailer (p.117)


def test_trailer_follows_the_template_behind_the_cab() -> None:
    cab_len, cab_w = footprint("war_rig")
    tr_len, tr_w = footprint("war_rig_trailer")
    cab = Rect(Pose(0, 0, 0), cab_len, cab_w)
    # Straight: the trailer lines up behind the cab's new position (ruling GM-11).
    moved = resolve_move(cab, "medium_straight")
    trailer = hitch_trailer(moved.body, tr_len, tr_w, moved.path)
    assert near(trailer.pose, Pose(160 - 75, 0, 0), 1e-6)  # hitch at the far end, x = 160
    # Turn: folded, it meets the cab corner to corner on the inside of the bend (no overlap,
    # ruling VR-20), and its rear edge centre lies on the centreline.
    moved = resolve_move(cab, "turn")
    trailer = hitch_trailer(moved.body, tr_len, tr_w, moved.path)
    hinge = trailer.pose.heading - moved.body.pose.heading
    assert trailer == trailer_behind(moved.body, tr_len, tr_w, hinge)
    assert hinge > 10  # it lags behind the right turn
    # The right rear corner of the cab is the trailer's right front corner.
    assert moved.body.polygon()[1] == pytest.approx(trailer.polygon()[2])
    assert penetration(moved.body.polygon(), trailer.polygon()) <= 1e-9
    rx, ry = trailer.rear_centre()
    # The Turn's centreline: straight back from (40, 0) along y = 0, then the arc about
    # (40, -115); the rear centre lands on one of them.
    on_arc = abs(math.hypot(rx - 40, ry + 115) - 115) < 1e-6 and rx >= 40
    on_line = abs(ry) < 1e-6 and rx <= 40
    assert on_arc or on_line
    assert 270 < trailer.pose.heading < 360  # swung partway round the turn
    # No template (e.g. after a spin): in line with the cab.
    alone = hitch_trailer(cab, tr_len, tr_w)
    assert near(alone.pose, Pose(-40 - 75, 0, 0), 1e-9)
    with pytest.raises(ValueError, match="trailer needs"):
        hitch_trailer(cab, 0, tr_w)


@pytest.mark.parametrize("overlap", [0.0, 0.05, 0.09])
def test_a_move_never_ends_deeper_in_what_it_started_touching(overlap: float) -> None:
    # p.46 (GM-7): touching at the start (overlapping by up to the 0.1 mm touch tolerance),
    # the rock beside the car is ignored by the move, but the Hairpin's Final Position, which
    # would lie 10 mm inside it, backs up until the car overlaps it no more.
    body = Rect(Pose(0, 0, 0), 60, 30)
    rock = Rect(Pose(0, -45 + overlap, 0), 60, 60)
    res = resolve_move(body, "hairpin", [Obstruction("rock", tuple(rock.polygon()))])
    assert res.ignored == ["rock"] and res.interrupted and 0.6 < res.travel < 0.8
    assert penetration(Rect(res.pose, 60, 30).polygon(), rock.polygon()) <= 1e-6
