"""Web table benchmark: decision round trips through a real server on this machine.

    .venv/bin/python benchmarks/web.py [--games 10] [--decisions 60] [--quick]

Starts ``carnage serve`` on a free port of 127.0.0.1 with a temporary SQLite database, then
plays ``--games`` Street Races at once, each a human seat against the heuristic bot: one client
thread per game plays the human seat over HTTP (keep-alive), always answering with the first
legal option, and times every ``POST /api/games/{id}/decisions`` from request to parsed view.
The server answers the bot's decisions inside that round trip, saves the game and pushes the
view, so the figure is what a player waits for. A finished game is replaced by a new one until
each client has timed ``--decisions`` round trips. Also times ``POST /api/games`` for the same
number of bot-vs-bot games created at once (each plays to the end inside its request).
All traffic stays on the loopback interface; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
DEADLINE = 300.0
"""Seconds: the whole benchmark stops by itself after this."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class Client:
    """One keep-alive HTTP connection to the server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"} if data is not None else {}
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if raw else None

    def close(self) -> None:
        self.conn.close()


def first_choice(pending: dict[str, Any]) -> Any:
    if pending["options"]:
        return pending["options"][0]["value"]
    return pending["domain"]["low"]


def start_server(db: Path) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    exe = Path(sys.executable).with_name("carnage")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "carnage.cli.main"]
    proc = subprocess.Popen(
        [*cmd, "serve", "--host", HOST, "--port", str(port), "--db", f"sqlite:///{db}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    print(proc.stdout.readline().strip())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            c = Client(port)
            status, _ = c.call("GET", "/api/scenarios")
            c.close()
            if status == 200:
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the server did not come up within 60 s")


def human_worker(port: int, n: int, seed: int, out: list[float], games: list[int],
                 stop_at: float) -> None:
    c = Client(port)
    try:
        timed = 0
        g = 0
        while timed < n and time.monotonic() < stop_at:
            status, created = c.call("POST", "/api/games", {
                "scenario": "street-race", "seed": seed * 1000 + g,
                "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
            assert status == 201, created
            g += 1
            gid, tok = created["id"], created["seats"][0]["token"]
            _, view = c.call("GET", f"/api/games/{gid}?token={tok}")
            while view["pending"] is not None and timed < n and time.monotonic() < stop_at:
                body = {"token": tok, "version": view["version"],
                        "choice": first_choice(view["pending"])}
                t0 = time.perf_counter()
                status, view = c.call("POST", f"/api/games/{gid}/decisions", body)
                out.append(time.perf_counter() - t0)
                assert status == 200, view
                timed += 1
        games.append(g)
    finally:
        c.close()


def bot_worker(port: int, seed: int, out: list[float]) -> None:
    c = Client(port)
    try:
        t0 = time.perf_counter()
        status, created = c.call("POST", "/api/games", {
            "scenario": "street-race", "seed": seed,
            "seats": [{"controller": "heuristic"}, {"controller": "heuristic"}]})
        out.append(time.perf_counter() - t0)
        assert status == 201, created
    finally:
        c.close()


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q / 100.0 * (len(s) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000.0:7.1f} ms"


def run_threads(threads: list[threading.Thread]) -> float:
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=DEADLINE)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="concurrent games (default 10)")
    ap.add_argument("--decisions", type=int, default=60,
                    help="round trips timed per game client (default 60)")
    ap.add_argument("--quick", action="store_true", help="3 games, 10 round trips each")
    args = ap.parse_args()
    games, per = (3, 10) if args.quick else (max(1, args.games), max(1, args.decisions))

    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(Path(tmp) / "bench.db")
        try:
            stop_at = time.monotonic() + DEADLINE
            lat: list[float] = []
            played: list[int] = []
            wall = run_threads([
                threading.Thread(target=human_worker,
                                 args=(port, per, i + 1, lat, played, stop_at))
                for i in range(games)
            ])
            created: list[float] = []
            bot_wall = run_threads([
                threading.Thread(target=bot_worker, args=(port, 500 + i, created))
                for i in range(games)
            ])
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; server: one uvicorn process, SQLite (WAL) in a temp dir")
    print(f"decision round trips, {games} concurrent human-vs-heuristic games "
          f"({len(lat)} timed over {sum(played)} games, {wall:.1f} s wall):")
    if lat:
        print(f"  p50 {ms(pct(lat, 50))}   p90 {ms(pct(lat, 90))}   p99 {ms(pct(lat, 99))}"
              f"   max {ms(max(lat))}   mean {ms(statistics.fmean(lat))}")
        print(f"  throughput {len(lat) / wall:.1f} decisions/s")
    print(f"bot-vs-bot games created at once ({len(created)} of {games}; each plays to the end "
          f"in its request, {bot_wall:.1f} s wall):")
    if created:
        print(f"  p50 {ms(pct(created, 50))}   p99 {ms(pct(created, 99))}   "
              f"max {ms(max(created))}")


if __name__ == "__main__":
    main()
