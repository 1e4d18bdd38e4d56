"""A ladder of bots in one ruleset and scenario: a round robin, then Elo ratings.

    .venv/bin/python benchmarks/ladder.py [--ruleset refuelled] [--scenario street-race]
        [--games 20] [--bots random,heuristic,search:easy,search:normal,search:hard]
        [--seed 0] [--max-rounds N] [--anchor random|mean] [--resamples 1000]
        [--iterations N] [--seconds S] [--horizon H] [--cpu-clock] [--quiet] [--write]

Every pair of ``--bots`` (any bot the ruleset declares, or the search bot at a level) plays
``--games`` seeded games of ``--scenario`` (default: the ruleset's Street Race, else its first
scenario): game i of every pair rolls the dice of seed SEED + i, and the pair's first bot sits
in seat 1 in even games, seat 2 in odd ones. Everything goes through the registry and the
game contract (``carnage.analysis.matches``), so every ruleset plays.

Then it fits each bot's Elo rating by maximum likelihood on the pairwise results
(Bradley-Terry on the Elo scale, a draw half a win, one virtual draw per pair as a weak prior
so that a perfect record stays finite: ``carnage.analysis.ratings``), anchored so that the
random bot is 0 (``--anchor random``, the default when it plays) or the mean is 1500
(``--anchor mean``), with a 95 % interval from ``--resamples`` bootstrap resamples of the
games (seed fixed, so the same results give the same intervals). A difference of 100 points
means the better bot is expected to score about 64 % against the other, 200 points 76 %,
400 points 91 %. It prints the pairwise results, then one Markdown table: each bot's rating
and interval, its wins, draws and losses, and its median wall-clock (and CPU) milliseconds
per decision. With few games the intervals are wide: read them, not the point ratings.

``--write`` records the ratings in the data file the lobby reads
(``src/carnage/ai/data/ratings.json``, ``carnage.ai.strength``) as the ruleset's entry: the
scenario, the date, the games (in all and per pair), the seed, the anchor, and per bot its
rating, interval, record and median think time per decision; ``--write-to PATH`` writes
another file. An interrupted run writes nothing.

Ctrl+C (SIGINT) or SIGTERM stops early and rates the games finished.

Smoke runs (tiny numbers, to see that it plays; no measure of strength):

    nice .venv/bin/python benchmarks/ladder.py --games 2 --max-rounds 3 \\
        --bots random,heuristic,search:easy --resamples 200
    nice .venv/bin/python benchmarks/ladder.py --ruleset kart --games 2 --max-rounds 3 \\
        --bots random,heuristic,search:easy --resamples 200
    nice .venv/bin/python benchmarks/ladder.py --ruleset devils-run --scenario devils-run \\
        --games 2 --bots random,heuristic,search:easy --resamples 200
"""

from __future__ import annotations

import argparse
import itertools
import signal
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from carnage.ai import strength
from carnage.analysis.matches import (
    Played,
    SearchOptions,
    Timing,
    check_bots,
    default_scenario,
    ms,
    play_match,
)
from carnage.analysis.ratings import GameResult, pairwise, rate
from carnage.rulesets import DEFAULT_RULESET, RULESETS, get_ruleset

DEFAULT_BOTS = "random,heuristic,search:easy,search:normal,search:hard"

