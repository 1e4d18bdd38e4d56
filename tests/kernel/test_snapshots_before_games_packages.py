"""Snapshots saved before each game became one package (``carnage/games/<name>/``) name their
classes by the modules of that time; they still restore, and the restored game is the game the
same seed and choices build today."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import carnage
from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.names import vehicle_name
from carnage.games.refuelled.ai.bots import make_bot
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game
from carnage.team import TeamSpec

DOCS = json.loads((Path(__file__).parent / "golden" / "snapshots_before_games_packages.json")
                  .read_text(encoding="utf-8"))
TEAMS = ["examples/teams/intro.yaml", "examples/teams/idris_cult_of_speed.yaml"]


def legacy_teams_then() -> tuple[TeamSpec, ...]:
    """The Legacy default teams the snapshot was saved with (then, each seat had its own pair
    of types; today every seat gets the same vehicles, ruling GL-R26)."""
    return tuple(legacy_team(f"Legacy Team {p + 1}", [
        generate_vehicle(t, vehicle_name(f"seat {p + 1} vehicle {i + 1}"))
        for i, t in enumerate(types)])
        for p, types in enumerate((("car", "performance_car"), ("truck", "buggy"))))


def advance(game: Any, steps: int, seed: int) -> Any:
    """The choices the saved games were made with: heuristic bots, seeded."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome() is not None or (d := game.pending()) is None:
            break
        game.apply(make_bot("heuristic").choose(game, d, rng))
    return game


def today(name: str) -> Any:
    if name == "refuelled":
        return advance(carnage.new_game(ruleset="refuelled", scenario="street-race",
                                        teams=TEAMS, seed=3), 40, 1)
    if name == "kart":
        return advance(carnage.new_game(ruleset="kart", scenario="street-race", seed=4), 40, 2)
    if name == "legacy":
        return advance(build_game(GameSetup(players=2, ruleset="legacy",
                                            teams=legacy_teams_then()), 5), 40, 3)
    # The heuristic bot that chose these moves has since learned to weigh a ram's risk, so the
    # saved choices are replayed rather than chosen again.
    game = carnage.new_game(ruleset="devils-run", scenario="devils-run", seed=6)
    for choice in DOCS[name]["choices"]:
        game.apply(choice)
    return game


@pytest.mark.parametrize("name", sorted(DOCS))
def test_a_snapshot_saved_before_the_move_restores_as_the_same_game(name: str) -> None:
    old = DOCS[name]
    if name != "devils-run":  # Devil's Run's snapshot names no module
        assert "carnage" + ".engine." in json.dumps(old)  # the modules of that time
    restored = carnage.restore(old)
    assert restored.snapshot() == today(name).snapshot()
    # and it plays on
    d = restored.pending()
    assert d is not None
