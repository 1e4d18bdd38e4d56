"""Savage Highways tables for rules tests: the rig and the Gangers' vehicles placed exactly by
the test, the upgrades attached from the scenario option, Pole Position set, no deployment;
the scenario's rules run through the real flow with scripted dice."""

from __future__ import annotations

import random
from typing import Any

from tests.builders import vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios import scenario_class
from carnage.games.refuelled.scenarios.savage_highways import SavageHighways, memory
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED

RIG_RULES = ("articulated", "ponderous", "piledriver")


def rig(x: float = 600, y: float = 300, heading: float = 90, **kw: Any) -> VehicleState:
    """The Riggers' War Rig (seat 0) at an exact pose (its trailer laid straight behind)."""
    v = vehicle("rig", "war_rig", x, y, heading, player=0, **kw)
    v.special_rules = list(RIG_RULES)
    return v


def placed(scenario: str, *vehicles: VehicleState, dice: list[int],
           upgrades: tuple[str, ...] = (), pole: int = 0, players: int = 2,
           edges: dict[str, list[str]] | None = None, max_rounds: int = 8,
           options: dict[str, Any] | None = None, physical: bool = False) -> Game:
    """A game of ``scenario`` with ``vehicles`` placed, ``upgrades`` attached at the start and
    ``pole`` holding Pole Position; ``edges`` the scenario's edges (default: the Riggers at
    the south edge, the Gangers at the north); ``physical``: at a real table."""
    base = scenario_class(scenario)
    assert issubclass(base, SavageHighways)

    class Placed(base):
        def generate(self, state: GameState, rng: random.Random) -> None:
            return None

        def setup(self, game: Game) -> Flow:
            memory(game.state)["edges"] = edges or {"riggers": ["south"],
                                                   "gangers": ["north"]}
            yield from self.attach_upgrades(game)
            game.state.pole = pole
            self.placed_setup(game)

        def placed_setup(self, game: Game) -> None:
            return None

    sc = Placed()
    st = GameState(sc.width, sc.height, players)
    st.scenario["options"] = {"riggers": 0, "upgrades": list(upgrades), **(options or {})}
    for v in vehicles:
        st.vehicles[v.id] = v
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=max_rounds, physical=physical))
