"""Seeded games of one scenario between bots (Arena of Death, Desert Strike, Tank Commander):
invariants after every choice, clone/snapshot spot checks, exact replay of some games."""

from __future__ import annotations

from typing import Any

from tests.copies import SpotCheck
from tests.simulation import invariant_problems

from carnage.ai import bot_rng, make_bot, play_out
from carnage.engine.game import Game
from carnage.kernel.decisions import Decision
from carnage.rulesets.setup import GameSetup, build_game, log_text, parse_log, record_game, replay


def play_one(scenario: str, seed: int, bots: tuple[str, ...], *, max_rounds: int,
             check_replay: bool = False, copies_every: int = 30) -> dict[str, Any]:
    """One seeded game; its result (seed, bots, problems, error, finished, reason, ...)."""
    setup = GameSetup(scenario=scenario, players=len(bots), max_rounds=max_rounds)
    g = build_game(setup, seed)
    problems: list[str] = []
    players = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    copies = SpotCheck(seed, players, rng, every=copies_every, invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)

    result: dict[str, Any] = {"seed": seed, "bots": bots, "problems": problems, "error": None}
    try:
        play_out(g, players, rng, after=after)
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    out = g.outcome()
    result.update(finished=out is not None, rounds=out.rounds if out else None,
                  winner=out.winner if out else None, draw=out.draw if out else None,
                  reason=g.state.reason, copies_checked=copies.checked,
                  kinds={e.kind for e in g.log})
    if check_replay:
        rec = parse_log(log_text(record_game(g, setup, seed)))
        again = replay(rec)
        result["replay_identical"] = again.identical and again.crash is None
    return result


def play_chunk(chunk: list[tuple[str, int, tuple[str, ...], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(sc, seed, bots, max_rounds=mr, check_replay=rep)
            for sc, seed, bots, mr, rep in chunk]
