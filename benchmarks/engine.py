"""Engine benchmark: heuristic-vs-heuristic Street Race games per second, on one core.

    .venv/bin/python benchmarks/engine.py [--games N] [--seed S] [--each K] [--profile]

Plays ``N`` seeded games (seeds S, S+1, ...) in this process and prints games per second (with
the garbage collector set as tourneys play, ``analysis.workers.bulk_play``, and again with
Python's defaults), the mean rounds and choices per game, and how the time splits between the
engine (``apply``) and the bots (``choose``, split by wall time). Games per second is this
process's CPU time (so other work on a shared machine does not count against it), best of three
runs over the same seeds; fields and team reports are warmed up by a throw-away game first.
``--profile`` prints the top of a cProfile of one run instead.

It then times copies of mid-game Street Races (round 2 on, every third decision): ``clone()``,
``snapshot()`` with its JSON text, and ``carnage.restore`` of that text (the text written and
read as the web server's database does: ``kernel/jsontext.py``, orjson); median and p95 in
milliseconds of CPU time, with the median number of choices a copy re-applied since its
checkpoint. Last, the 360° fire checks worked out while playing those games again (each
answer computed, none remembered from earlier): how many, median, p95 and max in ms.

Last, decisions per second in every game the registry lists, heuristic bots in every seat
(``--each`` seeded games a cell; 0 skips it): each ruleset's Street Race (Devil's Run: both
missions) and five of Refuelled's objective scenarios, team games among them, so no game is
left slow. Decisions per second is CPU time of the engine's ``apply`` and the bots'
``choose`` together; the engine's share is printed beside it.

Compare code versions back to back on this machine (it is shared and noisy): run this script
on each checkout in turn, or on another source tree with ``PYTHONPATH=that/src``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass

import carnage
from carnage.ai import bot_rng
from carnage.analysis.workers import bulk_play
from carnage.compiled import describe
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.cover import clear_memo
from carnage.kernel import jsontext


@dataclass
class Run:
    seconds: float
    engine: float
    bots: float
    games: int
    rounds: int
    choices: int

    @property
    def per_second(self) -> float:
        return self.games / self.seconds


def run(games: int, seed: int, *, bulk: bool = True) -> Run:
    """``games`` seeded games; ``bulk``: with the garbage collector set as tourneys play
    (``analysis.workers.bulk_play``), else with Python's defaults."""
    setup = GameSetup()
    clear_memo()  # every batch starts cold: no answers remembered from an earlier run
    with bulk_play() if bulk else nullcontext():
        return _run(setup, games, seed)


def _run(setup: GameSetup, games: int, seed: int) -> Run:
    engine = bots = 0.0
    rounds = choices = 0
    start = time.process_time()
    for s in range(seed, seed + games):
        g = build_game(setup, s)
        g.lazy_checkpoints = True  # as tourneys and simulations play it
        players = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(s)
        while (d := g.pending()) is not None:
            # the split is wall time (perf_counter is cheap; a CPU-time clock is a system
            # call, which would add its own cost to every decision)
            t0 = time.perf_counter()
            c = players[d.player].choose(g, d, rng)
            t1 = time.perf_counter()
            g.apply(c)
            engine += time.perf_counter() - t1
            bots += t1 - t0
        out = g.outcome()
        rounds += out.rounds if out else 0
        choices += len(g.choices)
    return Run(time.process_time() - start, engine, bots, games, rounds, choices)


def copies(games: int, seed: int) -> dict[str, list[float]]:
    """CPU milliseconds of clone, snapshot (to JSON text) and restore (from it), and the
    choices replayed since the checkpoint, at every third decision from round 2 on; with the
    share of the snapshot and the restore spent writing and reading the text
    (``jsontext.dumps`` and ``jsontext.loads``, as the server's database does)."""
    out: dict[str, list[float]] = {"clone": [], "snapshot": [], "restore": [], "tail": [],
                                   "text.dumps": [], "text.loads": []}
    for s in range(seed, seed + games):
        g = build_game(GameSetup(), s)
        players = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(s)
        n = 0
        while (d := g.pending()) is not None:
            n += 1
            if n % 3 == 0 and g.state.round >= 2:
                t0 = time.process_time()
                g.clone()
                t1 = time.process_time()
                doc = g.snapshot()
                tj = time.process_time()
                text = jsontext.dumps(doc)
                t2 = time.process_time()
                raw = jsontext.loads(text)
                tl = time.process_time()
                carnage.restore(raw)
                t3 = time.process_time()
                out["clone"].append(1000 * (t1 - t0))
                out["snapshot"].append(1000 * (t2 - t1))
                out["restore"].append(1000 * (t3 - t2))
                out["text.dumps"].append(1000 * (t2 - tj))
                out["text.loads"].append(1000 * (tl - t2))
                out["tail"].append(float(g.since_checkpoint))
            g.apply(players[d.player].choose(g, d, rng))
    return out


