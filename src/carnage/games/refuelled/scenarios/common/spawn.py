"""Spawn points: placing them, deploying round them, respawning at them (M-01 to M-03, G-11).

The pattern most scenarios share (Arena of Death p.130 onwards): in Pole order each player puts
a round counter of at most 20 mm within Medium of any table edge and more than Double from every
other spawn point (and from whatever else the scenario keeps clear, ``keep_out``); then, in
Pole order, each player deploys all their vehicles within Short of their own spawn point,
measured like a shot (nearest points, all round); a respawned vehicle comes back within Short
of its controller's spawn point.

Continuous placements are offered as finite candidates, the same for bots and humans:

* ``spawn_candidates``: the centres of a ``SPAWN_GRID`` mm grid where a disc is legal.
  Ruling SC-1: a spawn point is a marker, not an obstruction; it lies wholly on the table and
  may not overlap terrain. Ruling SC-2: when no grid point is more than Double from the
  spawn points (and keep-out points) already down, the candidates are the legal-by-edge
  points farthest from them (within ``SPAWN_GRID`` mm of the best), and a ``spawn_relaxed``
  event says so.
* ``deploy_poses``: vehicle poses round a spawn point: the vehicle's centre on the spawn
  point or out along one of 8 bearings at ``RINGS`` mm, facing one of 8 headings, wholly on
  the table, touching no placed vehicle and overlapping no terrain, its footprint within Short
  of the disc (ruling SC-3: measured from the disc's edge to the footprint's nearest point).
  When none fits, the rings go out ``RING_STEP`` mm at a time (and the poses then lie beyond
  Short: logged as ``deploy_relaxed``).

Memory: ``state.scenario["spawn_points"]``: seat (as text) -> [x, y].
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.scenarios.common.gaps import SLACK, disc_gap_bounds
from carnage.geometry.movement import trailer_behind
from carnage.geometry.shapes import Point, Pose, Rect, deeper_than, distance, overlaps
from carnage.render.svg import seat_name

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.kernel.decisions import Decision

SPAWN_DIAMETER = 20.0
"""A spawn point's counter (mm): "at most 20 mm" (G-11); we use the largest."""
SPAWN_GRID = 30.0
"""Pitch (mm) of the grid of candidate spawn points."""
BEARINGS = tuple(range(0, 360, 45))
HEADINGS = tuple(range(0, 360, 45))
RINGS = (0.0, 40.0, 80.0)
"""Distances (mm) of a deploying vehicle's centre from its spawn point's centre."""
RING_STEP = 30.0
KEY = "spawn_points"


def band(game: Game, name: str) -> float:
    """A range band's length in mm (``short``, ``medium``, ``long``, ``double``)."""
    return float(game.templates.ranges[name])


def spawn_points(state: GameState) -> dict[int, Point]:
    """Seat -> the centre of that player's spawn point (placed so far)."""
    raw = state.scenario.get(KEY, {})
    return {int(k): (float(v[0]), float(v[1])) for k, v in raw.items()}


def spawn_point(state: GameState, player: int) -> Point | None:
    return spawn_points(state).get(player)


def set_spawn_point(game: Game, player: int, at: Point, *, source: str,
                    page: int | None) -> None:
    game.state.scenario.setdefault(KEY, {})[str(player)] = [round(at[0], 3), round(at[1], 3)]
    game.emit("spawn_point", source=source, page=page, player=player,
              x=round(at[0], 3), y=round(at[1], 3))


def _disc(c: Point, r: float, n: int = 16) -> list[Point]:
    """A polygon just containing the disc (for overlap tests against terrain)."""
    rr = r / math.cos(math.pi / n)
    return [(c[0] + rr * math.cos(2 * math.pi * i / n), c[1] + rr * math.sin(2 * math.pi * i / n))
            for i in range(n)]


def _beyond(bodies: list[list[Point]], disc: list[Point], c: Point, r: float,
            limit: float) -> bool:
    """``min(distance(poly, disc) for poly in bodies) > limit`` for the polygon ``disc`` of
    ``_disc(c, r)`` (holding the circle of radius ``r``, within the one through its corners),
    settled by ``disc_gap_bounds`` where they can: the exact gaps only when ``limit`` lies
    within 1 µm of a body's bounds."""
    rr = r / math.cos(math.pi / len(disc))
    every_beyond = True
    for poly in bodies:
        low, high = disc_gap_bounds(c, r, rr, poly)
        if high < limit - SLACK:
            return False  # this body surely within: the least gap is not beyond
        if low <= limit + SLACK:
            every_beyond = False
    return every_beyond or min(distance(poly, disc) for poly in bodies) > limit


