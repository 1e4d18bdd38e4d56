"""Seeded arena-of-death games between bots: invariants after every choice, clone and snapshot
spot checks, exact replay; heuristic games end by the scenario's own victory."""

from __future__ import annotations

from tests.rules.scenarios.strike_sim import play_chunk
from tests.simulation import assert_games_clean, run_in_workers

SCENARIO = "arena-of-death"
MIXED = [(("random", "random"), 6), (("heuristic", "random"), 3), (("random", "heuristic"), 3)]
HEURISTIC = 4


def test_seeded_games_keep_the_invariants_copy_and_replay() -> None:
    todo = []
    seed = 500
    for bots, n in MIXED:
        for _ in range(n):
            todo.append((SCENARIO, seed, bots, 3, seed % 4 == 0))
            seed += 1
    results = run_in_workers(play_chunk, [todo[i::2] for i in range(2)])
    assert_games_clean(results)
    assert sum(r["copies_checked"] for r in results) >= 3
    replays = [r for r in results if "replay_identical" in r]
    assert replays and all(r["replay_identical"] for r in replays)


def test_heuristic_games_end_by_the_scenarios_victory() -> None:
    todo = [(SCENARIO, 900 + i, ("heuristic", "heuristic"), 40, False)
            for i in range(HEURISTIC)]
    results = run_in_workers(play_chunk, [todo[i::2] for i in range(2)])
    assert_games_clean(results)
    for r in results:
        assert "no result after" not in r["reason"], (r["seed"], r["reason"])
