"""Seeded games of Flag Tag (p.132) between bots: the invariants after every choice,
clone and snapshot spot checks, exact replay, and heuristic bots that win by 3 Victory Points
(not by the round cap)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.simulation import play_checked

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.setup import GameSetup


def play_one(seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool = False) -> tuple[Game, list[str], bool]:
    setup = GameSetup(scenario="flag-tag", players=len(bots), max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=40, copies_most=1,
                     check_replay=check_replay)
    problems = c.problems + ([c.error] if c.error else [])
    return c.game, problems, c.replay_identical is not False


MIXED: list[tuple[int, tuple[str, ...]]] = [
    (seed, bots) for seed, bots in enumerate(
        [("random", "random")] * 3 + [("heuristic", "random"), ("random", "heuristic")]
        + [("random", "random", "heuristic")], start=700)]


@pytest.mark.parametrize(("seed", "bots"), MIXED, ids=[f"{s}-{'-'.join(b)}" for s, b in MIXED])
def test_random_games_keep_the_invariants_copy_and_replay(seed: int,
                                                          bots: tuple[str, ...]) -> None:
    g, problems, same = play_one(seed, bots, max_rounds=5, check_replay=seed % 3 == 0)
    assert not problems, problems[0]
    assert g.pending() is None and g.state.finished
    assert same


@pytest.mark.parametrize(("seed", "players"), [(2, 2), (6, 3), (9, 2)])
def test_heuristic_bots_win_by_three_victory_points(seed: int, players: int) -> None:
    g, problems, _ = play_one(seed, ("heuristic",) * players, max_rounds=25)
    assert not problems, problems[0]
    assert g.state.finished and g.state.reason == "3 Victory Points first", g.state.reason
    winner = g.state.winner
    assert winner is not None
    scores: list[dict[str, Any]] = [dict(e.data) for e in g.log.of_kind("score")]
    assert scores[-1]["side"] == winner and scores[-1]["total"] == 3
