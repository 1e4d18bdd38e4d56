"""Exact tables for the Wasteland Skirmish and Saturday Night Live rules tests: a scenario
whose set-up only sets Pole Position (vehicles, spawn points and tokens placed by the test),
played through the real flow with scripted dice."""

from __future__ import annotations

from typing import Any

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.base import TableScenario
from carnage.geometry.shapes import Point
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


def placed(cls: type[TableScenario], *vehicles: VehicleState, dice: list[int],
           players: int = 2, pole: int = 0, spawn: dict[int, Point] | None = None,
           tokens: dict[str, tuple[str, Point, float]] | None = None,
           options: dict[str, Any] | None = None, max_rounds: int = 40,
           physical: bool = False) -> Game:
    """A game of scenario ``cls`` on its own table size with ``vehicles`` where they stand,
    Pole Position with ``pole``, the given spawn points and tokens (id -> kind, point, size)
    already down, and no terrain; ``physical``: at a real table."""

    class Placed(cls):
        def setup(self, game: Game) -> Flow:
            game.state.pole = pole
            yield from ()

    sc = Placed()
    st = GameState(sc.width, sc.height, players)
    for v in vehicles:
        st.vehicles[v.id] = v
    if spawn:
        st.scenario["spawn_points"] = {str(p): [c[0], c[1]] for p, c in spawn.items()}
    if tokens:
        st.scenario["tokens"] = {tid: {"kind": kind, "owner": None, "x": at[0], "y": at[1],
                                       "carrier": None, "size": size}
                                 for tid, (kind, at, size) in tokens.items()}
    st.scenario["options"] = {k: d for k, (_, d) in cls.options_schema.items()} | (options or {})
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=max_rounds, physical=physical))
