"""Helpers for the attack and damage tests (helper F): run one step, read the log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from tests.engine.builders import run_step

from carnage.engine.attack import attack_step
from carnage.engine.game import Flow, Game
from carnage.engine.state import GameState, VehicleState, WeaponMount
from carnage.rulesets import REFUELLED, Ruleset


def armed(v: VehicleState, *mounts: tuple[str, str | None, int | None]) -> VehicleState:
    """Replace ``v``'s weapons with (weapon, facing, ammo) mounts keyed ``weapon#i``."""
    v.weapons = [WeaponMount(f"{w}#{i}", w, f, ammo) for i, (w, f, ammo) in enumerate(mounts)]
    return v


def attack_game(state: GameState, vid: str, dice: Iterable[int] = (),
                ruleset: Ruleset = REFUELLED) -> Game:
    """A game whose only step is ``vid``'s Attack Step."""

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles[vid])

    return run_step(state, step, dice, ruleset=ruleset)


def kinds(g: Game, *wanted: str) -> list[tuple[str, dict[str, Any]]]:
    """(kind, data) of the logged events of the given kinds, in order."""
    return [(e.kind, dict(e.data)) for e in g.log if e.kind in wanted]


def rolls(g: Game) -> list[tuple[str, list[int]]]:
    return [(str(e.data["why"]), list(cast(list[int], e.data["dice"])))
            for e in g.log.of_kind("roll")]


def wound(v: VehicleState, hull_left: int) -> VehicleState:
    v.damage = v.hull - hull_left
    return v
