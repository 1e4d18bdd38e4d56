"""Bots off the request path (web/botpool.py): bot decisions computed in worker processes from
plain data, answered deterministically per seed and version, applied by version (a stale
answer dropped), a failing bot leaving the game as it stood and saying so; a human's choice
answered while the bot still thinks, the bot's move pushed on the websocket afterwards; a game
left waiting on a bot picked up again by another server.

The toy race of ``test_one_session_path`` is played with bots made here, registered in the
test process and, through the pool's initializer, in every worker process."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, first_choice
from tests.web.test_api_ws import recv
from tests.web.test_one_session_path import TOY, Race

import carnage.rulesets
from carnage.ai.runner import bot_rng
from carnage.kernel.decisions import Decision
from carnage.web.app import create_app
from carnage.web.botpool import BotJob, BotPool, decision_seed, think
from carnage.web.db import Store
from carnage.web.schemas import NewGameRequest
from carnage.web.sessions import ApiError, Games

GATE: Path | None = None
"""While this file does not exist, the gated bot waits (set in each worker by ``register``)."""
WAIT = 30.0
"""Seconds the gated bot waits for its gate before it gives up (never a hung test)."""


class Gated:
    """Adds 1, once the gate is open; notes the process it decided in beside the gate."""

    name = "heuristic"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        assert GATE is not None, "the gated bot decides only in a worker of the test's pool"
        GATE.with_suffix(".pid").write_text(str(os.getpid()))
        deadline = time.monotonic() + WAIT
        while not GATE.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the test never opened the gate")
            time.sleep(0.02)
        return 1


class Dice:
    """Adds 1 or 2 as its rng says."""

    name = "random"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        return rng.choice([1, 2])


class Broken:
    name = "heuristic"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        raise RuntimeError("the bot's wheels came off")


class Illegal:
    name = "random"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        return 7


class Crash:
    """Kills the worker process it decides in."""

    name = "heuristic"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        os._exit(3)


POOLED = dataclasses.replace(TOY, bots={"heuristic": Gated, "random": Dice})
BROKEN = dataclasses.replace(TOY, name="toy-broken", title="Broken Race",
                             bots={"heuristic": Broken, "random": Illegal})


CRASHING = dataclasses.replace(TOY, name="toy-crash", title="Crashing Race",
                               bots={"heuristic": Crash, "random": Dice})


def registered() -> Any:
    return carnage.rulesets.RULESETS.with_ruleset(POOLED).with_ruleset(BROKEN).with_ruleset(
        CRASHING)


def register(gate: str) -> None:
    """The pool's initializer: the toy rulesets and the gate, in a worker process."""
    global GATE
    GATE = Path(gate)
    carnage.rulesets.RULESETS = registered()


@pytest.fixture(autouse=True)
def toys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(carnage.rulesets, "RULESETS", registered())


@pytest.fixture
def gate(tmp_path: Path) -> Path:
    return tmp_path / "gate"


@pytest.fixture
def pool(gate: Path) -> Iterator[BotPool]:
    p = BotPool(1, initializer=functools.partial(register, str(gate)))
    yield p
    gate.touch()  # a gated bot still waiting gives up its wait at once
    p.shutdown()


def job(game: Race, controller: str, seed: int = 4) -> BotJob:
    v = len(game.choices)
    d = game.pending()
    assert d is not None
    return BotJob(gid="g", ruleset="toy", snapshot=game.snapshot(), controller=controller,
                  seat=d.player, version=v, rng_seed=decision_seed(seed, v))


def race_after(*choices: int) -> Race:
    game = Race(4)
    for c in choices:
        game.apply(c)
    return game


