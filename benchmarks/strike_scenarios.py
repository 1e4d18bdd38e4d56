"""Arena of Death, Desert Strike and Tank Commander: CPU seconds per heuristic-vs-heuristic game.

    .venv/bin/python benchmarks/strike_scenarios.py [--games N] [--seed S]

For each scenario plays ``N`` seeded two-player games (seeds S, S+1, ...) between heuristic bots
in this process and prints the CPU seconds per game, how the time splits between set-up
(spawn points, turrets, flags, clouds: every decision before the first activation), the rest of
the engine (``apply``) and the bots (``choose``), the mean rounds, and how the games ended
(the scenario's own reasons). Times are this process's CPU time, so other work on a shared
machine does not count against it.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter

from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.setup import GameSetup, build_game

SCENARIOS = ("arena-of-death", "desert-strike", "tank-commander")


def reason_kind(reason: str) -> str:
    """A game's end reason without its numbers and names (for counting)."""
    return re.sub(r"\d+", "N", reason.split(":")[0]).strip()


def bench(scenario: str, games: int, seed: int) -> None:
    setup_t = engine = bots = 0.0
    rounds = 0
    ends: Counter[str] = Counter()
    start = time.process_time()
    for s in range(seed, seed + games):
        g = build_game(GameSetup(scenario=scenario, players=2), s)
        players = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(s)
        while (d := g.pending()) is not None:
            t0 = time.process_time()
            c = players[d.player].choose(g, d, rng)
            t1 = time.process_time()
            in_setup = g.state.round == 0
            g.apply(c)
            t2 = time.process_time()
            bots += t1 - t0
            if in_setup:
                setup_t += t2 - t1
            else:
                engine += t2 - t1
        rounds += g.state.round
        ends[reason_kind(g.state.reason)] += 1
    total = time.process_time() - start
    print(f"{scenario}: {total / games:.2f} s/game (set-up {setup_t / games:.2f}, engine "
          f"{engine / games:.2f}, bots {bots / games:.2f}), {rounds / games:.1f} rounds; "
          + ", ".join(f"{k} x{n}" for k, n in ends.most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for sc in SCENARIOS:
        bench(sc, args.games, args.seed)


if __name__ == "__main__":
    main()
