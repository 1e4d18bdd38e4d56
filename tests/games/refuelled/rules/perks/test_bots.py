"""The heuristic bot's answers to perk decisions (ai/perks.py), on real decisions."""

from __future__ import annotations

import random

from tests.builders import (
    HAZ,
    SHIFT,
    activate,
    attack,
    drive,
    move,
    perked,
    run_step,
    table,
    vehicle,
)

from carnage.ai import make_bot
from carnage.games.refuelled.engine.game import Game
from carnage.kernel.decisions import Decision


def answer(g: Game, d: Decision | None) -> object:
    assert d is not None
    return make_bot("heuristic").choose(g, d, random.Random(0))


def test_bot_keeps_its_hull_and_takes_hazards_only_with_room() -> None:
    v = perked(vehicle("v", "car", 600, 300), "highway_to_hell", "dead_weight")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "highway_to_hell" and answer(g, d) == "no"
    g.apply("no")
    d = g.pending()
    assert d is not None and d.kind == "dead_weight" and answer(g, d) == "yes"
    v.hazards = 4  # 4 + 2 would wipe it out
    assert answer(g, d) == "no"


def test_bot_taunts_an_enemy_not_a_friend() -> None:
    v = perked(vehicle("v", "car", 600, 300), "taunt")
    friend = vehicle("f", "car", 540, 520)
    foe = vehicle("e", "car", 660, 520, player=1)
    g = run_step(table(v, friend, foe), activate("v"), [HAZ])
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "taunt" and answer(g, d) == "e"


def test_bot_throws_away_the_worst_skid_die_and_sheds_every_hazard() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=2), "easy_rider")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SHIFT, HAZ])
    d = drive(g, template="medium_straight", skid_dice=2)
    assert d is not None and d.kind == "easy_rider" and answer(g, d) == 1


def test_bot_buys_a_safe_evade_bonus() -> None:
    v = perked(vehicle("v", "car", 600, 400, gear=2, hazards=2), "evasive")
    e = vehicle("e", "car", 600, 300, player=1)
    g = run_step(table(v, e), attack("e"), [6, 1, 1])
    d = drive(g, attack=["handgun>v", "stop"])
    assert d is not None and d.kind == "evasive" and answer(g, d) == 2  # stays two short of 6
