"""The edge of the play area (Refuelled p.87)."""

from __future__ import annotations

import math

import pytest

from carnage.geometry.movement import path_for
from carnage.geometry.shapes import Pose, Rect
from carnage.geometry.table import Table, off_table, template_off_table

TABLE = Table(900, 600)


def test_table_must_have_a_size() -> None:
    with pytest.raises(ValueError, match="table size must be positive"):
        Table(0, 600)
    assert TABLE.polygon()[2] == (900, 600)


def test_footprint_along_the_edge_is_on_the_table() -> None:
    flush = Rect(Pose(30, 300, 0), 60, 30).polygon()  # rear edge on x = 0
    assert not off_table([flush], TABLE)
    over = Rect(Pose(29.99, 300, 0), 60, 30).polygon()
    assert off_table([over], TABLE)
    corner = Rect(Pose(900 - 30, 600 - 15, 0), 60, 30).polygon()
    assert not off_table([corner], TABLE)


@pytest.mark.parametrize(("x", "over"), [(900 - 150, False), (900 - 149.99, True)])
def test_straight_template_reaching_the_edge(x: float, over: bool) -> None:
    # Car front edge at x + 30; a Medium Straight ends 120 further on.
    car = Rect(Pose(x, 300, 0), 60, 30)
    assert template_off_table(path_for(car, "medium_straight"), TABLE) is over


def test_reversing_template_off_the_back_edge() -> None:
    car = Rect(Pose(100, 300, 0), 60, 30)  # rear edge at x = 70
    assert not template_off_table(path_for(car, "short_straight", reverse=True), TABLE)
    assert template_off_table(path_for(car, "medium_straight", reverse=True), TABLE)


def test_curve_bulging_over_the_edge_between_its_ends() -> None:
    # A Hard turn (radius 60, 90°, 35 wide) turning right from heading 45: half way round
    # it heads east, so its outer edge (radius 77.5) is highest there, above the turn's
    # centre, and both ends sit lower.
    car = Rect(Pose(400, 100, 45), 60, 30)
    path = path_for(car, "hard")
    centre = path.start.to_world((0.0, -60.0))  # 60 mm to the right of the start
    outer_top = centre[1] + 77.5
    ends_top = max(p[1] for p in (path.start.to_world((0, 17.5)), path.end.to_world((0, -17.5)),
                                  path.start.to_world((0, -17.5)), path.end.to_world((0, 17.5))))
    assert ends_top == pytest.approx(centre[1] + 77.5 * math.cos(math.radians(45)))
    assert not template_off_table(path, Table(900, outer_top + 0.01))
    assert template_off_table(path, Table(900, outer_top - 0.05))


def test_only_as_far_as_asked() -> None:
    car = Rect(Pose(800, 300, 0), 60, 30)  # front edge at 830, long straight reaches 1010
    path = path_for(car, "long_straight")
    assert template_off_table(path, TABLE)
    assert not template_off_table(path, TABLE, upto=70)
