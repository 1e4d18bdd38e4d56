"""Test builders for engine tests: exact tables, vehicles and step-driving scenarios."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from carnage.catalog import Weight, load_catalog
from carnage.engine.game import Flow, Game, RuleOptions
from carnage.engine.scenario import Scenario
from carnage.engine.state import GameState, Obstacle, VehicleState, WeaponMount
from carnage.geometry import footprint
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, Ruleset


def vehicle(
    vid: str,
    vtype: str,
    x: float,
    y: float,
    heading: float = 90.0,
    *,
    player: int = 0,
    gear: int = 1,
    hazards: int = 0,
    weapons: Iterable[tuple[str, str | None]] = (),
) -> VehicleState:
    spec = load_catalog().vehicles.get(vtype)
    length, width = footprint(spec.id)
    return VehicleState(
        id=vid, name=vid, player=player, type=spec.id, weight=spec.weight, hull=spec.hull,
        handling=spec.handling, max_gear=spec.max_gear, crew=spec.crew, length=length,
        width=width, pose=Pose(x, y, heading), gear=gear, hazards=hazards,
        weapons=[WeaponMount(f"{w}#{i}", w, f) for i, (w, f) in enumerate(weapons)],
    )


def rock(oid: str, x: float, y: float, length: float = 40, width: float = 40,
         heading: float = 0.0, **kw: Any) -> Obstacle:
    return Obstacle(oid, Pose(x, y, heading), length, width, kw.pop("weight", Weight.HEAVYWEIGHT),
                    **kw)


def table(*vehicles: VehicleState, obstacles: Iterable[Obstacle] = (), players: int = 2,
          width: float = 1200, height: float = 1200) -> GameState:
    st = GameState(width=width, height=height, players=players)
    for v in vehicles:
        st.vehicles[v.id] = v
    for o in obstacles:
        st.obstacles[o.id] = o
    return st


class StepScenario(Scenario):
    """Runs one step (any flow) as the whole game, then ends it: for testing a step alone."""

    id = "step"

    def __init__(self, step: Callable[[Game], Flow]) -> None:
        self.step = step

    def setup(self, game: Game) -> Flow:
        yield from self.step(game)
        game.finish(None, "step done", draw=True)


def run_step(
    state: GameState,
    step: Callable[[Game], Flow],
    dice: Iterable[int] = (),
    options: RuleOptions | None = None,
    ruleset: Ruleset = REFUELLED,
) -> Game:
    return Game(ruleset=ruleset, state=state, scenario=StepScenario(step),
                dice=ScriptedDice(list(dice)), options=options or RuleOptions())


def play(g: Game, *choices: Any) -> list[Decision]:
    """Apply ``choices`` in order; returns the decisions they answered."""
    seen = []
    for c in choices:
        d = g.pending()
        assert d is not None, f"no decision pending for choice {c!r}"
        seen.append(d)
        g.apply(c)
    return seen


def values(d: Decision | None) -> list[Any]:
    assert d is not None
    return [o.value for o in d.options]
