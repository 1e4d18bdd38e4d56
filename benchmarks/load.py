"""Load benchmark: many tables played at once on several server processes sharing one PostgreSQL.

    .venv/bin/python benchmarks/load.py [--processes 1,2,4] [--tables 64] [--duration 30]
        [--think 2] [--seed 1] [--search-every 8] [--kill-every 20] [--kill-window 3]
        [--sticky] [--trace] [--json]

Starts a throwaway PostgreSQL server (Debian's binaries, ``tests/campaign/pg.py``) and, for
each process count of ``--processes``, a fresh database and that many ``carnage serve``
processes on loopback ports (started one after the other, each waited for until it answers).
It then creates ``--tables`` Street Races through ``POST /api/games``, dealt to the
processes in turn: seat 0 human, seat 1 the heuristic bot (on each process every
``--search-every``-th table the search bot, ``search:easy``). One asyncio client a table plays
the human seat with a seeded random legal choice after thinking ``--think`` seconds on average
(0: at once, which saturates the servers: throughput, not latency), for ``--duration``
seconds; a finished game is replaced by a new one on the same process, so the load stays at
``--tables`` tables.

Each process's tables play over REST and over websockets in turn. A REST table sends each
choice to the next process round robin (``POST /api/games/{id}/decisions``; to the table's own
process with ``--sticky``); a refused choice is read again and sent again on the process that
refused it. A websocket table holds its socket (``/api/games/{id}/ws``) on its process. A
connection error moves the client to another process, and clients pass over a process that
failed for a second. A choice's round trip runs from sending it to the server's
acknowledgement: the REST answer, or the first pushed view whose version counts it (if bots
then think on, waiting for them is not in the figure). A 200 answer, or a view with a higher
version and no error frame, is an accepted choice; a 409 "stale state" is a refusal (counted
apart, then the client reads the game again); anything else is an error, counted by kind.

``--kill-every K`` kills one server process with SIGKILL every K seconds (round robin) and
starts it again on its port; clients reconnect elsewhere meanwhile. The round trips are then
also shown by how a kill touched them: sent again after a transport failure, sent within
``--kill-window`` seconds after a kill or after the restarted process answered, or calm; with
how many of the slowest 1 % each holds (what sets the p99).

At the end of each run an audit compares, for every game played, the choices the clients
saw accepted with the game as stored: the database's choices (replayed to tell the human's
from the bot's) and ``GET /api/games/{id}`` on every process. A lost choice was accepted but
is not in the stored game; a doubled one is a second acceptance for a version already
accepted (two answers to one decision: only one can be in the game); an unconfirmed one is a
stored human choice no client saw accepted (its answer was lost, e.g. to a kill); a stale view
is a process showing another version than the database. Figures are printed, never asserted.

The servers' CPU is counted apart: the server processes themselves while they serve the load,
their helper processes (the bot pool's workers: the bots' thinking), what a process restarted
after a kill spent until it answered, and PostgreSQL's processes. ``--trace`` also times the
parts inside the servers (``benchmarks/servertrace``: views, saves, reads, the bots' batches,
the chat...) and prints each in ms of CPU per human choice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT = 90.0
"""Seconds a server process may take to answer after it is started."""
ANSWER_TIMEOUT = 60.0
"""Seconds a client waits for any one answer before counting a timeout."""
STOP_GRACE = 90.0
"""Seconds the clients get to finish what they sent when the run's time is up."""
SUSPECT = 1.0
"""Seconds clients pass over a process after it failed to answer (as a load balancer would)."""
RECONNECT_AFTER = 0.5
"""Seconds, on average, a websocket client waits before connecting again after its socket
closed (drawn from half to one and a half times it, as the table's pages do): the clients of
a killed process come back spread out, not all in the same instant."""
BOT_POLL = 0.05
"""Seconds between reads while bots think after a REST answer (a server that answers first)."""
MAX_VIEW_BYTES = 64 * 1024 * 1024
CPU_PARTS = ("server", "bot workers", "start-up")
"""The servers' CPU, apart: the server processes serving the load, their helper processes
(the bot pool's fork server and workers: the bots' thinking), and what a process restarted
after a kill spent until it answered."""


