"""Small table pieces the three beast scenarios (Big Game Hunter, Monster Truck Smash,
Truckasaurus, Refuelled pp.143-153) share on top of the shared scenario machinery
(scenarios/common/): the table's centre, discs round a point, and the poses of a respawn
placement."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from carnage.geometry.shapes import Point, Pose

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState

SPAWN_RADIUS = 10.0
"""A spawn point's radius (mm): a counter of at most 20 mm (G-11)."""


def centre(state: GameState) -> Point:
    return (state.width / 2.0, state.height / 2.0)


def disc(p: Point, r: float = SPAWN_RADIUS, n: int = 12) -> list[Point]:
    """A regular ``n``-gon of radius ``r`` round ``p`` (a round counter or zone)."""
    return [(p[0] + r * math.cos(2 * math.pi * k / n), p[1] + r * math.sin(2 * math.pi * k / n))
            for k in range(n)]


def respawn_option_poses(game: Game, v: VehicleState | None, values: list[object],
                         positions: Callable[[Game, VehicleState], dict[str, Pose]]
                         ) -> dict[str, Pose]:
    """``option_poses`` of a ``respawn_position`` decision: where each option puts ``v``."""
    if v is None:
        return {}
    spots = positions(game, v)
    return {str(x): spots[str(x)] for x in values if str(x) in spots}
