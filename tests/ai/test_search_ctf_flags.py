"""Capture the Flag (Refuelled p.131): the search bot keeps its flags, as the heuristic bot does.

A flag set down goes to the first vehicle that touches it. Searched, rollouts 40 decisions
deep valued setting one's own flag down about as keeping it, so the noise chose; the scenario
now leaves that decision to the rollout policy (``search_leaves``). Seed 87 is a lost game of
the bot table where the search, in seat 2, set its flag down in round 1.
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
from carnage.games.refuelled.scenarios.common.tokens import KEEP
from carnage.kernel.decisions import Decision

SEED = 87


def _to_first_flag_choice(search: SearchBot) -> tuple[Game, Decision, random.Random]:
    """Seed 87 as the bot table plays it (the heuristic bot in seat 1, the search bot in
    seat 2) up to seat 2's first choice whether to set its flag down."""
    rs = registry.get_ruleset("refuelled")
    game = rs.new_game(scenario="capture-the-flag", seed=SEED)
    heuristic, rng = HeuristicBot(), bot_rng(SEED)
    while (d := game.pending()) is not None:
        if d.kind == "token_drop" and d.player == 1:
            assert isinstance(game, Game)
            return game, d, rng
        game.apply((search if d.player == 1 else heuristic).choose(game, d, rng))
    raise AssertionError("seat 2 never chose whether to set its flag down")


def _bot() -> SearchBot:
    return SearchBot("normal", seconds=None, seed=SEED,
                     adapter=registry.get_ruleset("refuelled").search)


def test_the_search_bot_keeps_its_flag_without_searching() -> None:
    bot = _bot()
    game, d, rng = _to_first_flag_choice(bot)
    assert game.state.round == 1
    assert any(str(o.value) != KEEP for o in d.options)
    before = len(bot.explanations)
    assert bot.choose(game, d, rng) == KEEP
    # Nothing was searched: no explanation weighs setting it down.
    assert all(len(e.candidates) <= 1 for e in bot.explanations[before:])


def test_searched_the_same_choice_set_the_flag_down(monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: with the decision searched, the same bot on the same seed sets it down.
    monkeypatch.setattr(CaptureTheFlag, "search_leaves", frozenset())
    bot = _bot()
    game, d, rng = _to_first_flag_choice(bot)
    chosen = bot.choose(game, d, rng)
    assert chosen != KEEP and str(chosen).startswith("down:")
    assert bot.last is not None and len(bot.last.candidates) > 1
