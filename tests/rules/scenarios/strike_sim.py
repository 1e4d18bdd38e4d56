"""Seeded games of one scenario between bots (Arena of Death, Desert Strike, Tank Commander):
invariants after every choice, clone/snapshot spot checks, exact replay of some games."""

from __future__ import annotations

from typing import Any

from tests.simulation import play_checked

from carnage.rulesets.setup import GameSetup


def play_one(scenario: str, seed: int, bots: tuple[str, ...], *, max_rounds: int,
             check_replay: bool = False, copies_every: int = 30) -> dict[str, Any]:
    """One seeded game; its result (seed, bots, problems, error, finished, reason, ...)."""
    setup = GameSetup(scenario=scenario, players=len(bots), max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=copies_every, check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    return c.result(seed=seed, bots=bots, reason=c.game.state.reason)


def play_chunk(chunk: list[tuple[str, int, tuple[str, ...], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(sc, seed, bots, max_rounds=mr, check_replay=rep)
            for sc, seed, bots, mr, rep in chunk]
