"""Campaign store benchmark: post-game sequences per second on SQLite (WAL, synchronous=FULL)
and, when one can be started, on a throwaway PostgreSQL server; and the time to read a long
campaign back and derive its standings.

    .venv/bin/python benchmarks/campaign.py [--games 200]

Each post-game sequence is what a four-team Championship Season writes after a game: the
result, four points records and four allowance records, in one transaction.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from carnage.campaign.store import CampaignStore  # noqa: E402
from carnage.games.refuelled.campaign import seasons  # noqa: E402
from carnage.team import load_team  # noqa: E402


def run(url: str, label: str, n: int) -> None:
    store = CampaignStore(url)
    opts = seasons.season_options("escalating", championship=True)
    team = load_team(ROOT / "examples" / "teams" / "intro.yaml")
    recs = [r for s in range(4) for r in seasons.join_records(
        opts, s, team.model_copy(update={"name": f"T{s}"}), 0)]
    cid = store.create("escalating", opts, recs)
    t0 = time.perf_counter()
    for i in range(n):
        c = store.get(cid)
        order = [[(i + k) % 4] for k in range(4)]
        store.append(cid, c.version, seasons.post_game_records(
            c, f"g{i}", "street-race", i, order, "", 3))
    dt = time.perf_counter() - t0
    t1 = time.perf_counter()
    rows = seasons.standings(store.get(cid))
    read = time.perf_counter() - t1
    print(f"{label:>10}: {n} post-game sequences (read + append) in {dt:.2f} s = "
          f"{n / dt:.0f}/s; read {n * 9 + 8} records and derive standings in "
          f"{read * 1000:.0f} ms (leader {rows[0].name}, {rows[0].cp} CP)")
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    n = ap.parse_args().games
    with tempfile.TemporaryDirectory() as d:
        run(f"sqlite:///{d}/bench.db", "SQLite", n)
    from tests.campaign.pg import NoPostgres, start_server

    try:
        server = start_server()
    except NoPostgres as e:
        print(f"PostgreSQL: not measured ({e})")
        return
    try:
        run(server.fresh_database("bench"), "PostgreSQL", n)
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


if __name__ == "__main__":
    main()
