"""Seeded Express Delivery games between bots: 9 random or mixed games (6 rounds at most)
and 3 between heuristic bots, which must end by the scenario's own victory. Invariants after
every choice, clone/snapshot spot checks with the slips as secrets, exact replay."""

from __future__ import annotations

from tests.games.refuelled.scenarios.road_sims import play_chunk
from tests.simulation import assert_games_clean, run_in_workers

ID = "express-delivery"


def test_random_and_heuristic_games_end_clean_and_replay() -> None:
    jobs = [(ID, 300 + i, bots, 6, i % 4 == 0) for i, bots in enumerate(
        [("random", "random")] * 5 + [("heuristic", "random")] * 2
        + [("random", "heuristic")] * 2)]
    jobs += [(ID, 400 + i, ("heuristic", "heuristic"), 40, True) for i in range(3)]
    results = run_in_workers(play_chunk, [jobs[0::2], jobs[1::2]])
    assert_games_clean(results)
    assert all(r["secrets"] >= 2 for r in results)  # the slips, at least
    assert all(r["replay_identical"] and r["log_has_secret_values"]
               for r in results if "replay_identical" in r)
    assert sum(r["copies_checked"] for r in results) >= 3
    heuristic = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert all(r["own_end"] for r in heuristic), [r["reason"] for r in heuristic]
    assert any("Victory Points first" in r["reason"] for r in heuristic)
    assert any("new_table" in r["kinds"] and "enter" in r["kinds"] for r in results)