def load_pg() -> ModuleType:
    """``tests/campaign/pg.py`` (the tests' throwaway PostgreSQL), imported by its path."""
    path = ROOT / "tests" / "campaign" / "pg.py"
    spec = importlib.util.spec_from_file_location("carnage_bench_pg", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def database_cpu(folder: Path | None) -> float:
    """CPU seconds the PostgreSQL server in ``folder`` has spent: its postmaster, its live
    processes (a backend per connection, the background workers) and those it reaped; 0 when
    unknown."""
    if folder is None:
        return 0.0
    try:
        pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        me = int(stat.parent.name)
        if me == pid:
            total += sum(int(x) for x in fields[11:15])  # utime, stime and reaped children's
        elif int(fields[1]) == pid:  # parent
            total += int(fields[11]) + int(fields[12])
    return total / tick


TRACE_PROBE = ROOT / "benchmarks" / "servertrace"
"""The folder whose ``sitecustomize`` times a server's parts (``--trace``)."""


def read_trace(folder: Path | None) -> dict[str, tuple[float, int]]:
    """Every server process's figures in ``folder`` summed: label -> (CPU seconds, calls);
    what each counted from its start (a killed one: up to its last write)."""
    out: dict[str, tuple[float, int]] = {}
    if folder is None:
        return out
    for f in folder.glob("*.json"):
        try:
            doc = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        for k, sec in doc["parts"].items():
            was = out.get(k, (0.0, 0))
            out[k] = (was[0] + float(sec), was[1] + int(doc["calls"].get(k, 0)))
    return out


# -- server processes --------------------------------------------------------------------------
class ServerProcess:
    """One ``carnage serve`` in its own process group (so SIGKILL reaches anything it starts)."""

    def __init__(self, index: int, db_url: str, logs: Path,
                 env: dict[str, str] | None = None) -> None:
        self.index = index
        self.env = env or {}
        """Variables added to the process's environment (``--trace``)."""
        self.db_url = db_url
        self.log = logs / f"serve-{index}.log"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.up = False
        self.cpu_spent: Counter[str] = Counter()
        """CPU seconds of the run's earlier incarnations of this process (before kills), by
        part (``CPU_PARTS``)."""
        self.cpu_from: tuple[float, float] = (0.0, 0.0)
        """This incarnation's CPU seconds (``cpu_parts``) when the run began, or when it
        answered after a restart (what it spent starting is counted as start-up)."""

    def cpu_parts(self) -> tuple[float, float]:
        """CPU seconds of this incarnation's process group so far: (the server process
        itself, its helper processes: the bot pool's fork server and workers, live or
        reaped); zeros where there is no ``/proc``."""
        if self.proc is None:
            return 0.0, 0.0
        tick = os.sysconf("SC_CLK_TCK")
        own = helpers = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) != self.proc.pid:  # process group
                continue
            if int(stat.parent.name) == self.proc.pid:
                own += int(fields[11]) + int(fields[12])  # utime, stime
                helpers += int(fields[13]) + int(fields[14])  # reaped children
            else:
                helpers += int(fields[11]) + int(fields[12])
        return own / tick, helpers / tick

    def cpu(self) -> float:
        """CPU seconds of this incarnation's process group so far."""
        return sum(self.cpu_parts())

    def mark_cpu(self, started: bool = False) -> None:
        """From now on this incarnation's CPU counts as served load; with ``started`` (a
        restart just answered) what it spent until now is counted as start-up."""
        self.cpu_from = self.cpu_parts()
        if started:
            self.cpu_spent["start-up"] += sum(self.cpu_from)

    def run_cpu_parts(self) -> Counter[str]:
        """CPU seconds this server spent since the run began, across kills, by part."""
        now = self.cpu_parts()
        out = Counter(self.cpu_spent)
        out["server"] += max(0.0, now[0] - self.cpu_from[0])
        out["bot workers"] += max(0.0, now[1] - self.cpu_from[1])
        return out

    def run_cpu(self) -> float:
        """CPU seconds this server spent since the run began, across kills."""
        return sum(self.run_cpu_parts().values())

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        cmd = [sys.executable, "-m", "carnage.cli.main", "serve", "--host", HOST,
               "--port", str(self.port), "--db", self.db_url]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})

    async def wait_ready(self, client: httpx.AsyncClient) -> float:
        """Seconds until ``GET /api/rulesets`` answers 200; ``RuntimeError`` with the log's
        tail if the process exits or stays silent."""
        t0 = time.perf_counter()
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                break
            with contextlib.suppress(httpx.HTTPError):
                r = await client.get(f"{self.base}/api/rulesets", timeout=5)
                if r.status_code == 200:
                    self.up = True
                    return time.perf_counter() - t0
            await asyncio.sleep(0.1)
        tail = self.log.read_text(errors="replace")[-800:] if self.log.exists() else ""
        raise RuntimeError(f"server {self.index} on port {self.port} did not answer:\n{tail}")

    def kill(self) -> None:
        """SIGKILL to the process group this process leads, then reap it."""
        self.up = False
        if self.proc is None or self.proc.poll() is not None:
            return
        self.cpu_spent = self.run_cpu_parts()
        self.cpu_from = (0.0, 0.0)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        self.up = False
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()


# -- what the clients record -------------------------------------------------------------------
@dataclass
class Claim:
    """A human choice the client saw accepted."""

    version: int
    choice: Any
    transport: str
    process: int


@dataclass
class Table:
    gid: str
    token: str
    transport: str
    bot: str
    home: int
    claims: list[Claim] = field(default_factory=list)
    inflight: tuple[int, Any, float] | None = None
    """The websocket choice sent and not yet answered: (version, choice, when sent); sent
    again after a reconnect."""


@dataclass
class Stats:
    round_trips: dict[str, list[float]] = field(
        default_factory=lambda: {"rest": [], "ws": []})
    samples: list[tuple[str, float, float, bool]] = field(default_factory=list)
    """Every timed round trip: (transport; when sent, ``time.perf_counter``; seconds; sent
    again after a transport failure), to tell the choices a kill touched from the rest."""
    events: list[tuple[float, str]] = field(default_factory=list)
    """(when, ``time.perf_counter``; "kill" or "ready") of each kill and each restarted
    process answering."""
    creations: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    """What a player sees as an error (an answer other than 200 or stale)."""
    retries: Counter[str] = field(default_factory=Counter)
    """Requests sent again to another process after a transport failure (refused, dropped,
    timed out), as a reverse proxy retries them: the player sees only the delay."""
    examples: dict[str, str] = field(default_factory=dict)
    """An error kind -> the first answer of that kind (its detail)."""
    finished: int = 0
    kills: int = 0

    def timed(self, transport: str, t0: float, resent: bool) -> None:
        """A round trip of ``transport`` sent at ``t0`` ends now."""
        rt = time.perf_counter() - t0
        self.round_trips[transport].append(rt)
        self.samples.append((transport, t0, rt, resent))
    restarts: list[float] = field(default_factory=list)
    bot_waits: int = 0


class Refused(Exception):
    """A process answered a websocket's opening with an error frame (already counted)."""


class Closed(Exception):
    """A websocket closed while its player thought (its process killed): noticed at once, as
    a browser's ``onclose`` is, so the client reconnects before the choice is sent."""


