"""A game loaded cold and its first view: what a server process does for a game it has not
in memory (a websocket reconnecting after its process died, a REST client's first choice on
a process just started), timed apart: the game read and restored from the store, then a
seat's first view built and serialised (the last 200 lines of its log written, the rest of
the view), best of ``--repeat``, for a game of each ruleset played by bots.

    .venv/bin/python benchmarks/first_view.py [--repeat 7] [--seed 3]

Plays one game per ruleset between bots in this process (a temporary SQLite file), then
loads each ``--repeat`` times as ``Games`` does after a process's death. Prints figures in
ms; asserts nothing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

from carnage.web.db import Store
from carnage.web.schemas import NewGameRequest, SeatRequest
from carnage.web.sessions import Games

RULESETS = ("refuelled", "kart", "legacy", "devils-run")
BOTS = {"devils-run": "random"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        games = Games(store)
        for name in RULESETS:
            bot = BOTS.get(name, "heuristic")
            s = games.create(NewGameRequest(ruleset=name, seed=args.seed, seats=[
                SeatRequest(controller=bot), SeatRequest(controller=bot)]))
            gid = s.id
            restore, first, later = [], [], []
            for _ in range(args.repeat):
                row = store.game(gid)
                assert row is not None
                t0 = time.perf_counter()
                cold = games._load(row)
                t1 = time.perf_counter()
                cold.view_json([0])
                t2 = time.perf_counter()
                cold._views.clear()  # the view built again, its log lines kept
                cold._json.clear()
                cold.view_json([0])
                t3 = time.perf_counter()
                restore.append(t1 - t0)
                first.append(t2 - t1)
                later.append(t3 - t2)
            print(f"{name:11} {len(cold.game.choices):4} choices, {len(cold.game.log.events):5} "
                  f"events: restore {min(restore) * 1e3:6.1f} ms, first view "
                  f"{min(first) * 1e3:6.1f} ms, a view again with its log written "
                  f"{min(later) * 1e3:5.1f} ms (best of {args.repeat})")
        games.close()


if __name__ == "__main__":
    main()
