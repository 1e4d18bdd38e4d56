"""Big Game Hunter (pp.143-145): seeded random and heuristic games."""

from __future__ import annotations

import pytest
from tests.games.refuelled.scenarios.beast_sim import play

SEEDS = (2, 6)
"""Seeds whose heuristic games end by herding or kills within the round cap."""


@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_invariants_replay_and_copy(seed: int) -> None:
    out = play("big-game-hunter", seed, "random", players=2 + seed % 2, copy_at=20 + seed * 7)
    assert out["problems"] == [] and out["diverged"] is None and out["replayed"]
    assert out["outcome"] is not None


@pytest.mark.parametrize("seed", SEEDS)
def test_heuristic_games_end_by_the_scenario(seed: int) -> None:
    out = play("big-game-hunter", seed, "heuristic", players=2, max_rounds=20)
    o = out["outcome"]
    assert out["problems"] == [] and out["replayed"]
    assert o is not None and ("herded" in o.reason or "kills" in o.reason), o.reason
    assert o.winner is not None or o.draw