def turret_checks(games: int, seed: int) -> tuple[list[float], list[float]]:
    """CPU milliseconds of every 360° fire check worked out (not answered from memory) while
    playing the same seeded games, split into rulers and bursts, as ``check_fire`` itself
    records them (``cover.record_timings``: the attack steps are compiled too, so a wrapper
    around the function would not see their calls)."""
    from carnage.geometry import cover
    from carnage.geometry.arcs import Arc

    clear_memo()
    cover.record_timings(True)
    try:
        for s in range(seed, seed + games):
            g = build_game(GameSetup(), s)
            players = [HeuristicBot(), HeuristicBot()]
            rng = bot_rng(s)
            while (d := g.pending()) is not None:
                g.apply(players[d.player].choose(g, d, rng))
    finally:
        got = cover.record_timings(False)
    rulers = [ms for arc, burst, ms in got if arc is Arc.TURRET and not burst]
    bursts = [ms for arc, burst, ms in got if arc is Arc.TURRET and burst]
    return rulers, bursts


EVERY_GAME: tuple[tuple[str, str], ...] = (
    ("refuelled", "street-race"),
    ("refuelled", "death-race"),
    ("refuelled", "capture-the-flag"),
    ("refuelled", "arena-of-death"),
    ("refuelled", "flag-tag"),
    ("refuelled", "scavenger-party"),
    ("kart", "street-race"),
    ("legacy", "street-race"),
    ("devils-run", "devils-run"),
    ("devils-run", "hell-on-wheels"),
)
"""The games whose decisions per second are printed: each ruleset's own race or missions, and
five objective scenarios of Refuelled (a team game among them: Capture the Flag, Flag Tag)."""


@dataclass
class Pace:
    decisions: int
    engine: float
    bots: float

    @property
    def per_second(self) -> float:
        return self.decisions / max(self.engine + self.bots, 1e-9)


def pace(ruleset_name: str, scenario: str, games: int, seed: int) -> Pace:
    """Heuristic bots in every seat of ``games`` seeded games of ``scenario`` in the ruleset
    (through the registry, as any generic layer plays it): decisions made, CPU seconds in
    the engine's ``apply`` and in the bots' ``choose``."""
    from carnage.rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_name)
    out = Pace(0, 0.0, 0.0)
    with bulk_play():
        for s in range(seed, seed + games):
            g = ruleset.new_game(scenario=scenario, seed=s)
            players = [ruleset.make_bot("heuristic") for _ in range(g.players)]
            rng = bot_rng(s)
            while (d := g.pending()) is not None:
                t0 = time.process_time()
                c = players[d.player].choose(g, d, rng)
                t1 = time.process_time()
                g.apply(c)
                out.engine += time.process_time() - t1
                out.bots += t1 - t0
                out.decisions += 1
    return out


def _p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--each", type=int, default=4,
                    help="seeded games a cell of the every-game table (0: skip it)")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    run(1, 10_000)  # warm-up: catalogue, team reports, distance fields
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(run, args.games, args.seed)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return
    best = min((run(args.games, args.seed) for _ in range(3)), key=lambda r: r.seconds)
    plain = min((run(args.games, args.seed, bulk=False) for _ in range(3)),
                key=lambda r: r.seconds)
    print(f"heuristic vs heuristic Street Race, {best.games} games, one core "
          f"({describe()}):")
    print(f"  {best.per_second:.1f} games/s  ({1000 * best.seconds / best.games:.0f} ms a game; "
          f"{best.rounds / best.games:.2f} rounds, {best.choices / best.games:.0f} choices), "
          "with the collector set as tourneys play (bulk_play)")
    print(f"  {plain.per_second:.1f} games/s with Python's default collector settings")
    split = max(best.engine + best.bots, 1e-9)
    print(f"  engine {100 * best.engine / split:.0f}%, "
          f"bots {100 * best.bots / split:.0f}% of the time")
    cp = copies(args.games, args.seed)
    print(f"copies of mid-game Street Races ({len(cp['clone'])} decisions):")
    for k in ("clone", "snapshot", "restore", "text.dumps", "text.loads"):
        print(f"  {k:10s} median {statistics.median(cp[k]):.3f} ms, p95 {_p95(cp[k]):.3f} ms")
    print("  (snapshot includes text.dumps of its document, restore text.loads of the text: "
          "kernel/jsontext.py)")
    print(f"  choices re-applied since the checkpoint: median {statistics.median(cp['tail']):.0f}")
    rulers, bursts = turret_checks(args.games, args.seed)
    print("360° fire checks worked out during these games (CPU time):")
    for label, xs in (("rulers", rulers), ("bursts", bursts), ("all", rulers + bursts)):
        if xs:
            print(f"  {label:6s} {len(xs):5d} checks, median {statistics.median(xs):.3f} ms, "
                  f"p95 {_p95(xs):.3f} ms, max {max(xs):.3f} ms")
    if args.each > 0:
        print(f"decisions per second, heuristic bots in every seat, {args.each} games each "
              "(CPU time of apply and choose):")
        for name, scenario in EVERY_GAME:
            p = pace(name, scenario, args.each, args.seed)
            share = 100 * p.engine / max(p.engine + p.bots, 1e-9)
            print(f"  {name:11s} {scenario:17s} {p.per_second:7.0f} decisions/s "
                  f"({p.decisions} decisions; engine {share:.0f}%)")


if __name__ == "__main__":
    main()