def wait_for(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = check()
        if out:
            return out
        time.sleep(0.05)
    raise AssertionError("the bot pool did not answer in time")


# -- the pool alone ------------------------------------------------------------------------------
def test_a_job_round_trips_through_a_worker_process(pool: BotPool, gate: Path) -> None:
    gate.touch()
    answer = pool.submit(job(race_after(2), "heuristic")).result(timeout=60)
    assert answer == {"version": 1, "seat": 1, "choice": 1, "then": [], "note": None,
                      "notes": []}
    worker = int(gate.with_suffix(".pid").read_text())
    assert worker != os.getpid()  # decided in another process, from the plain data alone


def test_the_answer_is_the_same_per_seed_and_version_in_any_process(
        pool: BotPool, gate: Path) -> None:
    games = [race_after(), race_after(1), race_after(1, 1), race_after(2, 1)]
    local = [think(job(g, "random", seed)) for g in games for seed in (4, 5, 6)]
    pooled = [pool.submit(job(g, "random", seed)).result(timeout=60)
              for g in games for seed in (4, 5, 6)]
    assert pooled == local
    # each answer is the rng seeded by the game's seed and the version, nothing else
    expected = [bot_rng(f"{seed}:{len(g.choices)}").choice([1, 2])
                for g in games for seed in (4, 5, 6)]
    assert [a["choice"] for a in pooled] == expected
    assert len(set(expected)) == 2  # the seeds do lead to different choices


def test_a_job_goes_on_answering_the_bots_decisions_that_follow_as_inline_play_would(
        pool: BotPool) -> None:
    """Both seats bots: one job answers the decisions that follow (one save for the lot), each
    with the rng of its own version, so the batch is what inline play would have chosen."""
    game = race_after()
    batch = dataclasses.replace(job(game, "random", 5), then={0: "random", 1: "random"},
                                seed=5, budget=60.0)
    answer = pool.submit(batch).result(timeout=60)
    inline = race_after()
    chosen = []
    while inline.pending() is not None:
        c = bot_rng(decision_seed(5, len(inline.choices))).choice([1, 2])
        inline.apply(c)
        chosen.append(c)
    assert [answer["choice"], *answer["then"]] == chosen and len(chosen) > 1
    one = dataclasses.replace(batch, then={})  # without ``then``: that one decision only
    assert pool.submit(one).result(timeout=60)["then"] == []


def test_a_job_for_the_wrong_seat_or_version_is_refused_by_the_worker(pool: BotPool) -> None:
    wrong_seat = dataclasses.replace(job(race_after(2), "random"), seat=0)
    with pytest.raises(ValueError, match="seat 1 is to decide, not seat 0"):
        pool.submit(wrong_seat).result(timeout=60)
    wrong_version = dataclasses.replace(job(race_after(2), "random"), version=3)
    with pytest.raises(ValueError, match="the snapshot holds 1 choices, the job says 3"):
        pool.submit(wrong_version).result(timeout=60)


# -- sessions with a pool ------------------------------------------------------------------------
def new_session(games: Games, ruleset: str, bot: str) -> Any:
    return games.create(NewGameRequest.model_validate({
        "ruleset": ruleset, "seed": 4,
        "seats": [{"controller": "human"}, {"controller": bot}]}))


def test_an_answer_is_applied_once_and_a_stale_one_dropped(
        tmp_path: Path, pool: BotPool, gate: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'pool.db'}")
    games = Games(store, pool)
    s = new_session(games, "toy", "random")
    token = s.seats[0].token
    s.decide(token, 0, 2)
    assert s.thinking is not None and (s.thinking.seat, s.thinking.version) == (1, 1)
    wait_for(lambda: len(store.game(s.id).choices) == 2)  # applied and saved
    assert s.thinking is None and store.game(s.id).choices == s.game.choices
    bot = s.game.choices[1]
    assert bot == bot_rng(decision_seed(4, 1)).choice([1, 2])
    # the same answer again (computed twice, e.g. by another process): dropped by version
    assert s.apply_bot(1, 1, bot) is False
    # an answer for a seat that is not to decide: dropped too
    assert s.apply_bot(2, 1, 1) is False
    assert len(s.game.choices) == 2 and len(store.game(s.id).choices) == 2
    # the inline bot would have answered the same
    inline = new_session(Games(store), "toy", "random")
    inline.decide(inline.seats[0].token, 0, 2)
    assert inline.game.choices[:2] == s.game.choices


@pytest.mark.parametrize("bot, why", [
    ("heuristic", "the bot failed: RuntimeError: the bot's wheels came off"),
    ("random", "the bot failed: ApiError: 7 is not one of the options"),
])
def test_a_failing_bot_leaves_the_game_as_it_stood_and_the_view_says_so(
        tmp_path: Path, pool: BotPool, bot: str, why: str,
        caplog: pytest.LogCaptureFixture) -> None:
    store = Store(f"sqlite:///{tmp_path / 'pool.db'}")
    games = Games(store, pool)
    s = new_session(games, "toy-broken", bot)
    token = s.seats[0].token
    s.decide(token, 0, 2)
    failed = wait_for(lambda: s.thinking is not None and s.thinking.failed and s.thinking)
    assert failed.failed.startswith(why)
    logged = [r for r in caplog.records if r.name == "carnage.web.botpool"]
    assert [r.levelname for r in logged] == ["ERROR"] and logged[0].exc_info is not None
    assert s.game.choices == [2] and s.game.count == 2  # the human's choice alone
    assert store.game(s.id).choices == [2]
    v = s.view([0])
    assert v["thinking"]["failed"].startswith(why) and v["thinking"]["team"] == "South"
    assert v["version"] == 1 and v["pending"]["seat"] == 1
    with pytest.raises(ApiError, match="cannot act for seat 1"):
        s.decide(token, 1, 1)
    # viewed again at once: it is not asked again (it failed for this very version)
    assert games.get(s.id).thinking is failed


def test_a_game_that_cannot_be_sent_to_its_bot_is_still_shown_and_says_why(
        tmp_path: Path, pool: BotPool, monkeypatch: pytest.MonkeyPatch) -> None:
    games = Games(Store(f"sqlite:///{tmp_path / 'pool.db'}"), pool)
    s = new_session(games, "toy", "random")

    def no_snapshot() -> Any:
        raise TypeError("a tampered game")

    s.game.apply(2)  # made and saved without scheduling the bot, as another process might
    s.save(0)
    monkeypatch.setattr(s, "snapshot", no_snapshot)  # the session's: it keeps the saved one
    v = games.get(s.id).view([0])
    assert v["version"] == 1 and v["thinking"]["failed"] == (
        "the bot failed: the game cannot be sent to it (TypeError: a tampered game)")


def test_a_worker_that_dies_is_replaced_and_its_game_says_the_bot_failed(
        tmp_path: Path, pool: BotPool, caplog: pytest.LogCaptureFixture) -> None:
    store = Store(f"sqlite:///{tmp_path / 'pool.db'}")
    games = Games(store, pool)
    s = new_session(games, "toy-crash", "heuristic")
    s.decide(s.seats[0].token, 0, 2)
    # sent again once to a new worker, which dies too: the bot failed, the game as it stood
    failed = wait_for(lambda: s.thinking is not None and s.thinking.failed and s.thinking)
    assert failed.failed.startswith("the bot failed: its worker process died")
    assert [r.getMessage() for r in caplog.records if r.name == "carnage.web.botpool"] == [
        f"game {s.id}: a bot worker died; its decision 1 is sent again",
        f"game {s.id}: the heuristic bot of seat 1 failed at decision 1: its worker process "
        "died"]
    assert s.game.choices == [2] and store.game(s.id).choices == [2]
    # the pool works on with new workers
    other = new_session(games, "toy-crash", "random")
    other.decide(other.seats[0].token, 0, 2)
    wait_for(lambda: len(store.game(other.id).choices) == 2)


# -- the table: answered at once, the bot's move pushed ----------------------------------------
def pool_client(tmp_path: Path, pool: BotPool) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'table.db'}", bot_pool=pool))


