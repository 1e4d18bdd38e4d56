"""Pieces the three beast scenarios (Big Game Hunter, Monster Truck Smash, Truckasaurus)
share: spawn points offered as finite candidates, deployment within Short of one's spawn
point, respawning there, a Victory Point tally and the end after round 3 (Refuelled
pp.143-153; the general pattern G-11, G-14).

Kept private to these scenarios until the shared scenario machinery offers the same; every
value lives in ``state.scenario`` (``spawns``, ``vp``).

Rulings: spawn points (20 mm discs) are offered on a lattice ``SPAWN_PITCH`` apart, their
centres ``SPAWN_INSET`` from the nearest edge (so well within Medium of it), not touching
terrain (SC-B1); they are markers, not obstructions. Deployment places each vehicle on one of
``DEPLOY_SLOTS`` poses round the spawn point, facing the centre of the table, with its body
within Short of the disc, on the table and clear of terrain and vehicles (SC-B2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from carnage.engine.game import ask
from carnage.engine.scenario_view import Drawable, ReportRow
from carnage.geometry.shapes import Point, Pose, Rect, distance, penetration

if TYPE_CHECKING:
    from carnage.engine.game import Flow, Game
    from carnage.engine.state import GameState, VehicleState

SPAWN_RADIUS = 10.0
SPAWN_INSET = 50.0
SPAWN_PITCH = 75.0
DEPLOY_SLOTS = 12


def centre(state: GameState) -> Point:
    return (state.width / 2.0, state.height / 2.0)


def disc(p: Point, r: float = SPAWN_RADIUS, n: int = 12) -> list[Point]:
    return [(p[0] + r * math.cos(2 * math.pi * k / n), p[1] + r * math.sin(2 * math.pi * k / n))
            for k in range(n)]


def spawns(state: GameState) -> dict[int, Point]:
    raw = state.scenario.get("spawns", {})
    return {int(k): (float(v[0]), float(v[1])) for k, v in raw.items()}


def set_spawn(game: Game, player: int, p: Point, *, source: str, page: int) -> None:
    game.state.scenario.setdefault("spawns", {})[str(player)] = [round(p[0], 3), round(p[1], 3)]
    game.emit("spawn_point", source=source, page=page, player=player, x=round(p[0], 3),
              y=round(p[1], 3))


def spawn_candidates(game: Game, keep_out: Sequence[Sequence[Point]] = ()) -> dict[str, Point]:
    """Legal spawn points now: within Medium of an edge, clear of terrain, more than Double
    from every spawn point placed and from each polygon in ``keep_out``."""
    st = game.state
    double = game.templates.ranges["double"]
    medium = game.templates.ranges["medium"]
    placed = list(spawns(st).values())
    terrain = [ob.polygon() for ob in st.obstacles.values()]
    out: dict[str, Point] = {}
    pts: list[Point] = []
    for edge_y in (SPAWN_INSET, st.height - SPAWN_INSET):
        x = SPAWN_INSET
        while x <= st.width - SPAWN_INSET + 1e-9:
            pts.append((x, edge_y))
            x += SPAWN_PITCH
    for edge_x in (SPAWN_INSET, st.width - SPAWN_INSET):
        y = SPAWN_INSET + SPAWN_PITCH
        while y <= st.height - SPAWN_INSET - SPAWN_PITCH + 1e-9:
            pts.append((edge_x, y))
            y += SPAWN_PITCH
    for p in pts:
        edge = min(p[0], p[1], st.width - p[0], st.height - p[1])
        if edge - SPAWN_RADIUS > medium:
            continue
        if any(math.dist(p, q) - 2 * SPAWN_RADIUS <= double for q in placed):
            continue
        d = disc(p)
        if any(distance(d, k) <= double for k in keep_out):
            continue
        if any(penetration(d, t) > 0 for t in terrain):
            continue
        out[f"{p[0]:.0f},{p[1]:.0f}"] = p
    return out


def place_spawn_points(game: Game, order: Sequence[int], *, source: str, page: int,
                       keep_out: Callable[[], list[list[Point]]] = list) -> Flow:
    """In ``order``, each player picks a spawn point from the candidates."""
    for p in order:
        cands = spawn_candidates(game, keep_out())
        if not cands:
            raise RuntimeError(f"no room for player {p + 1}'s spawn point on this table")
        pick = yield ask(p, "spawn_point", "Place your spawn point (within Medium of an edge)",
                         [(k, f"spawn point at {k} mm") for k in cands], source=source,
                         page=page)
        set_spawn(game, p, cands[str(pick)], source=source, page=page)


def spawn_poses(game: Game, v: VehicleState, spawn: Point,
                ignore: Sequence[str] = ()) -> dict[str, Pose]:
    """Ruling SC-B2: poses within Short of ``spawn`` for ``v``, clear of terrain and of the
    vehicles in play (not ``v`` nor ``ignore``), on the table, facing the table's centre."""
    st = game.state
    short = game.templates.ranges["short"]
    cx, cy = centre(st)
    d = disc(spawn)
    blocked = [ob.polygon() for ob in st.obstacles.values()]
    blocked += [r.polygon() for o in st.in_play() if o.id != v.id and o.id not in ignore
                and o.pose.x >= 0 and o.pose.y >= 0 for _, r in o.bodies()]
    out: dict[str, Pose] = {}
    reach = SPAWN_RADIUS + v.width / 2.0 + 2.0
    for ring in (reach, reach + v.length / 2.0 + 5.0, reach + v.length + 10.0):
        for k in range(DEPLOY_SLOTS):
            a = 2 * math.pi * k / DEPLOY_SLOTS
            x, y = spawn[0] + ring * math.cos(a), spawn[1] + ring * math.sin(a)
            heading = math.degrees(math.atan2(cy - y, cx - x)) % 360.0
            pose = Pose(round(x, 3), round(y, 3), round(heading, 3))
            poly = Rect(pose, v.length, v.width).polygon()
            if not all(0.0 <= px <= st.width and 0.0 <= py <= st.height for px, py in poly):
                continue
            if distance(poly, d) > short + 1e-9:
                continue
            if any(penetration(poly, b) >= -1e-6 for b in blocked):
                continue
            out[f"{ring:.0f}mm@{360 * k // DEPLOY_SLOTS}"] = pose
    return out


