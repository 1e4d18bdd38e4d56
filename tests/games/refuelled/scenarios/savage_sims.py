"""Seeded Savage Highways games between bots, shared by the four scenarios' simulation tests:
invariants after every choice, clone and snapshot spot checks, the log replayed exactly, and
whether the game ended by the scenario's own victory conditions."""

from __future__ import annotations

from typing import Any

from tests.simulation import play_checked

from carnage.games.refuelled.setup import GameSetup

SAFETY = "no result after"
"""The start of the ``max_rounds`` safety net's reason: not a scenario's own ending."""
OWN_ENDS = ("escaped", "War Rig was", "Gear Phase began with the War Rig",
            "end of the road", "no Rigger vehicle left")


def play_one(scenario: str, seed: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool) -> dict[str, Any]:
    players = len(bots)
    sides = ((0,), tuple(range(1, players))) if players > 2 else ()
    setup = GameSetup(scenario=scenario, players=players, max_rounds=max_rounds, sides=sides)
    c = play_checked(setup, seed, bots, copies_every=40, check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    r = c.result(seed=seed, bots=bots)
    r["own_end"] = r["finished"] and any(k in r["reason"] for k in OWN_ENDS)
    return r


def play_chunk(chunk: list[tuple[str, int, tuple[str, ...], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(*job) for job in chunk]


def jobs(scenario: str, base: int) -> list[tuple[str, int, tuple[str, ...], int, bool]]:
    """Random and mixed games (8 rounds at most), a three-player team game, and two
    heuristic games (the scenario must end them by its own rules)."""
    out: list[tuple[str, int, tuple[str, ...], int, bool]] = [
        (scenario, base + i, bots, 8, i == 0) for i, bots in enumerate(
            [("random", "random"), ("heuristic", "random"), ("random", "heuristic"),
             ("heuristic", "random", "random")])]
    out += [(scenario, base + 100 + i, ("heuristic", "heuristic"), 40, i == 0)
            for i in range(2)]
    return out