def test_a_humans_choice_is_answered_while_the_bot_thinks_then_its_move_is_pushed(
        tmp_path: Path, pool: BotPool, gate: Path) -> None:
    with pool_client(tmp_path, pool) as client:
        r = client.post("/api/games", json={"ruleset": "toy", "seed": 4, "seats": [
            {"controller": "human"}, {"controller": "heuristic"}]})
        assert r.status_code == 201, r.text
        gid, token = r.json()["id"], r.json()["seats"][0]["token"]
        with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:
            first = recv(ws)["view"]
            assert first["version"] == 0 and first["thinking"] is None
            ws.send_json({"type": "decision", "version": 0, "choice": 2})
            mine = recv(ws)["view"]
            # the gate is shut: the bot cannot have answered, yet the choice is answered
            assert not gate.exists()
            assert (mine["version"], mine["count"], mine["your_turn"]) == (1, 2, False)
            thinking = mine["thinking"]
            assert (thinking["seat"], thinking["team"], thinking["version"],
                    thinking["failed"]) == (1, "South", 1, None)
            assert client.get(f"/api/games/{gid}").json()["thinking"] == thinking
            gate.touch()
            moved = recv(ws)["view"]
            assert (moved["version"], moved["count"], moved["your_turn"]) == (2, 3, True)
            assert moved["thinking"] is None
            # over HTTP too: answered at once, then the bot's move on the socket
            gate.unlink()
            r = client.post(f"/api/games/{gid}/decisions",
                            json={"token": token, "version": 2, "choice": 1})
            assert r.status_code == 200, r.text
            assert r.json()["thinking"]["version"] == 3 and r.json()["count"] == 4
            assert recv(ws)["view"]["version"] == 3  # the human's move, pushed
            gate.touch()
            last = recv(ws)["view"]
            assert (last["version"], last["status"], last["thinking"]) == (4, "finished", None)


