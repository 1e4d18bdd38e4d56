"""The search bot's value of a Refuelled position in a scenario won by leaving the table by its
exit edge (Express Delivery, p.137): a vehicle gone off by that edge made it, so its side is
not a vehicle down, and a side whose vehicles have all left that way is not beaten."""

from __future__ import annotations

import random

from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.express_delivery import ExpressDelivery
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game


def _express_delivery(seed: int) -> Game:
    """A seeded Express Delivery played by the heuristic bot up to its first movement."""
    g = build_game(GameSetup(scenario="express-delivery"), seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    while (d := g.pending()) is not None and d.kind != "template":
        g.apply(bot.choose(g, d, rng))
    assert g.pending() is not None
    return g


def _deliver(g: Game, player: int) -> None:
    """Every vehicle of ``player`` leaves by the exit edge, through the scenario's own exit
    (the rolling road marks it, Express Delivery scores the delivery)."""
    sc = g.scenario
    assert isinstance(sc, ExpressDelivery)
    for v in [v for v in g.state.vehicles.values() if v.player == player and v.in_play]:
        sc.road.exit(g, v)
        assert v.status is Status.EXITED


def test_a_delivery_raises_the_deliverers_value_and_costs_no_vehicle() -> None:
    g = _express_delivery(4)
    ad = RefuelledAdapter(2)
    before = ad.values(g)
    v = next(v for v in g.state.vehicles.values() if v.player == 0)
    sc = g.scenario
    assert isinstance(sc, ExpressDelivery)
    sc.road.exit(g, v)
    assert score.total(g, score.VP, 0) == 1
    after = ad.values(g)
    assert after[0] > before[0] + 0.05
    assert after[1] < before[1] - 0.05
    # the score of seat 0 keeps the exited vehicle's hull and charges no loss for it
    scores = ad.scores(g)
    assert scores[0] > -1e3


def test_a_side_whose_vehicles_all_left_by_the_exit_edge_is_not_beaten() -> None:
    g = _express_delivery(4)
    _deliver(g, 0)
    ad = RefuelledAdapter(2)
    values = ad.values(g)
    assert values[0] > 0.5 > values[1]
    # a side with nothing on the table and nothing gone by the exit edge still is
    g2 = _express_delivery(4)
    for v in g2.state.vehicles.values():
        if v.player == 0:
            v.status = Status.WRECKED
    assert ad.values(g2)[0] <= 0.05 < ad.values(g2)[1]
