"""Seeded Saturday Night Live games between random and heuristic bots: invariants after every
choice, copies, exact replay; heuristic games end with someone holding 15 Victory Points."""

from __future__ import annotations

from typing import Any

from tests.games.refuelled.scenarios.skirmish_sim import play_one
from tests.simulation import assert_games_clean, run_in_workers

ID = "saturday-night-live"


def chunk(todo: list[tuple[int, tuple[str, ...], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(ID, seed, bots, rounds, rep, len(bots)) for seed, bots, rounds, rep in todo]


def test_random_and_heuristic_games_keep_the_invariants_and_replay() -> None:
    todo = [(100 + i, ("random", "random"), 4, i % 4 == 0) for i in range(8)]
    todo += [(200 + i, ("heuristic", "random"), 4, i == 0) for i in range(2)]
    todo += [(250, ("random", "heuristic", "random"), 4, True)]
    todo += [(300 + i, ("heuristic", "heuristic"), 40, i == 0) for i in range(2)]
    results = run_in_workers(chunk, [todo[0::2], todo[1::2]])
    assert_games_clean(results)
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
    assert sum(r["copies"] for r in results) >= 3
    # Heuristic bots chase the prizes and stay on screen: 15 VP, not the round cap.
    duels = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert len(duels) == 2
    for r in duels:
        assert r["reason"].endswith("holds 15 Victory Points"), r["reason"]
        assert r["report"]["prizes_claimed"] > 0
