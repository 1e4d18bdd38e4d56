"""The heuristic bot's answers to the upgrades' and trailer cargoes' decisions."""

from __future__ import annotations

import random

import pytest
from tests.builders import run_step, table, vehicle

from carnage.ai import make_bot
from carnage.games.refuelled.ai.upgrades import (
    cattle_hammer,
    nitro,
    siphon,
    sludge_bearing,
    sludge_gap,
)
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import UpgradeMount, VehicleState
from carnage.kernel.decisions import Decision, Interval, Option

RNG = random.Random(0)


def game_of(*vs: VehicleState, active: str = "v") -> Game:
    g = run_step(table(*vs), lambda g: iter(()))
    g.state.active = active
    return g


def ask(kind: str, *values: str | int, player: int = 0) -> Decision:
    return Decision(player, kind, kind, options=tuple(Option(x) for x in values))


def test_nitro_when_cool_and_the_boost_stays_on_the_table() -> None:
    d = ask("nitro", "yes", "no")
    assert nitro(game_of(vehicle("v", "car", 600, 300, heading=90)), d, RNG) == "yes"
    hot = vehicle("v", "car", 600, 300, heading=90, hazards=3)
    assert nitro(game_of(hot), d, RNG) == "no"
    edge = vehicle("v", "car", 600, 1000, heading=90)  # 240 mm on would leave the table
    assert nitro(game_of(edge), d, RNG) == "no"
    assert nitro(game_of(hot), ask("nitro", "yes"), RNG) is None  # nothing to choose


def test_siphon_relieves_the_hottest_friend_never_a_foe() -> None:
    v = vehicle("v", "car", 600, 300)
    a = vehicle("a", "car", 650, 300, hazards=1)
    b = vehicle("b", "car", 550, 300, hazards=4)
    foe = vehicle("foe", "car", 600, 400, player=1, hazards=5)
    g = game_of(v, a, b, foe)
    assert siphon(g, ask("siphon_pump", "done", "a", "b", "foe"), RNG) == "b"
    assert siphon(g, ask("siphon_pump", "done", "foe"), RNG) == "done"
    v.hazards = 3
    assert siphon(g, ask("siphon_pump", "done", "a", "b"), RNG) == "done"


def test_cattle_hammer_counts_its_highest_gear() -> None:
    assert cattle_hammer(game_of(vehicle("v", "car", 0, 0)), ask("cattle_hammer", 1, 2, 3),
                         RNG) == 3


def test_sludge_aims_at_the_nearest_foe() -> None:
    v = vehicle("v", "car", 600, 300, heading=90)
    near = vehicle("near", "car", 700, 300, heading=90, player=1)  # to the right: -90
    far = vehicle("far", "car", 600, 900, heading=90, player=1)
    g = game_of(v, near, far)
    bearing = Decision(0, "sludge_bearing", "b", domain=Interval(-180, 180))
    assert sludge_bearing(g, bearing, RNG) == pytest.approx(-90.0)
    gap = Decision(0, "sludge_gap", "g", domain=Interval(0, 120, "mm"))
    assert sludge_gap(g, gap, RNG) == pytest.approx(60.0)  # 70 mm apart, 10 mm short


def test_heuristic_bot_answers_upgrade_decisions() -> None:
    bot = make_bot("heuristic")
    v = vehicle("v", "car", 600, 300, heading=90)
    v.upgrades.append("nitro_booster")
    v.fitted.append(UpgradeMount("nitro_booster#0", "nitro_booster", None, 1))
    g = game_of(v)
    assert bot.choose(g, ask("roll_cage", "yes", "no"), RNG) == "yes"
    assert bot.choose(g, ask("teleporter", "yes", "no"), RNG) == "no"
    assert bot.choose(g, ask("nitro", "yes", "no"), RNG) == "yes"
    assert bot.choose(g, ask("cattle_hammer", 1, 2, 3, 4), RNG) == 4
