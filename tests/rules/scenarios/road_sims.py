"""Seeded games of the rolling road's scenarios and the uplink, shared by their simulation
tests: invariants after every choice, clone and snapshot spot checks (secrets included), the
log replayed exactly (its secrets kept), and whether the game ended by its own rules."""

from __future__ import annotations

from typing import Any

from tests.copies import SpotCheck
from tests.simulation import invariant_problems

from carnage.ai import bot_rng, make_bot, play_out
from carnage.engine.game import Game
from carnage.kernel.decisions import Decision
from carnage.rulesets.setup import GameSetup, build_game, log_text, parse_log, record_game, replay

SAFETY = "no result after"
"""The start of the ``max_rounds`` safety net's reason: not a scenario's own ending."""


def play_one(scenario: str, seed: int, bots: tuple[str, str], max_rounds: int,
             check_replay: bool) -> dict[str, Any]:
    setup = GameSetup(scenario=scenario, players=2, max_rounds=max_rounds)
    g = build_game(setup, seed)
    problems: list[str] = []
    players = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    copies = SpotCheck(seed, players, rng, every=25, invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)

    result: dict[str, Any] = {"seed": seed, "bots": bots, "problems": problems, "error": None}
    try:
        play_out(g, players, rng, after=after)
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    out = g.outcome()
    result["finished"] = out is not None
    result["reason"] = "" if out is None else out.reason
    result["own_end"] = out is not None and not out.reason.startswith(SAFETY)
    result["copies_checked"] = copies.checked
    result["secrets"] = sum(1 for e in g.log.events if e.kind == "secret")
    result["kinds"] = sorted({e.kind for e in g.log.events})
    if check_replay:
        text = log_text(record_game(g, setup, seed))
        again = replay(parse_log(text))
        result["replay_identical"] = again.identical and again.crash is None
        # The log file keeps every secret (the full log), unredacted.
        result["log_has_secret_values"] = '"kind": "secret"' in text and '"redacted"' not in text
    return result


def play_chunk(chunk: list[tuple[str, int, tuple[str, str], int, bool]]) -> list[dict[str, Any]]:
    return [play_one(*job) for job in chunk]
