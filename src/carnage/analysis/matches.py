"""Seeded games between two named bots of any ruleset, timed per decision: what the bot
benchmarks (``benchmarks/bots.py``, ``benchmarks/ladder.py``) play.

Everything goes through the registry and the game contract: a ruleset by name
(``carnage.rulesets.get_ruleset``), its game by ``Ruleset.new_game``, its bots by name (its
own, ``Ruleset.bots``, or the search bot at a level, ``search:easy|normal|hard``), played by
``pending``/``apply``/``outcome``. The search bot is built here with the game's seed (and the
ruleset's own search adapter, ``Ruleset.search``, as ``ai.make_bot_for`` builds it), so an
iteration-budgeted search (no time limit) plays every game the same way again.

Game ``i`` of a match from seed ``S`` rolls the dice of seed ``S + i`` and puts the first
bot in seat 1 when ``i`` is even, in seat 2 when it is odd, so pole and seat order even out.
A team game (Refuelled p.123: ``sides``, each a list of seats) puts the first bot on every
seat of side ``i mod sides`` and the second bot on every other seat; the first bot's score is
its side's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from carnage.ai.runner import MAX_CHOICES, SEARCH, StuckGame, bot_rng, make_bot_for
from carnage.ai.search import LEVELS, SearchBot, playout_copy
from carnage.analysis.tourney import wilson
from carnage.kernel.contract import Bot
from carnage.kernel.decisions import Decision
from carnage.kernel.game import Outcome
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import get_ruleset

Watch = Callable[[Bot, Any, Decision, Any], None]
"""Called with the bot, the game, the pending decision and the bot's choice, before the choice
is applied (a benchmark that looks at choices as they are made: ``benchmarks/overrides.py``)."""
T = TypeVar("T")
"""What ``play_looked_at`` keeps of an answer looked at."""


@dataclass(frozen=True)
class SearchOptions:
    """What overrides the search bot's level (None: the level's own)."""

    iterations: int | None = None
    seconds: float | str | None = "level"
    """``"level"``: the level's time limit; None: none (iterations only, reproducible)."""
    horizon: int | None = None
    cpu_clock: bool = False
    """Measure the time limit in this process's CPU time (a shared machine)."""

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """The command-line options that override the search bot's level."""
        parser.add_argument("--iterations", type=int, default=None,
                            help="the search bot's simulations per decision")
        parser.add_argument("--seconds", type=float, default=None,
                            help="the search bot's time limit per decision (0: none, "
                            "iterations only)")
        parser.add_argument("--horizon", type=int, default=None,
                            help="the search bot's rollout decisions")
        parser.add_argument("--cpu-clock", action="store_true",
                            help="measure the time limit in this process's CPU time (a "
                            "shared machine)")

    @classmethod
    def from_arguments(cls, a: argparse.Namespace) -> SearchOptions:
        """What ``add_arguments``' options say (``--seconds 0``: no time limit)."""
        seconds: float | str | None = "level"
        if a.seconds is not None:
            seconds = None if a.seconds <= 0 else a.seconds
        return cls(iterations=a.iterations, seconds=seconds, horizon=a.horizon,
                   cpu_clock=a.cpu_clock)


@dataclass
class Timing:
    """One bot's time per decision: wall clock and this process's CPU, in seconds, and the
    search bot's simulations per decision."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    sims: list[int] = field(default_factory=list)

    def extend(self, other: Timing) -> None:
        self.wall += other.wall
        self.cpu += other.cpu
        self.sims += other.sims


@dataclass(frozen=True)
class Played:
    """One game of a match: its index and dice seed, the bots in seat order, the score of
    the match's first bot (1 a win, 0.5 a draw, 0 a loss; it sat in seat 1 when ``index``
    is even, in a team game on the seats ``side``) and the outcome."""

    index: int
    seed: int
    seats: tuple[str, ...]
    score: float
    outcome: Outcome
    side: tuple[int, ...] = ()
    """The seats (from 0) of the match's first bot; empty: ``(index % 2,)``."""

    @property
    def first_seats(self) -> tuple[int, ...]:
        """The seats (from 0) the match's first bot played."""
        return self.side or (self.index % 2,)

    @property
    def first_seat(self) -> int:
        """The first seat (from 0) of the match's first bot."""
        return self.first_seats[0]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, the nearest rank at or below (0.0 if none)."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean, median and p95 of ``values`` (zeros if none)."""
    if not values:
        return (0.0, 0.0, 0.0)
    return (statistics.fmean(values), statistics.median(values), percentile(values, 0.95))