PREFERRED = ("street-race",)
"""The scenario played when none is named, if the ruleset has it (else its first)."""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ruleset", default=DEFAULT_RULESET, help=f"one of {', '.join(RULESETS)}")
    ap.add_argument("--scenario", default=None,
                    help="default: the ruleset's street-race, else its first scenario")
    ap.add_argument("--games", type=int, default=20, help="games per pair of bots")
    ap.add_argument("--bots", default=DEFAULT_BOTS, help="comma-separated bot names")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-rounds", type=int, default=None,
                    help="end each game after this many rounds (rulesets that take it)")
    ap.add_argument("--anchor", choices=("random", "mean"), default=None,
                    help="random = 0 (default when it plays) or the mean = 1500")
    ap.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    SearchOptions.add_arguments(ap)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--write", action="store_true",
                    help="record the ratings in the lobby's data file (ai/data/ratings.json)")
    ap.add_argument("--write-to", type=Path, default=None,
                    help="record the ratings in this file instead")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    if a.resamples < 1:
        ap.error("--resamples must be at least 1")
    if a.max_rounds is not None and a.max_rounds < 1:
        ap.error("--max-rounds must be at least 1")
    try:
        ruleset = get_ruleset(a.ruleset)
    except KeyError:
        ap.error(f"--ruleset: unknown ruleset {a.ruleset!r} (known: {', '.join(RULESETS)})")
    scenario = a.scenario or default_scenario(ruleset, PREFERRED)
    if scenario not in ruleset.scenarios:
        ap.error(f"--scenario: {ruleset.title} has no scenario {scenario!r} "
                 f"(known: {', '.join(ruleset.scenarios)})")
    bots = [b.strip() for b in a.bots.split(",") if b.strip()]
    if len(bots) < 2 or len(set(bots)) != len(bots):
        ap.error(f"--bots: name at least two different bots, not {bots}")
    try:
        check_bots(ruleset, bots)
    except ValueError as e:
        ap.error(f"--bots: {e}")
    anchor = a.anchor or ("random" if "random" in bots else "mean")
    if anchor == "random" and "random" not in bots:
        ap.error("--anchor random: the random bot is not among --bots")
    search = SearchOptions.from_arguments(a)
    options: dict[str, Any] = {} if a.max_rounds is None else {"max_rounds": a.max_rounds}
    timings = {b: Timing() for b in bots}
    results: list[GameResult] = []
    interrupted = False
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)

    def each(first: str, second: str) -> Any:
        def record(p: Played) -> None:
            results.append(GameResult(first, second, p.score))
            if not a.quiet:
                won = {1.0: first, 0.5: "draw", 0.0: second}[p.score]
                print(f"  game {p.index + 1:>3} seed {p.seed} {p.seats[0]} v {p.seats[1]}: "
                      f"{won} (round {p.outcome.rounds}; {p.outcome.reason})", flush=True)
        return record

    try:
        for first, second in itertools.combinations(bots, 2):
            if not a.quiet:
                print(f"{first} vs {second}: {a.games} games", flush=True)
            try:
                play_match(ruleset, scenario, first, second, a.games, a.seed, options,
                           timings, search, each(first, second))
            except (ValueError, TypeError) as e:  # a ruleset refusing an option
                if results:
                    raise
                ap.error(f"{ruleset.name} {scenario}: {e}")
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the ratings below count the finished games only")
    elapsed = time.perf_counter() - started
    played = [b for b in bots if any(b in (g.first, g.second) for g in results)]
    print(f"\n{ruleset.title}, {scenario}: {len(results)} games, {a.games} per pair from seed "
          f"{a.seed} (seats alternated), {elapsed:.0f} s")
    table = pairwise(results)
    for first, second in itertools.combinations(played, 2):
        r = table.get((first, second))
        if r is not None:
            print(f"  {first} vs {second}: {r.wins}-{r.draws}-{r.losses} (wins-draws-losses)")
    if len(played) < 2:
        return
    try:
        ratings = rate(results, played, anchor=anchor if anchor in played else None,
                       resamples=a.resamples, seed=a.seed)
    except ValueError as e:  # an interrupted round robin may not link every bot
        print(f"no ratings: {e}")
        return
    where = "random = 0" if anchor in played else "mean = 1500"
    print(f"\nElo ratings ({where}; 95% bootstrap interval over {a.resamples} resamples):\n")
    print("| bot | Elo [95% interval] | wins-draws-losses | games | ms per decision, "
          "median wall (CPU) |")
    print("|---|---|---|---:|---|")
    for r in ratings:
        t = timings[r.player]
        wall = ms(statistics.median(t.wall)) if t.wall else "-"
        cpu = ms(statistics.median(t.cpu)) if t.cpu else "-"
        rec = r.record
        print(f"| {r.player} | {r.elo:.0f} [{r.low:.0f}, {r.high:.0f}] | "
              f"{rec.wins}-{rec.draws}-{rec.losses} | {rec.games} | {wall} ({cpu}) |")
    if a.write or a.write_to is not None:
        if interrupted:
            print("nothing written: the round robin was interrupted")
            return
        path = a.write_to if a.write_to is not None else strength.DATA
        name = getattr(ruleset.scenarios[scenario], "name", scenario)
        strength.record(strength.LadderRun(
            ruleset=ruleset.name, scenario=scenario, scenario_name=str(name),
            date=datetime.now(UTC).date().isoformat(), games=len(results),
            games_per_pair=a.games, seed=a.seed,
            anchor=anchor if anchor in played else "mean", resamples=a.resamples,
            cpu_clock=a.cpu_clock,
            bots={r.player: strength.BotRating(
                elo=round(r.elo, 1), low=round(r.low, 1), high=round(r.high, 1),
                games=r.record.games, wins=r.record.wins, draws=r.record.draws,
                losses=r.record.losses,
                think_seconds=round(statistics.median(timings[r.player].wall), 5)
                if timings[r.player].wall else 0.0,
                think_cpu_seconds=round(statistics.median(timings[r.player].cpu), 5)
                if timings[r.player].cpu else 0.0)
                for r in ratings}), path)
        print(f"\nwritten to {path} ({ruleset.name})")


if __name__ == "__main__":
    main()
