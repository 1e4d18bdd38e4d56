"""The table's log: how long writing every line of a long game takes (plain words and dice),
cold and from the session's cache, and the whole-log endpoint as a client sees it.

    .venv/bin/python benchmarks/table_log.py [--games 5] [--seed 1]

Plays ``--games`` Street Races between heuristic bots in this process, then times
``views.log_lines`` over every event of each (no cache, then with the cache a live session
keeps), and ``GET /api/games/{id}/log`` through the app (in-process test client, a temporary
SQLite file). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import warnings
from pathlib import Path

from carnage.ai import make_bot
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import log_lines
from carnage.render.table_schemas import LogLine
from carnage.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

MAX_CHOICES = 5000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cold, warm, sizes = [], [], []
    for i in range(args.games):
        g = build_game(GameSetup(), args.seed + i)
        bot, rng = make_bot("heuristic"), random.Random(args.seed + i)
        for _ in range(MAX_CHOICES):
            d = g.pending()
            if d is None:
                break
            g.apply(bot.choose(g, d, rng))
        events = g.log.events
        cache: dict[int, LogLine] = {}
        t0 = time.perf_counter()
        log_lines(g, events, cache)
        t1 = time.perf_counter()
        log_lines(g, events, cache)
        t2 = time.perf_counter()
        cold.append((t1 - t0) / len(events))
        warm.append((t2 - t1) / len(events))
        sizes.append(len(events))
    print(f"log lines per game: median {statistics.median(sizes):.0f} (max {max(sizes)})")
    print(f"writing a line (plain words, dice): {statistics.median(cold) * 1e6:.1f} us cold, "
          f"{statistics.median(warm) * 1e6:.2f} us from the cache")
    with tempfile.TemporaryDirectory() as tmp:
        client = TestClient(create_app(f"sqlite:///{Path(tmp) / 'bench.db'}"))
        times, counts = [], []
        for i in range(args.games):
            gid = client.post("/api/games", json={"seed": args.seed + i, "seats": [
                {"controller": "heuristic"}, {"controller": "heuristic"}]}).json()["id"]
            for _ in range(3):
                t0 = time.perf_counter()
                lines = client.get(f"/api/games/{gid}/log").json()
                times.append(time.perf_counter() - t0)
            counts.append(len(lines))
        print(f"GET /api/games/{{id}}/log: median {statistics.median(times) * 1e3:.1f} ms for "
              f"{statistics.median(counts):.0f} lines (max {max(times) * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
