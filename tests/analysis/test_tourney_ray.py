"""``carnage tourney --backend ray`` on a real Ray: a cluster this module starts on loopback
(``ray start --head``, stopped by its process group at the end) joined by ``--address``, and
the local Ray the command starts and stops itself. Both give exactly the result the local
processes give. The commands run as subprocesses, so Ray never lives in the test process."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TEAMS = Path(__file__).resolve().parents[2] / "examples" / "teams"
A, B = str(TEAMS / "intro.yaml"), str(TEAMS / "idris_cult_of_speed.yaml")
RAY = Path(sys.executable).with_name("ray")
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled",
       # a one-machine cluster: every Ray process takes 127.0.0.1 as its node's address
       "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Ray head on 127.0.0.1 with 2 CPUs; yields its address."""
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="rayt-", dir="/tmp")  # Ray's socket paths must stay short
    log = open(Path(tmp) / "start.log", "w")  # noqa: SIM115 (closed at the end)
    proc = subprocess.Popen(
        [str(RAY), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
         f"--port={port}", "--num-cpus=2", f"--temp-dir={tmp}", "--include-dashboard=false",
         "--disable-usage-stats", "--object-store-memory=100000000"],
        stdout=log, stderr=subprocess.STDOUT, env=ENV, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while "Ray runtime started" not in (Path(tmp) / "start.log").read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("ray start failed:\n" + (Path(tmp) / "start.log").read_text())
            time.sleep(0.25)
        assert answers(port)
        yield f"127.0.0.1:{port}"
    finally:
        # Its own process group only: SIGTERM (Ray drains), then SIGKILL what is left.
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def tourney(*args: str) -> dict[str, Any]:
    r = subprocess.run([sys.executable, "-m", "carnage.cli.main", "tourney", A, B, "--games", "6",
                        "--seed", "5", "--json", *args],
                       capture_output=True, text=True, env=ENV, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    out: dict[str, Any] = json.loads(r.stdout)
    return out


@pytest.fixture(scope="module")
def local() -> dict[str, Any]:
    return tourney("--workers", "2")


def test_a_tourney_on_a_running_ray_cluster_is_the_local_one(
        cluster: str, local: dict[str, Any]) -> None:
    s = tourney("--backend", "ray", "--address", cluster, "--workers", "2")
    run = s.pop("run")
    assert (run["backend"], run["address"], run["workers"]) == ("ray", cluster, 2)
    assert run["games_per_second"] > 0
    assert s == {k: v for k, v in local.items() if k != "run"}
    assert answers(int(cluster.rsplit(":", 1)[1]))  # the cluster is left running


def test_a_tourney_on_the_local_ray_it_starts_itself(local: dict[str, Any]) -> None:
    s = tourney("--backend", "ray", "--workers", "2")
    run = s.pop("run")
    assert (run["backend"], run["address"]) == ("ray", None)
    assert run["startup_seconds"] > 0
    assert s == {k: v for k, v in local.items() if k != "run"}