class Gone(Exception):
    """A process did not answer (refused, dropped, timed out); ``kind`` says which."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def transport_error(e: BaseException) -> str:
    if isinstance(e, httpx.ConnectError | ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, httpx.TimeoutException | TimeoutError):
        return "timeout"
    if isinstance(e, InvalidHandshake):
        return "handshake refused"
    return "connection dropped"


def pick(rng: random.Random, pending: dict[str, Any]) -> Any:
    """A legal choice: one of the options, or a number inside the domain."""
    options = pending.get("options")
    if options:
        return rng.choice(options)["value"]
    dom = pending["domain"]
    low, high = float(dom["low"]), float(dom["high"])
    return min(high, max(low, round(rng.uniform(low, high), 2)))


def my_turn(view: dict[str, Any]) -> bool:
    pending = view.get("pending")
    return pending is not None and pending.get("seat") == view.get("your_seat")


def over(view: dict[str, Any]) -> bool:
    return view.get("status") == "finished" or view.get("pending") is None


class Run:
    """One load run: ``tables`` clients against the processes of ``servers``."""

    def __init__(self, servers: list[ServerProcess], client: httpx.AsyncClient,
                 args: argparse.Namespace, stats: Stats) -> None:
        self.servers = servers
        self.client = client
        self.args = args
        self.stats = stats
        self.tables: list[Table] = []
        self.stop = asyncio.Event()
        self.created = 0
        self.down: dict[int, float] = {}
        """Process -> until when clients pass over it (it failed to answer)."""
        self.server_cpu = 0.0
        self.client_cpu = 0.0
        self.cpu_parts: Counter[str] = Counter()
        """The servers' CPU seconds by part (``ServerProcess.run_cpu_parts``)."""
        self.db_folder: Path | None = None
        """The PostgreSQL server's folder (its CPU is counted from its postmaster.pid)."""
        self.db_cpu = 0.0
        self.trace_folder: Path | None = None
        """Where the servers' probe writes their CPU by part (``--trace``)."""
        self.trace: dict[str, tuple[float, int]] = {}
        """The servers' CPU by part: label -> (seconds, calls), every process summed."""
        """CPU seconds the servers and this client spent during the load."""

    def next_process(self, p: int) -> int:
        """The process after ``p`` in the round, passing over those that failed lately."""
        n = len(self.servers)
        now = time.monotonic()
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.down.get(q, 0.0) <= now:
                return q
        return (p + 1) % n

    async def pause(self) -> None:
        """A moment before trying again; while every process is passed over, until the first
        of them may be tried again."""
        now = time.monotonic()
        if all(self.down.get(q, 0.0) > now for q in range(len(self.servers))):
            await asyncio.sleep(min(SUSPECT, min(self.down.values()) - now))
        else:
            await asyncio.sleep(0.05)

    def failed(self, p: int, kind: str, what: str) -> int:
        """Count a transport failure of process ``p`` (a retry: the request is sent again
        elsewhere, as a reverse proxy does), keep clear of it for a while; the process to
        try instead."""
        self.stats.retries[f"{what}: {kind}"] += 1
        self.down[p] = time.monotonic() + SUSPECT
        return self.next_process(p)

    # -- REST calls with fail-over -------------------------------------------------------------
    async def call(self, p: int, method: str, path: str, body: Any = None
                   ) -> tuple[int, Any]:
        """One request to process ``p``: (status, JSON body); ``Gone`` if it did not answer."""
        url = self.servers[p].base + path
        try:
            r = await self.client.request(method, url, json=body, timeout=ANSWER_TIMEOUT)
        except (httpx.HTTPError, OSError) as e:
            raise Gone(transport_error(e)) from None
        try:
            data = r.json()
        except ValueError:
            data = {"detail": r.text[:200]}
        return r.status_code, data

    async def read(self, table: Table, p: int, what: str) -> tuple[int, dict[str, Any]] | None:
        """The human seat's view, from process ``p`` or the next ones that answer; None when
        the run stops first."""
        while not self.stop.is_set():
            try:
                status, view = await self.call(
                    p, "GET", f"/api/games/{table.gid}?token={table.token}")
            except Gone as e:
                p = self.failed(p, e.kind, what)
                await self.pause()
                continue
            if status == 200:
                return p, view
            key = f"{what}: {status}"
            self.stats.errors[key] += 1
            self.stats.examples.setdefault(key, str(view.get("detail", ""))[:100])
            await asyncio.sleep(0.2)
        return None

    def kind(self, slot: int) -> tuple[int, str, str]:
        """(home process, transport, bot) of the table a client slot plays: slots are dealt
        to the processes in turn, and each process's n-th table is the same kind whatever the
        process count (REST and websocket in turn; every ``--search-every``-th the search bot,
        alternately a REST and a websocket one)."""
        n = len(self.servers)
        home, rank = slot % n, slot // n
        transport = "rest" if rank % 2 == 0 else "ws"
        k = self.args.search_every
        if k and rank % k == 0:
            return home, ("rest" if (rank // k) % 2 == 0 else "ws"), "search:easy"
        return home, transport, "heuristic"

    async def create(self, slot: int, rng: random.Random) -> Table | None:
        p, transport, bot = self.kind(slot)
        body = {"scenario": "street-race", "seed": rng.randrange(1, 2**31),
                "seats": [{"controller": "human"}, {"controller": bot}]}
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                status, out = await self.call(p, "POST", "/api/games", body)
            except Gone as e:
                p = self.failed(p, e.kind, "create")
                await self.pause()
                continue
            if status == 201:
                self.stats.creations.append(time.perf_counter() - t0)
                table = Table(out["id"], out["seats"][0]["token"], transport, bot, p)
                self.tables.append(table)
                self.created += 1
                return table
            key = f"create: {status}"
            self.stats.errors[key] += 1
            self.stats.examples.setdefault(key, str(out.get("detail", ""))[:100])
            await asyncio.sleep(0.5)
        return None

    # -- players -------------------------------------------------------------------------------
    async def player(self, slot: int) -> None:
        rng = random.Random(self.args.seed * 1_000_003 + slot)
        while not self.stop.is_set():
            table = await self.create(slot, rng)  # on its home process, back after a kill
            if table is None:
                return
            if table.transport == "rest":
                await self.play_rest(table, rng)
            else:
                await self.play_ws(table, rng)

    async def wait_for_bots(self, table: Table, p: int, view: dict[str, Any]
                            ) -> tuple[int, dict[str, Any]] | None:
        """Read the game again until the human must decide or it ends (a server that answers
        before its bots have played)."""
        while not over(view) and not my_turn(view):
            self.stats.bot_waits += 1
            await asyncio.sleep(BOT_POLL)
            got = await self.read(table, p, "view")
            if got is None:
                return None
            p, view = got
        return p, view

    async def play_rest(self, table: Table, rng: random.Random) -> None:
        got = await self.read(table, table.home, "view")
        while got is not None:
            p, view = got
            if over(view):
                self.stats.finished += 1
                return
            if not my_turn(view):
                got = await self.wait_for_bots(table, p, view)
                continue
            if self.stop.is_set():
                return
            await self.think(rng)
            choice = pick(rng, view["pending"])
            version = int(view["version"])
            body = {"token": table.token, "version": version, "choice": choice}
            t0 = time.perf_counter()
            resent = False
            while True:  # a transport failure: the same request to another process
                try:
                    status, answer = await self.call(
                        p, "POST", f"/api/games/{table.gid}/decisions", body)
                    break
                except Gone as e:
                    p = self.failed(p, e.kind, "decide (REST)")
                    resent = True
                    await self.pause()
            if status == 409 and resent and "stale" in str(answer.get("detail", "")):
                # the first send may have been applied before its answer was lost: read the
                # game again; past our version (only this seat answers here), it was taken
                got = await self.read(table, p, "view")
                if got is not None and int(got[1]["version"]) > version:
                    self.stats.retries["decide (REST): resend answered stale, taken"] += 1
                    self.stats.timed("rest", t0, resent)
                    table.claims.append(Claim(version, choice, "rest", got[0]))
                continue
            if status == 200:
                self.stats.timed("rest", t0, resent)
                table.claims.append(Claim(version, choice, "rest", p))
                # the next choice goes to the next process; a refused one is read again and
                # sent again where it was refused
                got = (p if self.args.sticky else self.next_process(p)), answer
                continue
            self.refused_or_error(status, str(answer.get("detail", "")), "decide (REST)")
            got = await self.read(table, p, "view")

    async def think(self, rng: random.Random) -> None:
        """A human's thought before a choice: ``--think`` seconds on average (uniform from half
        to one and a half times it); 0: none, every table choosing the moment it may."""
        if self.args.think > 0:
            await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))

    async def think_open(self, rng: random.Random, ws: ClientConnection) -> None:
        """``think`` with the socket watched: a socket that closes meanwhile raises ``Closed``
        at once. The table's page and the companion learn of a closed socket the moment it
        closes (``onclose``) and connect again while their player thinks, so the choice is
        then sent on the new socket, not sent into a dead one and resent."""
        thought = asyncio.ensure_future(self.think(rng))
        closed = asyncio.ensure_future(ws.wait_closed())
        try:
            await asyncio.wait({thought, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (thought, closed):
                task.cancel()
        if closed.done() and not closed.cancelled():
            raise Closed

    def refused_or_error(self, status: int, detail: str, what: str) -> None:
        if status == 409 and "stale" in detail:
            self.stats.refusals["stale version (409)"] += 1
        elif status == 409 and "over" in detail:
            self.stats.refusals["game over (409)"] += 1
        else:
            key = f"{what}: {status}"
            self.stats.errors[key] += 1
            self.stats.examples.setdefault(key, detail[:100])

    async def play_ws(self, table: Table, rng: random.Random) -> None:
        p = table.home
        while not self.stop.is_set():
            url = (f"ws://{HOST}:{self.servers[p].port}/api/games/{table.gid}/ws"
                   f"?token={table.token}")
            try:
                async with connect(url, open_timeout=ANSWER_TIMEOUT, max_size=MAX_VIEW_BYTES,
                                   ping_interval=None, close_timeout=2) as ws:
                    if await self.play_socket(table, rng, ws, p):
                        return
                p = self.next_process(p)
            except Refused:
                p = self.next_process(p)
                await asyncio.sleep(0.2)
            except Closed:
                p = self.failed(p, "closed while the player thought", "websocket")
                await asyncio.sleep(rng.uniform(RECONNECT_AFTER / 2, RECONNECT_AFTER * 1.5))
            except (OSError, WebSocketException, TimeoutError) as e:
                what = "websocket (choice in flight)" if table.inflight else "websocket"
                p = self.failed(p, transport_error(e), what)
                await self.pause()

    async def frame(self, ws: ClientConnection) -> dict[str, Any]:
        raw = await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
        msg: dict[str, Any] = json.loads(raw)
        return msg

    async def play_socket(self, table: Table, rng: random.Random, ws: ClientConnection,
                          p: int) -> bool:
        """Play over one socket; True when the game is over (or the run stops), False to
        reconnect. Transport failures propagate."""
        msg = await self.frame(ws)
        if msg.get("type") != "view":
            self.refused_or_error(int(msg.get("status", 0)), str(msg.get("detail", "")),
                                  "websocket open")
            raise Refused
        view: dict[str, Any] = msg["view"]
        if table.inflight is not None:  # sent before the last socket failed: send it again
            version, choice, t0 = table.inflight
            await ws.send(json.dumps({"type": "decision", "version": version,
                                      "choice": choice}))
            got = await self.answer(table, ws, p, version, choice, t0, resent=True)
            if got is None:
                return True
            if got[0] != p:
                return False
            view = got[1]
        while True:
            if over(view):
                self.stats.finished += 1
                return True
            if self.stop.is_set():
                return True
            if not my_turn(view):  # bots think on: their views follow
                msg = await self.frame(ws)
                if msg.get("type") == "view" and msg["view"]["version"] >= view["version"]:
                    view = msg["view"]
                continue
            await self.think_open(rng, ws)
            choice = pick(rng, view["pending"])
            version = int(view["version"])
            t0 = time.perf_counter()
            table.inflight = (version, choice, t0)
            await ws.send(json.dumps({"type": "decision", "version": version,
                                      "choice": choice}))
            got = await self.answer(table, ws, p, version, choice, t0, resent=False)
            if got is None:
                return True
            if got[0] != p:  # this process stopped answering meanwhile
                return False
            view = got[1]

    async def answer(self, table: Table, ws: ClientConnection, p: int, version: int,
                     choice: Any, t0: float, resent: bool
                     ) -> tuple[int, dict[str, Any]] | None:
        """The answer to the choice sent at ``version``: the first view past it (accepted),
        or an error frame (then the game is read again; after a resend, a stale answer with
        the game past our version means the first send was taken). (process, view), None
        when the run stops. Transport failures propagate (``inflight`` stays set)."""
        while True:
            msg = await self.frame(ws)
            if msg.get("type") == "view":
                if msg["view"]["version"] > version:
                    table.inflight = None
                    self.stats.timed("ws", t0, resent)
                    table.claims.append(Claim(version, choice, "ws", p))
                    return p, msg["view"]
                continue  # a push from before the choice
            table.inflight = None
            status, detail = int(msg.get("status", 0)), str(msg.get("detail", ""))
            got = await self.read(table, p, "view")
            if resent and status == 409 and "stale" in detail and got is not None \
                    and int(got[1]["version"]) > version:
                self.stats.retries["decide (websocket): resend answered stale, taken"] += 1
                self.stats.timed("ws", t0, resent)
                table.claims.append(Claim(version, choice, "ws", p))
                return got
            self.refused_or_error(status, detail, "decide (websocket)")
            return got

    # -- killing ---------------------------------------------------------------------------------
    async def killer(self) -> None:
        victim = 0
        while True:
            try:
                await asyncio.wait_for(self.stop.wait(), self.args.kill_every)
                return
            except TimeoutError:
                pass
            server = self.servers[victim % len(self.servers)]
            victim += 1
            server.kill()
            self.stats.kills += 1
            t0 = time.perf_counter()
            self.stats.events.append((t0, "kill"))
            server.start()
            try:
                await server.wait_ready(self.client)
                server.mark_cpu(started=True)
            except RuntimeError:
                server.kill()
                server.port = free_port()  # the old port stayed taken
                server.start()
                try:
                    await server.wait_ready(self.client)
                    server.mark_cpu(started=True)
                except RuntimeError as e:
                    server.kill()
                    self.stats.errors["restart failed"] += 1
                    self.stats.examples.setdefault("restart failed", str(e)[-100:])
                    continue
            self.stats.restarts.append(time.perf_counter() - t0)
            self.stats.events.append((time.perf_counter(), "ready"))

    async def go(self) -> float:
        """Play for the run's duration; the seconds the load lasted."""
        players = [asyncio.create_task(self.player(i)) for i in range(self.args.tables)]
        killer = asyncio.create_task(self.killer()) if self.args.kill_every else None
        for s in self.servers:
            s.mark_cpu()
        db_cpu = database_cpu(self.db_folder)
        client_cpu = time.process_time()
        t0 = time.perf_counter()
        await asyncio.sleep(self.args.duration)
        self.stop.set()
        wall = time.perf_counter() - t0
        self.cpu_parts = sum((s.run_cpu_parts() for s in self.servers), Counter())
        self.server_cpu = sum(self.cpu_parts.values())
        self.db_cpu = database_cpu(self.db_folder) - db_cpu
        self.trace = read_trace(self.trace_folder)
        self.client_cpu = time.process_time() - client_cpu
        done, pending = await asyncio.wait(players, timeout=STOP_GRACE)
        for t in pending:
            t.cancel()
            self.stats.errors["client still waiting at the end"] += 1
        for t in done:
            e = t.exception()
            if e is not None:  # a bug of this client: counted, and its message kept
                key = f"client crashed: {type(e).__name__}"
                self.stats.errors[key] += 1
                self.stats.examples.setdefault(key, str(e)[:100])
        if killer is not None:
            await killer
        await asyncio.gather(*pending, return_exceptions=True)
        return wall


# -- the audit ---------------------------------------------------------------------------------
def same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=0, abs_tol=1e-9)
    return bool(a == b)


def human_indices(row: Any, human_seat: int) -> set[int]:
    """The indices of ``row``'s stored choices the human seat made (the game replayed)."""
    from carnage.web.sessions import ruleset_named_by, setup_of

    setups = setup_of(ruleset_named_by(row.setup))
    game = setups.build(setups.from_json(row.setup), row.seed)
    out: set[int] = set()
    for i, c in enumerate(row.choices):
        d = game.pending()
        if d is None:
            raise ValueError(f"the stored game ended before its choice {i + 1}")
        if d.player == human_seat:
            out.add(i)
        game.apply(c)
    return out


def audit_games(db_url: str, tables: Sequence[Table]) -> dict[str, Any]:
    """Accepted choices against the database's (see the module's docstring)."""
    from carnage.web.db import Store

    counts: Counter[str] = Counter()
    problems: list[str] = []
    store = Store(db_url)
    try:
        for t in tables:
            counts["games"] += 1
            counts["accepted"] += len(t.claims)
            row = store.game(t.gid)
            if row is None:
                counts["lost"] += len(t.claims)
                problems.append(f"{t.gid}: not in the database")
                continue
            try:
                humans = human_indices(row, 0)
            except Exception as e:  # a stored game that does not replay is what we look for
                counts["unreplayable"] += 1
                problems.append(f"{t.gid}: {type(e).__name__}: {e}"[:200])
                humans = set()
            seen: set[int] = set()
            for c in t.claims:
                if c.version in seen:
                    counts["doubled"] += 1
                seen.add(c.version)
                if c.version < len(row.choices) and same(row.choices[c.version], c.choice) \
                        and (not humans or c.version in humans):
                    counts["kept"] += 1
                else:
                    counts["lost"] += 1
            counts["unconfirmed"] += len(humans - seen)
    finally:
        store.close()
    return {**{k: counts[k] for k in ("games", "accepted", "kept", "lost", "doubled",
                                      "unconfirmed", "unreplayable")},
            "problems": problems[:10]}


async def audit_views(run: Run, db_url: str) -> dict[str, int]:
    """``GET /api/games/{id}`` on every process against the database's number of choices. A
    bot may still be answering when the clients stop (its thinking outlives the run), so a
    view that differs is read again, with the database, until they agree or
    ``SETTLE_SECONDS`` pass: a stale view is one still different from the database then."""
    from carnage.web.db import Store

    store = Store(db_url)
    out: Counter[str] = Counter()
    sem = asyncio.Semaphore(16)

    def stored(gid: str) -> list[Any] | None:
        row = store.game(gid)
        return None if row is None else list(row.choices)

    async def one(t: Table, p: int) -> None:
        async with sem:
            deadline = time.monotonic() + SETTLE_SECONDS
            while True:
                try:
                    status, view = await run.call(p, "GET", f"/api/games/{t.gid}")
                except Gone:
                    out["unanswered"] += 1
                    return
                choices = await asyncio.to_thread(stored, t.gid)
                if status != 200 or choices is None:
                    out["reads"] += 1
                    out["failed"] += 1
                    return
                if int(view.get("version", -1)) == len(choices):
                    out["reads"] += 1
                    return
                if time.monotonic() >= deadline:
                    out["reads"] += 1
                    out["stale"] += 1
                    return
                await asyncio.sleep(0.2)

    try:
        await asyncio.gather(*(one(t, p) for t in run.tables for p in range(len(run.servers))))
    finally:
        store.close()
    return {k: out[k] for k in ("reads", "stale", "failed", "unanswered")}


KILL_WINDOW = 3.0
"""Seconds after a kill, and after a restarted process answers, whose choices the report
shows apart (``--kill-window``)."""
SETTLE_SECONDS = 10.0
"""How long the view audit waits for a game whose bot was still answering as the run ended."""


# -- one run and the report ----------------------------------------------------------------------
def pct(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100.0 * len(s)) - 1))]


