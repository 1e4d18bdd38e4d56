"""Elo ratings from pairwise game results: a Bradley-Terry fit by maximum likelihood, with
intervals by bootstrap over games. Pure: no game, no bot, no clock (``benchmarks/ladder.py``
plays the games and reads its figures from here).

The model: a player of rating ``r_a`` scores against one of rating ``r_b`` an expected
``1 / (1 + 10 ** ((r_b - r_a) / 400))`` per game (a win 1, a draw 1/2, a loss 0), the
logistic Elo scale. The ratings are those that make the results most likely (a draw counts
as half a win for each side). A player who won every game has no finite maximum, so the fit
adds ``prior_draws`` virtual drawn games to every pair that played (a weak prior that pulls
ratings together, as BayesElo does): a perfect record gets a finite, clearly higher rating.

Ratings are relative: they are anchored so that one named player is 0 (the random bot), or
so that their mean is ``MEAN_RATING``.

The interval of each rating is the percentile interval of the ratings refitted on
``resamples`` resampled tourneys (a fixed seed, so the same results give the same interval).
Each resample replays every pair's games as many times as they were played, drawing each
result from that pair's record smoothed by ``smoothing`` of a game of each kind (win, draw,
loss): without it, a pair whose record is perfect would resample to the same perfect record
every time and its interval would shrink to a point; with it, a short perfect record gets
the wide interval it deserves, and a long record is resampled almost as it is.

The smoothing also pulls every resampled record towards an even one, so the resampled ratings
sit closer together than the fitted ones: their percentiles alone would put the interval
beside the rating rather than around it (a bot rated 672 from a strong record "between 303
and 648"). So the interval is the resamples' spread placed on the fitted rating: from the
rating less (median - low percentile) to the rating plus (high percentile - median). It
always holds the rating, and it is as wide as the percentile interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of the natural-log strength (``400 / ln 10``)."""
MEAN_RATING = 1500.0
"""The mean rating when no player is the anchor."""
PRIOR_DRAWS = 1.0
"""Virtual drawn games added to every pair that played (keeps a perfect record finite)."""
SMOOTHING = 0.5
"""Pseudo-games of each result added to a pair's record when resampling it."""
RESAMPLES = 1000
LEVEL = 0.95
TOLERANCE = 1e-10
"""Newton's method stops when no strength moves by more than this (natural-log units)."""
MAX_STEPS = 500


@dataclass(frozen=True)
class GameResult:
    """One game between two players: ``score`` is the first player's (1 a win, 0.5 a draw,
    0 a loss)."""

    first: str
    second: str
    score: float

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a game needs two players, not {self.first!r} against itself")
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 1, 0.5 or 0, not {self.score!r}")


@dataclass(frozen=True)
class Record:
    """A player's wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws


@dataclass(frozen=True)
class Rating:
    """A player's fitted rating, its interval (``low`` .. ``high``) and its record."""

    player: str
    elo: float
    low: float
    high: float
    record: Record


def expected_score(elo_a: float, elo_b: float) -> float:
    """What a player rated ``elo_a`` scores per game against one rated ``elo_b``."""
    return 1.0 / (1.0 + math.pow(10.0, (elo_b - elo_a) / 400.0))


