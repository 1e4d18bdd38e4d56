"""The search bot's own choice of deployment side (DR-013) in Devil's Run: in The Devil's Run
it takes the numbered squares, further up the road on the first tile; in Hell on Wheels the
lettered ones; the other seat is still modelled by the plain heuristic bot."""

from __future__ import annotations

import random

import pytest

from carnage.ai.search import SearchBot
from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.search import DevilsRunAdapter
from carnage.kernel.decisions import Decision
from carnage.rulesets import get_ruleset


def _side_decision(mission: str) -> tuple[DevilsRunGame, Decision]:
    g = get_ruleset("devils-run").new_game(scenario=mission, seed=0)
    assert isinstance(g, DevilsRunGame)
    d = g.pending()
    assert d is not None and d.kind == "deploy_side"
    assert [o.value for o in d.options] == ["letters", "numbers"]
    return g, d


@pytest.mark.parametrize(("mission", "side"),
                         [("devils-run", "numbers"), ("hell-on-wheels", "letters")])
def test_its_own_seat_deploys_on_the_side_measured_best(mission: str, side: str) -> None:
    g, d = _side_decision(mission)
    ad = DevilsRunAdapter()
    ad.me = d.player
    assert ad.policy(g, d, random.Random(0)) == side
    assert ad.ordered(g, d, random.Random(0))[0][0] == side  # the pick the search starts from


def test_the_other_seat_is_modelled_by_the_plain_heuristic_bot() -> None:
    g, d = _side_decision("devils-run")
    ad = DevilsRunAdapter()
    ad.me = 1 - d.player
    assert ad.policy(g, d, random.Random(0)) == heuristic_bot(g, d, random.Random(0)) \
        == "letters"


def test_the_numbered_squares_lie_further_up_the_road() -> None:
    g, _ = _side_decision("devils-run")
    rows: dict[str, list[int]] = {}
    for p, side in ((0, "letters"), (1, "numbers")):
        g.state.sides = {str(p): side, str(1 - p): "letters" if side == "numbers" else "numbers"}
        rows[side] = [sq[1] for sq in g._deploy_squares(p).values()]
    assert sum(rows["numbers"]) > sum(rows["letters"])


def test_the_search_bot_deploys_on_numbers_when_it_wins_the_roll_off() -> None:
    g, d = _side_decision("devils-run")
    bot = SearchBot("normal", seconds=None, seed=9)  # this seed's search kept letters before
    assert bot.choose(g, d, random.Random(0)) == "numbers"
