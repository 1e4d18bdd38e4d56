"""Hidden information benchmark: what redacting a seat's view costs.

    .venv/bin/python benchmarks/hidden_info.py [--games 5] [--repeat 20]

Plays ``--games`` seeded Express Delivery games between heuristic bots to round 3 (the slips
are secrets, swapped on collisions), then times building the game view (``web/views.py``
``game_view``, its last 200 log lines) for a seat (its own slip shown, the other redacted) and
for a spectator, against the view with nothing redacted (``viewers`` holding every seat), and
the redaction of the whole log alone (``web/redact.py``). Prints medians in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from carnage.ai import bot_rng, make_bot
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import SeatControl, game_view
from carnage.web.redact import events_for

SEATS = [SeatControl(0, "heuristic"), SeatControl(1, "heuristic")]


def timed(fn: Callable[[], object], repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000.0)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    rows: dict[str, list[float]] = {"all seats": [], "one seat": [], "spectator": [],
                                    "redact whole log": []}
    events = 0
    for seed in range(args.games):
        g = build_game(GameSetup(scenario="express-delivery", players=2, max_rounds=3), seed)
        bots = [make_bot("heuristic"), make_bot("heuristic")]
        rng = bot_rng(seed)
        while (d := g.pending()) is not None and g.state.round < 3:
            g.apply(bots[d.player].choose(g, d, rng))
        events += len(g.log)
        calls: dict[str, Callable[[], object]] = {
            "all seats": lambda g=g: game_view(g, "b", SEATS, viewers=[0, 1]),
            "one seat": lambda g=g: game_view(g, "b", SEATS, 0, viewers=[0]),
            "spectator": lambda g=g: game_view(g, "b", SEATS),
            "redact whole log": lambda g=g: events_for(g, g.log.events, [0]),
        }
        for k, fn in calls.items():
            rows[k].append(timed(fn, args.repeat))
    print(f"{args.games} Express Delivery games, {events // max(1, args.games)} events each "
          "on average; median ms per call (uncached):")
    for k, v in rows.items():
        print(f"  {k:>18}: {statistics.median(v):7.2f} ms")


if __name__ == "__main__":
    main()