class Stopped(BotPool):
    """A server that stopped after it saved a human's choice, before it sent the bot's
    decision to its workers: the game waits on a bot and nothing computes it."""

    def schedule(self, session: Any) -> bool:
        return False


def test_a_game_left_waiting_on_a_bot_is_picked_up_by_the_next_server(
        tmp_path: Path, pool: BotPool, gate: Path) -> None:
    with pool_client(tmp_path, Stopped(1)) as client:
        r = client.post("/api/games", json={"ruleset": "toy", "seed": 4, "seats": [
            {"controller": "human"}, {"controller": "heuristic"}]})
        gid, token = r.json()["id"], r.json()["seats"][0]["token"]
        r = client.post(f"/api/games/{gid}/decisions",
                        json={"token": token, "version": 0, "choice": 2})
        assert r.status_code == 200 and r.json()["version"] == 1
        assert r.json()["pending"]["seat"] == 1 and r.json()["thinking"] is None
    gate.touch()
    with pool_client(tmp_path, pool) as client:
        first = client.get(f"/api/games/{gid}", params={"token": token}).json()
        assert first["version"] == 1 and first["thinking"]["failed"] is None
        moved = wait_for(lambda: (v := client.get(f"/api/games/{gid}").json())["version"] == 2
                         and v)
        assert moved["count"] == 3 and moved["thinking"] is None


