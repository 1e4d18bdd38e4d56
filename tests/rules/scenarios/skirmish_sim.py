"""Seeded whole games of one scenario for the simulation tests: the state invariants after
every choice, clone and snapshot spot checks, and an exact replay from the saved log."""

from __future__ import annotations

from typing import Any

from tests.simulation import play_checked

from carnage.rulesets.setup import GameSetup


def play_one(scenario: str, seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool, players: int = 2) -> dict[str, Any]:
    """One seeded game between ``bots``; what happened, for the test to judge."""
    setup = GameSetup(scenario=scenario, players=players, max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=40, copies_most=1,
                     check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    g = c.game
    return c.result(seed=seed, bots=bots, copies=c.copies_checked,
                    report={r.key: r.value for r in g.scenario.report(g)})


