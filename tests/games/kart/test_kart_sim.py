"""Seeded kart races between bots (Street Race and Death Race with ``ruleset="kart"``).

After every choice the state invariants hold and no kart has ever lost hull; no ``damage``,
``flip_check`` or ``wrecked`` event is ever logged; a clone and a restored snapshot go on as
the game does; the saved log replays identically. Heuristic races end by the race's victory.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.simulation import play_checked

from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.game import Game, ask
from carnage.games.refuelled.setup import (
    GameSetup,
    log_text,
    parse_log,
    record_game,
)
from carnage.rulesets import build_game, replay

NEVER = ("damage", "flip_check", "flip", "wreck", "wrecked", "lose_control")
GAMES = [("street-race", 500 + i, ("random", "heuristic")[i % 2]) for i in range(4)] + [
    ("death-race", 600 + i, ("random", "heuristic")[i % 2]) for i in range(3)]


def play_kart(scenario: str, seed: int, bots: tuple[str, ...], max_rounds: int
              ) -> tuple[Game, GameSetup, list[str]]:
    setup = GameSetup(scenario=scenario, players=2, max_rounds=max_rounds, ruleset="kart")
    c = play_checked(setup, seed, bots, copies_every=20, copies_most=1, extra=lambda game: [
        f"{v.id} lost hull" for v in game.state.vehicles.values() if v.damage])
    return c.game, setup, c.problems + ([c.error] if c.error else [])


@pytest.mark.parametrize(("scenario", "seed", "other"), GAMES)
def test_kart_races_never_damage_and_copy_and_replay_exactly(scenario: str, seed: int,
                                                             other: str) -> None:
    g, setup, problems = play_kart(scenario, seed, ("random", other), max_rounds=6)
    assert problems == []
    assert g.state.finished
    kinds = {e.kind for e in g.log}
    assert not kinds.intersection(NEVER), kinds.intersection(NEVER)
    assert g.snapshot()["ruleset"] == "kart"
    record = parse_log(log_text(record_game(g, setup, seed)))
    assert record.setup.ruleset == "kart"
    result = replay(record)
    assert result.crash is None and result.identical


def test_heuristic_kart_races_end_by_the_race() -> None:
    seen: dict[str, Any] = {}
    for scenario, seed in (("street-race", 700), ("death-race", 701)):
        g, _, problems = play_kart(scenario, seed, ("heuristic", "heuristic"), max_rounds=30)
        assert problems == []
        assert g.state.finished and "rounds" not in g.state.reason, g.state.reason
        seen[scenario] = {e.kind for e in g.log}
    # The kart rules act in real races: the Item Attack is announced every Attack Step.
    assert all("kart_rule" in kinds for kinds in seen.values())


def test_bots_smash_rival_karts_and_evade_walls() -> None:
    g = build_game(GameSetup(scenario="street-race", players=2, ruleset="kart"), 1)
    ids = list(g.state.vehicles)
    me, rival = ids[0], ids[2]
    wall = next(iter(g.state.obstacles))
    options = [("smash", "Smash"), ("evade", "Evade")]
    bot = HeuristicBot()
    at_rival = ask(0, "collision_reaction", "react", options, vehicle=me, target=rival)
    at_wall = ask(0, "collision_reaction", "react", options, vehicle=me, target=wall)
    assert bot.choose(g, at_rival, random.Random(0)) == "smash"
    assert bot.choose(g, at_wall, random.Random(0)) == "evade"
    # Refuelled's Death Race keeps its racers out of trouble; karts trade blows.
    dr = build_game(GameSetup(scenario="death-race", players=2, ruleset="kart"), 1)
    dr_ids = list(dr.state.vehicles)
    a, b = dr_ids[0], dr_ids[2]
    assert bot.choose(dr, ask(0, "collision_reaction", "react", options, vehicle=a, target=b),
                      random.Random(0)) == "smash"
