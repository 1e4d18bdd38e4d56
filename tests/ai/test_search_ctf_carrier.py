"""Capture the Flag (Refuelled p.131): the search bot gives its flag to its toughest vehicle,
as the heuristic bot does.

The flag a player starts with counts towards the two that win (ruling CTF-2), and a wrecked
carrier drops it for anyone to take, so the carrier is the vehicle the other side hunts.
Searched, rollouts 40 decisions deep could not tell a 10-Hull car from a 6-Hull buggy as
carrier and the noise chose: in 6 of 40 games of the bot table at hard the search gave its
flag to the buggy, and lost 3 of them (seed 35: the buggy, rammed head-on in round 1, was
wrecked and the rammer took the flag and won). The scenario leaves the choice to the rollout
policy (``search_leaves``).
"""

from __future__ import annotations

import random

import pytest

import carnage.rulesets as registry
from carnage.ai.search import SearchBot
from carnage.analysis.matches import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.capture_the_flag import CaptureTheFlag
from carnage.kernel.decisions import Decision

SEED = 35


def _to_flag_carrier(search: SearchBot) -> tuple[Game, Decision, random.Random]:
    """Seed 35 as the bot table plays it (the heuristic bot in seat 1, the search bot in
    seat 2) up to seat 2's choice of the vehicle that carries its flag."""
    rs = registry.get_ruleset("refuelled")
    game = rs.new_game(scenario="capture-the-flag", seed=SEED)
    heuristic, rng = HeuristicBot(), bot_rng(SEED)
    while (d := game.pending()) is not None:
        if d.kind == "flag_carrier" and d.player == 1:
            assert isinstance(game, Game)
            return game, d, rng
        game.apply((search if d.player == 1 else heuristic).choose(game, d, rng))
    raise AssertionError("seat 2 never chose its flag's carrier")


def _bot() -> SearchBot:
    return SearchBot("hard", seconds=None, seed=SEED,
                     adapter=registry.get_ruleset("refuelled").search)


def test_the_search_bot_gives_its_flag_to_its_toughest_vehicle() -> None:
    bot = _bot()
    game, d, rng = _to_flag_carrier(bot)
    hulls = {str(o.value): game.state.vehicles[str(o.value)].hull_points for o in d.options}
    assert sorted(hulls.values()) == [6, 10]
    before = len(bot.explanations)
    chosen = bot.choose(game, d, rng)
    assert hulls[str(chosen)] == 10
    # Nothing was searched: no explanation weighs the other vehicle.
    assert all(len(e.candidates) <= 1 for e in bot.explanations[before:])


def test_searched_the_same_choice_gave_the_flag_to_the_buggy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: the hard level as it played those 40 games (the choice searched, with the
    # other objective scenarios' flat search) picks the buggy on the same seed.
    monkeypatch.setattr(CaptureTheFlag, "search_leaves", frozenset({"token_drop"}))
    monkeypatch.setattr(CaptureTheFlag, "search_levels", {})
    bot = _bot()
    game, d, rng = _to_flag_carrier(bot)
    chosen = bot.choose(game, d, rng)
    assert game.state.vehicles[str(chosen)].hull_points == 6
    assert bot.last is not None and len(bot.last.candidates) > 1