def test_the_search_bot_explains_its_choices_from_a_worker(
        tmp_path: Path, pool: BotPool) -> None:
    with pool_client(tmp_path, pool) as client:
        r = client.post("/api/games", json={"scenario": "street-race", "seed": 3, "seats": [
            {"controller": "search:easy"}, {"controller": "human"}]})
        gid, token = r.json()["id"], r.json()["seats"][1]["token"]

        def my_turn() -> Any:
            v = client.get(f"/api/games/{gid}", params={"token": token}).json()
            return v["pending"] is not None and v["pending"]["seat"] == 1 and v

        v = wait_for(my_turn)
        for _ in range(60):
            if v["bot_notes"]:
                break
            r = client.post(f"/api/games/{gid}/decisions", json={
                "token": token, "version": v["version"], "choice": first_choice(v["pending"])})
            assert r.status_code == 200, r.text
            if r.json()["thinking"] is not None:
                assert r.json()["thinking"]["seat"] == 0
            v = wait_for(my_turn)
        assert v["thinking"] is None
        note = v["bot_notes"][0]
        assert note["seat"] == 0
        assert note["lines"][0].startswith("search (easy) weighed")
        assert note["reason"] and note["reason"] in (x.strip() for x in note["lines"])
        assert [n["decision"] for n in v["bot_notes"]] == sorted(
            (n["decision"] for n in v["bot_notes"]), reverse=True)


def test_a_worker_brings_back_each_search_seats_reason_for_its_last_decision() -> None:
    from carnage.rulesets import get_ruleset

    game = get_ruleset("refuelled").new_game(scenario="street-race", seed=3)
    d = game.pending()
    assert d is not None
    answer = think(BotJob(gid="g", ruleset="refuelled", snapshot=game.snapshot(),
                          controller="search:easy", seat=d.player, version=0,
                          rng_seed=decision_seed(3, 0),
                          then={0: "search:easy", 1: "search:easy"}, seed=3, budget=2.0))
    assert answer["then"], "the worker went on answering the seats' decisions"
    notes = {n["seat"]: n for n in answer["notes"]}
    assert set(notes) == {0, 1}, "every search seat's last decision is brought back"
    for n in notes.values():
        assert n["reason"] and n["reason"] == n["lines"][1].strip()
    assert answer["note"] in answer["notes"]
    assert answer["note"]["decision"] == max(n["decision"] for n in notes.values())


