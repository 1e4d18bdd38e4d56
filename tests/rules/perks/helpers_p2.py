"""Helpers for the perk tests (helper P2): perked vehicles, whole activations as a step, and a
driver that answers decisions by kind."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tests.engine.builders import run_step, table, vehicle
from tests.engine.helpers_g import ev, rolls

from carnage.engine.attack import attack_step
from carnage.engine.collision import resolve_collisions
from carnage.engine.flow import activation
from carnage.engine.game import Flow, Game
from carnage.engine.movement import movement_step
from carnage.engine.state import GameState, VehicleState
from carnage.kernel.decisions import Decision

__all__ = ["activate", "attack", "collide", "drive", "ev", "move", "perked", "rolls", "run",
           "table", "vehicle"]

# Skid faces on a D6 (ruling R-1): 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift.
HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4

DEFAULTS: dict[str, Any] = {
    "skid_dice": 0, "push_it": "no", "spend_shift": "done", "attack": "stop",
}
"""Answers ``drive`` gives when a test names none for that kind of decision."""


def perked(v: VehicleState, *perks: str) -> VehicleState:
    v.perks.extend(perks)
    return v


def _on(vid: str, fn: Callable[[Game, VehicleState], Flow]) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        g.state.active = vid
        yield from fn(g, g.state.vehicles[vid])

    return step


def activate(vid: str) -> Callable[[Game], Flow]:
    """A step: ``vid``'s whole activation (flow hooks, three steps) in gear phase 1."""

    def step(g: Game) -> Flow:
        g.state.gear_phase = g.state.gear_phase or 1
        yield from activation(g, g.state.vehicles[vid])

    return step


def move(vid: str) -> Callable[[Game], Flow]:
    def fn(g: Game, v: VehicleState) -> Flow:
        g.state.step = "movement"
        yield from movement_step(g, v)

    return _on(vid, fn)


def attack(vid: str) -> Callable[[Game], Flow]:
    def fn(g: Game, v: VehicleState) -> Flow:
        g.state.step = "attack"
        yield from attack_step(g, v)

    return _on(vid, fn)


def collide(vid: str, *ids: str, active: str | None = None) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        g.state.active = active or vid
        yield from resolve_collisions(g, g.state.vehicles[vid], list(ids))

    return step


def run(state: GameState, step: Callable[[Game], Flow], dice: Iterable[int] = ()) -> Game:
    return run_step(state, step, dice)


def drive(g: Game, **answers: Any) -> Decision | None:
    """Answer pending decisions by kind: a list is consumed in order, anything else is given
    every time; kinds not named get ``DEFAULTS``. Stops at a decision it has no answer for
    (returned) or when the game is over (None)."""
    queues = {k: list(v) if isinstance(v, list) else v for k, v in answers.items()}
    while (d := g.pending()) is not None:
        if d.kind in queues:
            q = queues[d.kind]
            if isinstance(q, list):
                if not q:
                    return d
                g.apply(q.pop(0))
            else:
                g.apply(q)
        elif d.kind in DEFAULTS:
            g.apply(DEFAULTS[d.kind])
        else:
            return d
    return None


def kinds(g: Game) -> list[str]:
    return [e.kind for e in g.log]
