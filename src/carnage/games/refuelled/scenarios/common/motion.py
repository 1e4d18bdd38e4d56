"""Judging every kind of motion (M-12; also usable for gates and zones).

Scenario rules keyed to a vehicle's movement ("when its move template or Final Position
touches ...") must see a vehicle's own moves, forced moves (skids, rams, Harpoon pulls), pivots
and spins. ``watch_motion(game, effect, key, judge)`` calls ``judge(game, vehicle, poses)``
with the poses the vehicle went through, in order:

* after a Movement Step move (``after_move``): its densely sampled path (``SAMPLES`` poses);
* after a forced move or a pivot (``logged:forced_move``, ``logged:pivot``): a straight
  interpolation from where it was last seen (a forced move is a straight template; a pivot
  turns on the spot);
* at the end of every activation and Gear Phase: the same interpolation for any vehicle that
  moved some other way.

Only a vehicle in contention is judged (ruling SC-44): a wreck skidding to a halt (p.43)
still moves and collides, but its skid picks nothing up and crosses nothing. Deployment and
respawn place a vehicle; they are not motion (``logged:deploy`` and
``logged:respawn`` only reset where it was seen; ``logged:game_start`` notes everyone).
Memory: ``state.scenario[key]``: vehicle id -> last pose seen. Ruling SC-6: a move template
is judged as the area the vehicle's body sweeps along it (the body is at least as wide as
the templates it uses).

At a real table (companion mode, engine/table_facts.py) poses never move, so nothing is
judged that way: ``motion_facts`` asks the people instead, through the ``table_motion`` flow
hook the engine runs after each Movement Step move, forced move and pivot, and notes on a
recording table what the geometry judged at the same moments (``table_motion_noted``).
Other motion (a Pivot upgrade's turn without contact, anything caught up at the end of an
activation) is not asked (ruling CP-6).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from carnage.geometry.convex import convex_hull
from carnage.geometry.shapes import Point, Pose, Rect, heading_diff, overlaps

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState

SAMPLES = 48
STEPS = 12
"""Poses an interpolated (forced or unseen) motion is judged through."""

Judge = Callable[["Game", "VehicleState", list[Pose]], None]


def interpolate(a: Pose, b: Pose, steps: int = STEPS) -> list[Pose]:
    """Poses from ``a`` to ``b`` in a straight line, turning the shorter way."""
    turn = heading_diff(b.heading, a.heading)
    return [Pose(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, (a.heading + turn * t) % 360.0)
            for t in (i / steps for i in range(steps + 1))]


def swept_polygons(poses: list[Pose], length: float, width: float) -> list[list[Point]]:
    """Convex pieces covering the area a body sweeps through ``poses`` (a single pose: its
    footprint)."""
    if len(poses) == 1:
        return [Rect(poses[0], length, width).polygon()]
    return [convex_hull([*Rect(a, length, width).polygon(), *Rect(b, length, width).polygon()])
            for a, b in pairwise(poses)]


def touches_along(poses: list[Pose], length: float, width: float, target: list[Point],
                  tol: float = 1e-6) -> bool:
    """Does a body moving through ``poses`` touch the convex ``target``?"""
    tx = [p[0] for p in target]
    ty = [p[1] for p in target]
    reach = (length + width) / 2.0
    if (max(p.x for p in poses) + reach < min(tx) or min(p.x for p in poses) - reach > max(tx)
            or max(p.y for p in poses) + reach < min(ty)
            or min(p.y for p in poses) - reach > max(ty)):
        return False
    # ``overlaps``: ``penetration(piece, target) >= -tol``, settled at the first axis that
    # says no; the pieces are built one at a time, up to the first that touches
    if len(poses) == 1:
        return overlaps(Rect(poses[0], length, width).polygon(), target, tol)
    return any(overlaps(convex_hull([*Rect(a, length, width).polygon(),
                                     *Rect(b, length, width).polygon()]), target, tol)
               for a, b in pairwise(poses))


def watch_motion(game: Game, effect: str, key: str, judge: Judge, *,
                 wrecks_too: bool = False) -> None:
    """Call ``judge`` for every motion of every vehicle in contention (see the module
    docstring). ``wrecks_too``: judge a wreck's skid to a halt as well, for what happens *to*
    a vehicle touching something (goo on its tyres), never for what it does for the scenario.
    Call it from the scenario's ``install`` (it is journaled with it)."""

    def judged(v: VehicleState) -> bool:
        return v.in_play if wrecks_too else v.in_contention

    def seen() -> dict[str, Pose]:
        out: dict[str, Pose] = game.state.scenario.setdefault(key, {})
        return out

    def since_seen(g: Game, v: VehicleState) -> None:
        last = seen().get(v.id)
        seen()[v.id] = v.pose
        if last is not None and last != v.pose and judged(v):
            judge(g, v, interpolate(last, v.pose))

    def after_move(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        if result is None or not judged(v):
            return
        poses = list(result.swept(SAMPLES))
        last = seen().get(v.id)
        if last is not None and poses and last != poses[0]:
            poses = interpolate(last, poses[0]) + poses
        seen()[v.id] = v.pose
        judge(g, v, poses)

    def one(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        v = g.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is not None:
            since_seen(g, v)

    def placed(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        v = g.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is not None:
            seen()[v.id] = v.pose

    def start(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        for v in g.state.in_play():
            seen()[v.id] = v.pose

    def everyone(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        for v in g.state.in_play():
            if v.pose.x >= 0 and v.pose.y >= 0:
                since_seen(g, v)

    game.effects.on("after_move", effect, after_move)
    game.effects.on("logged:forced_move", effect, one)
    game.effects.on("logged:pivot", effect, one)
    game.effects.on("logged:deploy", effect, placed)
    game.effects.on("logged:respawn", effect, placed)
    game.effects.on("logged:game_start", effect, start)
    game.effects.on("activation_end", effect, everyone)
    game.effects.on("gear_phase_end", effect, everyone)


Ask = Callable[["Game", "VehicleState"], "Flow"]
Note = Callable[["Game", "VehicleState", int], None]


def motion_facts(game: Game, effect: str, ask: Ask, note: Note, priority: int = 0) -> None:
    """The companion counterpart of ``watch_motion``: at a real table ``ask(game, vehicle)``
    (a flow) after each move, forced move and pivot; on the exact table
    ``note(game, vehicle, since)`` once the geometry judged the same motion (``since``: the
    log's length before it), for a recording table to note the fact a real table is asked.
    ``priority``: where its question comes among the others after the same motion (higher
    first; the default 0). Call it from the scenario's ``install``."""
    from carnage.kernel.effects import always

    if game.facts.people:
        def asked(g: Any, ctx: dict[str, Any]) -> Flow:
            return ask(g, ctx["vehicle"])

        game.effects.add_flow("table_motion", effect, always(asked), priority)
        return

    def noted(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        if g.facts.recording:
            note(g, ctx["vehicle"], int(ctx["since"]))

    game.effects.on("table_motion_noted", effect, noted, priority)
