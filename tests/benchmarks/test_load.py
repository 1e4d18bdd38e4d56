"""The load benchmark (benchmarks/load.py) at its smallest: a real PostgreSQL, one real
``carnage serve`` process and two tables for a few seconds. It must print its figures and its
audit must find every accepted choice in the stored games (no lost or doubled choice). Speed
itself is never asserted here: that is the benchmark's to print."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark
from tests.campaign.pg import NoPostgres, _bin_dir

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_benchmark_prints_its_figures_and_loses_no_choice() -> None:
    try:
        _bin_dir()
    except NoPostgres as e:
        pytest.fail(f"no PostgreSQL server could be started (make test installs it): {e}")
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--processes", "1",
         "--tables", "2", "--duration", "3", "--think", "0.1", "--seed", "3",
         "--json"],
        capture_output=True, text=True, timeout=150, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path}, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    doc = json.loads(r.stdout)
    (run,) = doc["runs"]
    assert run["processes"] == 1 and run["tables_created"] >= 2
    assert run["bots"].get("search:easy", 0) >= 1 and run["bots"].get("heuristic", 0) >= 1
    assert run["accepted"] > 0 and run["choices_per_s"] > 0
    assert set(run["round_trip_ms"]) == {"p50", "p90", "p99", "max", "mean"}
    assert run["errors"] == {}, run["error_examples"]
    audit = run["audit"]
    assert audit["games"] == run["tables_created"]
    assert audit["accepted"] == run["accepted"] == audit["kept"], audit
    assert (audit["lost"], audit["doubled"], audit["unconfirmed"], audit["unreplayable"]) \
        == (0, 0, 0, 0), audit
    assert run["views"]["stale"] == 0 and run["views"]["reads"] == run["tables_created"]
    # the same figures in words (on stderr beside the JSON)
    text = r.stderr
    for words in ("processes 1:", "human choices", "round trip", "p50", "p90", "p99", "max",
                  "refusals", "errors           none", "lost 0, doubled 0, unconfirmed 0"):
        assert words in text, text


def _load_module() -> ModuleType:
    return load_benchmark("load")


class _Socket:
    """A websocket stand-in: ``wait_closed`` returns when ``close`` is set."""

    def __init__(self) -> None:
        import asyncio
        self.close = asyncio.Event()

    async def wait_closed(self) -> None:
        await self.close.wait()


def test_a_socket_closed_while_its_player_thinks_is_noticed_before_the_choice() -> None:
    """The benchmark's websocket player, like the table's page (``onclose``), learns of a
    closed socket while it thinks, and reconnects before sending, instead of sending its
    choice into a dead socket and resending it."""
    import argparse
    import asyncio
    import random

    load = _load_module()
    run = load.Run([], None, argparse.Namespace(think=0.4), load.Stats())

    async def closed_midway() -> float:
        ws = _Socket()
        asyncio.get_running_loop().call_later(0.05, ws.close.set)
        t0 = asyncio.get_running_loop().time()
        with pytest.raises(load.Closed):
            await run.think_open(random.Random(1), ws)
        return asyncio.get_running_loop().time() - t0

    async def stays_open() -> None:
        await run.think_open(random.Random(1), _Socket())

    assert asyncio.run(closed_midway()) < 0.19  # the think is at least 0.2 s
    asyncio.run(stays_open())  # returns when the thought ends; no Closed
