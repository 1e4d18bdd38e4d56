"""Tourney scaling: games per second at 1, 2, ... workers (up to the cores), on local
processes and on Ray, with efficiency = speed-up / workers.

    .venv/bin/python benchmarks/tourney.py [--games N] [--seed S] [--max-workers K]
        [--backends local,ray] [--address HOST:PORT] [--a TEAM] [--b TEAM]

Plays the same heuristic Street Race tourney (team A ``examples/teams/intro.yaml`` against
team B ``examples/teams/idris_cult_of_speed.yaml`` unless given) with each worker count on
each backend, and prints wall-clock games/s, the speed-up over one worker of the same
backend, and the efficiency. On Ray each run starts its own local Ray (or joins
``--address``); the time to start or join Ray is printed apart and left out of games/s, but
Ray's workers importing Carnage for their first task is counted. Every run must give the
same result (it depends only on the seed): the script says so, or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from carnage.analysis.tourney import Tourney, run_tourney
from carnage.team import load_team

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--backends", default="local,ray")
    ap.add_argument("--address", default=None, help="a running Ray cluster for the Ray runs")
    ap.add_argument("--a", default=str(ROOT / "examples/teams/intro.yaml"))
    ap.add_argument("--b", default=str(ROOT / "examples/teams/idris_cult_of_speed.yaml"))
    args = ap.parse_args()
    t = Tourney(a=load_team(args.a), b=load_team(args.b), games=args.games, seed=args.seed,
                a_source=args.a, b_source=args.b)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"tourney benchmark: {args.games} heuristic street-race games per run, "
          f"{os.cpu_count()} cores on this machine (load average {load}: other work on the "
          "machine takes cores from the workers)")
    print(f"{'backend':8s} {'workers':>7s} {'games/s':>9s} {'speed-up':>9s} "
          f"{'efficiency':>10s} {'ray start s':>11s}")
    first: dict[str, Any] | None = None
    for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
        base = 0.0
        for workers in range(1, args.max_workers + 1):
            summary, run = run_tourney(
                t, workers=workers, backend=backend,
                address=args.address if backend == "ray" else None)
            gps = summary["games"] / run.playing
            base = base or gps
            speedup = gps / base
            start = f"{run.startup:11.2f}" if backend == "ray" else f"{'-':>11s}"
            print(f"{backend:8s} {workers:7d} {gps:9.2f} {speedup:9.2f} "
                  f"{speedup / workers:10.2f} {start}", flush=True)
            if first is None:
                first = summary
            elif summary != first:
                print("the result differs between runs:", json.dumps(summary)[:400])
                sys.exit(1)
    print("every run gave the same result (win/draw/loss, rounds, vehicles)")


if __name__ == "__main__":
    main()
