"""How strong each bot is, as the ladder measured it (``benchmarks/ladder.py --write``), and
how long it thinks: the figures the lobby shows next to each bot choice.

The measurements live in one data file shipped with the package, ``ai/data/ratings.json``,
keyed by ruleset name (the registry's), so a generic layer reads them without naming a game.
Each ruleset's entry is one ladder run: the scenario played, the date, how many games (in
all and per pair of bots), the seed, what the ratings are anchored on (the random bot = 0, or
the mean = 1500), the bootstrap resamples, whether the search levels' time limits were held
on the process's CPU clock, and per bot: its Elo rating with its 95 % interval, its record
and its median think time per decision (wall clock and CPU).

A ruleset or bot the file does not hold is *not yet rated*: nothing is invented.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "ratings.json"
"""The shipped measurements."""
FORMAT = 1
"""The data file's format number."""
ANCHORS = ("random", "mean")
ALIASES = {"search": "search:normal"}
"""Bot names that are another's (``search`` is the normal level)."""
AT_ONCE = 0.01
"""Seconds below which a bot is said to answer at once."""


class RatingsFileError(ValueError):
    """The ratings file is not what this module writes (names the file and what is wrong)."""


@dataclass(frozen=True)
class BotRating:
    """One bot's measured strength in a ladder run."""

    elo: float
    low: float
    high: float
    """The 95 % bootstrap interval of ``elo``."""
    games: int
    wins: int
    draws: int
    losses: int
    think_seconds: float
    """Median wall-clock seconds per decision."""
    think_cpu_seconds: float
    """Median CPU seconds per decision."""

    def __post_init__(self) -> None:
        for name in ("elo", "low", "high", "think_seconds", "think_cpu_seconds"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"{name} must be a finite number, not {v!r}")
        for name in ("games", "wins", "draws", "losses"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name} must be a whole number of games, not {v!r}")
        if self.wins + self.draws + self.losses != self.games:
            raise ValueError(f"wins, draws and losses ({self.wins}+{self.draws}+{self.losses}) "
                             f"do not add up to the games ({self.games})")
        if not self.low <= self.elo <= self.high:
            raise ValueError(f"the rating {self.elo} is not within its interval "
                             f"[{self.low}, {self.high}] (analysis/ratings.py places the "
                             "interval on the rating)")
        if self.think_seconds < 0 or self.think_cpu_seconds < 0:
            raise ValueError("a think time cannot be negative")


@dataclass(frozen=True)
class LadderRun:
    """One ladder run of a ruleset: how it was played and every bot's rating."""

    ruleset: str
    scenario: str
    """The scenario's id."""
    scenario_name: str
    """The scenario as its book names it."""
    date: str
    """The day it was run (ISO, UTC)."""
    games: int
    """Games played in all."""
    games_per_pair: int
    seed: int
    anchor: str
    """``random``: the random bot is rated 0; ``mean``: the ratings' mean is 1500."""
    resamples: int
    cpu_clock: bool
    """The search levels' time limits were held on the process's CPU time."""
    bots: dict[str, BotRating] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {', '.join(ANCHORS)}, not {self.anchor!r}")
        if self.games < 1 or self.games_per_pair < 1 or self.resamples < 1:
            raise ValueError("games, games per pair and resamples must be at least 1")
        if not self.bots:
            raise ValueError("a ladder run rates at least one bot")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["ruleset"]
        return out

    @classmethod
    def from_json(cls, ruleset: str, data: Mapping[str, Any]) -> LadderRun:
        d = dict(data)
        bots = d.pop("bots", None)
        if not isinstance(bots, Mapping):
            raise ValueError("bots must be a mapping of bot name to rating")
        return cls(ruleset=ruleset, bots={str(k): BotRating(**v) for k, v in bots.items()}, **d)

    @property
    def yardstick(self) -> str:
        """What the numbers are relative to, in words."""
        return "the random bot is rated 0" if self.anchor == "random" else (
            "the bots' mean is rated 1500")


def load(path: Path | None = None) -> dict[str, LadderRun]:
    """Every ruleset's ladder run in ``path`` (default: ``DATA``; none if the file does not
    exist);
    ``RatingsFileError`` naming the file and the entry when it is not well formed."""
    path = DATA if path is None else path
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RatingsFileError(f"{path}: not readable JSON ({e})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RatingsFileError(f"{path}: not a ratings file of format {FORMAT}")
    runs = raw.get("rulesets")
    if not isinstance(runs, dict):
        raise RatingsFileError(f"{path}: 'rulesets' must map a ruleset name to its ladder run")
    out = {}
    for name, run in runs.items():
        try:
            if not isinstance(run, Mapping):
                raise ValueError("not a mapping")
            out[name] = LadderRun.from_json(name, run)
        except (TypeError, ValueError) as e:
            raise RatingsFileError(f"{path}: ruleset {name!r}: {e}") from None
    return out


def record(run: LadderRun, path: Path | None = None) -> None:
    """Write ``run`` into ``path`` (default: ``DATA``) as its ruleset's entry, keeping the
    other rulesets'."""
    path = DATA if path is None else path
    runs = load(path)
    runs[run.ruleset] = run
    data = {"format": FORMAT,
            "rulesets": {name: runs[name].to_json() for name in sorted(runs)}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Strength:
    """A bot of a ruleset as the lobby shows it: its rating if measured, in plain words."""

    bot: str
    rated: bool
    words: str
    """E.g. "rated 420 (won 14 of 24), thinks about 0.4 s" (its median CPU time
    per decision: what a decision takes on a core of its own; the wall clock of a shared
    machine is longer) or "not yet rated"."""
    detail: str = ""
    """How it was measured (scenario, games, date, yardstick); empty when not rated."""
    rating: BotRating | None = None
    scenario: str | None = None
    date: str | None = None


def _number(x: float) -> str:
    """A rating as players read it: whole, thousands apart by a thin space."""
    return f"{round(x):,}".replace(",", "\u2009")


def think_words(seconds: float) -> str:
    """A think time in plain words."""
    if seconds < AT_ONCE:
        return "answers at once"
    if seconds < 0.1:
        return f"thinks about {seconds:.2f} s"
    if seconds < 10:
        return f"thinks about {seconds:.1f} s"
    return f"thinks about {seconds:.0f} s"


def strength(runs: Mapping[str, LadderRun], ruleset: str, bot: str) -> Strength:
    """How strong ``bot`` of ``ruleset`` is by ``runs`` (``load()``), or "not yet rated"."""
    run = runs.get(ruleset)
    r = None if run is None else run.bots.get(ALIASES.get(bot, bot))
    if run is None or r is None:
        return Strength(bot=bot, rated=False, words="not yet rated")
    if r.low == r.high == r.elo:
        rated = f"rated {_number(r.elo)} (the yardstick)"
    else:
        # The record beside the rating, the interval (hundreds of points wide in a small
        # ladder) in the detail.
        rated = f"rated {_number(r.elo)} (won {r.wins} of {r.games})"
    detail = (f"{run.yardstick}; 95% interval {_number(r.low)} to {_number(r.high)} from "
              f"{r.games} games ({r.wins} won, {r.draws} drawn, {r.losses} lost) of "
              f"{run.scenario_name or run.scenario}, {run.date}; thinking time is the median "
              "CPU time per decision")
    return Strength(bot=bot, rated=True, words=f"{rated}, {think_words(r.think_cpu_seconds)}",
                    detail=detail, rating=r, scenario=run.scenario, date=run.date)
