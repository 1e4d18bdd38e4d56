"""A distance-to-goal field over the table, for bots: how far (mm) a vehicle's centre must
drive from a point to touch the goal line, going round terrain.

The table is cut into square cells; cells too close to terrain or the edge (half the vehicle's
width plus a margin) are walls, costly to drive through; a Dijkstra search from the cells on the
goal line gives every other cell its driving distance (8 neighbours). Fields depend only on
the table, the terrain, the goal and the clearance, so they are cached and shared by every game
on the same table.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from carnage.geometry.shapes import Point

_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

CELL: Final = 20.0
"""Cell size (mm)."""
FAR: Final = 1.0e5
"""Distance reported for points off the table."""
WALL_COST: Final = 8.0
"""Driving through a cell too close to terrain or the edge counts this many times its length
(so every cell has a finite, graded distance and bots can get themselves out of tight spots)."""


def _point_polygon_distance(p: Point, poly: Sequence[Point]) -> float:
    """Distance from ``p`` to a convex counter-clockwise polygon (0 inside)."""
    inside = True
    best = math.inf
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        if ex * (p[1] - ay) - ey * (p[0] - ax) < 0:
            inside = False
        ll = ex * ex + ey * ey
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * ex + (p[1] - ay) * ey) / ll))
        best = min(best, _hypot(p[0] - ax - t * ex, p[1] - ay - t * ey))
    return 0.0 if inside else best


def _edges(poly: Sequence[Point]) -> list[tuple[float, float, float, float, float]]:
    """Each edge of ``poly`` as ``_point_polygon_distance`` walks it: start, direction and
    squared length."""
    n = len(poly)
    out = []
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        out.append((ax, ay, ex, ey, ex * ex + ey * ey))
    return out


def _within(p: Point, edges: list[tuple[float, float, float, float, float]],
            clearance: float) -> bool:
    """``_point_polygon_distance(p, poly) < clearance`` (``clearance`` > 0) for the
    ``_edges`` of ``poly``: the same distances, stopping at the first edge that answers."""
    px, py = p
    inside = True
    for ax, ay, ex, ey, ll in edges:
        if ex * (py - ay) - ey * (px - ax) < 0:
            inside = False
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * ex + (py - ay) * ey) / ll))
        if _hypot(px - ax - t * ex, py - ay - t * ey) < clearance:
            return True
    return inside


def _point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    ll = ex * ex + ey * ey
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ll))
    return _hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


@dataclass(frozen=True)
class DistanceField:
    width: float
    height: float
    cols: int
    rows: int
    values: tuple[float, ...]

    def cell_value(self, c: int, r: int) -> float:
        if not (0 <= c < self.cols and 0 <= r < self.rows):
            return FAR
        return self.values[r * self.cols + c]

    def least_in(self, x0: float, y0: float, x1: float, y1: float) -> float:
        """A lower bound on ``at`` anywhere in the box [x0, x1] × [y0, y1]: the least value of
        the blocks of cells holding every cell ``at`` can read there (the four round a point,
        or the nearest one), or ``FAR`` (off the table)."""
        if self.cols <= 0 or self.rows <= 0:
            return FAR
        c0 = max(math.floor(x0 / CELL - 0.5) - 1, 0) // BLOCK
        c1 = min(math.floor(x1 / CELL - 0.5) + 2, self.cols - 1) // BLOCK
        r0 = max(math.floor(y0 / CELL - 0.5) - 1, 0) // BLOCK
        r1 = min(math.floor(y1 / CELL - 0.5) + 2, self.rows - 1) // BLOCK
        if c0 > c1 or r0 > r1:
            return FAR
        # The least of the blocks c0..c1 x r0..r1: the least of four (overlapping) spans of
        # 2**a x 2**b blocks covering them, read from the table of such spans' least values
        # (``_spans``); the same blocks' values, so the same least.
        nc, nr = c1 - c0 + 1, r1 - r0 + 1
        a = _LOG2[nc] if nc < _NLOG2 else nc.bit_length() - 1
        b = _LOG2[nr] if nr < _NLOG2 else nr.bit_length() - 1
        mins, bc = _spans(self, a, b)
        ca, cb = c0, c1 - (1 << a) + 1
        ra, rb = r0 * bc, (r1 - (1 << b) + 1) * bc
        best = FAR  # FAR too: what ``at`` reads off the table
        m = mins[ra + ca]
        if m < best:
            best = m
        m = mins[ra + cb]
        if m < best:
            best = m
        m = mins[rb + ca]
        if m < best:
            best = m
        m = mins[rb + cb]
        if m < best:
            best = m
        return best

    def at(self, p: Point) -> float:
        """Driving distance from ``p`` (bilinear between cell centres; ``FAR`` off the table)."""
        return self.at_xy(p[0], p[1])

    def at_xy(self, x: float, y: float) -> float:
        """``at((x, y))`` without the point's tuple."""
        if not (0.0 <= x <= self.width and 0.0 <= y <= self.height):
            return FAR
        fx, fy = x / CELL - 0.5, y / CELL - 0.5
        c0, r0 = math.floor(fx), math.floor(fy)
        tx, ty = fx - c0, fy - r0
        cols = self.cols
        if c0 >= 0 and r0 >= 0 and c0 + 1 < cols and r0 + 1 < self.rows:
            # the four cells all on the table: ``cell_value``'s reads without its checks
            values = self.values
            i = r0 * cols + c0
            v00 = values[i]
            v10 = values[i + 1]
            v01 = values[i + cols]
            v11 = values[i + cols + 1]
        else:
            v00 = self.cell_value(c0, r0)
            v10 = self.cell_value(c0 + 1, r0)
            v01 = self.cell_value(c0, r0 + 1)
            v11 = self.cell_value(c0 + 1, r0 + 1)
        # max of the four, two at a time (as the builtin walks them; compiled, no boxing)
        if max(max(max(v00, v10), v01), v11) >= FAR:
            # By the edge of the table: the nearest cell alone.
            c = min(max(round(fx), 0), self.cols - 1)
            r = min(max(round(fy), 0), self.rows - 1)
            return self.cell_value(c, r)
        return (v00 * (1 - tx) * (1 - ty) + v10 * tx * (1 - ty) + v01 * (1 - tx) * ty
                + v11 * tx * ty)


