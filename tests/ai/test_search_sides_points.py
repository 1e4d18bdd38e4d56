"""The search bot's value of a Refuelled position counts what the scenario is won by and who
is on whose side: a point of the scenario's ranking tally (Victory Points, zombies, kills)
scored is worth more than none, and in a team game (p.123) a win of one's side is one's own
win and an ally's lead is no rival's lead."""

from __future__ import annotations

import random

from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game


def _to_first_move(setup: GameSetup, seed: int) -> Game:
    """A seeded game played by the heuristic bot up to its first movement decision."""
    g = build_game(setup, seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    while (d := g.pending()) is not None and d.kind != "template":
        g.apply(bot.choose(g, d, rng))
    assert g.pending() is not None
    return g


def test_a_point_of_the_scenarios_tally_scored_raises_the_scorers_value() -> None:
    g = _to_first_move(GameSetup(scenario="zombie-bash"), 3)
    tally = g.scenario.score_tallies[0][0]
    ad = RefuelledAdapter(2)
    before = ad.values(g)
    score.add(g, tally, 1, player=0, source="test", page=None)
    after = ad.values(g)
    # the zombie collected is what wins Zombie Bash: the scorer's value rises, the other's falls
    assert after[0] > before[0] + 0.05
    assert after[1] < before[1] - 0.05
    # and the other seat's point counts for the other seat
    g2 = _to_first_move(GameSetup(scenario="zombie-bash"), 3)
    score.add(g2, tally, 1, player=1, source="test", page=None)
    assert ad.values(g2)[1] > before[1] + 0.05


def test_a_scenario_without_a_tally_is_valued_as_before() -> None:
    g = _to_first_move(GameSetup(scenario="street-race"), 3)
    assert RefuelledAdapter(2)._points(g) == [0.0, 0.0]


def _team_game() -> Game:
    return _to_first_move(GameSetup(scenario="arena-of-death", players=4,
                                    sides=((0, 2), (1, 3))), 5)


def test_in_a_team_game_the_sides_win_is_every_allys_win() -> None:
    g = _team_game()
    g.finish(0, "last team with vehicles in play")  # a side's win names its first seat
    assert RefuelledAdapter(4).values(g) == [1.0, 0.0, 1.0, 0.0]


def test_in_a_team_game_allies_share_one_value_and_are_not_rivals() -> None:
    g = _team_game()
    values = RefuelledAdapter(4).values(g)
    assert values[0] == values[2] and values[1] == values[3]
    # two sides: one side's lead is the other's deficit
    assert abs(values[0] + values[1] - 1.0) < 1e-9
