"""Bots by name for any ruleset: its own, else the search bot, else a clear error."""

from __future__ import annotations

import pytest

from carnage.ai import make_bot_for
from carnage.ai.search import SearchBot
from carnage.rulesets import RULESETS


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_gets_its_own_bots_and_the_search_bot(name: str) -> None:
    ruleset = RULESETS[name]
    for own in ruleset.bots:
        assert make_bot_for(ruleset, own) is not None
    assert isinstance(make_bot_for(RULESETS["refuelled"], "search:easy"), SearchBot)
    with pytest.raises(ValueError, match=r"unknown bot 'croquet'.*search:hard"):
        make_bot_for(ruleset, "croquet")
