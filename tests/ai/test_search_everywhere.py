"""The search bot plays every scenario of every ruleset through the generic decision API
(a tiny budget: the point is legality, not strength)."""

from __future__ import annotations

import random

import pytest

import carnage
from carnage.ai.search import SearchBot
from carnage.rulesets import RULESETS

CASES = [(name, sid) for name in RULESETS for sid in sorted(RULESETS[name].scenarios)]
DECISIONS = 60
"""Decisions played per game (from the set-up into play)."""


def new_game(ruleset: str, scenario: str, seed: int):
    try:
        return carnage.new_game(ruleset=ruleset, scenario=scenario, seed=seed, max_rounds=2)
    except ValueError:  # a ruleset without a round limit option (Devil's Run)
        return carnage.new_game(ruleset=ruleset, scenario=scenario, seed=seed)


@pytest.mark.parametrize(("ruleset", "scenario"), CASES, ids=[f"{r}:{s}" for r, s in CASES])
def test_search_bot_plays_legal_choices_in_every_scenario(ruleset, scenario):
    g = new_game(ruleset, scenario, seed=2)
    bots = {}
    rng = random.Random(0)
    searched = 0
    for _ in range(DECISIONS):
        d = g.pending()
        if d is None:
            break
        bot = bots.setdefault(d.player, SearchBot("easy", seed=d.player, iterations=1,
                                                  seconds=None, horizon=1))
        choice = bot.choose(g, d, rng)
        assert d.validate(choice) == choice  # legal, in canonical form
        e = bot.last
        assert e is not None and e.failed == 0, f"{d.kind}: a simulation raised"
        searched += e.iterations > 0
        g.apply(choice)
    assert searched > 0, "some decision was searched"
