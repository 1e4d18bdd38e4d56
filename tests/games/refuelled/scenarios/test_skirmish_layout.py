"""Placement geometry of the Wasteland Skirmishes' objects: the crate ring (p.139), zombies
spread over the table and dropped round a wreck (p.142), Salvage Counters against a side edge
(p.135)."""

from __future__ import annotations

import math

import pytest
from tests.builders import rock, table, vehicle

from carnage.games.refuelled.scenarios.skirmish_layout import (
    COUNTER_RADIUS,
    ZOMBIE_RADIUS,
    counter_spots,
    crate_ring,
    disc_clear,
    grid_shape,
    ring_points,
    spots_near,
    zombie_points,
)
from carnage.games.refuelled.scenarios.snl_prizes import point_gap


def test_ring_points_are_evenly_spaced_at_the_radius() -> None:
    pts = ring_points((450.0, 600.0), 300.0, 4, 90.0)
    assert [(round(x), round(y)) for x, y in pts] == [(450, 900), (150, 600), (450, 300),
                                                       (750, 600)]


def test_every_crate_is_exactly_double_from_the_centre_even_round_terrain() -> None:
    st = table(width=900, height=1200)
    st.obstacles["rock"] = rock("rock", 450, 900, length=60, width=60)  # on the ring's top
    pts = crate_ring(st, 300.0, 8, 1)
    assert len(pts) == 8
    for p in pts:
        assert math.dist(p, (450.0, 600.0)) == pytest.approx(300.0)
        assert disc_clear(st, p, 15.0 * math.sqrt(2))
    # The crate that would sit on the rock slid along the ring.
    assert all(math.dist(p, (450.0, 900.0)) > 40.0 for p in pts)


def test_the_turn_die_turns_the_ring() -> None:
    st = table(width=900, height=1200)
    a, b = crate_ring(st, 300.0, 6, 1), crate_ring(st, 300.0, 6, 4)
    assert a[0] == pytest.approx((450.0, 900.0))
    assert a != b


def test_counter_spots_touch_the_side_edges() -> None:
    st = table(width=900, height=1200)
    car = vehicle("car", "car", 300, 300, 90)  # 60 long, 30 wide, facing +y
    spots = counter_spots(st, car)
    assert sorted(spots) == sorted(f"{s} side, {w}" for s in ("left", "right")
                                   for w in ("front", "middle", "rear"))
    assert spots["left side, middle"] == pytest.approx((300 - 15 - COUNTER_RADIUS, 300))
    assert spots["right side, front"] == pytest.approx((300 + 15 + COUNTER_RADIUS, 320))
    for p in spots.values():
        assert point_gap(car.polygon(), p) == pytest.approx(COUNTER_RADIUS)


def test_no_counter_spot_off_the_table() -> None:
    st = table(width=900, height=1200)
    car = vehicle("car", "car", 16, 300, 90)  # the left side edge is 1 mm from the table edge
    assert all(k.startswith("right") for k in counter_spots(st, car))


def test_zombies_spread_over_the_whole_table_and_off_terrain() -> None:
    st = table(width=900, height=1200)
    st.obstacles["rock"] = rock("rock", 450, 600, length=200, width=200)
    pts = zombie_points(st, 24, [3, 4] * 24)
    assert len(pts) == 24
    cols, rows = grid_shape(900, 1200, 24)
    assert cols * rows >= 24
    for p in pts:
        assert disc_clear(st, p, ZOMBIE_RADIUS)
    for a in pts:
        assert all(math.dist(a, b) >= 2 * ZOMBIE_RADIUS - 1e-9 for b in pts if b is not a)
    # Every quarter of the table has zombies.
    for qx in (0, 1):
        for qy in (0, 1):
            assert any(qx * 450 <= x < (qx + 1) * 450 and qy * 600 <= y < (qy + 1) * 600
                       for x, y in pts)
    with pytest.raises(ValueError, match="dice"):
        zombie_points(st, 5, [1])


def test_spots_near_a_wreck_are_within_short_and_clear() -> None:
    st = table(width=900, height=1200)
    car = vehicle("car", "car", 450, 600, 90)
    st.obstacles["wall"] = rock("wall", 450, 660, length=200, width=20)  # just in front
    spots = spots_near(st, car.polygon(), 60.0)
    assert spots
    for p in spots.values():
        gap = point_gap(car.polygon(), p) - ZOMBIE_RADIUS
        assert -1e-6 <= gap <= 60.0 + 1e-6
        assert disc_clear(st, p, ZOMBIE_RADIUS)
    taken = list(spots.values())[:3]
    fewer = spots_near(st, car.polygon(), 60.0, taken)
    assert all(math.dist(p, q) >= 2 * ZOMBIE_RADIUS - 1e-6 for p in fewer.values() for q in taken)
    assert len(fewer) < len(spots)

