"""A test table for the rolling road alone (scenarios/rolling_road.py): vehicles placed
at exact poses, the Pole by roll-off, the road's exits, marks and next table."""

from __future__ import annotations

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Obstacle, VehicleState
from carnage.games.refuelled.scenarios.base import TableScenario
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.rolling_road import RollingRoad, road
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


class RoadTable(RollOffPole, TableScenario):
    """Vehicles placed by the test; the rolling road on a 900 x 1200 table."""

    id = "road-table"
    page = 137

    def __init__(self) -> None:
        self.road = RollingRoad()

    def install(self, game: Game) -> None:
        self.road.install(game, "scenario:road-table")

    def setup(self, game: Game) -> Flow:
        game.state.pole = self.roll_off(game)
        road(game.state)
        yield from ()

    def gear_phase_start(self, game: Game) -> Flow:
        yield from self.road.gear_phase_start(game)

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        self.road.end_of_gear_phase(game)
        self.pass_pole_clockwise(game)
        return None

    def check_end(self, game: Game) -> None:
        return None


def road_game(*vehicles: VehicleState, obstacles: tuple[Obstacle, ...] = (),
              dice: list[int], max_rounds: int = 6) -> Game:
    sc = RoadTable()
    st = GameState(sc.width, sc.height, 2)
    for v in vehicles:
        st.vehicles[v.id] = v
    for o in obstacles:
        st.obstacles[o.id] = o
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=max_rounds))
