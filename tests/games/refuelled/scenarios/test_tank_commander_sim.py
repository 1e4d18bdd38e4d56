"""Seeded tank-commander games between bots: invariants after every choice, clone and snapshot
spot checks, exact replay; heuristic games end by the scenario's own victory."""

from __future__ import annotations

from tests.games.refuelled.scenarios.strike_sim import check_heuristic_games, check_seeded_games

SCENARIO = "tank-commander"
MIXED = [(("random", "random"), 3), (("heuristic", "random"), 2), (("random", "heuristic"), 2)]
HEURISTIC = 2


def test_seeded_games_keep_the_invariants_copy_and_replay() -> None:
    check_seeded_games(SCENARIO, MIXED)


def test_heuristic_games_end_by_the_scenarios_victory() -> None:
    check_heuristic_games(SCENARIO, HEURISTIC)
