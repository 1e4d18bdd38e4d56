"""How well the search's value at each rollout horizon foretells the game's outcome, at the
decisions the search bot meets.

    .venv/bin/python benchmarks/horizons.py [--ruleset kart] [--scenario street-race]
        [--level hard] [--games 10] [--seed 400] [--playouts 40] [--candidates 3]
        [--horizons 10,20,40,60,80,120]

Plays ``--games`` seeded games of the search bot at ``--level`` against the heuristic bot, as
``benchmarks/bots.py`` does (game i seeded SEED + i, seats alternated, iterations only). At each
decision of the search bot's seat that its search weighs (more than one candidate), it takes the
adapter's first ``--candidates`` candidates (the policy's pick first) and plays ``--playouts``
copies of each to the game's end (at most ``LONGEST`` decisions), the j-th copy of every
candidate rolling the same fresh dice, on by the search's own rollout policy, reading the
searching seat's value (the adapter's ``values``: 1 a win, 0 a loss once the game is over)
after each of ``--horizons`` decisions and at the end. A copy whose game ended sooner reads its
outcome at every later horizon.

It prints, per horizon, over every candidate other than the pick: the correlation between its
mean gain over the pick read at that horizon in the first half of the copies and its mean gain
in outcome in the second half (the halves share no dice, so the luck of one cannot agree with
the other's), and how often the two gains have the same sign. The outcome read the same way
(first half against second) is the ceiling: the most any horizon's reading could agree. A
horizon whose correlation is near the ceiling values a rollout as its end would; a shorter one
is cheaper and less noisy, but may see a setback of a rival that the rest of the game undoes.

The search's own choices are untouched (the readings play on copies), so every game goes as in
``benchmarks/bots.py`` with the same seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from carnage.ai.search import SearchBot, hash_seed
from carnage.analysis.matches import Played, play_looked_at, playout_copy, ruleset_and_scenario
from carnage.kernel.decisions import Decision
from carnage.rulesets import Ruleset

READ_SEED = 24680
"""The readings' own dice (never the search bot's)."""
LONGEST = 400
"""Decisions a copy plays at most (the hard level's full rollouts)."""


@dataclass(frozen=True)
class Read:
    """One decision read: per candidate (the pick first), per copy, the searching seat's value
    at each horizon and, last, at the end."""

    seed: int
    kind: str
    choices: tuple[str, ...]
    values: tuple[tuple[tuple[float, ...], ...], ...]


def read(bot: SearchBot, game: Any, d: Decision, choices: Sequence[Any], playouts: int,
         horizons: Sequence[int]) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Each of ``choices`` played out ``playouts`` times (the j-th copies share their dice):
    the searching seat's value after each of ``horizons`` decisions, and at the end."""
    ad = bot.adapter(game)
    ad.me = d.player
    rng = random.Random(READ_SEED)
    marks = sorted(set(horizons))
    out: list[tuple[tuple[float, ...], ...]] = []
    for c in choices:
        rows: list[tuple[float, ...]] = []
        for j in range(playouts):
            sim = playout_copy(game)
            ad.redeal(sim, hash_seed(READ_SEED, len(game.choices), j))
            sim.apply(c)
            at: dict[int, float] = {}
            steps = 0
            while steps < LONGEST and (dd := sim.pending()) is not None:
                if steps in marks:
                    at[steps] = _mine(ad.values(sim), d.player)
                sim.apply(dd.validate(ad.policy(sim, dd, rng)))
                steps += 1
            end = _mine(ad.values(sim), d.player)
            rows.append((*(at.get(h, end) for h in horizons), end))
        out.append(tuple(rows))
    return tuple(out)


def _mine(values: Sequence[float], player: int) -> float:
    return values[player] if player < len(values) else 0.5


def play(rs: Ruleset, scenario: str, level: str, games: int, seed: int, playouts: int,
         candidates: int, horizons: Sequence[int],
         each: Callable[[Played, list[Read]], None] | None = None
         ) -> tuple[list[Played], list[Read]]:
    """``games`` games as ``benchmarks/bots.py`` plays them (``play_looked_at``), every
    decision the search bot's search weighs read as it is met; ``each`` gets every game and
    its readings."""

    def look(bot: SearchBot, game: Any, d: Decision, choice: Any) -> Read | None:
        e = bot.last
        if e is None or e.decision != len(game.choices) or len(e.candidates) < 2:
            return None
        ad = bot.adapter(game)
        ad.me = d.player
        if not ad.worth_searching(game, d):
            return None
        order = [c for c, _ in ad.ordered(game, d, random.Random(READ_SEED))][:candidates]
        if len(order) < 2:
            return None
        values = read(bot, game, d, order, playouts, horizons)
        return Read(-1, d.kind, tuple(str(c) for c in order), values)

    def seeded(p: Played, found: list[Read]) -> list[Read]:
        return [replace(r, seed=p.seed) for r in found]

    per = play_looked_at(rs, scenario, level, games, seed, look,
                         None if each is None else lambda p, found: each(p, seeded(p, found)))
    return [p for p, _ in per], [r for p, found in per for r in seeded(p, found)]


def gains(r: Read, column: int, copies: range) -> list[float]:
    """Each candidate but the pick: its mean gain over the pick in ``column`` (a horizon's
    index, or -1 the end) over ``copies``."""
    base = r.values[0]
    return [sum(other[j][column] - base[j][column] for j in copies) / len(copies)
            for other in r.values[1:]]


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (nan when either side does not vary)."""
    n = len(xs)
    if n < 2:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sxy / (sx * sy) if sx > 0.0 and sy > 0.0 else math.nan


def agreement(reads: Sequence[Read], column: int) -> tuple[float, float, int]:
    """Over every candidate but the pick of every reading: the correlation of its gain read
    in ``column`` over the first half of the copies with its gain in outcome over the second
    half, how often the two have the same sign (of those where both are not zero), and how
    many candidates."""
    xs: list[float] = []
    ys: list[float] = []
    for r in reads:
        n = len(r.values[0])
        half = n // 2
        if half < 1:
            continue
        xs.extend(gains(r, column, range(half)))
        ys.extend(gains(r, -1, range(half, n)))
    signed = [(x, y) for x, y in zip(xs, ys, strict=True) if x != 0.0 and y != 0.0]
    same = sum((x > 0) == (y > 0) for x, y in signed) / len(signed) if signed else math.nan
    return correlation(xs, ys), same, len(xs)


def table(reads: Sequence[Read], horizons: Sequence[int]) -> list[str]:
    """Markdown rows: per horizon (then the end itself), the correlation and the same signs."""
    rows = ["| read after | correlation with the outcome | same sign |", "|---|---:|---:|"]
    for k, h in enumerate(horizons):
        c, same, _ = agreement(reads, k)
        rows.append(f"| {h} decisions | {c:.3f} | {same:.0%} |")
    c, same, _ = agreement(reads, -1)
    rows.append(f"| the end (the ceiling) | {c:.3f} | {same:.0%} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="kart")
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=400)
    ap.add_argument("--playouts", type=int, default=40)
    ap.add_argument("--candidates", type=int, default=3)
    ap.add_argument("--horizons", default="10,20,40,60,80,120")
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error("--games must be at least 1")
    if a.playouts < 2:
        ap.error("--playouts must be at least 2 (a half to read the horizon, a half the end)")
    if a.candidates < 2:
        ap.error("--candidates must be at least 2 (the pick and one other)")
    try:
        horizons = [int(h) for h in a.horizons.split(",") if h.strip()]
    except ValueError:
        ap.error(f"--horizons must be whole numbers separated by commas, not {a.horizons!r}")
    if not horizons or min(horizons) < 0:
        ap.error("--horizons must name at least one horizon of 0 or more decisions")
    try:
        rs, scenario = ruleset_and_scenario(a.ruleset, a.scenario)
    except ValueError as err:
        ap.error(str(err))

    def report(p: Played, found: list[Read]) -> None:
        print(f"seed {p.seed}: {len(found)} decisions read; the search bot "
              f"{'won' if p.score == 1.0 else 'did not win'}", flush=True)

    _, reads = play(rs, scenario, a.level, a.games, a.seed, a.playouts, a.candidates,
                    horizons, report)
    print(f"search:{a.level} against heuristic, {rs.title} {scenario}, {a.games} games from "
          f"seed {a.seed}: {len(reads)} decisions read, {a.candidates} candidates each, "
          f"{a.playouts} copies a candidate played to the end")
    for row in table(reads, horizons):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
