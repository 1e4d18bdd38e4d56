"""Free pivots with contact: spins (p.24) and lose-control pivots (p.35)."""

from __future__ import annotations

import pytest

from carnage.geometry import Obstruction, Pose, Rect, spin_body
from carnage.geometry.shapes import penetration


def test_clear_pivot_turns_fully() -> None:
    pose, turned, touched = spin_body(Rect(Pose(0, 0, 90), 60, 30), -45)
    assert (pose.x, pose.y, pose.heading) == (0, 0, pytest.approx(45))
    assert turned == pytest.approx(-45) and touched == []


def test_pivot_stops_at_first_touch() -> None:
    car = Rect(Pose(0, 0, 90), 60, 30)
    wall = Obstruction.from_rect("w", Rect(Pose(40, 0, 0), 20, 100))  # x from 30 to 50
    pose, turned, touched = spin_body(car, 90, [wall])
    assert touched == ["w"]
    assert 0 < turned < 90
    # The rear corner (15, -30) from the centre swings round to x = 30: |r| = sqrt(15^2+30^2),
    # so it touches when its angle from +x is acos(30/|r|) below the axis.
    end = Rect(pose, 60, 30)
    assert penetration(end.polygon(), wall.polygon) == pytest.approx(0, abs=0.1)


def test_pivot_ignores_what_it_started_touching() -> None:
    car = Rect(Pose(0, 0, 90), 60, 30)
    # A crate touching the front-right corner (15, 30) diagonally; turning anticlockwise
    # swings that corner away from it, so it is neither an obstacle nor reported.
    crate = Obstruction.from_rect("t", Rect(Pose(20, 35, 0), 10, 10))
    pose, turned, touched = spin_body(car, 30, [crate])
    assert turned == pytest.approx(30) and touched == []
    # A wall along the right side, touching it: any pivot drives a corner into it, so the
    # car backs up to where it started (nothing may end overlapping, ignored or not).
    wall = Obstruction.from_rect("w", Rect(Pose(25, 0, 0), 20, 100))
    pose, turned, touched = spin_body(car, -30, [wall])
    assert turned == pytest.approx(0, abs=1e-6) and pose.heading == pytest.approx(90)
    assert touched == []


def test_bad_angle() -> None:
    with pytest.raises(ValueError, match="finite"):
        spin_body(Rect(Pose(0, 0, 0), 60, 30), float("nan"))
