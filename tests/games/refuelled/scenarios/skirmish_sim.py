"""Seeded whole games of one scenario for the simulation tests: the state invariants after
every choice, clone and snapshot spot checks, and an exact replay from the saved log."""

from __future__ import annotations

from typing import Any

from tests.simulation import assert_games_clean, play_checked, run_in_workers

from carnage.games.refuelled.setup import GameSetup


def play_one(scenario: str, seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool, players: int = 2) -> dict[str, Any]:
    """One seeded game between ``bots``; what happened, for the test to judge."""
    setup = GameSetup(scenario=scenario, players=players, max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=40, copies_most=1,
                     check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    g = c.game
    return c.result(seed=seed, bots=bots, copies=c.copies_checked,
                    report={r.key: r.value for r in g.scenario.report(g)})




def play_jobs(todo: list[tuple[str, int, tuple[str, ...], bool, int]]) -> list[dict[str, Any]]:
    """Games of up to 40 rounds: (scenario, seed, bots, replay?, players) each."""
    return [play_one(sc, seed, bots, 40, rep, players) for sc, seed, bots, rep, players in todo]


def check_scored_games(scenario: str, reason: str) -> None:
    """Random, mixed, three-player and heuristic games of a three-round skirmish: clean, copies
    checked, replays identical, every game scored by the scenario (its reason starts with
    ``reason``) within three rounds, and a heuristic duel drawn only as a shared win."""
    todo = [(scenario, 100 + i, ("random", "random"), i % 4 == 0, 2) for i in range(4)]
    todo += [(scenario, 200 + i, ("heuristic", "random"), i == 0, 2) for i in range(2)]
    todo += [(scenario, 250, ("random", "heuristic", "random"), True, 3)]
    todo += [(scenario, 300 + i, ("heuristic", "heuristic"), i == 0, 2) for i in range(3)]
    results = run_in_workers(play_jobs, [todo[0::2], todo[1::2]])
    assert_games_clean(results)
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
    assert sum(r["copies"] for r in results) >= 3
    for r in results:
        assert r["rounds"] <= 3 and r["reason"].startswith(reason), r["reason"]
    duels = [r for r in results if r["bots"] == ("heuristic", "heuristic")]
    assert all(not r["draw"] or "shared by" in r["reason"] for r in duels)