def _box(poly: Sequence[Point]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def _box_near(box: tuple[float, float, float, float], c: Point, reach: float) -> bool:
    """Could something within ``reach`` of ``c`` touch what lies in ``box``?"""
    return (box[0] - reach <= c[0] <= box[2] + reach) and (box[1] - reach <= c[1] <= box[3] + reach)


def edge_gap(state: GameState, c: Point, r: float) -> float:
    """Distance from a disc's edge to the nearest table edge."""
    return min(c[0], c[1], state.width - c[0], state.height - c[1]) - r


def spawn_candidates(game: Game, keep_out: Iterable[tuple[Point, float]] = (), *,
                     source: str = "spawn", page: int | None = None,
                     log: bool = False) -> dict[str, Point]:
    """Legal spawn-point centres by label (``"x,y"``): on a ``SPAWN_GRID`` grid, the disc
    wholly on the table, within Medium of an edge, overlapping no terrain, and more than
    Double from every spawn point already placed and every ``keep_out`` (centre, radius).
    Ruling SC-2 when none is that far: the farthest points instead (``log``: say so)."""
    st = game.state
    r = SPAWN_DIAMETER / 2.0
    medium, double = band(game, "medium"), band(game, "double")
    others = [(p, r) for p in spawn_points(st).values()] + list(keep_out)
    # Terrain as (polygon, bounding box): only the pieces whose box reaches a disc are tested.
    terrain = [(poly, _box(poly)) for poly in (ob.polygon() for ob in st.obstacles.values())]
    scored: list[tuple[float, str, Point]] = []
    nx = int((st.width - 2 * r) // SPAWN_GRID)
    ny = int((st.height - 2 * r) // SPAWN_GRID)
    for i in range(nx + 1):
        x = r + i * SPAWN_GRID + ((st.width - 2 * r) - nx * SPAWN_GRID) / 2.0
        for j in range(ny + 1):
            y = r + j * SPAWN_GRID + ((st.height - 2 * r) - ny * SPAWN_GRID) / 2.0
            c = (x, y)
            if edge_gap(st, c, r) > medium + 1e-9:
                continue
            near = [t for t, box in terrain if _box_near(box, c, r)]
            if near:
                disc = _disc(c, r)
                if any(deeper_than(disc, t, 1e-6) for t in near):
                    continue
            gap = min((math.hypot(x - p[0], y - p[1]) - r - pr for p, pr in others),
                      default=math.inf)
            scored.append((gap, f"{x:.0f},{y:.0f}", c))
    legal = {k: c for g, k, c in scored if g > double + 1e-9}
    if legal or not scored:
        return legal
    best = max(g for g, _, _ in scored)
    out = {k: c for g, k, c in scored if g >= best - SPAWN_GRID}
    if log:
        game.emit("spawn_relaxed", source=source, page=page, best_gap=round(best, 1),
                  reason="no point more than Double from the other spawn points (SC-2)")
    return out


def place_spawn_points(game: Game, *, source: str, page: int | None,
                       keep_out: Iterable[tuple[Point, float]] = (),
                       players: Sequence[int] | None = None) -> Flow:
    """In Pole order (or the order of ``players``), each player chooses where their spawn
    point goes among ``spawn_candidates`` (decision ``spawn_point``)."""
    st = game.state
    keep = list(keep_out)
    for p in (st.clockwise_from(st.pole) if players is None else players):
        cands = spawn_candidates(game, keep, source=source, page=page, log=True)
        if not cands:
            from carnage.games.refuelled.setup import SetupError

            raise SetupError(f"{game.scenario.name}: no room on the table for player "
                             f"{p + 1}'s spawn point (too many players for the table)")
        pick = yield ask(p, "spawn_point", "Where does your spawn point go?",
                         [(k, f"spawn point at {k} mm") for k in cands], source=source,
                         page=page)
        set_spawn_point(game, p, cands[str(pick)], source=source, page=page)


def _bodies_at(v: VehicleState, pose: Pose) -> list[list[Point]]:
    cab = Rect(pose, v.length, v.width)
    out = [cab.polygon()]
    if v.trailer is not None:
        out.append(trailer_behind(cab, v.trailer.length, v.trailer.width, 0.0).polygon())
    return out


def placed_polygons(state: GameState, exclude: str, deployed: Iterable[str] | None) -> list[
        list[Point]]:
    """Footprints of the vehicles to keep clear of: ``deployed`` (ids) or, if None, every
    vehicle in play standing on the table."""
    if deployed is None:
        vs = [o for o in state.in_play() if o.pose.x >= 0 and o.pose.y >= 0]
    else:
        vs = [state.vehicles[i] for i in deployed if i in state.vehicles]
    return [r.polygon() for o in vs if o.id != exclude for _, r in o.bodies()]


def deploy_poses(game: Game, v: VehicleState, centre: Point,
                 deployed: Iterable[str] | None = None, reach: str = "short", *,
                 first: bool = False) -> dict[str, Pose]:
    """Poses for ``v`` within ``reach`` of the spawn point at ``centre`` (see the module
    docstring), by label ``"bearing:distance:heading"``; a trailer goes in line behind.
    ``first``: stop at the first legal pose (to learn whether there is one)."""
    st = game.state
    r = SPAWN_DIAMETER / 2.0
    limit = band(game, reach)
    disc = _disc(centre, r)
    body = math.hypot(v.length + (v.trailer.length if v.trailer is not None else 0.0),
                      max(v.width, v.trailer.width if v.trailer is not None else 0.0))
    placed_all = [(p, _box(p)) for p in placed_polygons(st, v.id, deployed)]
    terrain_all = [(p, _box(p)) for p in (ob.polygon() for ob in st.obstacles.values())]
    extra = 0.0
    while True:
        # Only what lies within reach of these poses is tested (bounding boxes).
        span = RINGS[-1] + extra + body
        placed = [p for p, box in placed_all if _box_near(box, centre, span)]
        terrain = [p for p, box in terrain_all if _box_near(box, centre, span)]
        out: dict[str, Pose] = {}
        for d in (x + extra if x > 0 else x for x in RINGS):
            for b in (BEARINGS if d > 0 else (0,)):
                cx = centre[0] + d * math.cos(math.radians(b))
                cy = centre[1] + d * math.sin(math.radians(b))
                for h in HEADINGS:
                    pose = Pose(cx, cy, float(h))
                    bodies = _bodies_at(v, pose)
                    if not all(0.0 <= px <= st.width and 0.0 <= py <= st.height
                               for poly in bodies for px, py in poly):
                        continue
                    # Its centre within Short of the disc's edge: surely within (no test).
                    if extra == 0.0 and d > limit + r and _beyond(bodies, disc, centre, r,
                                                                  limit):
                        continue
                    # ``overlaps``: penetration >= -1e-6; ``deeper_than``: penetration > 1e-6
                    # (each settled at the first axis that answers it)
                    if any(overlaps(poly, o, 1e-6) for poly in bodies for o in placed):
                        continue
                    if any(deeper_than(poly, t, 1e-6) for poly in bodies for t in terrain):
                        continue
                    out[f"{b}:{d:.0f}:{h}"] = pose
                    if first:
                        return out
        if out or extra > max(st.width, st.height):
            return out
        extra += RING_STEP


def pose_label(key: str) -> str:
    b, d, h = key.split(":")
    where = "on the spawn point" if float(d) == 0 else f"{d} mm out at {b} degrees"
    return f"{where}, facing {h} degrees"


def deploy_at_spawn_points(game: Game, *, source: str, page: int | None,
                           players: Sequence[int] | None = None) -> Flow:
    """In Pole order, each player deploys all their vehicles, one at a time, within Short of
    their own spawn point (decisions ``deploy``: which vehicle, then ``spawn_pose``: where).
    Deployed ids go in ``state.scenario["deployed"]``."""
    st = game.state
    deployed: list[str] = st.scenario.setdefault("deployed", [])
    for p in (st.clockwise_from(st.pole) if players is None else players):
        centre = spawn_point(st, p)
        if centre is None:
            raise RuntimeError(f"player {p + 1} has no spawn point")
        waiting = [v.id for v in st.vehicles.values() if v.player == p and v.in_play
                   and v.in_team and v.id not in deployed]
        while waiting:
            vid = waiting[0]
            if len(waiting) > 1:
                vid = str((yield ask(p, "deploy", "Choose a vehicle to deploy at your spawn "
                                     "point", [(i, st.vehicles[i].name) for i in waiting],
                                     source=source, page=page)))
            v = st.vehicles[vid]
            poses = deploy_poses(game, v, centre, deployed)
            if not poses:
                from carnage.games.refuelled.setup import SetupError

                raise SetupError(f"{game.scenario.name}: no room to deploy {v.name} "
                                 f"(player {p + 1}) at its spawn point")
            if not any(float(k.split(":")[1]) in RINGS for k in poses):
                game.emit("deploy_relaxed", source=source, page=page, vehicle=v.id,
                          reason="no room within Short of the spawn point (SC-3)")
            pick = yield ask(p, "spawn_pose", f"Where does {v.name} deploy?",
                             [(k, pose_label(k)) for k in poses], source=source, page=page,
                             vehicle=v.id)
            v.pose = poses[str(pick)]
            if v.trailer is not None:
                v.trailer.hinge = 0.0
            deployed.append(v.id)
            waiting.remove(v.id)
            game.emit("deploy", source=source, page=page, vehicle=v.id, player=p,
                      slot=str(pick), x=round(v.pose.x, 3), y=round(v.pose.y, 3),
                      heading=round(v.pose.heading, 3))


def spawn_option_poses(game: Game, vehicle_id: str | None, kind: str,
                       values: Iterable[object]) -> dict[str, Pose]:
    """``option_poses`` for a ``spawn_pose`` decision: where each option puts the vehicle."""
    st = game.state
    v = st.vehicles.get(vehicle_id or "")
    if kind != "spawn_pose" or v is None:
        return {}
    centre = spawn_point(st, v.player)
    if centre is None:
        return {}
    poses = deploy_poses(game, v, centre, st.scenario.get("deployed", []))
    return {str(x): poses[str(x)] for x in values if str(x) in poses}


def respawn_at_spawn_point(game: Game, vehicle: VehicleState) -> dict[str, Pose]:
    """M-03: a respawned vehicle comes back within Short of its controller's spawn point,
    clear of the vehicles in play (labels as ``deploy_poses``, prefixed)."""
    centre = spawn_point(game.state, vehicle.player)
    if centre is None:
        return {}
    poses = deploy_poses(game, vehicle, centre, None)
    return {f"spawn point {pose_label(k)}": p for k, p in poses.items()}


def spawn_drawables(game: Game) -> list[Drawable]:
    """Each spawn point as a ``spawn`` mark, facing the table centre, owned by its seat."""
    st = game.state
    out = []
    for p, c in sorted(spawn_points(st).items()):
        dx, dy = st.width / 2.0 - c[0], st.height / 2.0 - c[1]
        n = math.hypot(dx, dy) or 1.0
        out.append(Drawable(f"spawn-{p + 1}", "spawn", (c,), label=f"{seat_name(p)} spawn",
                            direction=(dx / n, dy / n), owner=p))
    return out


class SpawnPoints:
    """Mixin for a ``TableScenario`` using the spawn-point pattern: set-up helpers, respawn
    at one's own spawn point, the table marks and ``option_poses`` of a ``spawn_pose``."""

    page: ClassVar[int | None]
    respawns_where_wrecked = False
    """G-11: a respawned vehicle must come back within Short of its controller's spawn point,
    a wreck still on the table too (ruling SC-45; engine/votes.py ``respawn``)."""

    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        return respawn_at_spawn_point(game, vehicle)

    def spawn_drawables(self, game: Game) -> list[Drawable]:
        return spawn_drawables(game)


_ADVISED = frozenset({"spawn_point", "respawn_position", "spawn_pose"})
"""The decisions ``spawn_advice`` advises on."""


def spawn_advice(game: Game, decision: Decision) -> str | None:
    """Bot advice (``TableScenario.bot_choice``) for the spawn-point decisions: a spawn point
    as far as it can be from those already down (the first: the middle of the near edge);
    a deployment pose facing the table centre, a little out from the spawn point."""
    if decision.kind not in _ADVISED:
        return None  # (as every branch below would say, without reading the options)
    st = game.state
    values = [str(o.value) for o in decision.options]
    if decision.kind == "spawn_point" and values:
        placed = list(spawn_points(st).values())

        depth = band(game, "medium") - 20.0  # room to deploy between it and the edge

        def far(k: str) -> float:
            x, y = (float(t) for t in k.split(","))
            off = 3.0 * abs(edge_gap(st, (x, y), SPAWN_DIAMETER / 2.0) - depth)
            if not placed:
                return -math.hypot(x - st.width / 2.0, y) - off
            return min(math.hypot(x - p[0], y - p[1]) for p in placed) - off

        return max(values, key=lambda k: (far(k), k))
    v = st.vehicles.get(decision.vehicle or "")
    if decision.kind == "respawn_position" and values and v is not None:
        # A respawn at the spawn point: the label is "spawn point <pose label>"; the pose
        # facing the table centre most nearly (as at deployment).
        poses = respawn_at_spawn_point(game, v)
        mine = [k for k in values if k in poses]
        if mine:
            def facing_centre(k: str) -> tuple[float, str]:
                p = poses[k]
                want = math.degrees(math.atan2(st.height / 2.0 - p.y, st.width / 2.0 - p.x))
                return (abs((p.heading - want + 180.0) % 360.0 - 180.0), k)

            return min(mine, key=facing_centre)
        return None
    if decision.kind == "spawn_pose" and values and v is not None:
        centre = spawn_point(st, v.player) or (v.pose.x, v.pose.y)

        def facing(k: str) -> tuple[float, float, str]:
            b, d, h = (float(t) for t in k.split(":"))
            cx = centre[0] + d * math.cos(math.radians(b))
            cy = centre[1] + d * math.sin(math.radians(b))
            want = math.degrees(math.atan2(st.height / 2.0 - cy, st.width / 2.0 - cx))
            turn = abs((h - want + 180.0) % 360.0 - 180.0)
            return (turn, abs(d - RINGS[1]), k)

        return min(values, key=facing)
    return None
