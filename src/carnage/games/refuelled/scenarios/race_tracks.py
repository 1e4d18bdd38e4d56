"""A generator of race tracks that follows Death Race's set-up advice (Refuelled pp.124-125).

Three shapes, as the book suggests: a tear-drop (3 gates), a loop (4 gates) and a figure of
eight (6 gates whose middle legs cross, so leaders meet laggards). The gates are spread along
the shape, each turned to the way the course runs there, then checked against the book's
numbers: every gate at least a Long Straight from every other (ruling DTH-3: centre to
centre, and no two gate lines within ``GATE_GAP`` of each other), consecutive gates at most
three Long Straights apart (centre to centre), turns between them no tighter than
``MAX_TURN``, everything on the table, room for the starting grid behind the Starting Line.
Terrain goes on the racing line between gates (never on a gate nor on the grid) except on the
run from the Starting Line to Gate 1, which stays clear; a few more pieces lie off the line.

Everything comes from the ``random.Random`` it is given (the game's table seed), so a track
is reproducible: the same seed lays out the same table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.state import Obstacle
from carnage.games.refuelled.scenarios.gates import (
    LONG_STRAIGHT,
    Gate,
    Track,
    gate_at,
    point_segment_gap,
    segment_gap,
)
from carnage.geometry.shapes import Point, Pose, Rect, penetration

SHAPES = ("teardrop", "loop", "figure-of-eight")
MAX_LEG = 3 * LONG_STRAIGHT
"""The book's advice: gates no more than three Long Straights apart (p.125)."""
EDGE_MARGIN = 150.0
"""Gates and their posts keep this far from the table edges (room to turn after a gate)."""
GATE_CLEARANCE = 55.0
"""Terrain keeps this far from every gate line, so each gate can be driven through."""
CORRIDOR = 80.0
"""Terrain keeps this far from the straight run between the Starting Line and Gate 1."""
MAX_TURN = 0.36
"""Degrees of turn per mm between consecutive gates at most (a car at speed must make it)."""
GATE_GAP = 40.0
"""Ruling DTH-3: gate lines also keep this far apart at their nearest points."""
TRIES = 400


@dataclass(frozen=True)
class Layout:
    """A generated table: the track, its shape's name and the terrain."""

    track: Track
    shape: str
    terrain: tuple[Obstacle, ...]


