"""250 seeded Street Races between random sponsored teams with perks.

The runner, bots, invariants and replay check are those of
tests/games/refuelled/rules/test_arsenal_simulation.py (its ``play_one``), with the teams drawn
sponsored: every team has a sponsor and buys perks from its perk classes (``carnage simulate --teams
random --sponsored``). Across the run every sponsor and every one of the 72 perks takes part
(asserted); every team is legal; every game ends within the round cap; invariants hold after every
choice; every 25th game replays identically. Games run in two worker processes (forked after the
teams are switched to sponsored).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import tests.games.refuelled.rules.test_arsenal_simulation as arsenal_sim
from tests.simulation import assert_games_clean, run_in_workers

from carnage.catalog import load_catalog
from carnage.games.refuelled.session import random_teams_setup
from carnage.games.refuelled.setup import GameSetup

GAMES = 250
"""Every sponsor and every perk has taken part by game 78 of these seeds; the rest is margin
(more games repeat the same checks with the same perks)."""
FIRST_SEED = 90_000
CHUNKS = 8


def sponsored_setup(base: GameSetup, cans: int) -> Any:
    return random_teams_setup(base, cans, sponsored=True)


def play_chunk(indices: list[int]) -> list[dict[str, Any]]:
    """The arsenal runner's games, plus the sponsors and perks each game fielded."""
    out: list[dict[str, Any]] = []
    for i in indices:
        r = arsenal_sim.play_one(i)
        setup = sponsored_setup(GameSetup(max_rounds=arsenal_sim.MAX_ROUNDS),
                                arsenal_sim.CANS)(arsenal_sim.FIRST_SEED + i)
        r["sponsors"] = [t.sponsor for t in setup.teams]
        r["perks"] = Counter(p for t in setup.teams for v in t.vehicles for p in v.perks)
        out.append(r)
    return out


def test_sponsored_games_with_perks_keep_the_invariants_and_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arsenal_sim, "random_teams_setup", sponsored_setup)
    monkeypatch.setattr(arsenal_sim, "FIRST_SEED", FIRST_SEED)
    chunks = [list(range(k, GAMES, CHUNKS)) for k in range(CHUNKS)]
    results = run_in_workers(play_chunk, chunks, arsenal_sim.WORKERS)
    assert len(results) == GAMES
    assert all(r["valid"] for r in results)  # every random sponsored team is legal
    assert_games_clean(results)
    assert all(1 <= r["rounds"] <= arsenal_sim.MAX_ROUNDS for r in results)
    replays = [r for r in results if "replay_identical" in r]
    assert len(replays) == GAMES // arsenal_sim.REPLAY_EVERY
    assert all(r["replay_identical"] for r in replays)
    # Every sponsor and every perk took part.
    cat = load_catalog()
    sponsors: set[str | None] = set()
    perks: Counter[str] = Counter()
    for r in results:
        sponsors.update(r["sponsors"])
        perks.update(r["perks"])
    assert {s.id for s in cat.sponsors} - sponsors == set()
    assert len(cat.perks) == 72
    assert {p.id for p in cat.perks} - set(perks) == set()
    # Teams were sponsored: hardly any fell back to no sponsor in the repair.
    teams = [s for r in results for s in r["sponsors"]]
    assert teams.count(None) <= len(teams) // 100