def figures(xs: Sequence[float]) -> dict[str, float]:
    if not xs:
        return {}
    return {"p50": pct(xs, 50) * 1e3, "p90": pct(xs, 90) * 1e3, "p99": pct(xs, 99) * 1e3,
            "max": max(xs) * 1e3, "mean": statistics.fmean(xs) * 1e3}


KILL_CLASSES = ("resent", "after a kill", "after a restart", "calm")
"""How a kill touched a choice: sent again after a transport failure; sent within the window
(``--kill-window``) after a kill, or after a restarted process answered; or neither."""


def by_kill(samples: Sequence[tuple[str, float, float, bool]],
            events: Sequence[tuple[float, str]], window: float) -> dict[str, Any]:
    """The round trips by how a kill touched them (``KILL_CLASSES``): figures of each, with
    its count by transport, and how many of the slowest 1 % (those at or above the p99) each
    class holds."""
    def touched(t0: float, resent: bool) -> str:
        if resent:
            return "resent"
        for when, what in events:
            if when <= t0 < when + window:
                return "after a kill" if what == "kill" else "after a restart"
        return "calm"

    classes: dict[str, list[float]] = {k: [] for k in KILL_CLASSES}
    apart: dict[str, dict[str, list[float]]] = {k: {} for k in KILL_CLASSES}
    transports: dict[str, Counter[str]] = {k: Counter() for k in KILL_CLASSES}
    tagged: list[tuple[float, str]] = []
    for transport, t0, rt, resent in samples:
        k = touched(t0, resent)
        classes[k].append(rt)
        apart[k].setdefault(transport, []).append(rt)
        transports[k][transport] += 1
        tagged.append((rt, k))
    slowest: Counter[str] = Counter()
    if tagged:
        p99 = pct([rt for rt, _ in tagged], 99)
        slowest.update(k for rt, k in tagged if rt >= p99)
    return {k: {"count": len(classes[k]), "by_transport": dict(transports[k]),
                "slowest_1pc": slowest[k], "ms": figures(classes[k]),
                "ms_by_transport": {t: figures(xs) for t, xs in sorted(apart[k].items())}}
            for k in KILL_CLASSES}


