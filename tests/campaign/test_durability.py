"""A writer process is killed (SIGKILL) in the middle of post-game writes, again and again;
after each kill the database opens intact and holds every acknowledged result whole."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from carnage.campaign.store import CampaignStore

WRITER = Path(__file__).with_name("writer.py")
KILLS = 20


def _run_until_killed(url: str, cid: str, rng: random.Random) -> list[int]:
    """Start the writer, let it acknowledge at least one result, kill it mid-stream at a
    random moment; the game numbers it acknowledged."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    proc = subprocess.Popen([sys.executable, str(WRITER), url, cid], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    acked: list[int] = []
    fd = proc.stdout.fileno()
    buf = b""
    deadline = None
    hard = time.monotonic() + 60
    while time.monotonic() < hard:
        if deadline is not None and time.monotonic() >= deadline:
            break
        ready, _, _ = select.select([fd], [], [], 0.01)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
            *lines, buf = buf.split(b"\n")
            acked += [int(x) for x in lines if x.strip()]
            if acked and deadline is None:
                deadline = time.monotonic() + rng.uniform(0.0, 0.25)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # lines printed before the kill but not read yet are acknowledgements too
    rest = buf + proc.stdout.read()
    acked += [int(x) for x in rest.split(b"\n") if x.strip()]
    proc.stdout.close()
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    assert acked, f"the writer acknowledged nothing: {err[-500:]}"
    return acked


def test_killed_writers_lose_no_acknowledged_result(db_url: str) -> None:
    rng = random.Random(7)
    store = CampaignStore(db_url)
    cid = store.create("championship", {}, [])
    store.close()
    acked_all: list[int] = []
    for kill in range(KILLS):
        acked_all += _run_until_killed(db_url, cid, rng)
        store = CampaignStore(db_url)  # the restart
        if db_url.startswith("sqlite"):
            with store.engine.connect() as conn:
                assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        c = store.get(cid)
        games = [r.data["n"] for r in c.records if r.kind == "game"]
        assert games == list(range(1, len(games) + 1)), f"after kill {kill + 1}"
        assert set(acked_all) <= set(games), f"an acknowledged result is gone (kill {kill + 1})"
        # every sequence is whole: four records per game, none half-written
        by_game: dict[str | None, list[str]] = {}
        for r in c.records:
            by_game.setdefault(r.game_id, []).append(r.kind)
        assert all(kinds == ["game", "points", "points", "allowance"]
                   for kinds in by_game.values())
        assert c.version == 1 + len(games)
        assert [r.seq for r in c.records] == list(range(len(c.records)))
        store.close()
    assert len(acked_all) >= KILLS
