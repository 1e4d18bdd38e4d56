"""The distance field's search (framed grid, cells queued by distance, walls found edge by
edge) gives exactly the values of the plain Dijkstra search over the grid it replaced."""

from __future__ import annotations

import heapq
import math
import random

from carnage.games.refuelled.ai.field import (
    CELL,
    FAR,
    WALL_COST,
    _point_polygon_distance,
    _point_segment_distance,
    distance_field,
)
from carnage.geometry.shapes import Point


def reference(width: float, height: float, terrain: tuple[tuple[Point, ...], ...],
              goal: tuple[Point, Point], clearance: float) -> tuple[float, ...]:
    """The field as first written: every cell tested, a heap of (distance, cell) pairs,
    neighbours checked against the table's bounds."""
    cols, rows = max(1, math.ceil(width / CELL)), max(1, math.ceil(height / CELL))
    dist = [FAR] * (cols * rows)
    wall = [False] * (cols * rows)
    for r in range(rows):
        for c in range(cols):
            x, y = (c + 0.5) * CELL, (r + 0.5) * CELL
            near_terrain = any(_point_polygon_distance((x, y), poly) < clearance
                               for poly in terrain)
            wall[r * cols + c] = min(x, y, width - x, height - y) < clearance or near_terrain
    heap: list[tuple[float, int]] = []
    a, b = goal
    for open_only in (True, False):  # a goal wholly within walls: its cells, walls and all
        for r in range(rows):
            for c in range(cols):
                i = r * cols + c
                if (not open_only or not wall[i]) and _point_segment_distance(
                        ((c + 0.5) * CELL, (r + 0.5) * CELL), a, b) <= CELL * 0.75:
                    dist[i] = 0.0
                    heap.append((0.0, i))
        if heap:
            break
    heapq.heapify(heap)
    steps = [(dc, dr, CELL * math.hypot(dc, dr)) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
             if dc or dr]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        r, c = divmod(i, cols)
        for dc, dr, cost in steps:
            cc, rr = c + dc, r + dr
            if not (0 <= cc < cols and 0 <= rr < rows):
                continue
            j = rr * cols + cc
            nd = d + (cost * WALL_COST if wall[j] or wall[i] else cost)
            if nd < dist[j]:
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return tuple(dist)


def _box(rng: random.Random, w: float, h: float) -> tuple[Point, ...]:
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    dx, dy = rng.uniform(10, 80), rng.uniform(10, 80)
    return ((x, y), (x + dx, y), (x + dx, y + dy), (x, y + dy))


def test_same_values_as_the_plain_search() -> None:
    rng = random.Random(7)
    for _ in range(12):
        w, h = rng.choice([(300.0, 240.0), (413.3, 277.7), (200.0, 500.0)])
        terrain = tuple(_box(rng, w, h) for _ in range(rng.randint(0, 5)))
        if rng.random() < 0.3:  # a point goal (a flag)
            p = (rng.uniform(0, w), rng.uniform(0, h))
            goal = (p, p)
        else:
            goal = ((rng.uniform(0, w), rng.uniform(0, h)), (rng.uniform(0, w), rng.uniform(0, h)))
        clearance = rng.uniform(10.0, 40.0)
        f = distance_field.__wrapped__(w, h, terrain, goal, clearance)
        assert f.values == reference(w, h, terrain, goal, clearance)


def test_a_goal_walled_in_is_still_the_goal() -> None:
    # the goal lies inside a block's clearance: its own cells, walls as they are, are where
    # the distances start, so the rest of the table still reads how far it is
    block = ((100.0, 100.0), (200.0, 100.0), (200.0, 200.0), (100.0, 200.0))
    f = distance_field.__wrapped__(300.0, 300.0, (block,), ((150.0, 150.0), (150.0, 150.0)),
                                   20.0)
    assert FAR not in f.values
    assert f.at_xy(150.0, 150.0) == 0.0
    assert f.at_xy(20.0, 150.0) > f.at_xy(80.0, 150.0) > 0.0
    assert f.values == reference(300.0, 300.0, (block,), ((150.0, 150.0), (150.0, 150.0)), 20.0)


def test_a_goal_on_the_table_edge_is_reached() -> None:
    # an exit edge (Express Delivery p.137): the band along the edge is all wall, and the
    # field still leads there, nearer the edge reading less
    w, h = 300.0, 400.0
    goal = ((0.0, h), (w, h))
    f = distance_field.__wrapped__(w, h, (), goal, 30.0)
    assert FAR not in f.values
    ys = [50.0, 150.0, 250.0, 350.0]
    reads = [f.at_xy(150.0, y) for y in ys]
    assert reads == sorted(reads, reverse=True) and reads[-1] < reads[0]
    assert f.values == reference(w, h, (), goal, 30.0)
    # a goal with open cells near it is seeded from those alone, as before
    inner = ((0.0, 200.0), (w, 200.0))
    g = distance_field.__wrapped__(w, h, (), inner, 30.0)
    assert g.at_xy(5.0, 200.0) > 0.0  # the wall cell by the side edge is not a start
