"""Search bot against the heuristic bot: win rate and time per decision, on one core.

    .venv/bin/python benchmarks/bots.py [--games 200] [--seed 0] [--level hard]
        [--iterations N] [--seconds S] [--horizon H] [--scenario street-race] [--cpu-clock]
        [--quiet]

Plays ``--games`` seeded Street Races (game i: dice seed SEED + i), the search bot taking
seat 1 in even games and seat 2 in odd ones (so pole and seat are fair), the heuristic bot the
other seat. Prints each game's result as it goes (unless ``--quiet``), then the search bot's
wins, losses and draws, its win rate with a 95 % Wilson score interval, and the wall-clock time
it took per decision (mean, median, p95, max) with the simulations per decision, and the CPU
time per decision (on a shared machine the wall clock includes waiting for a core). The search bot
is seeded with the game's seed, so an iteration-budgeted run (``--seconds 0``) is reproducible.
Ctrl+C (SIGINT) or SIGTERM stops early and prints the figures of the games finished.
"""

from __future__ import annotations

import argparse
import math
import signal
import statistics
import time

import carnage
from carnage.ai import bot_rng
from carnage.ai.search import LEVELS, SearchBot
from carnage.games.refuelled.ai.bots import HeuristicBot


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def play_one(a: argparse.Namespace, seconds: float | str | None, i: int,
             score: tuple[int, int, int], times: list[float], cpu: list[float],
             sims: list[int]) -> tuple[int, int, int]:
    """Game ``i``: the search bot against the heuristic bot; the running score after it."""
    wins, losses, draws = score
    game_seed = a.seed + i
    bot = SearchBot(a.level, iterations=a.iterations, seconds=seconds, seed=game_seed,
                    horizon=a.horizon,
                    clock=time.process_time if a.cpu_clock else time.perf_counter)
    seat = i % 2
    bots = [bot, HeuristicBot()] if seat == 0 else [HeuristicBot(), bot]
    game = carnage.new_game(scenario=a.scenario, seed=game_seed)
    rng = bot_rng(game_seed)
    while (d := game.pending()) is not None:
        b = bots[d.player % len(bots)]
        t0, c0 = time.perf_counter(), time.process_time()
        choice = b.choose(game, d, rng)
        if b is bot:
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            if bot.last is not None:
                sims.append(bot.last.iterations)
        game.apply(choice)
    out = game.outcome()
    assert out is not None
    if out.draw or out.winner is None:
        draws += 1
        result = "draw"
    elif out.winner == seat:
        wins += 1
        result = "win"
    else:
        losses += 1
        result = "loss"
    if not a.quiet:
        print(f"game {i + 1:>3} seed {game_seed} search in seat {seat + 1}: {result} "
              f"(round {out.rounds}; {out.reason}); running {wins}-{losses}-{draws}",
              flush=True)
    return wins, losses, draws


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", choices=sorted(LEVELS), default="hard")
    ap.add_argument("--iterations", type=int, default=None, help="simulations per decision")
    ap.add_argument("--seconds", type=float, default=None,
                    help="time limit per decision (0: none, iterations only)")
    ap.add_argument("--horizon", type=int, default=None, help="rollout decisions")
    ap.add_argument("--scenario", default="street-race")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="measure the time limit in this process's CPU time (a shared machine)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    seconds: float | str | None = "level"
    if a.seconds is not None:
        seconds = None if a.seconds <= 0 else a.seconds
    wins = losses = draws = 0
    times: list[float] = []
    cpu: list[float] = []
    sims: list[int] = []
    started = time.perf_counter()
    # SIGTERM (and SIGINT, which a shell's background job ignores) stop early with figures.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        for i in range(a.games):
            wins, losses, draws = play_one(a, seconds, i, (wins, losses, draws), times, cpu,
                                           sims)
    except KeyboardInterrupt:  # Ctrl+C: the figures of the games finished so far
        print("interrupted: the figures below count the finished games only")
    n = wins + losses + draws
    if n == 0:
        return
    lo, hi = wilson(wins, n)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    print(f"search:{a.level} vs heuristic, {a.scenario}, {n} games from seed {a.seed} "
          f"(seats alternated), {time.perf_counter() - started:.0f} s")
    print(f"  wins {wins}, losses {losses}, draws {draws}: win rate {wins / n:.1%} "
          f"(95% Wilson interval {lo:.1%} - {hi:.1%})")
    if times:
        print(f"  time per decision: mean {statistics.fmean(times) * 1000:.0f} ms, "
              f"median {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
              f"max {times[-1] * 1000:.0f} ms over {len(times)} decisions; "
              f"simulations per decision: mean {statistics.fmean(sims):.0f}")
        cpu.sort()
        print(f"  CPU time per decision (this process): mean {statistics.fmean(cpu) * 1000:.0f} "
              f"ms, p95 {cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))] * 1000:.0f} ms, "
              f"max {cpu[-1] * 1000:.0f} ms; decisions over 1 s: "
              f"{sum(1 for c in cpu if c > 1.0)} of CPU, {sum(1 for t in times if t > 1.0)} "
              "of wall time")


if __name__ == "__main__":
    main()