def shown(f: dict[str, float]) -> str:
    if not f:
        return "none timed"
    return "   ".join(f"{k} {v:7.1f} ms" for k, v in f.items() if k != "mean")


async def one_run(n: int, db_url: str, logs: Path, args: argparse.Namespace,
                  out: Any, db_folder: Path | None = None) -> dict[str, Any]:
    env: dict[str, str] = {}
    trace: Path | None = None
    if args.trace:
        trace = logs / f"trace-{n}"
        trace.mkdir()
        path = os.environ.get("PYTHONPATH", "")
        env = {"CARNAGE_TRACE": str(trace),
               "PYTHONPATH": str(TRACE_PROBE) + (os.pathsep + path if path else "")}
    servers = [ServerProcess(i, db_url, logs, env) for i in range(n)]
    limits = httpx.Limits(max_connections=4 * args.tables + 16,
                          max_keepalive_connections=2 * args.tables + 8)
    async with httpx.AsyncClient(limits=limits) as client:
        try:
            ready = []
            for s in servers:  # one at a time: the first creates the schema
                s.start()
                ready.append(await s.wait_ready(client))
            print(f"  {n} server process{'es' if n > 1 else ''} up "
                  f"(ports {', '.join(str(s.port) for s in servers)}; "
                  f"ready in {', '.join(f'{x:.1f}' for x in ready)} s)", file=out, flush=True)
            stats = Stats()
            run = Run(servers, client, args, stats)
            run.db_folder = db_folder
            run.trace_folder = trace
            wall = await run.go()
            views = await audit_views(run, db_url)
        finally:
            for s in servers:
                s.stop()
    audit = await asyncio.to_thread(audit_games, db_url, run.tables)
    every = stats.round_trips["rest"] + stats.round_trips["ws"]
    return {
        "processes": n,
        "seconds": round(wall, 2),
        "tables_created": run.created,
        "games_finished": stats.finished,
        "bots": dict(Counter(t.bot for t in run.tables)),
        "accepted": len(every),
        "choices_per_s": round(len(every) / wall, 2) if wall > 0 else 0.0,
        "round_trip_ms": figures(every),
        "round_trip_ms_rest": figures(stats.round_trips["rest"]),
        "round_trip_ms_ws": figures(stats.round_trips["ws"]),
        "round_trip_by_kill": by_kill(stats.samples, stats.events, args.kill_window)
        if stats.kills else {},
        "create_ms": figures(stats.creations),
        "refusals": dict(stats.refusals),
        "errors": dict(stats.errors),
        "retries": dict(stats.retries),
        "error_examples": stats.examples,
        "bot_waits": stats.bot_waits,
        "server_cpu_s": round(run.server_cpu, 2),
        "client_cpu_s": round(run.client_cpu, 2),
        "choices_per_server_cpu_s": round(len(every) / run.server_cpu, 2)
        if run.server_cpu > 0 else None,
        "server_cpu_parts_s": {k: round(v, 2) for k, v in sorted(run.cpu_parts.items())},
        "server_cpu_ms_per_choice": {k: round(v * 1e3 / len(every), 2)
                                     for k, v in sorted(run.cpu_parts.items())}
        if every else {},
        "database_cpu_s": round(run.db_cpu, 2),
        "trace_ms_per_choice": {k: [round(sec * 1e3 / len(every), 3), calls]
                                for k, (sec, calls) in sorted(run.trace.items())}
        if every else {},
        "kills": stats.kills,
        "kill_window": args.kill_window,
        "restart_s": [round(x, 2) for x in stats.restarts],
        "audit": audit,
        "views": views,
    }


