"""Campaign page benchmark: what a browser waits for on `/campaigns/<id>`.

    .venv/bin/python benchmarks/campaign_web.py [--mode championship] [--teams 4]
        [--events 8] [--reads 20] [--max-rounds 4]

Builds the app in-process (FastAPI's test client, a temporary SQLite file), starts a campaign
of ``--teams`` teams, then plays ``--events`` events with bots through
``POST /api/campaigns/{id}/next`` (each plays its table game and records its post-game
sequence inside the request), timing each. After every event it times ``--reads`` reads of
``GET /api/campaigns/{id}`` (standings, schedule, rosters and the chart, which replays the
mode's standings after each game), so the figures show how a read grows with the season.
Prints one line per event and a summary; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from carnage.web.app import create_app


def team(name: str, cans: int) -> dict[str, Any]:
    return {"name": name, "cans": cans, "vehicles": [
        {"name": f"{name} Car", "type": "car",
         "weapons": [{"id": "machine_gun", "facing": "front"}]},
        {"name": f"{name} Buggy", "type": "buggy",
         "weapons": [{"id": "machine_gun", "facing": "front"}]}]}


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"median {1000 * statistics.median(xs):7.1f} ms, p95 {1000 * p95:7.1f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", default="championship")
    ap.add_argument("--teams", type=int, default=4)
    ap.add_argument("--events", type=int, default=8)
    ap.add_argument("--reads", type=int, default=20)
    ap.add_argument("--max-rounds", type=int, default=4)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        client = TestClient(create_app(f"sqlite:///{Path(tmp) / 'bench.db'}"))
        options: dict[str, Any] = {"events": args.events} if args.mode == "televised" else {}
        r = client.post("/api/campaigns", json={
            "mode": args.mode, "options": options,
            "teams": [{"team": team(f"Team {i}", 30)} for i in range(args.teams)]})
        if r.status_code != 201:
            print(f"error: {r.json()['detail']}", file=sys.stderr)
            return 2
        cid, token = r.json()["id"], r.json()["seats"][0]["token"]
        writes: list[float] = []
        reads: list[float] = []
        print(f"{args.mode}, {args.teams} teams, bots, max {args.max_rounds} rounds a game")
        for n in range(1, args.events + 1):
            v = client.get(f"/api/campaigns/{cid}").json()
            if v["summary"]["finished"]:
                break
            t0 = time.perf_counter()
            r = client.post(f"/api/campaigns/{cid}/next", json={
                "version": v["version"], "token": token, "max_rounds": args.max_rounds,
                "controllers": ["heuristic"] * args.teams, "seed": n})
            writes.append(time.perf_counter() - t0)
            if r.status_code != 200:
                print(f"error: {r.json()['detail']}", file=sys.stderr)
                return 2
            these = []
            for _ in range(args.reads):
                t0 = time.perf_counter()
                client.get(f"/api/campaigns/{cid}", params={"token": token})
                these.append(time.perf_counter() - t0)
            reads += these
            print(f"event {n:2d}: next (bots play it) {1000 * writes[-1]:7.1f} ms; "
                  f"read after it: {ms(these)}")
        print(f"next event: {ms(writes)} over {len(writes)} events")
        print(f"campaign read: {ms(reads)} over {len(reads)} reads")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
