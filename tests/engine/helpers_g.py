"""Helpers for the collision, wipeout and terrain tests (helper G)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.engine.builders import table, vehicle

from carnage.engine.collision import resolve_collisions
from carnage.engine.game import Flow, Game
from carnage.engine.movement import movement_step
from carnage.engine.state import GameState, Ramp
from carnage.engine.wipeout import wipeout_step
from carnage.geometry.shapes import Pose


def collide(vid: str, *ids: str) -> Callable[[Game], Flow]:
    """A step: the collision window of ``vid`` with ``ids``."""

    def step(g: Game) -> Flow:
        yield from resolve_collisions(g, g.state.vehicles[vid], list(ids))

    return step


def wipeouts(active: str) -> Callable[[Game], Flow]:
    """A step: ``active``'s Wipeout Step."""

    def step(g: Game) -> Flow:
        yield from wipeout_step(g, g.state.vehicles[active])

    return step


def activation(vid: str) -> Callable[[Game], Flow]:
    """A step: ``vid``'s Movement Step then its Wipeout Step (no Attack Step)."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active = vid
        yield from movement_step(g, v)
        if v.in_play and not g.state.finished:
            yield from wipeout_step(g, v)

    return step


def ev(g: Game, kind: str, **match: Any) -> list[dict[str, Any]]:
    """The data of every ``kind`` event whose fields include ``match`` (``source`` matches the
    event's rule id)."""
    return [
        dict(e.data)
        for e in g.log.of_kind(kind)
        if all((e.source if k == "source" else e.data.get(k)) == v for k, v in match.items())
    ]


def kinds(g: Game) -> list[str]:
    return [e.kind for e in g.log]


def rolls(g: Game) -> list[tuple[str, list[int]]]:
    out = []
    for e in g.log.of_kind("roll"):
        dice = e.data["dice"]
        assert isinstance(dice, list)
        out.append((str(e.data["why"]), [int(str(d)) for d in dice]))
    return out


def ramp(rid: str, x: float, y: float, heading: float = 90.0, length: float = 100.0,
         width: float = 60.0) -> Ramp:
    return Ramp(rid, Pose(x, y, heading), length, width)


def example_of_play_table() -> GameState:
    """Refuelled pp.58-60 just before Red's first move: Blue (player 0, gear 2, 1 Hazard from
    its change up) faces south, its front-right corner 5 mm into the path of Red (player 1,
    gear 1, 1 damage from Blue's handgun), which faces north 80 mm further south."""
    blue = vehicle("blue", "car", 625, 470, heading=270, player=0, gear=2, hazards=1)
    red = vehicle("red", "car", 600, 300, heading=90, player=1, gear=1)
    red.damage = 1
    return table(blue, red)