def report(r: dict[str, Any], out: Any) -> None:
    a, v = r["audit"], r["views"]
    bots = ", ".join(f"{k} {c}" for k, c in sorted(r["bots"].items()))
    print(f"  tables created   {r['tables_created']} ({bots}); games finished "
          f"{r['games_finished']}; creation {shown(r['create_ms'])}", file=out)
    print(f"  human choices    {r['accepted']} accepted in {r['seconds']:.1f} s = "
          f"{r['choices_per_s']:.1f}/s", file=out)
    if r["server_cpu_s"]:
        print(f"  CPU              servers {r['server_cpu_s']:.1f} s "
              f"({r['server_cpu_s'] / r['seconds']:.2f} cores), this client "
              f"{r['client_cpu_s']:.1f} s; {r['choices_per_server_cpu_s']:.1f} choices per "
              f"server CPU second", file=out)
        per = r["server_cpu_ms_per_choice"]
        parts = ", ".join(f"{k} {r['server_cpu_parts_s'][k]:.1f} s ({per.get(k, 0):.1f} ms)"
                          for k in CPU_PARTS if k in r["server_cpu_parts_s"])
        print(f"    by part        {parts} (ms per human choice); PostgreSQL "
              f"{r['database_cpu_s']:.1f} s", file=out)
    if r["trace_ms_per_choice"]:
        print("  server CPU by part (ms per human choice, calls; top: outermost parts, which "
              "add up; the others nested in them)", file=out)
        rows = sorted(r["trace_ms_per_choice"].items(),
                      key=lambda kv: (not kv[0].startswith("top: "), -kv[1][0]))
        for k, (ms, calls) in rows:
            print(f"    {ms:7.2f} {calls:7d}  {k}", file=out)
    print(f"  round trip       {shown(r['round_trip_ms'])}", file=out)
    print(f"    REST           {shown(r['round_trip_ms_rest'])}", file=out)
    print(f"    websocket      {shown(r['round_trip_ms_ws'])}", file=out)
    if r["round_trip_by_kill"]:
        print(f"    by kill        (window {r['kill_window']:g} s; slowest: how many of the "
              "slowest 1 % each holds)", file=out)
        for k, c in r["round_trip_by_kill"].items():
            ways = ", ".join(f"{t} {n}" for t, n in sorted(c["by_transport"].items()))
            print(f"      {k:15s} {c['count']:5d} ({ways or 'none'}; slowest {c['slowest_1pc']})"
                  f"   {shown(c['ms'])}", file=out)
    ref = ", ".join(f"{k} {c}" for k, c in sorted(r["refusals"].items())) or "none"
    print(f"  refusals         {ref}", file=out)
    print(f"  errors           {sum(r['errors'].values()) or 'none'} (what a player sees)",
          file=out)
    for k, c in sorted(r["errors"].items()):
        example = r["error_examples"].get(k)
        print(f"    {c:5d}  {k}" + (f" (e.g. {example[:70]})" if example else ""), file=out)
    print(f"  transport retries {sum(r['retries'].values()) or 'none'} (sent again to another "
          "process, as a proxy does: the player sees the delay only)", file=out)
    for k, c in sorted(r["retries"].items()):
        print(f"    {c:5d}  {k}", file=out)
    if r["bot_waits"]:
        print(f"  bot waits        {r['bot_waits']} reads while bots played after answering",
              file=out)
    if r["kills"]:
        print(f"  kills            {r['kills']} (restarted in "
              f"{', '.join(str(x) for x in r['restart_s'])} s)", file=out)
    print(f"  audit            {a['games']} games: {a['accepted']} accepted, {a['kept']} kept, "
          f"lost {a['lost']}, doubled {a['doubled']}, unconfirmed {a['unconfirmed']}"
          + (f", unreplayable {a['unreplayable']}" if a["unreplayable"] else ""), file=out)
    print(f"  views            {v['reads']} reads of GET /api/games/{{id}}: stale {v['stale']}, "
          f"failed {v['failed']}, unanswered {v['unanswered']}", file=out)
    for p in a["problems"]:
        print(f"    {p}", file=out)


