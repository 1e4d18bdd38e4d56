"""Small table pieces the three beast scenarios (Big Game Hunter, Monster Truck Smash,
Truckasaurus, Refuelled pp.143-153) share on top of the shared scenario machinery
(scenarios/common/): the table's centre, discs round a point, and bringing a respawned
vehicle back at its spawn point."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.game import ask
from carnage.geometry.shapes import Point, Pose

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState

SPAWN_RADIUS = 10.0
"""A spawn point's radius (mm): a counter of at most 20 mm (G-11)."""


def centre(state: GameState) -> Point:
    return (state.width / 2.0, state.height / 2.0)


def disc(p: Point, r: float = SPAWN_RADIUS, n: int = 12) -> list[Point]:
    """A regular ``n``-gon of radius ``r`` round ``p`` (a round counter or zone)."""
    return [(p[0] + r * math.cos(2 * math.pi * k / n), p[1] + r * math.sin(2 * math.pi * k / n))
            for k in range(n)]


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


def respawn_option_poses(game: Game, v: VehicleState | None, values: list[object],
                         positions: Callable[[Game, VehicleState], dict[str, Pose]]
                         ) -> dict[str, Pose]:
    """``option_poses`` of a ``respawn_position`` decision: where each option puts ``v``."""
    if v is None:
        return {}
    spots = positions(game, v)
    return {str(x): spots[str(x)] for x in values if str(x) in spots}
