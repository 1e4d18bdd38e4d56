"""Seeded games of one scenario between bots (Arena of Death, Desert Strike, Tank Commander):
invariants after every choice, clone/snapshot spot checks, exact replay of some games."""

from __future__ import annotations

from typing import Any

from tests.simulation import assert_games_clean, play_checked, run_in_workers

from carnage.games.refuelled.setup import GameSetup


def play_one(scenario: str, seed: int, bots: tuple[str, ...], *, max_rounds: int,
             check_replay: bool = False, copies_every: int = 30) -> dict[str, Any]:
    """One seeded game; its result (seed, bots, problems, error, finished, reason, ...)."""
    setup = GameSetup(scenario=scenario, players=len(bots), max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=copies_every, check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    return c.result(seed=seed, bots=bots, reason=c.game.state.reason)


def play_chunk(chunk: list[tuple[str, int, tuple[str, ...], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(sc, seed, bots, max_rounds=mr, check_replay=rep)
            for sc, seed, bots, mr, rep in chunk]


def check_seeded_games(scenario: str, mixed: list[tuple[tuple[str, ...], int]]) -> None:
    """``mixed``: (bots, how many games) from seed 500 on, 3 rounds each, every fourth seed
    replayed: clean games, some copies checked, identical replays."""
    todo = []
    seed = 500
    for bots, n in mixed:
        for _ in range(n):
            todo.append((scenario, seed, bots, 3, seed % 4 == 0))
            seed += 1
    results = run_in_workers(play_chunk, [todo[i::2] for i in range(2)])
    assert_games_clean(results)
    assert sum(r["copies_checked"] for r in results) >= 3
    replays = [r for r in results if "replay_identical" in r]
    assert replays and all(r["replay_identical"] for r in replays)


def check_heuristic_games(scenario: str, games: int) -> None:
    """``games`` heuristic duels from seed 900 must end by the scenario, not the safety net."""
    todo = [(scenario, 900 + i, ("heuristic", "heuristic"), 40, False) for i in range(games)]
    results = run_in_workers(play_chunk, [todo[i::2] for i in range(2)])
    assert_games_clean(results)
    for r in results:
        assert "no result after" not in r["reason"], (r["seed"], r["reason"])