async def main_async(args: argparse.Namespace, counts: list[int], out: Any) -> dict[str, Any]:
    pg = load_pg()
    try:
        server = pg.start_server()
    except pg.NoPostgres as e:
        raise SystemExit(f"no PostgreSQL server: {e}") from None
    runs: list[dict[str, Any]] = []
    logs = Path(tempfile.mkdtemp(prefix="carnage-load-"))
    kept = False
    try:
        print(f"load: {args.tables} tables, {args.duration:g} s a run, seed {args.seed}, "
              f"{'sticky' if args.sticky else 'round-robin'} REST, PostgreSQL on port "
              f"{server.port}, {os.cpu_count()} cores", file=out)
        for i, n in enumerate(counts):
            name = f"carnage_load_{i}_{n}"
            db = server.fresh_database(name).replace("postgresql://", "postgresql+psycopg://")
            print(f"processes {n}:", file=out, flush=True)
            r = await one_run(n, db, logs, args, out, Path(server.folder))
            report(r, out)
            runs.append(r)
            kept = kept or bool(r["errors"] or r["audit"]["lost"] or r["audit"]["doubled"])
    except BaseException:
        kept = True
        raise
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
        if kept:
            print(f"the servers' logs are kept in {logs}", file=out)
        else:
            shutil.rmtree(logs, ignore_errors=True)
    if len(runs) > 1:
        base = runs[0]["choices_per_s"] or 1.0
        print("throughput by process count: " + ", ".join(
            f"{r['processes']} -> {r['choices_per_s']:.1f}/s (x{r['choices_per_s'] / base:.2f})"
            for r in runs), file=out)
    return {"tables": args.tables, "duration": args.duration, "seed": args.seed,
            "search_every": args.search_every, "kill_every": args.kill_every,
            "sticky": args.sticky, "cores": os.cpu_count(), "runs": runs}


