"""What a ruleset's games look like to a learning agent, declared by the ruleset
(``Ruleset.observation``) and written in its game package (Refuelled's:
``games/refuelled/observation.py``, which the Kart variant and Legacy share; Devil's Run's:
``games/devilsrun/observation.py``).

An ``ObservationOffer`` says how long the vector is and encodes a game from one seat's point
of view; the reinforcement-learning environment (``rl/env.py``) builds its observation space
from ``size`` and its observations from ``encode``, and asks nothing else of a game but the
contract (``kernel/contract.py``). The layouts are in ``docs/rl.md``.

Also here, because every encoder and the environment must agree on them: how a decision
becomes a fixed number of actions (``MAX_ACTIONS``, ``INTERVAL_STEPS``, ``action_values``)
and the decision's part of an observation (``decision_features``). Plain Python floats: the
kernel does not depend on numpy (the environment makes the arrays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from carnage.kernel.decisions import Decision

MAX_ACTIONS = 128
"""Actions a decision offers an agent; a decision with more options offers only its first."""
INTERVAL_STEPS = 13
"""Points a continuous choice (an ``Interval``) is discretised into, both ends included."""


def action_values(d: Decision) -> list[Any]:
    """The choice each action stands for, in action order (the legal actions are
    ``range(len(action_values(d)))``): the options' values, or ``INTERVAL_STEPS`` evenly
    spaced points from a continuous choice's low end to its high end."""
    if d.domain is not None:
        lo, hi = d.domain.low, d.domain.high
        if hi <= lo:
            return [lo]
        return [lo + (hi - lo) * k / (INTERVAL_STEPS - 1) for k in range(INTERVAL_STEPS)]
    return [o.value for o in d.options[:MAX_ACTIONS]]


def decision_features_size(kinds: Sequence[str]) -> int:
    """How many values ``decision_features`` gives for ``kinds``."""
    return 5 + len(kinds) + 1


def decision_features(d: Decision | None, seat: int, kinds: Sequence[str],
                      domain_scale: float = 180.0) -> list[float]:
    """The pending decision ``d`` as ``seat`` sees it: 1 if the seat decides, 1 if the choice
    is continuous, its low and high ends / ``domain_scale``, actions / ``MAX_ACTIONS``, then a
    one-hot of its kind over ``kinds`` and one last entry for any other kind (all zeros when
    no decision is pending)."""
    out = [0.0] * decision_features_size(kinds)
    if d is None:
        return out
    out[0] = 1.0 if d.player == seat else 0.0
    if d.domain is not None:
        out[1] = 1.0
        out[2], out[3] = d.domain.low / domain_scale, d.domain.high / domain_scale
    out[4] = len(action_values(d)) / MAX_ACTIONS
    k = kinds.index(d.kind) if d.kind in kinds else len(kinds)
    out[5 + k] = 1.0
    return out


@dataclass(frozen=True)
class ObservationOffer:
    """A ruleset's games as fixed-size vectors of numbers, one per seat."""

    size: int
    """How many values ``encode`` gives, whatever the game or the seat."""
    encode: Callable[[Any, int], Sequence[float]]
    """``encode(game, seat)`` -> ``size`` floats, the game (one of the ruleset's, a
    ``PlayableGame``) from ``seat``'s point of view, each scaled to about [-1, 1]."""
    default_scenario: str | None = None
    """The scenario an environment plays when it names none (None: the ruleset's first)."""
    text: Callable[[Any], str] | None = None
    """``text(game)`` -> the position in a few lines (the environment's ``ansi`` render);
    None: the environment says only who decides what."""

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError(f"an observation has at least one value, not {self.size}")


__all__ = ["INTERVAL_STEPS", "MAX_ACTIONS", "ObservationOffer", "action_values",
           "decision_features", "decision_features_size"]