def deploy_at_spawns(game: Game, order: Sequence[int], *, source: str, page: int) -> Flow:
    """In ``order``, each player deploys all their vehicles within Short of their spawn
    point, one decision for the vehicle and one for its pose each."""
    st = game.state
    sp = spawns(st)
    for p in order:
        waiting = [v.id for v in st.vehicles.values() if v.player == p and v.in_team]
        while waiting:
            vid = str((yield ask(p, "deploy", "Choose a vehicle to deploy at your spawn point",
                                 [(i, st.vehicles[i].name) for i in waiting], source=source,
                                 page=page)))
            v = st.vehicles[vid]
            poses = spawn_poses(game, v, sp[p])
            if not poses:
                raise RuntimeError(f"no room for {v.name} within Short of its spawn point")
            pick = yield ask(p, "deploy_pose", f"Where does {v.name} go?",
                             [(k, k) for k in poses], source=source, page=page, vehicle=v.id)
            v.pose = poses[str(pick)]
            waiting.remove(vid)
            game.emit("deploy", source=source, page=page, vehicle=v.id, player=p,
                      x=round(v.pose.x, 3), y=round(v.pose.y, 3),
                      heading=round(v.pose.heading, 3))


# -- Victory Points --------------------------------------------------------------------------
def vp(state: GameState) -> dict[int, int]:
    raw = state.scenario.get("vp", {})
    return {p: int(raw.get(str(p), 0)) for p in range(state.players)}


def add_vp(game: Game, player: int, n: int, source: str, page: int, **data: Any) -> None:
    sc = game.state.scenario.setdefault("vp", {})
    sc[str(player)] = int(sc.get(str(player), 0)) + n
    game.emit("victory_points", source=source, page=page, player=player, gained=n,
              vp=sc[str(player)], **data)


def finish_most(game: Game, tally: dict[int, int], what: str, *, share: bool) -> None:
    """End the game: the player with the most ``what`` wins. A tie at the top is a shared
    win (``share``) or a draw; either way the outcome has no single winner and
    ``state.scenario["winners"]`` names the leaders."""
    top = max(tally.values()) if tally else 0
    leaders = sorted(p for p, n in tally.items() if n == top)
    game.state.scenario["winners"] = leaders
    if len(leaders) == 1:
        game.finish(leaders[0], f"most {what} ({top})")
    else:
        names = ", ".join(f"player {p + 1}" for p in leaders)
        word = "share the win" if share else "tie"
        game.finish(None, f"{names} {word} with {top} {what}", draw=True)


def spawn_drawables(state: GameState) -> list[Drawable]:
    return [Drawable(f"spawn-{p}", "spawn", (pt,), label=f"P{p + 1} spawn", owner=p)
            for p, pt in spawns(state).items()]


def vp_rows(state: GameState) -> list[ReportRow]:
    return [ReportRow(f"vp_{p + 1}", f"Player {p + 1} VP", n, str(n), tally=False)
            for p, n in vp(state).items()]


def to_spawn_after_respawn(game: Game, v: VehicleState, player: int,
                           positions: Callable[[Game, VehicleState], dict[str, Pose]]) -> Flow:
    """Rulings BGH-9, MTS-6, TR-11: a respawn turns a wreck still on the table back over where
    it lies (p.90), but these scenarios bring every respawned vehicle back within Short of its
    controller's spawn point: such a vehicle is then moved there (a placement, not a move)."""
    last = next((e for e in reversed(game.log.events)
                 if e.kind == "respawn" and e.data.get("vehicle") == v.id), None)
    if last is None or last.data.get("how") != "wreck" or not v.in_play:
        return
    spots = positions(game, v)
    if not spots:
        return
    pick = yield ask(player, "respawn_position", f"{v.name}: where at your spawn point?",
                     [(k, k) for k in spots], source="respawn", page=90, vehicle=v.id)
    v.pose = spots[str(pick)]
    game.emit("deploy", source="respawn", page=90, vehicle=v.id, player=v.player,
              x=round(v.pose.x, 3), y=round(v.pose.y, 3), heading=round(v.pose.heading, 3))
