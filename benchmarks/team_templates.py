"""Team templates benchmark: what a seat's own movement templates cost in play.

    .venv/bin/python benchmarks/team_templates.py [--games N] [--seed S]

Plays ``N`` seeded heuristic-vs-heuristic Street Races twice with the same two teams: once
with the standard templates, once with seat 1 owning a changed set (Gaslands: Legacy: new
Shift icons, new slide exit points, a combined template and our Doughnut). Prints games per
second of CPU time for each (best of three over the same seeds), and the median and p95 time of
offering one template decision (``template_options``) with and without the team set.
"""

from __future__ import annotations

import argparse
import statistics
import time

from carnage.ai import bot_rng
from carnage.games.legacy.templates import (
    add_exit,
    add_shift,
    combine,
    cross_out_hazard,
    standard_set,
    with_doughnut,
)
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.movement import template_options
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.team.io import parse_team

TEAM = {"name": "Rust Bucket", "cans": 50,
        "vehicles": [{"name": "Rust", "type": "car", "weapons": [{"id": "machine_gun",
                                                                  "facing": "front"}]},
                     {"name": "Bucket", "type": "buggy"}]}
CHANGED = with_doughnut(combine(cross_out_hazard(add_exit(add_shift(
    standard_set(), "turn", 2), "medium_straight", "left", 60), "hard", 3), "gentle", "swerve"))


def setups() -> dict[str, GameSetup]:
    plain = parse_team(TEAM, "plain")
    own = parse_team({**TEAM, "templates": CHANGED.to_json()}, "own")
    return {"standard": GameSetup(teams=(plain, plain)),
            "team set": GameSetup(teams=(own, plain))}


def games_per_second(setup: GameSetup, games: int, seed: int) -> tuple[float, list[float]]:
    best = 0.0
    offers: list[float] = []
    for _ in range(3):
        start = time.process_time()
        for s in range(seed, seed + games):
            g = build_game(setup, s)
            bots = [HeuristicBot(), HeuristicBot()]
            rng = bot_rng(s)
            while (d := g.pending()) is not None:
                if d.kind == "template" and d.vehicle is not None:
                    v = g.state.vehicles[d.vehicle]
                    t0 = time.process_time()
                    template_options(g, v, permitted_only=False)
                    offers.append(time.process_time() - t0)
                g.apply(bots[d.player].choose(g, d, rng))
        best = max(best, games / (time.process_time() - start))
    return best, offers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for name, setup in setups().items():
        build_game(setup, 999)  # warm up team reports and template sets
        rate, offers = games_per_second(setup, args.games, args.seed)
        offers.sort()
        p95 = offers[int(0.95 * (len(offers) - 1))] if offers else 0.0
        print(f"{name:>9}: {rate:7.1f} Street Races/s; template offer median "
              f"{1000 * statistics.median(offers):.3f} ms, p95 {1000 * p95:.3f} ms "
              f"({len(offers)} offers)")


if __name__ == "__main__":
    main()
