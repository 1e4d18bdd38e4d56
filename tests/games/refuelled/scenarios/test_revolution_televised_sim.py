"""Seeded games of The Revolution Will Be Televised between bots: 9 random or mixed games and
4 between heuristic bots, all ending by the scenario's own rules (3 VP or three rounds).
Invariants after every choice, clone/snapshot spot checks with the noted pieces as secrets,
exact replay."""

from __future__ import annotations

from tests.games.refuelled.scenarios.road_sims import play_chunk
from tests.simulation import assert_games_clean, run_in_workers

ID = "the-revolution-will-be-televised"


def test_random_and_heuristic_games_end_clean_and_replay() -> None:
    jobs = [(ID, 500 + i, bots, 6, i % 4 == 0) for i, bots in enumerate(
        [("random", "random")] * 5 + [("heuristic", "random")] * 2
        + [("random", "heuristic")] * 2)]
    jobs += [(ID, 600 + i, ("heuristic", "heuristic"), 6, True) for i in range(3)]
    results = run_in_workers(play_chunk, [jobs[0::2], jobs[1::2]])
    assert_games_clean(results)
    assert all(r["own_end"] for r in results), [r["reason"] for r in results]
    assert all(r["secrets"] >= 3 for r in results)  # two notes and the revealer's new one
    assert all(r["replay_identical"] and r["log_has_secret_values"]
               for r in results if "replay_identical" in r)
    assert sum(r["copies_checked"] for r in results) >= 3
    heuristic = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert any("victory_point" in r["kinds"] or "score" in r["kinds"] for r in heuristic)
