"""Truckasaurus (pp.152-153): seeded random and heuristic games."""

from __future__ import annotations

import pytest
from tests.games.refuelled.scenarios.beast_sim import play


@pytest.mark.parametrize("seed", range(3))
def test_random_games_keep_invariants_replay_and_copy(seed: int) -> None:
    out = play("truckasaurus", seed, "random", players=2 + seed % 3, copy_at=20 + seed * 7)
    assert out["problems"] == [] and out["diverged"] is None and out["replayed"]
    assert out["outcome"] is not None


@pytest.mark.parametrize("seed", range(3))
def test_heuristic_games_end_by_the_scenario(seed: int) -> None:
    out = play("truckasaurus", seed, "heuristic", players=2 + seed % 2)
    o = out["outcome"]
    assert out["problems"] == [] and out["replayed"]
    assert o is not None and ("Victory Points" in o.reason), o.reason
    assert o.winner is not None or o.draw
