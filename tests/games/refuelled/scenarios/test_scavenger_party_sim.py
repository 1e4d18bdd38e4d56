"""Seeded Scavenger Party games between random and heuristic bots: invariants after every choice,
copies, exact replay; every game ends by the scenario's own end (round 3 or an earlier victory),
scored on crates held."""

from __future__ import annotations

from tests.games.refuelled.scenarios.skirmish_sim import check_scored_games

ID = "scavenger-party"


def test_random_and_heuristic_games_keep_the_invariants_replay_and_end_scored() -> None:
    check_scored_games(ID, "most crates held")
