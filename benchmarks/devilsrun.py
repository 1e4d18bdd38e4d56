"""Devil's Run speed: bot games per second, decisions per second, clone and snapshot cost."""

from __future__ import annotations

import json
import random
import time

from carnage.games.devilsrun.bots import bot, play_out
from carnage.games.devilsrun.game import restore
from carnage.games.devilsrun.missions import DEVILS_RUN


def main() -> None:
    for mission in ("devils-run", "hell-on-wheels"):
        for names in (("random", "random"), ("heuristic", "random"), ("heuristic", "heuristic")):
            games, choices = 100, 0
            t = time.perf_counter()
            for seed in range(games):
                g = DEVILS_RUN.new_game(mission, seed=seed)
                play_out(g, [bot(names[0]), bot(names[1])], random.Random(seed))
                choices += len(g.choices)
            dt = time.perf_counter() - t
            print(f"{mission:15s} {names[0]:>9s} v {names[1]:9s} {games / dt:8.1f} games/s "
                  f"{choices / dt:9.0f} decisions/s")
    g = DEVILS_RUN.new_game("hell-on-wheels", seed=1)
    rng = random.Random(1)
    for _ in range(60):
        d = g.pending()
        if d is None:
            break
        g.apply(bot("heuristic")(g, d, rng))
    n = 1000
    t = time.perf_counter()
    for _ in range(n):
        g.clone()
    clone_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n // 10):
        restore(json.loads(json.dumps(g.snapshot())))
    snap_us = (time.perf_counter() - t) / (n // 10) * 1e6
    print(f"clone {clone_us:.0f} us, snapshot + JSON + restore {snap_us:.0f} us "
          f"(after {len(g.choices)} choices)")


if __name__ == "__main__":
    main()