# -- carnage serve -------------------------------------------------------------------------------
def _http(url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def test_carnage_serve_plays_the_bots_in_its_workers_and_stops_cleanly(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    exe = Path(sys.executable).with_name("carnage")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "carnage.cli.main"]
    proc = subprocess.Popen(
        [*cmd, "serve", "--port", str(port), "--bot-workers", "1",
         "--db", f"sqlite:///{tmp_path / 's.db'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        assert proc.stdout is not None
        assert base in proc.stdout.readline()
        game = wait_for(lambda: _up(base), timeout=30)
        gid, token = game["id"], game["seats"][0]["token"]
        v = _http(f"{base}/api/games/{gid}?token={token}")
        start = v["version"]
        while v["thinking"] is None:  # the human's first options until the bot must decide
            p = v["pending"]
            choice = p["options"][0]["value"] if p["options"] else p["domain"]["low"]
            v = _http(f"{base}/api/games/{gid}/decisions",
                      {"token": token, "version": v["version"], "choice": choice})
            assert v["version"] < start + 40, "the bot never had to decide"
        assert v["thinking"]["team"] == "Blue Racers" and v["pending"]["seat"] == 1
        after = wait_for(lambda: (x := _http(f"{base}/api/games/{gid}?token={token}"))[
            "thinking"] is None and x)
        assert after["version"] > v["version"] and after["pending"]["seat"] == 0
        workers = _descendants(proc.pid)
        assert workers, "the bots' worker processes run under the server"
    finally:
        proc.terminate()  # as Ctrl+C: uvicorn stops gracefully, then re-raises the signal
        out = proc.communicate(timeout=30)[0]
    assert proc.returncode in (0, -signal.SIGTERM), out
    assert "Traceback" not in out, out
    # the pool was shut down with the server: none of its processes is left behind
    wait_for(lambda: not [p for p in workers if Path(f"/proc/{p}").exists()
                          and _state(p) not in ("Z", "X")], timeout=10)


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "X"


def _up(base: str) -> Any:
    try:
        return _http(f"{base}/api/games", {"scenario": "street-race", "seed": 5, "seats": [
            {"controller": "human"}, {"controller": "heuristic"}]})
    except OSError:
        return None


def test_the_workers_think_at_a_lower_priority_than_the_server(pool: BotPool) -> None:
    """A person's choice is answered before a bot's thinking goes on, on a busy machine."""
    from carnage.web.botpool import WORKER_NICE

    pool.start(wait=True)
    worker = pool._ensure().submit(os.nice, 0).result(timeout=60)
    assert worker == min(19, os.nice(0) + WORKER_NICE)


class Held(BotPool):
    """A process's pool that keeps the jobs it is given (it never answers them)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.jobs: list[BotJob] = []

    def _send(self, session: Any, job: BotJob, resubmits: int) -> None:
        self.jobs.append(job)


def test_a_bot_decision_another_process_sent_is_not_computed_twice(
        tmp_path: Path, pool: BotPool, gate: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game read through a second process while its bot thinks in the first (a round-robin
    proxy): the second says the bot thinks and sends nothing; the first's answer is the one
    taken. Had the first stopped, the second sends the decision itself after
    ``ELSEWHERE_GRACE`` seconds, unread or not."""
    import carnage.web.botpool as botpool_module

    store = Store(f"sqlite:///{tmp_path / 'pool.db'}")
    store.shared = True  # two Games on one file stand for two processes
    other = Held()
    a, b = Games(store, pool), Games(store, other)
    pool.start(wait=True)
    monkeypatch.setattr(botpool_module, "ELSEWHERE_GRACE", 60.0)
    s = new_session(a, "toy", "heuristic")
    s.decide(s.seats[0].token, 0, 2)  # A sends the bot's decision to its (gated) worker
    assert s.thinking is not None and (s.thinking.seat, s.thinking.version) == (1, 1)
    seen = json.loads(b.get(s.id).view_json([0]))
    assert (seen["thinking"]["seat"], seen["thinking"]["version"]) == (1, 1)
    assert other.jobs == []
    gate.touch()
    wait_for(lambda: store.version(s.id) == 2)  # A's worker answered, A saved it
    now = json.loads(b.get(s.id).view_json([0]))
    assert now["version"] == 2 and now["thinking"] is None and other.jobs == []
    # A stopped before answering (its pool holds the job): B takes it over, nobody reading
    monkeypatch.setattr(botpool_module, "ELSEWHERE_GRACE", 0.3)
    stopped = Held()
    t = new_session(Games(store, stopped), "toy", "heuristic")
    t.decide(t.seats[0].token, 0, 2)
    assert [(j.seat, j.version) for j in stopped.jobs] == [(1, 1)]
    assert b.get(t.id).thinking is not None and other.jobs == []
    wait_for(lambda: other.jobs)
    assert [(j.gid, j.seat, j.version) for j in other.jobs] == [(t.id, 1, 1)]
    other.shutdown()
    stopped.shutdown()


def test_a_game_loaded_by_the_one_process_of_sqlite_sends_its_bot_decision_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite is served by one process: a game it loads (after a restart, say) owes its bot
    decision to nobody else, so the decision is sent at once, with no grace for another
    process to answer first."""
    import carnage.web.botpool as botpool_module

    monkeypatch.setattr(botpool_module, "ELSEWHERE_GRACE", 60.0)
    store = Store(f"sqlite:///{tmp_path / 'alone.db'}")
    first = Held()
    s = new_session(Games(store, first), "toy", "heuristic")
    s.decide(s.seats[0].token, 0, 2)
    assert [(j.seat, j.version) for j in first.jobs] == [(1, 1)]
    first.shutdown()  # the process stops before its bot answers; a new one starts
    again = Held()
    loaded = Games(store, again).get(s.id)
    assert loaded.seen_elsewhere is None
    assert [(j.seat, j.version) for j in again.jobs] == [(1, 1)]
    again.shutdown()
