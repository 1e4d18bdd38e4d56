"""The database is the table: two real ``carnage serve`` processes on loopback ports against
one real PostgreSQL serve every game as one. A game made through one is played through the
other, the same choice sent to both at once is taken exactly once, websockets on either see
every change, and a process killed with SIGKILL loses nothing the other cannot go on from."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.campaign.conftest import pg_server  # noqa: F401  (the session's server)
from tests.campaign.pg import Server
from tests.web.test_api_support import first_choice
from websockets.sync.client import ClientConnection, connect

from carnage.web.db import Store

START_SECONDS = 120.0
"""How long a served process may take to be ready (plain Python on a busy machine)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    base: str
    log: Path

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=60)

    def ws_url(self, path: str) -> str:
        return "ws" + self.base.removeprefix("http") + path


def serve(db_url: str, log: Path, *extra: str) -> Served:
    """A real ``carnage serve`` on a free loopback port, once its ``/readyz`` says ready."""
    port = _free_port()
    exe = Path(sys.executable).with_name("carnage")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "carnage.cli.main"]
    out = log.open("wb")
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--db", db_url, *extra],
                            stdout=out, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    served = Served(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"carnage serve exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(served.base + "/readyz", timeout=5).status_code == 200:
                return served
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    stop(served)
    raise RuntimeError(f"carnage serve was not ready in time: {log.read_text()[-2000:]}")


def stop(served: Served) -> None:
    if served.proc.poll() is None:
        served.proc.send_signal(signal.SIGTERM)
        try:
            served.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            served.proc.kill()
            served.proc.wait()


@pytest.fixture(scope="module")
def db_url(pg_server: Server | str) -> str:  # noqa: F811
    if isinstance(pg_server, str):
        pytest.fail(f"no PostgreSQL server could be started (make test installs it): "
                    f"{pg_server}")
    return pg_server.fresh_database("carnage_many_processes")


@pytest.fixture(scope="module")
def pair(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Served]]:
    """Two processes on the same database."""
    logs = tmp_path_factory.mktemp("many_processes")
    a = serve(db_url, logs / "a.log")
    try:
        b = serve(db_url, logs / "b.log")
    except BaseException:
        stop(a)
        raise
    try:
        yield [a, b]
    finally:
        stop(a)
        stop(b)


