"""Seeded bot games replay exactly: speed work never changes an outcome.

The golden file (``tests/ai/golden/seeded_games.json``, written by ``tests/ai/speed_golden.py``)
holds 50 heuristic Street Races, a few against the random bot, two seeded games of nine other
scenarios and two Kart races. Each is played again from scratch here (bots and dice seeded),
and its outcome, choices and event log must match the recording digest for digest.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.ai.speed_golden import CASES, GOLDEN, play

ROWS: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


def test_the_golden_file_covers_every_case() -> None:
    assert [(r["scenario"], r["ruleset"], r["bots"], r["seed"]) for r in ROWS] == CASES
    # the recordings are real games, not empty ones
    assert all(r["outcome"] is not None and r["choices"] > 10 for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['scenario']}-{r['ruleset']}-{r['bots']}-{r['seed']}"
                                           for r in ROWS])
def test_seeded_game_replays_identically(row: dict[str, Any]) -> None:
    got = play(row["scenario"], row["ruleset"], row["bots"], row["seed"])
    assert got == row
