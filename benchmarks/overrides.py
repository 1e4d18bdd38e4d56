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
from dataclasses import dataclass
from typing import Any

from carnage.ai.search import SearchBot, hash_seed
from carnage.analysis.matches import SearchOptions, bot_rng, default_scenario, make_bot
from carnage.kernel.decisions import Decision
from carnage.rulesets import Ruleset, get_ruleset

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


def _copy(game: Any) -> Any:
    try:
        return game.clone(lazy=True)
    except TypeError:  # a game without lazy copies (Devil's Run)
        return game.clone()


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
            sim = _copy(game)
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


def play(rs: Ruleset, scenario: str, level: str, seed: int, playouts: int,
         horizon: int) -> tuple[bool, list[Judged]]:
    """One game as ``benchmarks/bots.py`` plays it: did the search bot win, and its judged
    answers."""
    seat = seed % 2
    names = ["heuristic", "heuristic"]
    names[seat] = f"search:{level}"
    game = rs.new_game(scenario=scenario, seed=seed)
    opts = SearchOptions(iterations=None, seconds=None, horizon=None, cpu_clock=False)
    bots = [make_bot(rs, n, seed, opts) for n in names]
    rng = bot_rng(seed)
    found: list[Judged] = []
    while (d := game.pending()) is not None:
        bot = bots[d.player % len(bots)]
        choice = bot.choose(game, d, rng)
        e = bot.last if isinstance(bot, SearchBot) else None
        if (e is not None and e.decision == len(game.choices) and e.pick is not None
                and e.chosen != e.pick):
            assert isinstance(bot, SearchBot)
            v = judge(bot, game, d, [e.pick, e.chosen], playouts, horizon)
            gain, se = paired_gain(v[0], v[1])
            found.append(Judged(seed, d.kind, str(e.pick), str(e.chosen), gain, se))
        game.apply(choice)
    out = game.outcome()
    return out is not None and out.winner == seat and not out.draw, found


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
        rs = get_ruleset(a.ruleset)
    except (KeyError, ValueError) as err:
        ap.error(str(err))
    scenario = a.scenario or default_scenario(rs, ("street-race",))
    if scenario not in rs.scenarios:
        ap.error(f"{rs.title} has no scenario {scenario!r}")
    wins, judged = 0, []
    for seed in range(a.seed, a.seed + a.games):
        won, found = play(rs, scenario, a.level, seed, a.playouts, a.horizon)
        wins += won
        judged += found
        if not a.quiet:
            for j in found:
                print(f"seed {j.seed} {j.kind}: {j.chosen} for {j.pick}, gain {j.gain:+.3f} "
                      f"({j.se:.3f})")
            print(f"seed {seed}: the search bot {'won' if won else 'did not win'}", flush=True)
    print(f"search:{a.level} against heuristic, {rs.title} {scenario}, {a.games} games from "
          f"seed {a.seed}: {wins} won; {len(judged)} answers off the pick, each judged by "
          f"{a.playouts} paired playouts of at most {a.horizon} decisions")
    for row in table(judged):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