def hot_seat(c: httpx.Client, seed: int = 11) -> tuple[str, str]:
    """A two-human hot-seat game (no bot moves: each choice adds exactly one); its id and
    both seats' tokens joined (the one tab plays either seat)."""
    r = c.post("/api/games", json={"scenario": "street-race", "seed": seed, "hot_seat": True,
                                   "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], ",".join(s["token"] for s in g["seats"])


def view(c: httpx.Client, gid: str, tok: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", params={"token": tok})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(c: httpx.Client, gid: str, tok: str, v: dict[str, Any]) -> httpx.Response:
    return c.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": v["version"], "choice": first_choice(v["pending"])})


def saved_choices(db_url: str, gid: str) -> list[Any]:
    store = Store(db_url)
    try:
        row = store.game(gid)
        assert row is not None
        return row.choices
    finally:
        store.close()


def test_a_game_made_through_one_process_is_played_through_the_other(
        pair: list[Served]) -> None:
    a, b = pair
    with a.client() as ca, b.client() as cb:
        gid, tok = hot_seat(ca)
        seen = view(cb, gid, tok)
        assert seen["version"] == view(ca, gid, tok)["version"]
        for i in range(8):  # each choice through one, seen at once through the other
            here, there = (ca, cb) if i % 2 else (cb, ca)
            r = act(here, gid, tok, seen)
            assert r.status_code == 200, r.text
            done = r.json()
            seen = view(there, gid, tok)
            assert seen["version"] == done["version"] == i + 1
            assert seen["pending"] == done["pending"] and seen["log"] == done["log"]
        # a choice against the version before is stale on either process
        old = {**seen, "version": seen["version"] - 1}
        for c in (ca, cb):
            r = act(c, gid, tok, old)
            assert r.status_code == 409 and "stale state" in r.json()["detail"]


def _send(go: threading.Barrier, answers: list[httpx.Response], c: httpx.Client, gid: str,
          tok: str, v: dict[str, Any], choice: Any) -> None:
    go.wait()
    answers.append(c.post(f"/api/games/{gid}/decisions", json={
        "token": tok, "version": v["version"], "choice": choice}))


def _other(pending: dict[str, Any]) -> Any:
    """A legal answer that is not ``first_choice``: the last option, or the domain's top."""
    return pending["options"][-1]["value"] if pending["options"] else pending["domain"]["high"]


def test_the_same_choice_sent_to_both_at_once_is_taken_exactly_once(
        pair: list[Served], db_url: str) -> None:
    """Two answers to one decision sent to both processes at once: exactly one is taken. Two
    different answers: the other is refused as stale. The same answer twice (a client's
    resend, through a proxy, to the other process): both are answered with the game that
    took it once."""
    a, b = pair
    with a.client() as ca, b.client() as cb:
        gid, tok = hot_seat(ca, seed=12)
        view(cb, gid, tok)  # both processes hold the game cached
        for i in range(8):
            v = view(ca, gid, tok)
            before = saved_choices(db_url, gid)
            answers: list[httpx.Response] = []
            go = threading.Barrier(2)
            resend = i % 2 == 1
            choices = [first_choice(v["pending"])] * 2 if resend else \
                [first_choice(v["pending"]), _other(v["pending"])]
            threads = [threading.Thread(target=_send, args=(go, answers, c, gid, tok, v, x))
                       for c, x in zip((ca, cb), choices, strict=True)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            after = saved_choices(db_url, gid)
            assert len(after) == len(before) + 1 and after[:-1] == before
            if resend:
                assert [r.status_code for r in answers] == [200, 200], \
                    [r.text for r in answers]
                won = answers[0].json()
                assert all(r.json()["version"] == len(after) for r in answers)
            else:
                assert sorted(r.status_code for r in answers) == [200, 409], \
                    [r.text for r in answers]
                won = next(r for r in answers if r.status_code == 200).json()
                lost = next(r for r in answers if r.status_code == 409).json()
                assert "stale state" in lost["detail"]
            assert won["version"] == len(after)
            # both processes now show the winner's game (memory rolled to the database)
            for c in (ca, cb):
                now = view(c, gid, tok)
                assert now["version"] == won["version"] and now["pending"] == won["pending"]


def _next_view(ws: ClientConnection, version: int, timeout: float = 30.0) -> dict[str, Any]:
    """The first view frame at ``version`` (earlier frames skipped); fails after timeout."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no view at version {version} within {timeout} s"
        msg = json.loads(ws.recv(timeout=left))
        assert msg["type"] == "view", msg
        if msg["view"]["version"] == version:
            out: dict[str, Any] = msg["view"]
            return out
        assert msg["view"]["version"] < version, msg["view"]["version"]


def test_websockets_on_either_process_see_every_change(pair: list[Served]) -> None:
    a, b = pair
    with a.client() as ca, b.client() as cb:
        gid, tok = hot_seat(cb, seed=13)
        v = view(ca, gid, tok)
        with connect(a.ws_url(f"/api/games/{gid}/ws?token={tok}")) as on_a, \
                connect(b.ws_url(f"/api/games/{gid}/ws")) as on_b:
            assert _next_view(on_a, v["version"])["version"] == v["version"]
            assert _next_view(on_b, v["version"])["your_seat"] is None
            for i in range(6):
                c = ca if i % 2 else cb
                r = act(c, gid, tok, v)
                assert r.status_code == 200, r.text
                v = r.json()
                pushed_a = _next_view(on_a, v["version"])
                pushed_b = _next_view(on_b, v["version"])
                assert pushed_a["pending"] == v["pending"]
                assert pushed_b["version"] == v["version"]
            # a decision sent over process A's socket reaches process B's watcher too
            on_a.send(json.dumps({"type": "decision", "version": v["version"],
                                  "choice": first_choice(v["pending"])}))
            assert _next_view(on_b, v["version"] + 1)["version"] == v["version"] + 1
            assert view(cb, gid, tok)["version"] == v["version"] + 1


def test_a_game_goes_on_through_the_other_process_after_kill_9(
        pair: list[Served], db_url: str, tmp_path: Path) -> None:
    _, b = pair
    c = serve(db_url, tmp_path / "c.log")
    try:
        with c.client() as cc, b.client() as cb:
            gid, tok = hot_seat(cc, seed=14)
            v = view(cc, gid, tok)
            for _ in range(7):
                r = act(cc, gid, tok, v)
                assert r.status_code == 200, r.text
                v = r.json()
            view(cb, gid, tok)  # B has it cached too, at the same version
            c.proc.send_signal(signal.SIGKILL)
            c.proc.wait(timeout=30)
            after = view(cb, gid, tok)
            assert after["version"] == v["version"] and after["pending"] == v["pending"]
            assert after["log"] == v["log"]
            assert len(saved_choices(db_url, gid)) == v["version"]
            for _ in range(5):
                r = act(cb, gid, tok, after)
                assert r.status_code == 200, r.text
                after = r.json()
            assert after["version"] == v["version"] + 5
            assert len(saved_choices(db_url, gid)) == after["version"]
    finally:
        stop(c)


def test_several_workers_on_one_port_serve_one_game(db_url: str, tmp_path: Path) -> None:
    """``--workers 2``: uvicorn's worker processes behind one port, every request to either
    answered from the database."""
    w = serve(db_url, tmp_path / "w.log", "--workers", "2")
    try:
        with w.client() as cw:
            gid, tok = hot_seat(cw, seed=15)
            v = view(cw, gid, tok)
        for _ in range(6):  # a new connection each time: either worker may answer
            with w.client() as cw:
                r = act(cw, gid, tok, v)
                assert r.status_code == 200, r.text
                v = r.json()
            with w.client() as cw:
                assert view(cw, gid, tok)["version"] == v["version"]
    finally:
        stop(w)
    assert w.proc.returncode == 0, w.log.read_text()[-2000:]
