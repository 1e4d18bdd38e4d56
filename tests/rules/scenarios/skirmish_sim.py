"""Seeded whole games of one scenario for the simulation tests: the state invariants after
every choice, clone and snapshot spot checks, and an exact replay from the saved log."""

from __future__ import annotations

from typing import Any

from tests.copies import SpotCheck
from tests.simulation import invariant_problems

from carnage.ai import bot_rng, make_bot, play_out
from carnage.engine.game import Game
from carnage.kernel.decisions import Decision
from carnage.rulesets.setup import GameSetup, build_game, log_text, parse_log, record_game, replay


def play_one(scenario: str, seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool, players: int = 2) -> dict[str, Any]:
    """One seeded game between ``bots``; what happened, for the test to judge."""
    setup = GameSetup(scenario=scenario, players=players, max_rounds=max_rounds)
    g = build_game(setup, seed)
    problems: list[str] = []
    seats = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    copies = SpotCheck(seed, seats, rng, every=40, most=1, invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)

    result: dict[str, Any] = {"seed": seed, "bots": bots, "problems": problems, "error": None}
    try:
        play_out(g, seats, rng, after=after)
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    out = g.outcome()
    result.update(finished=out is not None, rounds=out.rounds if out else None,
                  winner=out.winner if out else None, draw=out.draw if out else None,
                  reason=out.reason if out else "", copies=copies.checked,
                  report={r.key: r.value for r in g.scenario.report(g)},
                  kinds=sorted({e.kind for e in g.log}))
    if check_replay:
        again = replay(parse_log(log_text(record_game(g, setup, seed))))
        result["replay_identical"] = again.identical and again.crash is None
    return result
