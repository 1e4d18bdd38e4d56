"""Server CPU per human choice: where a Street Race's choices spend it on two processes.

    .venv/bin/python benchmarks/choice_cpu.py [--choices 150] [--seed 7] [--db URL]

Two ``Games`` on one database stand for two server processes (a throwaway PostgreSQL from
``tests/campaign/pg.py`` unless ``--db`` names one). Tables of one human seat against the
heuristic bot are played as ``benchmarks/load.py``'s round-robin REST table plays them: the
human's view is read on one process (``GET``: the version read, a reload when the other
process moved the game, the view), the choice is sent there (``POST``: ``act`` and the
answer's view), the bots' batch is applied where it was scheduled (``apply_bot``; the bots'
thinking itself is done beforehand and not counted), and the next read goes to the other
process. The figures are thread CPU time, so they hold on a busy machine better than wall
time does (not perfectly: a loaded machine's caches are colder); compare trees back to back
(``PYTHONPATH=...``). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib.util
import inspect
import json
import random
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PARTS = (("carnage.web.sessions", "GameSession", "_reload", "reload (other process moved it)"),
         ("carnage.web.sessions", "GameSession", "_caught_up",
          "catch up (choices other process saved)"),
         ("carnage.web.sessions", "GameSession", "view", "view"),
         ("carnage.web.sessions", "GameSession", "automatic", "the table's own answers"),
         ("carnage.web.db", "Store", "save_progress", "database: save"),
         ("carnage.web.db", "Store", "version", "database: version read"),
         ("carnage.web.db", "Store", "progress", "database: version (+choices) read"),
         ("carnage.web.db", "Store", "game", "database: game read"),
         ("carnage.web.db", "Store", "snapshot", "database: snapshot read"))
"""Parts timed inside the three steps (module, class, method, label); nested, not summed. A
part the tree measured has not (an older tree) is left out."""


def play(url: str, choices: int, seed: int) -> None:
    from carnage.web.botpool import BotJob, BotPool, think
    from carnage.web.db import Store
    from carnage.web.schemas import NewGameRequest
    from carnage.web.seated import SeatedSession
    from carnage.web.sessions import Games

    class Held(BotPool):
        """A pool that keeps its jobs for this script to answer (no worker process)."""

        def __init__(self) -> None:
            super().__init__(1)
            self.jobs: list[tuple[SeatedSession, BotJob]] = []

        def _send(self, session: SeatedSession, job: BotJob, resubmits: int) -> None:
            self.jobs.append((session, job))

    cpu: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()

    def timed(label: str, f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def run(*a: Any, **k: Any) -> Any:
            t0 = time.thread_time()
            try:
                return f(*a, **k)
            finally:
                cpu[label] += time.thread_time() - t0
                calls[label] += 1
        return run

    def measure(label: str, f: Callable[..., Any], *a: Any) -> Any:
        return timed(label, f)(*a)

    def batch(pool: Any, session: SeatedSession, job: BotJob, answer: dict[str, Any]) -> None:
        session.apply_bot(job.version, job.seat, answer["choice"], answer.get("note"),
                          then=answer.get("then") or ())
        pool.schedule(session)

    def read(games: Games, gid: str, token: str) -> bytes:
        g = games.get(gid)
        return g.view_json(g.seats_for(token))

    def decide(games: Games, gid: str, token: str, version: int, choice: Any) -> bytes:
        g = games.get(gid, sync=False) if spares_read else games.get(gid)
        return g.decide_json(token, version, choice)

    parts = [p for p in PARTS if hasattr(getattr(sys.modules[p[0]], p[1]), p[2])]
    for module, cls, name, label in parts:
        owner = getattr(sys.modules[module], cls)
        setattr(owner, name, timed("  " + label, getattr(owner, name)))
    procs = [(Games(Store(url), pool), pool) for pool in (Held(), Held())]
    spares_read = "sync" in inspect.signature(Games.get).parameters
    rng = random.Random(seed)
    done, p = 0, 0
    while done < choices:
        games = procs[p][0]
        s = games.create(NewGameRequest.model_validate({
            "scenario": "street-race", "seed": rng.randrange(1, 2**31),
            "seats": [{"controller": "human"}, {"controller": "heuristic"}]}))
        gid, token = s.id, s.seats[0].token or ""
        while done < choices:
            games = procs[p][0]
            for _, pool in procs:
                while pool.jobs:
                    session, job = pool.jobs.pop()
                    measure("bots' batch applied", batch, pool, session, job, think(job))
            view = json.loads(measure("read the view (GET)", read, games, gid, token))
            pending = view["pending"]
            if pending is None:
                break
            if pending["seat"] != 0:
                continue
            options = pending.get("options")
            choice = rng.choice(options)["value"] if options else round(rng.uniform(
                float(pending["domain"]["low"]), float(pending["domain"]["high"])), 2)
            measure("send the choice (POST)", decide, games, gid, token, int(view["version"]),
                    choice)
            done += 1
            p = 1 - p
    steps = ("read the view (GET)", "send the choice (POST)", "bots' batch applied")
    for k in steps + tuple("  " + x[3] for x in parts):
        print(f"  {k:36s} {1e3 * cpu[k] / choices:6.2f} ms CPU per human choice "
              f"({calls[k]} calls)")
    total = sum(cpu[k] for k in steps)
    print(f"  {'total':36s} {1e3 * total / choices:6.2f} ms CPU per human choice "
          f"({choices} choices)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--choices", type=int, default=150, help="human choices (default 150)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--db", default="", help="a database URL (default: a throwaway "
                                             "PostgreSQL)")
    args = ap.parse_args(argv)
    if args.choices < 1:
        ap.error("--choices: at least 1")
    if args.db:
        play(args.db, args.choices, args.seed)
        return 0
    spec = importlib.util.spec_from_file_location("carnage_bench_pg",
                                                  ROOT / "tests" / "campaign" / "pg.py")
    if spec is None or spec.loader is None:
        raise SystemExit("cannot import tests/campaign/pg.py")
    pg = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = pg
    spec.loader.exec_module(pg)
    server = pg.start_server()
    try:
        url = server.fresh_database("carnage_choice_cpu").replace(
            "postgresql://", "postgresql+psycopg://")
        load = Path("/proc/loadavg").read_text().split()[0]
        print(f"choice CPU: {args.choices} human choices, seed {args.seed}, PostgreSQL on "
              f"port {server.port}, load average {load}")
        play(url, args.choices, args.seed)
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
