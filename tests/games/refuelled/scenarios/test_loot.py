"""Scavenger Party's loot boxes (Refuelled p.140): the six items, Ammo 1, lost after their
first use, when Wrecked and at the end of the game; never gaining ammo. Exact poses, scripted
dice, the real attack and movement flows."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import BLUE, StepScenario, drive, ev, play, table, values, vehicle

from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios.loot import LOOT_TABLE, grant, held, install_loot, loot
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.effects import run_flows
from carnage.rulesets import REFUELLED


class LootStep(StepScenario):
    id = "loot-test"

    def install(self, game: Game) -> None:
        install_loot(game, "scenario:loot-test")


def game_of(state: GameState, step: Any, dice: list[int]) -> Game:
    return Game(ruleset=REFUELLED, state=state, scenario=LootStep(step), dice=ScriptedDice(dice),
                options=RuleOptions())


def cars() -> GameState:
    blue = vehicle("blue", "car", *BLUE, player=0)
    red = vehicle("red", "car", 300, 600, 270, player=1)
    return table(blue, red, width=900, height=1200)


def granted_then(die: int, then: Any) -> Any:
    def step(g: Game) -> Flow:
        grant(g, g.state.vehicles["blue"], die)
        yield from then(g)
    return step


def attack_then_step_end(g: Game) -> Flow:
    v = g.state.vehicles["blue"]
    g.state.active, g.state.step = "blue", "attack"
    yield from attack_step(g, v)
    yield from run_flows(g, "step_end", {"game": g, "vehicle": v, "step": "attack"})


def test_the_table_of_six_items() -> None:
    assert LOOT_TABLE == {1: ("nitro_booster", None), 2: ("oil_slick_dropper", "rear"),
                          3: ("napalm_dropper", "rear"), 4: ("bazooka", "turret"),
                          5: ("flamethrower", "turret"), 6: ("rockets", "turret")}


@pytest.mark.parametrize(("die", "weapon"), [(4, "bazooka"), (6, "rockets")])
def test_a_turret_weapon_with_ammo_1_fires_once_and_is_lost(die: int, weapon: str) -> None:
    st = cars()
    st.vehicles["red"].pose = st.vehicles["red"].pose.__class__(500, 300, 90)  # to the side
    g = game_of(st, granted_then(die, attack_then_step_end), [1] * 6)
    key = f"{weapon}#loot1"
    assert ev(g, "loot_box")[0]["item"] == weapon
    assert f"{key}>red" in values(g.pending())  # turret-mounted: fires to the side
    play(g, f"{key}>red")
    assert ev(g, "ammo", weapon=key) == [{"vehicle": "blue", "weapon": key, "ammo": 0}]
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["used"]
    assert all(m.key != key for m in g.state.vehicles["blue"].weapons)
    assert held(g.state, "blue") == []


def test_a_loot_dropper_drops_once() -> None:
    st = cars()
    g = game_of(st, granted_then(2, attack_then_step_end), [])
    assert "drop:oil_slick_dropper#loot1" in values(g.pending())
    play(g, "drop:oil_slick_dropper#loot1")
    while g.pending() is not None:
        d = g.pending()
        g.apply(d.options[0].value if d.domain is None else d.domain.low)
    assert len(g.state.dropped) == 1
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["used"]


def test_an_unused_item_is_lost_when_the_vehicle_is_wrecked() -> None:
    def step(g: Game) -> Flow:
        grant(g, g.state.vehicles["blue"], 5)
        g.state.vehicles["blue"].damage = g.state.vehicles["blue"].hull
        yield from wreck(g, g.state.vehicles["blue"])

    g = game_of(cars(), step, [1])  # explosion check 1: no loot ammo counted
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["wrecked"]
    assert ev(g, "explosion_check")[0]["ammo"] == 0
    assert loot(g.state)["items"] == []


def test_every_item_is_lost_when_the_game_ends() -> None:
    def step(g: Game) -> Flow:
        grant(g, g.state.vehicles["blue"], 6)
        yield from ()

    g = game_of(cars(), step, [])  # the step scenario ends the game after its step
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["the game ended"]
    assert g.state.vehicles["blue"].weapons == []


def test_a_loot_item_never_gains_ammo() -> None:
    from carnage.games.refuelled.engine.votes import EFFECTS

    def step(g: Game) -> Flow:
        grant(g, g.state.vehicles["blue"], 4)
        reload = next(e for e in EFFECTS if e.id == "reload")
        yield from reload.run(g, 0, "blue|bazooka#loot1")

    g = game_of(cars(), step, [])
    assert ev(g, "loot_no_ammo") == [{"vehicle": "blue", "key": "bazooka#loot1", "ammo": 1}]


def test_the_loot_nitro_boosts_once_at_the_start_of_the_movement_step() -> None:
    st = cars()
    st.vehicles["red"].pose = st.vehicles["red"].pose.__class__(700, 900, 270)

    def step(g: Game) -> Flow:
        grant(g, g.state.vehicles["blue"], 1)
        g.state.gear_phase = 1
        yield from activation(g, g.state.vehicles["blue"])

    g = game_of(st, step, [])
    d = g.pending()
    assert d is not None and d.kind == "loot_nitro" and d.weapon == "nitro_booster#loot1"
    play(g, "yes")
    assert ev(g, "forced_move")[0]["template"] == "long_straight"
    assert g.state.vehicles["blue"].hazards == 5
    # The car's front edge runs the Long Straight: its centre moves 180 + 60 mm.
    assert g.state.vehicles["blue"].pose.y == pytest.approx(300 + 240)
    assert g.pending().kind == "template"  # its own Movement Step follows, no reverse offered
    assert not any("reverse" in str(v) for v in values(g.pending()))
    play(g, "short_straight")
    assert drive(g) is None  # no skid dice, Shifts discarded, to the end of the activation
    assert [e["reason"] for e in ev(g, "loot_lost")] == ["used"]  # at the step's end
    assert ev(g, "hazards", vehicle="blue")[-1]["hazards"] == 5  # topped up as the step ends
    assert ev(g, "loot_box")[0]["name"] == "Nitro Booster"
