"""Exact distributions of dice counts, shared by every game's odds (Refuelled's attacks and
skids, Devil's Run's D10 shots, the Kart variant's Hazards): a count's weights over a common
denominator, and the check every query's sizes pass."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from carnage.kernel.queries import QueryError, TextTable


class OddsError(QueryError):
    """A query the rules cannot answer (a negative dice pool, an unknown weight ...)."""


@dataclass(frozen=True)
class Dist:
    """A distribution over the counts 0..len(weights)-1: ``weights[k] / denom`` is P(= k)."""

    weights: tuple[int, ...]
    denom: int

    @staticmethod
    def of(weights: Mapping[int, int], denom: int) -> Dist:
        top = max((k for k, w in weights.items() if w), default=0)
        return Dist(tuple(weights.get(k, 0) for k in range(top + 1)), denom)

    @staticmethod
    def certain(k: int) -> Dist:
        return Dist.of({k: 1}, 1)

    @property
    def top(self) -> int:
        return len(self.weights) - 1

    def p(self, k: int) -> Fraction:
        """P(= k)."""
        return Fraction(self.weights[k], self.denom) if 0 <= k <= self.top else Fraction(0)

    def at_least(self, k: int) -> Fraction:
        """P(>= k)."""
        return Fraction(sum(self.weights[max(0, k):]), self.denom)

    def mean(self) -> Fraction:
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.denom)

    def probabilities(self) -> dict[int, Fraction]:
        return {k: Fraction(w, self.denom) for k, w in enumerate(self.weights)}

    def floats(self) -> dict[str, float]:
        """P(= k) as floats keyed by the count (as a string, for JSON)."""
        return {str(k): w / self.denom for k, w in enumerate(self.weights)}

    def at_least_floats(self) -> dict[str, float]:
        """P(>= k) for k = 1..top, as floats keyed by the count."""
        out: dict[str, float] = {}
        acc = 0
        for k in range(self.top, 0, -1):
            acc += self.weights[k]
            out[str(k)] = acc / self.denom
        return dict(reversed(out.items()))

    def exact(self) -> dict[str, str]:
        return {str(k): str(Fraction(w, self.denom)) for k, w in enumerate(self.weights)}

    def to_json(self) -> dict[str, object]:
        return {"distribution": self.floats(), "mean": float(self.mean()),
                "p_at_least": self.at_least_floats(), "exact": self.exact()}


def check_count(what: str, n: int, high: int, low: int = 0) -> None:
    """``OddsError`` unless ``n`` is a whole number from ``low`` to ``high``."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise OddsError(f"{what} must be a whole number, not {n!r}")
    if not low <= n <= high:
        raise OddsError(f"{what} must be between {low} and {high}, not {n}")


def dist_table(title: str, d: Dist, what: str = "damage") -> TextTable:
    """``d`` as a report's table: each count, P(= k), P(>= k) and the exact fraction."""
    rows = tuple((str(k), f"{float(d.p(k)):.2%}", f"{float(d.at_least(k)):.2%}", str(d.p(k)))
                 for k in range(d.top + 1))
    return TextTable(title, (what, "P(= k)", "P(≥ k)", "exact"), rows)


@dataclass(frozen=True)
class PendingOdds:
    """What a ruleset shows of the odds of a game's pending decision (``TableOffer``)."""

    odds: Callable[[Any, Any], Sequence[Mapping[str, Any]]]
    """``odds(game, decision)`` -> for each option of ``decision`` that rolls dice, its JSON
    (``option``, ``label``, what it rolls, ``odds``); read-only: the game is not changed."""
    basis: str
    """What the odds assume, in plain words."""
