"""Build-vs-build tourneys: many seeded bot games of team A against team B, summarised with
95% Wilson intervals.

Game ``i`` (0-based) of a tourney with master seed ``S`` is fully known from ``(S, i)``:
games come in pairs that share one dice seed (``game_seed(S, i // 2)``, a hash of the master
seed and the pair), team A in seat 1 in the even game of the pair and in seat 2 in the odd one,
so pole position and seat order cancel out and both seatings see the same dice stream. Each
team keeps its own bot whichever seat it sits in. Because every game depends only on its
index, the summary is the same for any number of workers and on any backend: games are
played in chunks on local processes (``analysis/workers.py``) or as Ray tasks, and the
results are put back in game order before they are summed.

What a tourney needs of a game, the ruleset declares (``Ruleset.tourney``, a
``kernel/tourney.py`` ``TourneyOffer`` written in its game package: Refuelled's
``games/refuelled/tourney.py``, which the Kart variant and Legacy inherit): the team check, a
game's set-up as JSON (what workers rebuild the game from, by the ruleset's name), and per
vehicle at the end whether it survived, the damage it dealt and the damage it took. Who won
is the game's ``outcome()``. Nothing here imports a game or names a ruleset but the
registry's default (``carnage.rulesets.DEFAULT_RULESET``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import carnage.rulesets as registry
from carnage import bounds
from carnage.ai import bots_for, make_bot_for, play_out
from carnage.ai.runner import bot_rng
from carnage.kernel.contract import PlayableGame
from carnage.kernel.events import JsonValue
from carnage.kernel.game import KernelGame
from carnage.kernel.session import SetupRefused
from carnage.kernel.tourney import TourneyOffer, TourneyTeam
from carnage.rulesets import DEFAULT_RULESET

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""

BACKENDS = ("local", "ray")
RESULTS = ("win", "draw", "loss")
TEAMS = ("A", "B")


class TourneyError(ValueError):
    """A tourney cannot be run as asked; a one-line message naming what is wrong."""


# -- statistics --------------------------------------------------------------------------------
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``successes`` of ``n``); (0, 1)
    when nothing was observed."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes of {n} trials")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def proportion(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": round(k / n, 6) if n else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)]}


# -- seeds -------------------------------------------------------------------------------------
def game_seed(master: int, game: int) -> int:
    """The dice seed of game ``game``: both games of a pair (``game // 2``) share it."""
    digest = hashlib.sha256(f"carnage-tourney:{master}:{game // 2}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def a_seat(game: int) -> int:
    """Team A's seat (0-based) in game ``game``: seat 1 in even games, seat 2 in odd ones."""
    return game % 2


# -- one game ---------------------------------------------------------------------------------
def offer_of(ruleset: str) -> TourneyOffer:
    """What ``ruleset`` declares of its tourney games (``Ruleset.tourney``); ``TourneyError``
    for an unknown ruleset or one that plays no tourney, naming those that do."""
    try:
        rs = registry.get_ruleset(ruleset)
    except KeyError:
        raise TourneyError(f"--ruleset: unknown ruleset {ruleset!r} "
                           f"(tourneys play: {', '.join(tourney_rulesets())})") from None
    if rs.tourney is None:
        raise TourneyError(f"--ruleset {ruleset}: {rs.title} offers no tourney "
                           f"(tourneys play: {', '.join(tourney_rulesets())})")
    return rs.tourney


def play_seeded(ruleset: str, setup: Mapping[str, JsonValue], bot_names: Sequence[str],
                seed: int) -> PlayableGame:
    """Build the game ``ruleset``'s tourney offer set up as ``setup``, with dice seeded by
    ``seed``, and let the named bots (one per seat) play it out, their own randomness seeded
    from the same ``seed``."""
    game = offer_of(ruleset).new_game(setup, seed)
    if isinstance(game, KernelGame):
        game.lazy_checkpoints = True  # played through apply() only, never edited
    play_out(game, bots_for(registry.get_ruleset(ruleset), bot_names), bot_rng(seed))
    return game


def play_game(job: dict[str, Any], game: int) -> dict[str, Any]:
    """Game ``game`` of the tourney ``job`` (``job_spec``), as a small JSON-able record:
    ``result`` (for team A: win, draw, loss; or error), ``rounds``, ``reason`` and per vehicle
    ``[team, index, in play at the end, damage dealt, damage taken]``."""
    seat = a_seat(game)
    seed = game_seed(int(job["seed"]), game)
    ruleset = str(job["ruleset"])
    bots = list(job["bots"]) if seat == 0 else list(reversed(job["bots"]))
    out: dict[str, Any] = {"game": game, "seed": seed, "a_seat": seat}
    try:
        g = play_seeded(ruleset, job["setups"][seat], bots, seed)
        o = g.outcome()
        assert o is not None
        tallies = offer_of(ruleset).tally(g)
    except Exception as e:  # a crashing game is counted and reported; the tourney goes on
        first = str(e).splitlines()[0][:200] if str(e) else ""
        return {**out, "result": "error", "error": f"{type(e).__name__}: {first}"}
    result = ("draw" if o.draw or o.winner is None
              else "win" if o.winner == seat else "loss")
    index = {0: 0, 1: 0}
    rows = []
    for v in tallies:
        if v.player not in index:
            continue
        team = "A" if v.player == seat else "B"
        rows.append([team, index[v.player], v.survived, v.dealt, v.taken])
        index[v.player] += 1
    return {**out, "result": result, "rounds": o.rounds, "reason": o.reason, "vehicles": rows}


def play_chunk(job: dict[str, Any], games: Sequence[int]) -> list[dict[str, Any]]:
    from carnage.analysis.workers import bulk_play

    with bulk_play():
        return [play_game(job, i) for i in games]


# -- a whole tourney ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tourney:
    """What to play: team A against team B."""

    a: TourneyTeam
    b: TourneyTeam
    games: int
    seed: int = 0
    scenario: str | None = None
    """None: the ruleset's default (``TourneyOffer.default_scenario``)."""
    ruleset: str = DEFAULT_RULESET
    bots: tuple[str, str] = ("heuristic", "heuristic")
    """Team A's bot and team B's bot (each keeps its bot in either seat)."""
    max_rounds: int | None = None
    """None: the ruleset's (``TourneyOffer.max_rounds``)."""
    a_source: str = "team A"
    b_source: str = "team B"

    def scenario_id(self) -> str:
        """The scenario played (``TourneyError`` if the ruleset plays no tourney)."""
        return self.scenario if self.scenario is not None else (
            offer_of(self.ruleset).default_scenario)

    def setup(self, a_seat: int) -> Mapping[str, JsonValue]:
        """The set-up (as JSON) of a game with team A in seat ``a_seat`` (0-based)."""
        offer = offer_of(self.ruleset)
        teams = (self.a, self.b) if a_seat == 0 else (self.b, self.a)
        rounds = self.max_rounds if self.max_rounds is not None else offer.max_rounds
        return offer.setup(self.scenario_id(), teams, rounds)

    def job(self) -> dict[str, Any]:
        """Everything a worker needs, as plain JSON (for processes and Ray alike)."""
        return {"seed": self.seed, "bots": list(self.bots), "ruleset": self.ruleset,
                "setups": [dict(self.setup(0)), dict(self.setup(1))]}


def tourney_rulesets() -> list[str]:
    """Rulesets that play tourneys (they declare a ``Ruleset.tourney``)."""
    return [n for n, r in registry.RULESETS.items() if r.tourney is not None]


def check_tourney(t: Tourney) -> list[dict[str, str]]:
    """Fail fast with a ``TourneyError`` on anything that would stop every game; returns each
    team's vehicles (team, name, type) in order."""
    if t.games < 1:
        raise TourneyError(f"--games must be at least 1, not {t.games}")
    if t.games > bounds.MAX_BULK_GAMES:
        raise TourneyError(f"--games must be at most {bounds.MAX_BULK_GAMES:,}, not {t.games} "
                           "(ruling IN-8)")
    offer = offer_of(t.ruleset)
    ruleset = registry.get_ruleset(t.ruleset)
    for b in t.bots:
        try:
            make_bot_for(ruleset, b)
        except ValueError as e:
            raise TourneyError(f"--bots: {e}") from None
    vehicles: list[dict[str, str]] = []
    try:
        for label, spec, source in (("A", t.a, t.a_source), ("B", t.b, t.b_source)):
            entrants = offer.check_team(spec, f"team {label} ({source})")
            vehicles += [{"team": label, "name": v.name, "type": v.type} for v in entrants]
        for seat in (0, 1):
            offer.new_game(t.setup(seat), game_seed(t.seed, seat))
    except SetupRefused as e:
        raise TourneyError(str(e)) from None
    return vehicles


def chunked(games: int, workers: int) -> list[list[int]]:
    """Game indices in chunks: about four chunks per worker (so a slow game does not hold up
    the rest), at most 16 games a chunk."""
    size = max(1, min(16, math.ceil(games / (4 * max(1, workers)))))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


@dataclass
class Run:
    """How a tourney was played (not part of its result)."""

    backend: str
    workers: int
    seconds: float = 0.0
    """Wall time of the whole tourney."""
    address: str | None = None
    startup: float = 0.0
    """Of which starting or joining Ray (0 on local processes)."""

    @property
    def playing(self) -> float:
        return max(0.0, self.seconds - self.startup)

    def to_json(self, games: int) -> dict[str, Any]:
        return {"backend": self.backend, "workers": self.workers, "address": self.address,
                "seconds": round(self.seconds, 3), "startup_seconds": round(self.startup, 3),
                "games_per_second": round(games / self.playing, 3) if self.playing else 0.0}


def summarise(t: Tourney, vehicles: list[dict[str, str]],
              results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The tourney's result from the games' records (in game order)."""
    played = [r for r in results if r["result"] != "error"]
    n = len(played)
    counts = {k: sum(1 for r in played if r["result"] == k) for k in RESULTS}
    seats: dict[str, dict[str, int]] = {}
    for seat in (0, 1):
        mine = [r for r in played if r["a_seat"] == seat]
        seats[f"A in seat {seat + 1}"] = {
            "games": len(mine), **{k: sum(1 for r in mine if r["result"] == k) for k in RESULTS}}
    per: list[dict[str, Any]] = []
    for team in TEAMS:
        rows = [v for v in vehicles if v["team"] == team]
        for i, v in enumerate(rows):
            lines = [row for r in played for row in r["vehicles"]
                     if row[0] == team and row[1] == i]
            alive = sum(1 for row in lines if row[2])
            per.append({
                **v, "games": len(lines), "survived": proportion(alive, len(lines)),
                "damage_dealt": round(sum(row[3] for row in lines) / len(lines), 4)
                if lines else 0.0,
                "damage_taken": round(sum(row[4] for row in lines) / len(lines), 4)
                if lines else 0.0,
            })
    errors = [{"game": r["game"], "seed": r["seed"], "a_seat": r["a_seat"] + 1,
               "error": r["error"]} for r in results if r["result"] == "error"]
    reasons: dict[str, int] = {}
    for r in played:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    return {
        "scenario": t.scenario_id(), "ruleset": t.ruleset, "seed": t.seed, "games": len(results),
        "teams": {"A": {"name": t.a.name, "source": t.a_source, "bot": t.bots[0]},
                  "B": {"name": t.b.name, "source": t.b_source, "bot": t.bots[1]}},
        "played": n,
        "a": {k: proportion(counts[k], n) for k in RESULTS},
        "by_seat": seats,
        "mean_rounds": round(sum(r["rounds"] for r in played) / n, 4) if n else 0.0,
        "vehicles": per,
        "end_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": errors,
    }


def run_tourney(
    t: Tourney, *, workers: int = 1, backend: str = "local", address: str | None = None,
    on_games: Callable[[int], None] | None = None, deadline: float | None = None,
) -> tuple[dict[str, Any], Run]:
    """Play the tourney; ``on_games(n)`` as each batch of ``n`` games finishes. ``deadline``
    (a ``time.monotonic()`` value; local backend, one worker) stops it early: the summary then
    covers the games played so far. Returns (summary, how it was run)."""
    check_backend(backend, workers, address)
    vehicles = check_tourney(t)
    job = t.job()
    run = Run(backend, workers, address=address)
    start = time.perf_counter()
    if deadline is not None:
        results: list[dict[str, Any]] = []
        for i in range(t.games):
            if time.monotonic() > deadline:
                break
            results.append(play_game(job, i))
            if on_games is not None:
                on_games(1)
    elif backend == "local":
        results = _run_local(job, chunked(t.games, workers), workers, on_games)
    else:
        results = _run_ray(job, chunked(t.games, workers), workers, address, on_games, run)
    run.seconds = time.perf_counter() - start
    return summarise(t, vehicles, results), run


def check_backend(backend: str, workers: int, address: str | None) -> None:
    """``TourneyError`` for options no tourney can run with: an unknown backend, no workers,
    an address without Ray, Ray not installed, or an address where nothing answers."""
    if backend not in BACKENDS:
        raise TourneyError(f"--backend must be local or ray, not {backend!r}")
    if workers < 1:
        raise TourneyError(f"--workers must be at least 1, not {workers}")
    if workers > bounds.MAX_WORKERS:
        raise TourneyError(f"--workers must be at most {bounds.MAX_WORKERS}, not {workers} "
                           "(ruling IN-8)")
    if address is not None and backend != "ray":
        raise TourneyError("--address names a Ray cluster: use it with --backend ray")
    if backend == "ray":
        _import_ray(address)
        if address is not None:
            _reachable(address)


def _run_local(job: dict[str, Any], chunks: list[list[int]], workers: int,
               on_games: Callable[[int], None] | None) -> list[dict[str, Any]]:
    from carnage.analysis.workers import map_chunks

    def done(_i: int, part: list[dict[str, Any]]) -> None:
        if on_games is not None:
            on_games(len(part))

    return map_chunks(partial(play_chunk, job), chunks, min(workers, len(chunks)), done)


# -- Ray ---------------------------------------------------------------------------------------
RAY_MISSING = ("--backend ray needs Ray, which is not installed (pip install 'carnage[ray]')")


def _import_ray(address: str | None) -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address is None or _loopback(address):
        # Ray's own switch for a single-machine cluster: it then takes 127.0.0.1 as this
        # node's address instead of the first network interface's (read when ray is imported).
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError:
        raise TourneyError(RAY_MISSING) from None
    return ray


def _loopback(address: str) -> bool:
    host = address.split("://")[-1].rpartition(":")[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _reachable(address: str) -> None:
    """A ``host:port`` address must answer before Ray is asked (Ray itself retries for long)."""
    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise TourneyError(f"--address {address!r}: expected HOST:PORT of a Ray cluster's head "
                           "(or 'auto')")
    try:
        with socket.create_connection((host, int(port)), timeout=3):
            pass
    except OSError as e:
        raise TourneyError(f"--address {address}: no Ray cluster answers there "
                           f"({e.strerror or e})") from None


def _run_ray(job: dict[str, Any], chunks: list[list[int]], workers: int, address: str | None,
             on_games: Callable[[int], None] | None, run: Run) -> list[dict[str, Any]]:
    ray = _import_ray(address)
    if address is not None:
        _reachable(address)
    if ray.is_initialized():
        ray.shutdown()
    began = time.perf_counter()
    try:
        if address is None:  # a local Ray of our own, on loopback, stopped when done
            ray.init(address="local", num_cpus=workers, include_dashboard=False,
                     log_to_driver=False,
                     logging_level=logging.ERROR, _node_ip_address="127.0.0.1",
                     object_store_memory=100 * 1024 * 1024, configure_logging=True)
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as e:
        ray.shutdown()
        first = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        hint = ("; a cluster with token authentication (Ray's default for `ray start`) needs "
                "RAY_AUTH_MODE=token here too" if address and not os.environ.get("RAY_AUTH_MODE")
                else "")
        raise TourneyError(f"cannot start or join {where}: {first}{hint}") from None
    run.startup = time.perf_counter() - began
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        job_ref = ray.put(job)
        done: dict[int, list[dict[str, Any]]] = {}
        waiting: dict[Any, int] = {}
        nxt = 0
        while nxt < len(chunks) or waiting:
            while nxt < len(chunks) and len(waiting) < workers:
                waiting[remote.remote(job_ref, chunks[nxt])] = nxt
                nxt += 1
            ready, _ = ray.wait(list(waiting), num_returns=1)
            for ref in ready:
                i = waiting.pop(ref)
                try:
                    done[i] = ray.get(ref)
                except Exception as e:  # the task itself failed (a worker died, ...)
                    first = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
                    raise TourneyError(f"a Ray task playing games {chunks[i][0]}-"
                                       f"{chunks[i][-1]} failed: {first}") from None
                if on_games is not None:
                    on_games(len(done[i]))
        return [r for i in range(len(chunks)) for r in done[i]]
    finally:
        ray.shutdown()
