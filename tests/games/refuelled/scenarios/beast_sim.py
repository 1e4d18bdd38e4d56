"""Seeded whole games of a beast scenario (Big Game Hunter, Truckasaurus): invariants after
every choice, exact replay from the choices, clone/snapshot spot checks."""

from __future__ import annotations

import random
from typing import Any

from tests.copies import copies_diverge
from tests.simulation import invariant_problems

from carnage.games.refuelled.ai.bots import HeuristicBot, RandomBot
from carnage.games.refuelled.setup import GameSetup, build_game


def play(scenario: str, seed: int, bot: str, players: int = 2,
         max_rounds: int = 8, copy_at: int | None = None) -> dict[str, Any]:
    setup = GameSetup(scenario=scenario, players=players, max_rounds=max_rounds)
    g = build_game(setup, seed)
    bots: list[Any] = [HeuristicBot() if bot == "heuristic" else RandomBot()
                       for _ in range(players)]
    rng = random.Random(seed)
    choices: list[Any] = []
    problems: list[str] = []
    diverged = None
    n = 0
    while (d := g.pending()) is not None:
        if copy_at is not None and n == copy_at:
            diverged = copies_diverge(g, bots, rng, steps=8, invariants=invariant_problems)
            if diverged:
                break
            copy_at = None
            continue
        c = bots[d.player].choose(g, d, rng)
        choices.append(c)
        g.apply(c)
        n += 1
        problems += invariant_problems(g)
        if problems:
            break
    replay = build_game(setup, seed)
    for c in g.choices:
        replay.apply(c)
    same = [e.to_json() for e in replay.log.events] == [e.to_json() for e in g.log.events]
    return {"outcome": g.outcome(), "problems": problems, "replayed": same,
            "diverged": diverged, "game": g}
