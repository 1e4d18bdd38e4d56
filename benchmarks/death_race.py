"""Death Race speed: track generation, bot races per second (2 and 4 players), how the
heuristic races end, and the cost of judging gates along a move."""

from __future__ import annotations

import random
import time
from collections import Counter

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.scenarios.gates import Track, gate_at, passes_along
from carnage.games.refuelled.scenarios.race_tracks import SHAPES, generate
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import Pose


def main() -> None:
    for shape in SHAPES:
        n = 200
        t = time.perf_counter()
        for seed in range(n):
            generate(random.Random(seed), 1200, 1200, grid_width=200, grid_depth=180,
                     shape=shape)
        print(f"track {shape:16s} {(time.perf_counter() - t) / n * 1e3:7.2f} ms each")
    track = Track(tuple(gate_at(i, (600.0, 200.0 + 250.0 * i), 90.0) for i in range(4)),
                  loop=False)
    for what, y0 in (("passing nothing", 100.0), ("through Gate 1", 300.0)):
        path = [Pose(600.0, y0 + 3.0 * i, 90.0) for i in range(49)]
        n = 2000
        t = time.perf_counter()
        for _ in range(n):
            passes_along(track, 0, path, 60.0, 30.0)
        us = (time.perf_counter() - t) / n * 1e6
        print(f"judging a 49-pose move {what:16s} {us:6.0f} us")
    for players, names in ((2, ("random",)), (2, ("heuristic",)), (4, ("heuristic",))):
        games, choices, ends = 20, 0, Counter()
        t = time.perf_counter()
        for seed in range(games):
            g = build_game(GameSetup(scenario="death-race", players=players, max_rounds=30),
                           seed)
            play_out(g, [make_bot(names[p % len(names)]) for p in range(players)],
                     bot_rng(seed))
            choices += len(g.choices)
            out = g.outcome()
            ends["finish" if out and "finish line" in out.reason else
                 "last standing" if out and "last" in out.reason else "round cap"] += 1
        dt = time.perf_counter() - t
        print(f"{players} x {names[0]:9s} {games / dt:6.2f} games/s {choices / dt:7.0f} "
              f"decisions/s  ends: {dict(ends)}")


if __name__ == "__main__":
    main()
