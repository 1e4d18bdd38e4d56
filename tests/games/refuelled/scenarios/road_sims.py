"""Seeded games of the rolling road's scenarios and the uplink, shared by their simulation
tests: invariants after every choice, clone and snapshot spot checks (secrets included), the
log replayed exactly (its secrets kept), and whether the game ended by its own rules."""

from __future__ import annotations

from typing import Any

from tests.simulation import play_checked

from carnage.games.refuelled.setup import GameSetup

SAFETY = "no result after"
"""The start of the ``max_rounds`` safety net's reason: not a scenario's own ending."""


def play_one(scenario: str, seed: int, bots: tuple[str, str], max_rounds: int,
             check_replay: bool) -> dict[str, Any]:
    setup = GameSetup(scenario=scenario, players=2, max_rounds=max_rounds)
    c = play_checked(setup, seed, bots, copies_every=25, check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    r = c.result(seed=seed, bots=bots,
                 secrets=sum(1 for e in c.game.log.events if e.kind == "secret"))
    r["own_end"] = r["finished"] and not r["reason"].startswith(SAFETY)
    if c.log is not None:
        # The log file keeps every secret (the full log), unredacted.
        r["log_has_secret_values"] = '"kind": "secret"' in c.log and '"redacted"' not in c.log
    return r


def play_chunk(chunk: list[tuple[str, int, tuple[str, str], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(*job) for job in chunk]
