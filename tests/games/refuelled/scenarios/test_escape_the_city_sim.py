"""Seeded Escape the City games between bots (Savage Highways): random and mixed games,
a three-player team game and heuristic games, which must end by the scenario's own victory;
invariants after every choice, clone/snapshot spot checks, exact replay."""

from __future__ import annotations

from tests.games.refuelled.scenarios.savage_sims import jobs, play_chunk
from tests.simulation import assert_games_clean, run_in_workers

ID = "escape-the-city"


def test_bot_games_end_clean_replay_and_heuristic_games_end_by_the_scenario() -> None:
    todo = jobs(ID, 1169)
    results = run_in_workers(play_chunk, [todo[0::2], todo[1::2]])
    assert_games_clean(results)
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
    assert sum(r["copies_checked"] for r in results) >= 2
    heuristic = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert all(r["own_end"] for r in heuristic), [r["reason"] for r in heuristic]
