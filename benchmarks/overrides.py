"""What the search bot's answers are worth where it leaves its rollout policy's pick.

    .venv/bin/python benchmarks/overrides.py [--ruleset kart] [--scenario street-race]
        [--level hard] [--games 8] [--seed 0] [--playouts 100] [--horizon 400]

Plays ``--games`` seeded games of the search bot at ``--level`` against the heuristic bot, as
``benchmarks/bots.py`` does (game i seeded SEED + i, the search bot in seat 1 in even games and
in seat 2 in odd ones, iterations only), and at each decision where the search bot's answer is
not its policy's pick it judges the two: ``--playouts`` pairs of copies, the j-th pair rolling
the same fresh dice, each copy given one of the two choices and then played on by the search's
own rollout policy (the heuristic bot for every seat, the search bot's prior for its own) for
at most ``--horizon`` decisions and valued by the ruleset's search adapter (an outcome, 1 a win,
0 a loss, once the game is over). The mean of the paired differences is the answer's gain over
the pick, in the searching seat's chance to win against the heuristic bot, with its standard
error. It prints one line a judged decision (``--quiet``: none), then a table by decision kind:
how many answers left the pick, their total gain and its standard error, and how many gained or
lost. A kind whose answers lose on the whole is one the search would do better to leave to its
policy (``search_leaves`` of a Refuelled scenario).

The search's own choice is untouched: the judging plays on copies, so every game goes exactly as
in ``benchmarks/bots.py`` with the same seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from carnage.ai.search import SearchBot, hash_seed
from carnage.analysis.matches import Played, play_looked_at, playout_copy, ruleset_and_scenario
from carnage.kernel.decisions import Decision
from carnage.rulesets import Ruleset

JUDGE_SEED = 12345
"""The judging's own dice (never the search bot's)."""


@dataclass(frozen=True)
class Judged:
    """One answer that left the policy's pick, judged."""

    seed: int
    kind: str
    pick: str
    chosen: str
    gain: float
    se: float


def judge(bot: SearchBot, game: Any, d: Decision, choices: list[Any], playouts: int,
          horizon: int) -> dict[int, list[float]]:
    """The searching seat's value of each of ``choices`` over ``playouts`` paired playouts."""
    ad = bot.adapter(game)
    ad.me = d.player
    rng = random.Random(JUDGE_SEED)
    values: dict[int, list[float]] = {i: [] for i in range(len(choices))}
    for j in range(playouts):
        world = hash_seed(JUDGE_SEED, len(game.choices), j)
        for i, c in enumerate(choices):
            sim = playout_copy(game)
            ad.redeal(sim, world)
            sim.apply(c)
            steps = 0
            while steps < horizon and (dd := sim.pending()) is not None:
                sim.apply(dd.validate(ad.policy(sim, dd, rng)))
                steps += 1
            v = ad.values(sim)
            values[i].append(v[d.player] if d.player < len(v) else 0.5)
    return values


def paired_gain(base: list[float], other: list[float]) -> tuple[float, float]:
    """The mean of ``other - base`` pair by pair, and its standard error."""
    diffs = [o - b for o, b in zip(other, base, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def play(rs: Ruleset, scenario: str, level: str, games: int, seed: int, playouts: int,
         horizon: int, each: Callable[[Played, list[Judged]], None] | None = None
         ) -> tuple[list[Played], list[Judged]]:
    """``games`` games as ``benchmarks/bots.py`` plays them (``play_looked_at``), every answer
    of the search bot off its policy's pick judged as it is made; ``each`` gets every game and
    its judged answers."""

    def look(bot: SearchBot, game: Any, d: Decision, choice: Any) -> Judged | None:
        e = bot.last
        if (e is None or e.decision != len(game.choices) or e.pick is None
                or e.chosen == e.pick):
            return None
        v = judge(bot, game, d, [e.pick, e.chosen], playouts, horizon)
        gain, se = paired_gain(v[0], v[1])
        return Judged(-1, d.kind, str(e.pick), str(e.chosen), gain, se)

    def seeded(p: Played, found: list[Judged]) -> list[Judged]:
        return [replace(j, seed=p.seed) for j in found]

    per = play_looked_at(rs, scenario, level, games, seed, look,
                         None if each is None else lambda p, found: each(p, seeded(p, found)))
    return [p for p, _ in per], [j for p, found in per for j in seeded(p, found)]


def table(judged: list[Judged]) -> list[str]:
    """Markdown rows by decision kind: answers, total gain (standard error), gained / lost."""
    by: dict[str, list[Judged]] = defaultdict(list)
    for j in judged:
        by[j.kind].append(j)
    rows = ["| decision | answers off the pick | total gain (standard error) | gained / lost |",
            "|---|---:|---|---|"]
    for kind in sorted(by):
        js = by[kind]
        total = sum(j.gain for j in js)
        se = math.sqrt(sum(j.se ** 2 for j in js))
        rows.append(f"| {kind} | {len(js)} | {total:+.2f} ({se:.2f}) | "
                    f"{sum(j.gain > 0 for j in js)} / {sum(j.gain < 0 for j in js)} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="refuelled")
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--horizon", type=int, default=400)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    for name in ("games", "playouts", "horizon"):
        if getattr(a, name) < 1:
            ap.error(f"--{name} must be at least 1")
    try:
        rs, scenario = ruleset_and_scenario(a.ruleset, a.scenario)
    except ValueError as err:
        ap.error(str(err))
    def report(p: Played, found: list[Judged]) -> None:
        if a.quiet:
            return
        for j in found:
            print(f"seed {j.seed} {j.kind}: {j.chosen} for {j.pick}, gain {j.gain:+.3f} "
                  f"({j.se:.3f})")
        print(f"seed {p.seed}: the search bot {'won' if p.score == 1.0 else 'did not win'}",
              flush=True)

    played, judged = play(rs, scenario, a.level, a.games, a.seed, a.playouts, a.horizon,
                          report)
    wins = sum(p.score == 1.0 for p in played)
    print(f"search:{a.level} against heuristic, {rs.title} {scenario}, {a.games} games from "
          f"seed {a.seed}: {wins} won; {len(judged)} answers off the pick, each judged by "
          f"{a.playouts} paired playouts of at most {a.horizon} decisions")
    for row in table(judged):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