BLOCK: Final = 2
"""Cells per side of the blocks ``DistanceField.least_in`` reads."""

_BLOCKS: dict[int, tuple[DistanceField, tuple[float, ...], int]] = {}
"""Per field (by identity, held with it): the least cell value of each BLOCK × BLOCK block,
row by row, and the number of blocks in a row."""


_NLOG2: Final = 4096
_LOG2: Final = tuple(max(0, n.bit_length() - 1) for n in range(_NLOG2))
"""``floor(log2(n))`` for a number of blocks ``n`` (0 for 0)."""

_SPANS: dict[int, tuple[DistanceField, list[list[float] | None], int, int]] = {}
"""Per field (by identity, held with it): for spans of 2**a x 2**b blocks (list index
``a * 16 + b``, worked out when first asked for), the least block value of the span starting
at each block, row by row (``FAR`` where the span would run off the table); the number of
blocks in a row, and of rows."""

_LEVELS: Final = 16
"""Span sizes 2**0 .. 2**15 blocks a side (far beyond any table)."""


def _spans(f: DistanceField, a: int, b: int) -> tuple[list[float], int]:
    """The least value of each span of 2**a x 2**b blocks (``_SPANS``), and the number of
    blocks in a row."""
    hit = _SPANS.get(id(f))
    if hit is None or hit[0] is not f:
        mins, bc = _block_mins(f)
        levels: list[list[float] | None] = [None] * (_LEVELS * _LEVELS)
        levels[0] = list(mins)
        hit = (f, levels, bc, len(mins) // bc if bc else 0)
        if len(_SPANS) >= 64:
            _SPANS.clear()
        _SPANS[id(f)] = hit
    levels, bc, br = hit[1], hit[2], hit[3]
    got = levels[a * _LEVELS + b]
    if got is not None:
        return got, bc
    # from the spans half as wide (a > 0) or half as tall (b > 0): the least of two
    if a > 0:
        half, _ = _spans(f, a - 1, b)
        step, width = 1 << (a - 1), 1 << a
        out = [FAR] * len(half)
        for r in range(br):
            row = r * bc
            for c in range(bc - width + 1):
                i = row + c
                x, y = half[i], half[i + step]
                out[i] = y if y < x else x
    else:
        half, _ = _spans(f, a, b - 1)
        step = (1 << (b - 1)) * bc
        out = [FAR] * len(half)
        for r in range(br - (1 << b) + 1):
            row = r * bc
            for c in range(bc):
                i = row + c
                x, y = half[i], half[i + step]
                out[i] = y if y < x else x
    levels[a * _LEVELS + b] = out
    return out, bc


def _block_mins(f: DistanceField) -> tuple[tuple[float, ...], int]:
    hit = _BLOCKS.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1], hit[2]
    bc, br = -(-f.cols // BLOCK), -(-f.rows // BLOCK)
    mins = tuple(
        min(f.values[r * f.cols + c]
            for r in range(R * BLOCK, min((R + 1) * BLOCK, f.rows))
            for c in range(C * BLOCK, min((C + 1) * BLOCK, f.cols)))
        for R in range(br) for C in range(bc))
    if len(_BLOCKS) >= 64:
        _BLOCKS.clear()
    _BLOCKS[id(f)] = (f, mins, bc)
    return mins, bc


Terrain = tuple[tuple[Point, ...], ...]


@lru_cache(maxsize=64)
def distance_field(
    width: float, height: float, terrain: Terrain, goal: tuple[Point, Point], clearance: float
) -> DistanceField:
    """The field for a table ``width`` x ``height`` with convex ``terrain`` outlines, the goal
    segment ``goal`` and walls within ``clearance`` mm of terrain and of the table edge."""
    cols, rows = max(1, math.ceil(width / CELL)), max(1, math.ceil(height / CELL))
    # The search runs on the grid framed by one cell all round (``pc`` cells a row): a frame
    # cell reads -1, which nothing undercuts, so a step never asks whether it left the table.
    pc = cols + 2
    wall = [False] * (pc * (rows + 2))
    for r in range(rows):
        y = (r + 0.5) * CELL
        near_y = min(y, height - y) < clearance
        base = (r + 1) * pc + 1
        for c in range(cols):
            x = (c + 0.5) * CELL
            if near_y or min(x, width - x) < clearance:
                wall[base + c] = True
    for poly in terrain:
        # Only the cells within reach of the outline's bounding box.
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        c0 = max(0, math.floor((min(xs) - clearance) / CELL))
        c1 = min(cols - 1, math.ceil((max(xs) + clearance) / CELL))
        r0 = max(0, math.floor((min(ys) - clearance) / CELL))
        r1 = min(rows - 1, math.ceil((max(ys) + clearance) / CELL))
        # ``_point_polygon_distance(centre, poly) < clearance``, edge by edge with the same
        # operations: inside (no edge sees the centre on its right) or some edge nearer
        edges = _edges(poly)
        for r in range(r0, r1 + 1):
            base = (r + 1) * pc + 1
            py = (r + 0.5) * CELL
            for c in range(c0, c1 + 1):
                i = base + c
                if not wall[i] and _within(((c + 0.5) * CELL, py), edges, clearance):
                    wall[i] = True
    dist = [FAR] * (pc * (rows + 2))
    for c in range(pc):
        dist[c] = dist[(rows + 1) * pc + c] = -1.0
    for r in range(1, rows + 1):
        dist[r * pc] = dist[r * pc + cols + 1] = -1.0
    # Dijkstra's search with the cells queued by distance: a heap of the distances waiting
    # and, for each, the cells reached at it (a step always costs more than nothing, so
    # nothing is queued at the distance being taken). The distances it settles are the only
    # ones with every cell the least over its neighbours of theirs plus the step, so the
    # order cells of one distance are taken in does not change them.
    heap: list[float] = []
    queued: dict[float, list[int]] = {}
    a, b = goal
    # goal cells: centres within 0.75 of a cell of the segment, so inside its box widened by
    # that much (and a cell more, to spare rounding)
    reach = CELL * 0.75
    gc0 = max(0, math.floor((min(a[0], b[0]) - reach) / CELL) - 1)
    gc1 = min(cols - 1, math.ceil((max(a[0], b[0]) + reach) / CELL) + 1)
    gr0 = max(0, math.floor((min(a[1], b[1]) - reach) / CELL) - 1)
    gr1 = min(rows - 1, math.ceil((max(a[1], b[1]) + reach) / CELL) + 1)
    starts: list[int] = []
    # A goal wholly within the walls (an exit edge of the table itself: Express Delivery's,
    # p.137; the far edge of Escape the City, p.168) is still the goal: its cells are taken
    # as they are, walls and all. Before, such a field had no goal cell at all and read FAR
    # everywhere, so no position was nearer the goal than another.
    for open_only in (True, False):
        for r in range(gr0, gr1 + 1):
            base = (r + 1) * pc + 1
            for c in range(gc0, gc1 + 1):
                i = base + c
                if (not open_only or not wall[i]) and _point_segment_distance(
                        ((c + 0.5) * CELL, (r + 0.5) * CELL), a, b) <= reach:
                    dist[i] = 0.0
                    starts.append(i)
        if starts:
            break
    if starts:
        heap.append(0.0)
        queued[0.0] = starts
    steps = [(dr * pc + dc, CELL * _hypot(dc, dr), CELL * _hypot(dc, dr) * WALL_COST)
             for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d = pop(heap)
        for i in queued.pop(d):
            if d > dist[i]:
                continue
            wi = wall[i]
            for off, cost, wcost in steps:
                j = i + off
                nd = d + (wcost if wi or wall[j] else cost)
                if nd < dist[j]:
                    dist[j] = nd
                    cells = queued.get(nd)
                    if cells is None:
                        queued[nd] = [j]
                        push(heap, nd)
                    else:
                        cells.append(j)
    values = []
    for r in range(1, rows + 1):
        values.extend(dist[r * pc + 1:r * pc + 1 + cols])
    return DistanceField(width, height, cols, rows, tuple(values))