def records(games: Iterable[GameResult]) -> dict[str, Record]:
    """Each player's wins, draws and losses, in the order they first appear."""
    tally: dict[str, list[int]] = {}
    for g in games:
        for name, s in ((g.first, g.score), (g.second, 1.0 - g.score)):
            row = tally.setdefault(name, [0, 0, 0])
            row[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
    return {name: Record(*row) for name, row in tally.items()}


# -- the pair table ------------------------------------------------------------------------------
Pairs = dict[tuple[int, int], tuple[int, int, int]]
"""(i, j) with i < j -> (i's wins, draws, i's losses) against j."""


def _table(games: Iterable[GameResult], players: Sequence[str]) -> Pairs:
    index = {p: k for k, p in enumerate(players)}
    pairs: dict[tuple[int, int], list[int]] = {}
    for g in games:
        try:
            i, j = index[g.first], index[g.second]
        except KeyError as e:
            raise ValueError(f"player {e.args[0]!r} is not among {list(players)}") from None
        s = g.score
        if i > j:
            i, j, s = j, i, 1.0 - s
        row = pairs.setdefault((i, j), [0, 0, 0])
        row[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
    return {k: (v[0], v[1], v[2]) for k, v in pairs.items()}


def _check_connected(pairs: Pairs, players: Sequence[str]) -> None:
    """Every player is linked to every other by games played (else no common scale)."""
    n = len(players)
    links: list[set[int]] = [set() for _ in range(n)]
    for i, j in pairs:
        links[i].add(j)
        links[j].add(i)
    seen = {0}
    todo = [0]
    while todo:
        for k in links[todo.pop()] - seen:
            seen.add(k)
            todo.append(k)
    if len(seen) < n:
        apart = sorted(players[k] for k in range(n) if k not in seen)
        raise ValueError("the ratings have no common scale: no game links "
                         f"{', '.join(map(repr, apart))} to {players[0]!r}")


def _check_finite(pairs: Pairs, players: Sequence[str]) -> None:
    """Without a prior the maximum is finite only if every player can be reached from every
    other through games won or drawn (else one group beat all the rest: infinitely better)."""
    n = len(players)
    beat: list[set[int]] = [set() for _ in range(n)]  # k in beat[i]: i won or drew against k
    for (i, j), (w, d, lost) in pairs.items():
        if w or d:
            beat[i].add(j)
        if lost or d:
            beat[j].add(i)
    for start in range(n):
        seen = {start}
        todo = [start]
        while todo:
            for k in beat[todo.pop()] - seen:
                seen.add(k)
                todo.append(k)
        if len(seen) < n:
            raise ValueError(
                f"no finite ratings without a prior: {players[start]!r} and those it beat "
                "won or lost every game against the rest (use prior_draws > 0)")


def _fit(pairs: Pairs, n: int, prior_draws: float) -> list[float]:
    """Maximum-likelihood strengths (natural log, player 0 fixed at 0) by Newton's method
    with step halving (the log-likelihood is concave, so it converges from anywhere)."""
    games = [(i, j, w + 0.5 * d + 0.5 * prior_draws, w + d + lost + prior_draws)
             for (i, j), (w, d, lost) in pairs.items()]  # i's score against j, of so many games

    def loglik(t: Sequence[float]) -> float:
        total = 0.0
        for i, j, s, m in games:
            x = t[i] - t[j]
            # s log p + (m - s) log (1 - p), p = 1 / (1 + e^-x), computed stably
            total += s * x - m * (max(x, 0.0) + math.log1p(math.exp(-abs(x))))
        return total

    theta = [0.0] * n
    current = loglik(theta)
    for _ in range(MAX_STEPS):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]  # minus the Hessian: positive semi-definite
        for i, j, s, m in games:
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += s - m * p
            grad[j] -= s - m * p
            v = m * p * (1.0 - p)
            hess[i][i] += v
            hess[j][j] += v
            hess[i][j] -= v
            hess[j][i] -= v
        # Player 0 stays at 0: solve the system of the others.
        step = [0.0, *_solve([row[1:] for row in hess[1:]], grad[1:])]
        scale = 1.0
        while True:
            trial = [t + scale * d for t, d in zip(theta, step, strict=True)]
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-12:
                break
            scale /= 2.0
        moved = max(abs(scale * d) for d in step)
        theta, current = trial, value
        if moved < TOLERANCE:
            return theta
    raise ArithmeticError(f"the ratings did not converge in {MAX_STEPS} steps")


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise ArithmeticError("the ratings are not determined by these results")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _anchored(theta: Sequence[float], players: Sequence[str], anchor: str | None
              ) -> dict[str, float]:
    elo = [t * ELO_SCALE for t in theta]
    shift = (-elo[players.index(anchor)] if anchor is not None
             else MEAN_RATING - sum(elo) / len(elo))
    return {p: e + shift for p, e in zip(players, elo, strict=True)}


def _players(games: Sequence[GameResult], players: Sequence[str] | None,
             anchor: str | None) -> list[str]:
    named = list(players) if players is not None else list(records(games))
    if len(set(named)) != len(named):
        raise ValueError(f"a player is named twice in {named}")
    if len(named) < 2:
        raise ValueError(f"ratings need at least two players, not {named}")
    if anchor is not None and anchor not in named:
        raise ValueError(f"the anchor {anchor!r} is not among the players {named}")
    return named


def fit_elo(games: Sequence[GameResult], players: Sequence[str] | None = None, *,
            anchor: str | None = None, prior_draws: float = PRIOR_DRAWS) -> dict[str, float]:
    """Each player's maximum-likelihood Elo rating from ``games`` (see the module's
    docstring): ``anchor`` at 0, or (None) the mean at ``MEAN_RATING``. ``players``: their
    order (default: as they first appear). ``ValueError`` naming what is wrong when the
    results do not determine finite ratings."""
    if prior_draws < 0:
        raise ValueError(f"prior_draws must not be negative, not {prior_draws}")
    named = _players(games, players, anchor)
    pairs = _table(games, named)
    _check_connected(pairs, named)
    if prior_draws == 0:
        _check_finite(pairs, named)
    return _anchored(_fit(pairs, len(named), prior_draws), named, anchor)


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _resample(pairs: Pairs, smoothing: float, rng: random.Random) -> Pairs:
    out: Pairs = {}
    for key, (w, d, lost) in pairs.items():
        weights = (w + smoothing, d + smoothing, lost + smoothing)
        drawn = rng.choices((0, 1, 2), weights=weights, k=w + d + lost)
        out[key] = (drawn.count(0), drawn.count(1), drawn.count(2))
    return out


def rate(games: Sequence[GameResult], players: Sequence[str] | None = None, *,
         anchor: str | None = None, prior_draws: float = PRIOR_DRAWS,
         resamples: int = RESAMPLES, level: float = LEVEL, seed: int = 0,
         smoothing: float = SMOOTHING) -> list[Rating]:
    """Each player's rating (``fit_elo``) with its ``level`` bootstrap interval over
    ``resamples`` resampled tourneys drawn from ``seed`` (see the module's docstring), and
    its record; best first. The anchor's interval is its fixed 0 (the others' are relative
    to it)."""
    if prior_draws <= 0:
        raise ValueError("the bootstrap needs prior_draws > 0: a resample may be a perfect "
                         "record, which has no finite rating without a prior")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1, not {level}")
    if smoothing < 0:
        raise ValueError(f"smoothing must not be negative, not {smoothing}")
    named = _players(games, players, anchor)
    point = fit_elo(games, named, anchor=anchor, prior_draws=prior_draws)
    pairs = _table(games, named)
    rng = random.Random(f"ratings:{seed}")
    samples: dict[str, list[float]] = {p: [] for p in named}
    for _ in range(resamples):
        fitted = _anchored(_fit(_resample(pairs, smoothing, rng), len(named), prior_draws),
                           named, anchor)
        for p in named:
            samples[p].append(fitted[p])
    tail = (1.0 - level) / 2.0
    recs = records(games)
    out = []
    for p in named:
        s = sorted(samples[p])
        middle = _quantile(s, 0.5)
        low = point[p] - (middle - _quantile(s, tail))
        high = point[p] + (_quantile(s, 1.0 - tail) - middle)
        out.append(Rating(p, point[p], low, high, recs.get(p, Record())))
    return sorted(out, key=lambda r: -r.elo)


def pairwise(games: Iterable[GameResult]) -> Mapping[tuple[str, str], Record]:
    """(a, b) -> a's record against b, for every ordered pair that played."""
    tally: dict[tuple[str, str], list[int]] = {}
    for g in games:
        for a, b, s in ((g.first, g.second, g.score), (g.second, g.first, 1.0 - g.score)):
            row = tally.setdefault((a, b), [0, 0, 0])
            row[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
    return {k: Record(*v) for k, v in tally.items()}


__all__ = ["ELO_SCALE", "MEAN_RATING", "PRIOR_DRAWS", "GameResult", "Rating", "Record",
           "expected_score", "fit_elo", "pairwise", "rate", "records"]