def ms(seconds: float) -> str:
    """Milliseconds as a figure shows them: two decimals below 10 ms (a heuristic bot's
    decisions are fast), whole ones above."""
    m = seconds * 1000
    return f"{m:.2f}" if m < 10 else f"{m:.0f}"


def is_search(name: str) -> bool:
    return name in SEARCH


def make_bot(ruleset: Ruleset, name: str, seed: int,
             search: SearchOptions = SearchOptions()) -> Bot:
    """Bot ``name`` of ``ruleset`` for the game of ``seed``: the search bot seeded with it
    (with ``search``'s overrides), another by ``ai.make_bot_for``; ``ValueError`` naming the
    ruleset's bots."""
    if not is_search(name):
        return make_bot_for(ruleset, name)
    level = name.partition(":")[2] or "normal"
    return SearchBot(level, iterations=search.iterations, seconds=search.seconds, seed=seed,
                     horizon=search.horizon, adapter=ruleset.search,
                     clock=time.process_time if search.cpu_clock else time.perf_counter)


def check_bots(ruleset: Ruleset, names: Sequence[str]) -> None:
    """``ValueError`` naming the first of ``names`` that ``ruleset`` has no bot of."""
    for n in names:
        make_bot_for(ruleset, n)


def default_scenario(ruleset: Ruleset, prefer: Sequence[str] = ()) -> str:
    """The first of ``prefer`` that ``ruleset`` has, else its first scenario as it lists
    them (the benchmarks prefer a Street Race)."""
    for sc in prefer:
        if sc in ruleset.scenarios:
            return sc
    infos = ruleset.scenario_infos()
    return infos[0].id if infos else next(iter(ruleset.scenarios))


def ruleset_and_scenario(name: str, scenario: str | None,
                         prefer: Sequence[str] = ("street-race",)) -> tuple[Ruleset, str]:
    """The ruleset ``name`` (the registry's) and its scenario ``scenario`` (None: the first of
    ``prefer`` it has, else its first: ``default_scenario``); ``ValueError`` naming what is
    not there."""
    try:
        rs = get_ruleset(name)
    except KeyError as err:
        raise ValueError(str(err.args[0]) if err.args else f"no ruleset {name!r}") from err
    chosen = scenario or default_scenario(rs, prefer)
    if chosen not in rs.scenarios:
        raise ValueError(f"{rs.title} has no scenario {chosen!r}")
    return rs, chosen


def play_game(ruleset: Ruleset, scenario: str, seats: Sequence[str], seed: int,
              options: Mapping[str, Any], timings: Mapping[str, Timing],
              search: SearchOptions = SearchOptions(),
              side: Collection[int] = (0,),
              watch: Watch | None = None) -> tuple[float, Outcome]:
    """One game of ``scenario`` with the bots named ``seats`` (seat 1, seat 2, ...), dice seed
    ``seed``: the score of the seats ``side`` (1 if the winner is one of them, 0.5 a draw,
    else 0) and the outcome. Each decision's time is added to ``timings`` under its bot's
    name, if there; ``watch`` sees each bot's choice before it is applied."""
    game = ruleset.new_game(scenario=scenario, seed=seed, **options)
    if game.players != len(seats):
        raise ValueError(f"{ruleset.title} {scenario}: {len(seats)} bots for a game of "
                         f"{game.players} seats")
    bots = [make_bot(ruleset, n, seed, search) for n in seats]
    rng = bot_rng(seed)
    n = 0
    while (d := game.pending()) is not None:
        n += 1
        if n > MAX_CHOICES:
            raise StuckGame(f"{ruleset.name} {scenario} seed {seed}: no result after "
                            f"{MAX_CHOICES} choices")
        seat = d.player % len(bots)
        bot = bots[seat]
        t0, c0 = time.perf_counter(), time.process_time()
        choice = bot.choose(game, d, rng)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        timing = timings.get(seats[seat])
        if timing is not None:
            timing.wall.append(wall)
            timing.cpu.append(cpu)
            if isinstance(bot, SearchBot) and bot.last is not None:
                timing.sims.append(bot.last.iterations)
        if watch is not None:
            watch(bot, game, d, choice)
        game.apply(choice)
    out = game.outcome()
    if out is None:  # pragma: no cover - the contract: no pending decision means an outcome
        raise RuntimeError(f"{ruleset.name} {scenario} seed {seed}: over without an outcome")
    score = (0.5 if out.draw or out.winner is None
             else (1.0 if out.winner in side else 0.0))
    return score, out