def _shape_points(shape: str, rng: random.Random, width: float, height: float
                  ) -> list[tuple[Point, float]]:
    """(centre, heading) of each gate along ``shape``, in course order."""
    cx = width / 2.0 + rng.uniform(-15.0, 15.0)
    cy = height / 2.0 + rng.uniform(-15.0, 15.0)
    pts: list[tuple[float, float, float, float]] = []  # x, y, dx, dy before turning
    if shape == "teardrop":
        r = rng.uniform(240.0, 280.0)
        base = rng.uniform(0.0, 2 * math.pi)
        for k in range(3):
            t = base + k * 2 * math.pi / 3 + rng.uniform(-0.15, 0.15)
            rr = r * rng.uniform(0.9, 1.05)
            pts.append((rr * math.cos(t), rr * math.sin(t), -math.sin(t), math.cos(t)))
    elif shape == "loop":
        rx, ry = rng.uniform(280.0, 320.0), rng.uniform(200.0, 250.0)
        base = math.pi / 4 + rng.uniform(-0.2, 0.2)
        for k in range(4):
            t = base + k * math.pi / 2 + rng.uniform(-0.12, 0.12)
            pts.append((rx * math.cos(t), ry * math.sin(t), -rx * math.sin(t),
                        ry * math.cos(t)))
    else:
        # Figure of eight: two round lobes (two gates on each) joined by two legs that
        # cross in the middle, with a gate on each leg.
        big, gap = rng.uniform(190.0, 210.0), rng.uniform(195.0, 220.0)
        arc = math.radians(62.0)

        def lobe(side: float, angles: tuple[float, ...]) -> list[tuple[float, float, float,
                                                                         float]]:
            return [(side * (gap + big * math.cos(a)), big * math.sin(a),
                     -side * math.sin(a) if side > 0 else math.sin(a), math.cos(a))
                    for a in angles]

        right = lobe(1.0, (-arc, arc))
        left = lobe(-1.0, (-arc, arc))

        def on_leg(p: tuple[float, float, float, float], q: tuple[float, float, float, float],
                   f: float) -> tuple[float, float, float, float]:
            dx, dy = q[0] - p[0], q[1] - p[1]
            return (p[0] + f * dx, p[1] + f * dy, dx, dy)

        f = rng.uniform(0.28, 0.34)
        pts = [*right, on_leg(right[-1], left[0], f), *left, on_leg(left[-1], right[0], f)]
    if rng.random() < 0.5:  # either way round
        pts = [(x, y, -dx, -dy) for x, y, dx, dy in reversed(pts)]
    if shape == "figure-of-eight":  # long and narrow: along a diagonal of the table
        turn = math.pi / 4 + rng.randrange(4) * math.pi / 2 + rng.uniform(-0.12, 0.12)
    else:
        turn = rng.uniform(0.0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    start = rng.randrange(len(pts))
    pts = pts[start:] + pts[:start]
    return [((cx + c * x - s * y, cy + s * x + c * y),
             math.degrees(math.atan2(s * dx + c * dy, c * dx - s * dy)) % 360.0)
            for x, y, dx, dy in pts]


def grid_box(start: Gate, grid_width: float, grid_depth: float) -> list[Point]:
    """The area behind the Starting Line the starting grid needs."""
    (cx, cy), (nx, ny) = start.line.centre, start.line.normal
    pose = Pose(cx - nx * grid_depth / 2.0, cy - ny * grid_depth / 2.0,
                math.degrees(math.atan2(ny, nx)))
    return Rect(pose, grid_depth, grid_width).polygon()


def _on_table(poly: list[Point], width: float, height: float, margin: float) -> bool:
    return all(margin <= x <= width - margin and margin <= y <= height - margin
               for x, y in poly)


def track_ok(track: Track, width: float, height: float, grid_width: float,
             grid_depth: float, avoid: Sequence[Sequence[Point]] = ()) -> str | None:
    """What breaks the book's advice (or leaves no room for the grid, or runs into the
    terrain ``avoid``); None if nothing."""
    gates = track.gates
    for g in gates:
        ends = [g.line.a, g.line.b]
        if not _on_table(ends, width, height, EDGE_MARGIN):
            return f"gate {g.number} is too near the table edge"
    for i, g in enumerate(gates):
        for h in gates[i + 1:]:
            if math.dist(g.line.centre, h.line.centre) < LONG_STRAIGHT:
                return f"gates {g.number} and {h.number} are less than a Long Straight apart"
            if segment_gap(g.line, h.line) < GATE_GAP:
                return f"gates {g.number} and {h.number} nearly touch"
    order = [0, *track.course[: len(gates) - (0 if track.loop else 1)]]
    for a, b in pairwise(order):
        ca, cb = gates[a].line.centre, gates[b].line.centre
        if math.dist(ca, cb) > MAX_LEG:
            return f"gates {a} and {b} are more than three Long Straights apart"
    for a, b in pairwise(order):
        turn = abs((gates[b].line.heading() - gates[a].line.heading() + 180.0) % 360.0 - 180.0)
        if turn > MAX_TURN * math.dist(gates[a].line.centre, gates[b].line.centre):
            return f"the turn from gate {a} to gate {b} is too tight"
    box = grid_box(track.start, grid_width + 40.0, grid_depth + 20.0)
    if not _on_table(box, width, height, 5.0):
        return "no room on the table for the starting grid"
    for g in gates[1:]:
        if penetration(box, [g.line.a, g.line.b]) > -30.0:
            return f"the starting grid runs into gate {g.number}"
    for poly in avoid:
        if penetration(box, list(poly)) > -10.0:
            return "the starting grid runs into terrain"
        for g in gates:
            if penetration(list(poly), [g.line.a, g.line.b]) > -GATE_CLEARANCE:
                return f"gate {g.number} runs into terrain"
    return None


def _terrain_piece(rng: random.Random, oid: str, centre: Point, small: bool = False
                   ) -> Obstacle:
    kind = 1 if small else rng.randrange(3)
    heading = rng.uniform(0.0, 180.0)
    pose = Pose(centre[0], centre[1], heading)
    if kind == 0:
        return Obstacle(oid, pose, rng.uniform(50.0, 80.0), rng.uniform(40.0, 70.0))
    if kind == 1:
        return Obstacle(oid.replace("rock", "crate"), pose, 40.0, 40.0,
                        weight=Weight.MIDDLEWEIGHT, destructible=True)
    return Obstacle(oid.replace("rock", "barrier"), pose, rng.uniform(90.0, 120.0), 20.0,
                    weight=Weight.MIDDLEWEIGHT)


def _terrain(track: Track, rng: random.Random, width: float, height: float,
             grid_width: float, grid_depth: float) -> list[Obstacle]:
    gates = track.gates
    box = grid_box(track.start, grid_width + 80.0, grid_depth + 60.0)
    first = (track.start.line.centre, gates[1].line.centre)
    posts = [p for g in gates for p in (g.line.a, g.line.b)]
    placed: list[Obstacle] = []

    def fits(ob: Obstacle) -> bool:
        poly = ob.polygon()
        if not _on_table(poly, width, height, 20.0):
            return False
        if any(penetration(poly, [g.line.a, g.line.b]) > -GATE_CLEARANCE for g in gates):
            return False
        if any(penetration(poly, [p, p]) > -GATE_CLEARANCE for p in posts):
            return False
        if penetration(poly, box) > -10.0:
            return False
        if min(point_segment_gap(q, *first) for q in poly) < CORRIDOR or \
                penetration(poly, list(first)) > -CORRIDOR:
            return False
        return all(penetration(poly, o.polygon()) < -50.0 for o in placed)

    # On the racing line: one or two pieces a leg, none on the run to Gate 1.
    order = [0, *track.course[: len(gates) - (0 if track.loop else 1)]]
    legs = list(pairwise(order[1:]))
    n = 0
    for a, b in legs:
        ca, cb = gates[a].line.centre, gates[b].line.centre
        length = math.dist(ca, cb)
        ux, uy = (cb[0] - ca[0]) / length, (cb[1] - ca[1]) / length
        for _ in range(2 if length > 380.0 else 1):
            for attempt in range(60):
                f = rng.uniform(0.3, 0.7)
                side = rng.uniform(-70.0, 70.0)
                centre = (ca[0] + ux * length * f - uy * side, ca[1] + uy * length * f + ux * side)
                # After many misses a small crate is tried (short legs have little room).
                ob = _terrain_piece(rng, f"rock-{n + 1}", centre, small=attempt >= 30)
                if fits(ob):
                    placed.append(ob)
                    n += 1
                    break
    # Off the line: the rest of the wasteland.
    for _ in range(3):
        for _try in range(12):
            ob = _terrain_piece(rng, f"rock-{n + 1}",
                                (rng.uniform(80.0, width - 80.0), rng.uniform(80.0, height - 80.0)))
            if fits(ob):
                placed.append(ob)
                n += 1
                break
    return placed


def fallback_track(width: float, height: float) -> Track:
    """A plain four-gate loop round the table's middle (used if no generated shape fits)."""
    cx, cy = width / 2.0, height / 2.0
    rx, ry = min(330.0, width / 2.0 - 160.0), min(260.0, height / 2.0 - 160.0)
    return Track(tuple(
        gate_at(k, (cx + rx * math.cos(t), cy + ry * math.sin(t)),
                math.degrees(math.atan2(ry * math.cos(t), -rx * math.sin(t))))
        for k, t in enumerate(math.pi / 4 + i * math.pi / 2 for i in range(4))))


def generate(rng: random.Random, width: float, height: float, *, grid_width: float,
             grid_depth: float, shape: str | None = None, laps: int = 1,
             avoid: Sequence[Sequence[Point]] = (), terrain: bool = True) -> Layout:
    """A track of ``shape`` (None: one of ``SHAPES`` at random) and its terrain (none if not
    ``terrain``), with room behind the Starting Line for a grid ``grid_width`` x
    ``grid_depth`` mm, its gates and grid clear of the terrain already there (``avoid``)."""
    if shape is not None and shape not in SHAPES:
        raise ValueError(f"unknown track shape {shape!r} (known: {', '.join(SHAPES)})")
    pick = shape or SHAPES[rng.randrange(len(SHAPES))]  # each shape as likely as the others
    for _ in range(TRIES):
        gates = tuple(gate_at(i, c, h) for i, (c, h) in
                      enumerate(_shape_points(pick, rng, width, height)))
        track = Track(gates, loop=True, laps=laps)
        if track_ok(track, width, height, grid_width, grid_depth, avoid) is None:
            return Layout(track, pick, tuple(
                _terrain(track, rng, width, height, grid_width, grid_depth) if terrain
                else ()))
    track = Track(fallback_track(width, height).gates, loop=True, laps=laps)
    return Layout(track, "loop", tuple(
        _terrain(track, rng, width, height, grid_width, grid_depth) if terrain else ()))
