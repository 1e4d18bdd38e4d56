"""Collision orientation from the contact points (Refuelled pp.52–53), and obstructions."""

from __future__ import annotations

import pytest

from carnage.geometry import Obstruction, Pose, Rect, collision_contact, collision_orientation
from carnage.geometry.collision import contact_edge


def car(x: float, y: float, h: float) -> Rect:
    return Rect(Pose(x, y, h), 60, 30)


A = car(0, 0, 0)  # x -30..30, y -15..15, front edge at x = 30


def test_head_on() -> None:
    assert collision_orientation(A, car(60, 0, 180)) == "head_on"


def test_t_bone_front_into_side() -> None:
    b = car(45, 0, 90)  # its right side lies along x = 30
    assert collision_orientation(A, b) == "t_bone"
    assert collision_orientation(b, A) == "t_bone"  # the side counts for either vehicle


def test_tailgate_front_into_rear() -> None:
    c = collision_contact(A, car(60, 0, 0))
    assert c is not None and (c.edge_a, c.edge_b) == ("front", "rear")
    assert c.orientation == "tailgate"


def test_side_by_side_scrape_is_a_t_bone() -> None:
    assert collision_orientation(A, car(20, 30, 0)) == "t_bone"


def test_not_touching_is_none_and_near_touch_counts() -> None:
    assert collision_orientation(A, car(61, 0, 180)) is None
    assert collision_orientation(A, car(60.05, 0, 180)) == "head_on"  # within 0.1 mm


def test_overlapping_bodies_still_classified() -> None:
    assert collision_orientation(A, car(59, 0, 180)) == "head_on"
    assert collision_orientation(A, car(59, 0, 0)) == "tailgate"


def test_corner_rules() -> None:
    # p.53: front/side corner counts as front; rear/side corner counts as side.
    assert contact_edge(A, (30, 15)) == "front"
    assert contact_edge(A, (-30, -15)) == "side"
    assert contact_edge(A, (-30, 0)) == "rear"
    assert contact_edge(A, (0, 15)) == "side"
    assert contact_edge(A, (29.8, 15)) == "front"  # within half a millimetre of the corner


def test_corner_to_corner() -> None:
    # A's front-left corner meets B's rear-right corner: front vs side -> T-bone.
    b = car(60, 30, 0)
    c = collision_contact(A, b)
    assert c is not None and (c.edge_a, c.edge_b) == ("front", "side")
    assert c.orientation == "t_bone"


def test_offset_tailgate_uses_the_middle_of_the_contact() -> None:
    # Fronts overlap only partly: still the front and rear edges meet.
    assert collision_orientation(A, car(60, 20, 0)) == "tailgate"


def test_reversing_vehicle_treats_rear_as_front() -> None:
    b = car(-60, 0, 0)  # its front edge touches A's rear edge
    assert collision_orientation(A, b) == "tailgate"
    assert collision_orientation(A, b, a_reversing=True) == "head_on"
    assert contact_edge(A, (-30, 15), reversing=True) == "front"
    assert contact_edge(A, (30, 15), reversing=True) == "side"
    # A car rear-ended by a reversing one: the reverser's rear is its front.
    assert collision_orientation(car(60, 0, 0), A, b_reversing=True) == "tailgate"


def test_obstruction_normalises_and_validates() -> None:
    cw = Obstruction("cw", ((0, 0), (0, 10), (10, 10), (10, 0)))
    assert cw.polygon == ((10, 0), (10, 10), (0, 10), (0, 0))  # now counter-clockwise
    assert cw.centre == (5.0, 5.0) and cw.radius == pytest.approx(50 ** 0.5)
    assert len(cw.axes) == 2  # parallel edges share an axis
    with pytest.raises(ValueError, match="not convex"):
        Obstruction("dart", ((0, 0), (10, 0), (3, 3), (0, 10)))
    with pytest.raises(ValueError, match="at least 3 vertices"):
        Obstruction("line", ((0, 0), (1, 1)))
    with pytest.raises(ValueError, match="no area"):
        Obstruction("flat", ((0, 0), (1, 1), (2, 2)))
    with pytest.raises(ValueError, match="non-empty string"):
        Obstruction("", ((0, 0), (1, 0), (0, 1)))
    with pytest.raises(ValueError, match="non-finite"):
        Obstruction("nan", ((0, 0), (float("nan"), 0), (0, 1)))
