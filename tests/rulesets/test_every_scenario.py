"""Every (ruleset, scenario) pair of the registry: a couple of short seeded bot games end,
replay identically from their logs, and say how they ended.

One parametrised test in place of a hand-copied one per scenario: a scenario added to any
ruleset is played here without a line of test written for it. Games are capped at a couple of
rounds where the ruleset lets the players choose (``tests/rulesets/helpers.py``), so the whole
set stays short; the scenarios' own simulation tests (tests/games/...) play longer games and
check their own endings and invariants.
"""

from __future__ import annotations

import pytest
from tests.rulesets.helpers import short_games

from carnage.ai import bot_rng, bots_for, play_out
from carnage.rulesets import RULESETS

PAIRS = [(rs.name, info.id) for rs in RULESETS.values() for info in rs.scenario_infos()]
SEEDS = (1, 2)
ROUNDS = 2


def test_every_ruleset_has_scenarios_to_play() -> None:
    assert {name for name, _ in PAIRS} == set(RULESETS)


@pytest.mark.parametrize(("ruleset", "scenario"), PAIRS, ids=[f"{r}:{s}" for r, s in PAIRS])
def test_short_bot_games_end_and_replay_from_their_logs(
        ruleset: str, scenario: str, record_property: pytest.RecordProperty) -> None:
    rs = RULESETS[ruleset]
    maker = short_games(rs, scenario, ROUNDS)
    assert rs.replay_log is not None
    reasons = []
    for seed in SEEDS:
        game = maker.new_game(seed)
        seats = ["heuristic"] + ["random"] * (maker.players - 1)
        play_out(game, bots_for(rs, seats), bot_rng(seed))
        out = game.outcome()
        assert game.pending() is None and out is not None, f"seed {seed}: not finished"
        again = rs.replay_log(maker.log_text(game, seed), f"{ruleset}:{scenario}:{seed}")
        assert again.crash is None, again.crash
        assert again.identical, f"seed {seed}: replay differs at {again.difference}"
        assert again.choices == len(game.choices) and again.events == len(game.log.events)
        assert again.game.outcome() == out
        reason = maker.end_reason(game)
        assert reason and reason == maker.end_reason(again.game)
        reasons.append(reason)
    record_property("end_reasons", "; ".join(reasons))
    print(f"{ruleset}:{scenario}: {'; '.join(reasons)}")
