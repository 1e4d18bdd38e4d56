"""Seeded games of Capture the Flag (p.131) between bots: the invariants after every choice,
clone and snapshot spot checks, exact replay, and heuristic bots that win by holding two
flags (not by the round cap)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.simulation import play_checked

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.setup import GameSetup


def play_one(seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool = False) -> tuple[Game, list[str], bool]:
    setup = GameSetup(scenario="capture-the-flag", players=len(bots), max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=40, copies_most=1,
                     check_replay=check_replay)
    problems = c.problems + ([c.error] if c.error else [])
    return c.game, problems, c.replay_identical is not False


MIXED: list[tuple[int, tuple[str, ...]]] = [
    (seed, bots) for seed, bots in enumerate(
        [("random", "random")] * 3 + [("heuristic", "random"), ("random", "heuristic")]
        + [("random", "random", "heuristic")], start=500)]


@pytest.mark.parametrize(("seed", "bots"), MIXED, ids=[f"{s}-{'-'.join(b)}" for s, b in MIXED])
def test_random_games_keep_the_invariants_copy_and_replay(seed: int,
                                                          bots: tuple[str, ...]) -> None:
    g, problems, same = play_one(seed, bots, max_rounds=5, check_replay=seed % 3 == 0)
    assert not problems, problems[0]
    assert g.pending() is None and g.state.finished
    assert same


@pytest.mark.parametrize(("seed", "players"), [(3, 2), (8, 3), (10, 2)])
def test_heuristic_bots_win_by_holding_two_flags(seed: int, players: int) -> None:
    g, problems, _ = play_one(seed, ("heuristic",) * players, max_rounds=25)
    assert not problems, problems[0]
    captured: list[dict[str, Any]] = [dict(e.data) for e in g.log.of_kind("flags_captured")]
    assert g.state.finished and "holds 2 flags" in g.state.reason, g.state.reason
    assert len(captured) == 1 and g.state.winner == captured[0]["player"]
