"""The arena tables of Arena of Death, Desert Strike and Tank Commander (Refuelled pp.130,
145, 150: "terrain to represent a dystopian demolition derby arena"), and the finite
candidate points their set-ups offer.

``arena_terrain`` lays a seeded arena (ruling AOD-5): 5 to 8 pieces (rocks, Tall walls,
Middleweight Destructible crates) in the middle of the table, each more than Medium plus 20 mm
from every edge (so that spawn points, within Medium of an edge, find room), at least 40 mm
from each other (a car passes between them) and clear of the keep-clear discs the scenario
names (the rocket turrets' ring).

``grid_points`` are the candidate places of a small object (a turret, a flag, a cloud's
centre): the points of a square grid of the given pitch, centred on the table, that pass the
caller's test.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence

from carnage.catalog import Weight
from carnage.games.refuelled.engine.state import GameState, Obstacle
from carnage.geometry.shapes import Point, Pose, distance, penetration

EDGE_CLEAR = 140.0
"""Terrain keeps this far (mm) from every edge: Medium (120) and 20 mm."""
PASSAGE = 40.0
"""Terrain pieces keep this far apart (mm)."""
PIECES = (5, 8)
"""How many pieces an arena has (inclusive)."""


def arena_terrain(state: GameState, rng: random.Random, *,
                  keep_clear: Iterable[tuple[Point, float]] = (), prefix: str = "") -> None:
    """Lay a seeded arena on ``state`` (see the module docstring)."""
    keep = list(keep_clear)
    want = rng.randint(*PIECES)
    placed: list[Obstacle] = []
    tries = 0
    while len(placed) < want and tries < 400:
        tries += 1
        kind = rng.choice(("rock", "rock", "wall", "crate"))
        if kind == "rock":
            length, width = rng.uniform(50, 100), rng.uniform(40, 80)
        elif kind == "wall":
            length, width = rng.uniform(100, 180), 15.0
        else:
            length = width = 40.0
        x = rng.uniform(EDGE_CLEAR, state.width - EDGE_CLEAR)
        y = rng.uniform(EDGE_CLEAR, state.height - EDGE_CLEAR)
        ob = Obstacle(f"{prefix}{kind}-{len(placed) + 1}", Pose(x, y, rng.uniform(0, 180)),
                      length, width,
                      weight=Weight.MIDDLEWEIGHT if kind == "crate" else Weight.HEAVYWEIGHT,
                      tall=kind == "wall", destructible=kind == "crate")
        poly = ob.polygon()
        if not all(EDGE_CLEAR <= px <= state.width - EDGE_CLEAR
                   and EDGE_CLEAR <= py <= state.height - EDGE_CLEAR for px, py in poly):
            continue
        if any(_gap(poly, o.polygon()) < PASSAGE for o in placed):
            continue
        if any(_gap(poly, o.polygon()) < PASSAGE for o in state.obstacles.values()):
            continue
        if any(_point_gap(poly, c) < r for c, r in keep):
            continue
        placed.append(ob)
    for ob in placed:
        state.obstacles[ob.id] = ob


def _gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    depth = penetration(list(a), list(b))
    return -depth if depth > 0 else distance(list(a), list(b))


def _point_gap(poly: Sequence[Point], c: Point) -> float:
    """Distance from point ``c`` to polygon ``poly`` (0 inside)."""
    return distance(list(poly), [c, (c[0] + 1e-6, c[1]), (c[0], c[1] + 1e-6)])


def grid_points(state: GameState, pitch: float, ok: Callable[[Point], bool]) -> dict[str, Point]:
    """Points of a ``pitch`` mm grid centred on the table passing ``ok``, by label
    ``"x,y"`` (rounded mm)."""
    out: dict[str, Point] = {}
    nx = int(state.width // pitch)
    ny = int(state.height // pitch)
    x0 = (state.width - (nx - 1) * pitch) / 2.0
    y0 = (state.height - (ny - 1) * pitch) / 2.0
    for i in range(nx):
        for j in range(ny):
            p = (x0 + i * pitch, y0 + j * pitch)
            if ok(p):
                out[f"{p[0]:.0f},{p[1]:.0f}"] = p
    return out


def centre(state: GameState) -> Point:
    return (state.width / 2.0, state.height / 2.0)


def ring(state: GameState, n: int, radius: float, start: float = 90.0) -> list[Point]:
    """``n`` points evenly round a circle of ``radius`` about the table's centre, the first at
    ``start`` degrees (90: towards the far edge)."""
    cx, cy = centre(state)
    return [(cx + radius * math.cos(math.radians(start + 360.0 * k / n)),
             cy + radius * math.sin(math.radians(start + 360.0 * k / n))) for k in range(n)]