def process_counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"whole numbers separated by commas, not "
                                         f"{text!r}") from None
    if not counts or any(not 1 <= c <= 32 for c in counts):
        raise argparse.ArgumentTypeError(f"each count from 1 to 32, not {text!r}")
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=process_counts, default=[1],
                    help="server process counts, one run each (e.g. 1,2,4; default 1)")
    ap.add_argument("--tables", type=int, default=64, help="concurrent tables (default 64)")
    ap.add_argument("--duration", type=float, default=30.0,
                    help="seconds of load a run (default 30)")
    ap.add_argument("--think", type=float, default=2.0,
                    help="seconds a human thinks before each choice, on average (default 2; "
                         "0: none, the servers saturated)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-every", type=int, default=8,
                    help="every N-th table plays search:easy, the rest heuristic (0: none)")
    ap.add_argument("--kill-every", type=float, default=0.0,
                    help="SIGKILL one server process every K seconds and restart it")
    ap.add_argument("--kill-window", type=float, default=KILL_WINDOW,
                    help="seconds after a kill, and after the restarted process answers, "
                         f"whose choices are counted apart (default {KILL_WINDOW:g})")
    ap.add_argument("--sticky", action="store_true",
                    help="REST clients keep to their table's process (no round robin)")
    ap.add_argument("--trace", action="store_true",
                    help="time the servers' parts (benchmarks/servertrace): CPU per human "
                         "choice by part")
    ap.add_argument("--json", action="store_true",
                    help="the figures as one JSON document on stdout (the text on stderr)")
    args = ap.parse_args(argv)
    if not 1 <= args.tables <= 1000:
        ap.error("--tables: from 1 to 1000")
    if not 0 < args.duration <= 3600:
        ap.error("--duration: more than 0, at most 3600 seconds")
    if args.search_every < 0 or args.kill_every < 0 or args.kill_window < 0:
        ap.error("--search-every, --kill-every and --kill-window: 0 or more")
    out = sys.stderr if args.json else sys.stdout
    result = asyncio.run(main_async(args, args.processes, out))
    if args.json:
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
