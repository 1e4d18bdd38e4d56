"""The web table's bots inline or in the bot pool (web/botpool.py): how long a human waits for
the answer to a choice, how long the bot's move takes to arrive, and how long another table's
view takes to draw meanwhile.

    .venv/bin/python benchmarks/botpool.py [--bot search:hard] [--decisions 10] [--workers 2]
        [--scenario street-race] [--seed 5]

Two sessions on one SQLite file: game A, a human against ``--bot``, where the human answers
its first option ``--decisions`` times (each time waiting for the bot's move); game B, another
table, whose view is drawn again and again (its cache dropped) on a thread of its own while A
plays. Run once inline (the bots in the request's thread, holding the interpreter) and once
with ``--workers`` worker processes. Prints, for each, the human's answer time and the time
until the bot's move is applied (median, p95, max, ms), and game B's view time (median, p95,
max, ms, and how many were drawn).

Smoke run: ``nice .venv/bin/python benchmarks/botpool.py --bot heuristic --decisions 3``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from carnage.web.botpool import BotPool
from carnage.web.db import Store
from carnage.web.schemas import NewGameRequest
from carnage.web.sessions import Games


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return (f"median {statistics.median(xs) * 1000:.0f}, p95 {p95 * 1000:.0f}, "
            f"max {xs[-1] * 1000:.0f} ms")


def _first(pending: Any) -> Any:
    return pending.options[0].value if pending.options else pending.domain.low


def run(args: argparse.Namespace, pool: BotPool | None, db: Path) -> None:
    games = Games(Store(f"sqlite:///{db}"), pool)
    req = NewGameRequest.model_validate({"scenario": args.scenario, "seed": args.seed, "seats": [
        {"controller": "human"}, {"controller": args.bot}]})
    a, b = games.create(req), games.create(req)
    token = a.seats[0].token or ""
    stop = threading.Event()
    drawn: list[float] = []

    def other_table() -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            with b.lock:
                b.set_thinking(b.thinking)  # drop its cached views: draw it again
                b.view_json([0])
            drawn.append(time.perf_counter() - t0)
            time.sleep(0.01)

    def human_turn() -> Any:
        with a.lock:
            d = a.game.pending()
            return d if d is not None and d.player == 0 else None

    answered: list[float] = []
    moved: list[float] = []
    deadline = time.monotonic() + 600
    while human_turn() is None and time.monotonic() < deadline:  # the bot may begin
        time.sleep(0.005)
    watcher = threading.Thread(target=other_table, daemon=True)
    watcher.start()
    for _ in range(args.decisions):
        d = human_turn()
        if d is None:
            break
        t0 = time.perf_counter()
        a.decide(token, a.version, _first(d))
        answered.append(time.perf_counter() - t0)
        while human_turn() is None and a.game.pending() is not None:
            time.sleep(0.002)
        moved.append(time.perf_counter() - t0)
    stop.set()
    watcher.join()
    mode = "inline" if pool is None else f"pool of {pool.workers}"
    print(f"{mode:>10}: the human's answer {_ms(answered)}; the bot's move {_ms(moved)}; "
          f"another table's view {_ms(drawn)} ({len(drawn)} drawn)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="search:hard")
    ap.add_argument("--decisions", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scenario", default="street-race")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args, None, Path(tmp) / "inline.db")
        pool = BotPool(args.workers)
        pool.start(wait=True)
        try:
            run(args, pool, Path(tmp) / "pool.db")
        finally:
            pool.shutdown()


if __name__ == "__main__":
    main()