def play_match(ruleset: Ruleset, scenario: str, first: str, second: str, games: int,
               seed: int, options: Mapping[str, Any], timings: Mapping[str, Timing],
               search: SearchOptions = SearchOptions(),
               each: Callable[[Played], None] | None = None,
               sides: Sequence[Sequence[int]] = (),
               watch: Watch | None = None) -> list[Played]:
    """``games`` games of ``first`` against ``second`` (game ``i``: seed ``seed + i``, seats
    alternating, see the module's docstring); ``each`` is called after every game, ``watch``
    before each choice is applied (``play_game``).
    ``sides``: a team game (the seats of each side, from 0; passed to the game as
    ``players`` and ``sides``), the first bot taking side ``i mod len(sides)``."""
    teams = [tuple(int(p) for p in s) for s in sides] or [(0,), (1,)]
    players = sum(len(s) for s in teams)
    opts = dict(options)
    if sides:
        opts.update(players=players, sides=teams)
    played = []
    for i in range(games):
        mine = teams[i % len(teams)]
        seats = tuple(first if p in mine else second for p in range(players))
        score, out = play_game(ruleset, scenario, seats, seed + i, opts, timings, search,
                               side=mine, watch=watch)
        p = Played(i, seed + i, seats, score, out, mine if sides else ())
        played.append(p)
        if each is not None:
            each(p)
    return played


def play_looked_at(ruleset: Ruleset, scenario: str, level: str, games: int, seed: int,
                   look: Callable[[SearchBot, Any, Decision, Any], T | None],
                   each: Callable[[Played, list[T]], None] | None = None
                   ) -> list[tuple[Played, list[T]]]:
    """``games`` games as ``benchmarks/bots.py`` plays them (``play_match``: the search bot at
    ``level`` against the heuristic bot, iterations only), ``look`` shown each of the search
    bot's answers before it is applied (the bot, the game, the decision, the answer) and
    returning what to keep of it, or None; every game with what was kept in it (``each``
    gets them as each game ends). What ``look`` does must not touch the game (copies only)."""
    per: list[tuple[Played, list[T]]] = []
    kept: list[T] = []

    def watch(bot: Bot, game: Any, d: Decision, choice: Any) -> None:
        if isinstance(bot, SearchBot) and (got := look(bot, game, d, choice)) is not None:
            kept.append(got)

    def done(p: Played) -> None:
        mine = list(kept)
        kept.clear()
        per.append((p, mine))
        if each is not None:
            each(p, mine)

    play_match(ruleset, scenario, f"search:{level}", "heuristic", games, seed, {}, {},
               SearchOptions(seconds=None), each=done, watch=watch)
    return per


__all__ = [
    "LEVELS",
    "Played",
    "SearchOptions",
    "Timing",
    "Watch",
    "check_bots",
    "default_scenario",
    "make_bot",
    "ms",
    "percentile",
    "play_game",
    "play_looked_at",
    "play_match",
    "playout_copy",
    "ruleset_and_scenario",
    "summary",
    "wilson",
]
