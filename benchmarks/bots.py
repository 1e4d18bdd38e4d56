"""One bot against another in any ruleset and scenario: win rate and time per decision.

    .venv/bin/python benchmarks/bots.py [--games 200] [--seed 0] [--level hard]
        [--ruleset refuelled] [--scenario street-race] [--bot NAME] [--against heuristic]
        [--max-rounds N] [--iterations N] [--seconds S] [--horizon H] [--cpu-clock] [--quiet]
        [--sides 1,3/2,4]
    .venv/bin/python benchmarks/bots.py --table --ruleset refuelled,kart \\
        --scenario street-race,death-race --level easy,normal,hard --games 100

Plays ``--games`` seeded games of ``--scenario`` (default: the ruleset's Street Race, else its
first scenario) in ``--ruleset`` (default: Refuelled): game i rolls the dice of seed SEED + i,
the measured bot (``--bot``; default the search bot at ``--level``, ``search:LEVEL``) takes
seat 1 in even games and seat 2 in odd ones (so pole and seat are fair), ``--against``
(default: heuristic) the other seat. Any bot the ruleset declares (``random``,
``heuristic``...) or the search bot at a level may play either side; everything goes through
the registry and the game contract (``carnage.analysis.matches``), so Refuelled, the Kart
variant, Legacy and Devil's Run all play. ``--sides`` plays a team game (Refuelled p.123, and
the rulesets built on it): sides separated by ``/``, seats counted from 1 by ``,``; the game
has as many players as seats named, the measured bot plays every seat of side
``i mod sides`` in game i and ``--against`` every other seat, and a win is its side's (e.g.
``--scenario death-race --sides 1,3/2,4``: four players, two sides of two). ``--max-rounds``
is passed to the ruleset's game (Refuelled's take it; a Devil's Run mission sets its own
limit and refuses it).

Prints each game's result as it goes (unless ``--quiet``), then the measured bot's wins,
losses and draws, its win rate with a 95 % Wilson score interval (a draw counts as no win),
its wins by the seat it sat in (its side's seats in a team game), and the wall-clock time
it took per decision (mean, median, p95, max) with the simulations per decision, and the CPU
time per decision (on a shared machine the wall clock includes waiting for a core). The
search bot is seeded with the game's seed, so an iteration-budgeted run (``--seconds 0``)
is reproducible.

``--table`` plays every combination of the comma-separated ``--ruleset``, ``--scenario`` and
``--level`` lists (a scenario a ruleset does not have is skipped, with a note) and prints one
Markdown table: ruleset, scenario, level, games, win rate with its interval, draws, and the
median (p95) wall-clock milliseconds per decision of the search bot.

Ctrl+C (SIGINT) or SIGTERM stops early and prints the figures of the games finished.

Smoke runs (tiny numbers, to see that it plays; no measure of strength):

    nice .venv/bin/python benchmarks/bots.py --games 2 --level easy --max-rounds 3
    nice .venv/bin/python benchmarks/bots.py --ruleset kart --games 2 --level easy \\
        --max-rounds 3
    nice .venv/bin/python benchmarks/bots.py --ruleset devils-run --scenario devils-run \\
        --games 2 --level easy
    nice .venv/bin/python benchmarks/bots.py --table --ruleset refuelled,kart,devils-run \\
        --scenario street-race,devils-run --level easy --games 2 --max-rounds 3
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from typing import Any

from carnage.analysis.matches import (
    LEVELS,
    Played,
    SearchOptions,
    Timing,
    check_bots,
    default_scenario,
    ms,
    play_match,
    summary,
    wilson,
)
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import DEFAULT_RULESET, RULESETS, get_ruleset

PREFERRED = ("street-race",)
"""The scenario played when none is named, if the ruleset has it (else its first)."""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _split(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _options(a: argparse.Namespace) -> dict[str, Any]:
    return {} if a.max_rounds is None else {"max_rounds": a.max_rounds}


def parse_sides(text: str | None) -> list[list[int]]:
    """``--sides`` text (``1,3/2,4``: sides by ``/``, seats from 1 by ``,``) as seats from 0
    (none: not a team game); ``ValueError`` naming what is wrong. The game itself checks
    that every seat is on exactly one side."""
    if text is None:
        return []
    sides: list[list[int]] = []
    for part in text.split("/"):
        seats = []
        for tok in part.split(","):
            tok = tok.strip()
            if not tok.isdigit() or int(tok) < 1:
                raise ValueError(f"--sides: {tok!r} is not a seat number (e.g. 1,3/2,4)")
            seats.append(int(tok) - 1)
        sides.append(seats)
    if len(sides) < 2:
        raise ValueError("--sides: a team game needs at least two sides (e.g. 1,3/2,4)")
    return sides


def _ruleset(ap: argparse.ArgumentParser, name: str) -> Ruleset:
    try:
        return get_ruleset(name)
    except KeyError:
        ap.error(f"--ruleset: unknown ruleset {name!r} (known: {', '.join(RULESETS)})")


def _tally(played: list[Played]) -> tuple[int, int, int]:
    wins = sum(1 for p in played if p.score == 1.0)
    draws = sum(1 for p in played if p.score == 0.5)
    return wins, len(played) - wins - draws, draws


def by_seat(played: list[Played]) -> str:
    """The measured bot's wins by the seats it sat in (its side's, in a team game), in seat
    order: ``seat 1: 35 of 50 (2 draws); seat 2: ...``. Seats alternate game by game, so the
    two halves show whether a cell's shortfall is one seat's."""
    groups: dict[tuple[int, ...], list[Played]] = {}
    for p in played:
        groups.setdefault(tuple(sorted(p.first_seats)), []).append(p)
    parts = []
    for seats in sorted(groups):
        games = groups[seats]
        wins, _, draws = _tally(games)
        label = "seats" if len(seats) > 1 else "seat"
        drawn = f" ({draws} draw{'s' * (draws != 1)})" if draws else ""
        parts.append(f"{label} {','.join(str(s + 1) for s in seats)}: {wins} of "
                     f"{len(games)}{drawn}")
    return "; ".join(parts)


def _run(a: argparse.Namespace, ruleset: Ruleset, scenario: str, bot: str, against: str,
         options: dict[str, Any], timing: Timing, quiet: bool, played: list[Played]) -> None:
    """The games of one match, each added to ``played`` as it ends (so that Ctrl+C, which
    propagates, leaves the games finished)."""

    def each(p: Played) -> None:
        played.append(p)
        if quiet:
            return
        w, lost, d = _tally(played)
        result = {1.0: "win", 0.5: "draw", 0.0: "loss"}[p.score]
        where = ",".join(str(s + 1) for s in p.first_seats)
        print(f"game {p.index + 1:>3} seed {p.seed} {bot} in seat{'s' * (len(p.first_seats) > 1)} "
              f"{where}: "
              f"{result} (round {p.outcome.rounds}; {p.outcome.reason}); "
              f"running {w}-{lost}-{d}", flush=True)

    play_match(ruleset, scenario, bot, against, a.games, a.seed, options, {bot: timing},
               SearchOptions.from_arguments(a), each, sides=a.sides)


def _report(a: argparse.Namespace, ruleset: Ruleset, scenario: str, bot: str, against: str,
            played: list[Played], timing: Timing, seconds: float) -> None:
    n = len(played)
    if n == 0:
        return
    wins, losses, draws = _tally(played)
    lo, hi = wilson(wins, n)
    where = scenario if ruleset.name == DEFAULT_RULESET else f"{ruleset.name} {scenario}"
    team = (f", team game {'/'.join(','.join(str(p + 1) for p in s) for s in a.sides)}"
            if a.sides else "")
    print(f"{bot} vs {against}, {where}{team}, {n} games from seed {a.seed} "
          f"(seats alternated), {seconds:.0f} s")
    print(f"  wins {wins}, losses {losses}, draws {draws}: win rate {wins / n:.1%} "
          f"(95% Wilson interval {lo:.1%} - {hi:.1%})")
    print(f"  by seat: {by_seat(played)}")
    times, cpu = sorted(timing.wall), sorted(timing.cpu)
    if not times:
        return
    mean, median, p95 = summary(times)
    sims = (f"; simulations per decision: mean {sum(timing.sims) / len(timing.sims):.0f}"
            if timing.sims else "")
    print(f"  time per decision: mean {ms(mean)} ms, median {ms(median)} ms, "
          f"p95 {ms(p95)} ms, max {ms(times[-1])} ms over {len(times)} decisions{sims}")
    cmean, cmedian, cp95 = summary(cpu)
    print(f"  CPU time per decision (this process): mean {ms(cmean)} ms, median "
          f"{ms(cmedian)} ms, p95 {ms(cp95)} ms, max {ms(cpu[-1])} ms; "
          f"decisions over 1 s: {sum(1 for c in cpu if c > 1.0)} of CPU, "
          f"{sum(1 for t in times if t > 1.0)} of wall time")


def _table(ap: argparse.ArgumentParser, a: argparse.Namespace) -> None:
    rulesets = [_ruleset(ap, r) for r in _split(a.ruleset)]
    scenarios = _split(a.scenario) if a.scenario else []
    levels = _split(a.level)
    for lv in levels:
        if lv not in LEVELS:
            ap.error(f"--level: unknown level {lv!r} (known: {', '.join(LEVELS)})")
    grid: list[tuple[Ruleset, str, str]] = []
    for rs in rulesets:
        for sc in scenarios or [default_scenario(rs, PREFERRED)]:
            if sc not in rs.scenarios:
                print(f"note: {rs.name} has no scenario {sc!r}: skipped", file=sys.stderr)
                continue
            grid += [(rs, sc, lv) for lv in levels]
    if not grid:
        ap.error("--table: no ruleset has any of the scenarios named")
    rows = []
    try:
        for rs, sc, lv in grid:
            bot = f"search:{lv}"
            check_bots(rs, [bot, a.against])
            timing = Timing()
            played: list[Played] = []
            rows.append((rs.name, sc, lv, played, timing))
            if not a.quiet:
                print(f"{rs.name} {sc} {bot} vs {a.against}: {a.games} games", flush=True)
            options = _options(a)
            try:
                _run(a, rs, sc, bot, a.against, options, timing, True, played)
            except (ValueError, TypeError) as e:
                if played or not options:
                    raise
                # --max-rounds where the ruleset takes it; this one plays to its own limit.
                print(f"note: {rs.name} {sc}: {e}; played without it", file=sys.stderr)
                _run(a, rs, sc, bot, a.against, {}, timing, True, played)
    except KeyboardInterrupt:
        print("interrupted: the table counts the finished games only", file=sys.stderr)
    print()
    print("| ruleset | scenario | level | games | win rate [95% interval] | draws | "
          "ms per decision, median (p95) |")
    print("|---|---|---|---:|---|---:|---|")
    for name, sc, lv, played, timing in rows:
        n = len(played)
        wins, _, draws = _tally(played)
        lo, hi = wilson(wins, n)
        _, median, p95 = summary(timing.wall)
        rate = f"{wins / n:.0%} [{lo:.0%}, {hi:.0%}]" if n else "-"
        print(f"| {name} | {sc} | {lv} | {n} | {rate} | {draws} | "
              f"{ms(median)} ({ms(p95)}) |")
    print(f"\nsearch vs {a.against}, seats alternated, game i seeded {a.seed} + i.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ruleset", default=DEFAULT_RULESET,
                    help=f"one of {', '.join(RULESETS)} (--table: a comma-separated list)")
    ap.add_argument("--scenario", default=None,
                    help="default: the ruleset's street-race, else its first scenario "
                         "(--table: a comma-separated list)")
    ap.add_argument("--level", default="hard",
                    help=f"the search bot's level, one of {', '.join(LEVELS)} "
                         "(--table: a comma-separated list)")
    ap.add_argument("--bot", default=None, help="the measured bot (default: search:LEVEL)")
    ap.add_argument("--against", default="heuristic", help="its opponent")
    ap.add_argument("--max-rounds", type=int, default=None,
                    help="end each game after this many rounds (rulesets that take it)")
    SearchOptions.add_arguments(ap)
    ap.add_argument("--table", action="store_true",
                    help="play the grid of rulesets x scenarios x levels; one Markdown table")
    ap.add_argument("--sides", default=None,
                    help="a team game: sides by '/', seats from 1 by ',' (e.g. 1,3/2,4)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    try:
        a.sides = parse_sides(a.sides)
    except ValueError as e:
        ap.error(str(e))
    if a.games < 1:
        ap.error("--games must be at least 1")
    if a.max_rounds is not None and a.max_rounds < 1:
        ap.error("--max-rounds must be at least 1")
    # SIGTERM (and SIGINT, which a shell's background job ignores) stop early with figures.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    if a.table:
        if a.bot is not None:
            ap.error("--table plays the search bot at each --level: leave --bot out")
        _table(ap, a)
        return
    ruleset = _ruleset(ap, a.ruleset)
    scenario = a.scenario or default_scenario(ruleset, PREFERRED)
    if scenario not in ruleset.scenarios:
        ap.error(f"--scenario: {ruleset.title} has no scenario {scenario!r} "
                 f"(known: {', '.join(ruleset.scenarios)})")
    if a.bot is None and a.level not in LEVELS:
        ap.error(f"--level: unknown level {a.level!r} (known: {', '.join(LEVELS)})")
    bot = a.bot or f"search:{a.level}"
    try:
        check_bots(ruleset, [bot, a.against])
    except ValueError as e:
        ap.error(str(e))
    timing = Timing()
    started = time.perf_counter()
    played: list[Played] = []
    try:
        _run(a, ruleset, scenario, bot, a.against, _options(a), timing, a.quiet, played)
    except KeyboardInterrupt:
        print("interrupted: the figures below count the finished games only")
    except (ValueError, TypeError) as e:  # a ruleset refusing an option
        if played:
            raise
        ap.error(f"{ruleset.name} {scenario}: {e}")
    _report(a, ruleset, scenario, bot, a.against, played, timing,
            time.perf_counter() - started)


if __name__ == "__main__":
    main()
