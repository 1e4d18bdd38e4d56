"""Seeded Scavenger Party games between random and heuristic bots: invariants after every choice,
copies, exact replay; every game ends by the scenario's own end (round 3 or an earlier victory),
scored on crates held."""

from __future__ import annotations

from typing import Any

from tests.rules.scenarios.skirmish_sim import play_one
from tests.simulation import assert_games_clean, run_in_workers

ID = "scavenger-party"


def chunk(todo: list[tuple[int, tuple[str, ...], bool, int]]) -> list[dict[str, Any]]:
    return [play_one(ID, seed, bots, 40, rep, players) for seed, bots, rep, players in todo]


def test_random_and_heuristic_games_keep_the_invariants_replay_and_end_scored() -> None:
    todo = [(100 + i, ("random", "random"), i % 4 == 0, 2) for i in range(8)]
    todo += [(200 + i, ("heuristic", "random"), i == 0, 2) for i in range(2)]
    todo += [(250, ("random", "heuristic", "random"), True, 3)]
    todo += [(300 + i, ("heuristic", "heuristic"), i == 0, 2) for i in range(3)]
    results = run_in_workers(chunk, [todo[0::2], todo[1::2]])
    assert_games_clean(results)
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
    assert sum(r["copies"] for r in results) >= 3
    for r in results:
        assert r["rounds"] <= 3 and r["reason"].startswith("most crates held"), r["reason"]
    duels = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert all(not r["draw"] or "shared by" in r["reason"] for r in duels)
