"""Weapon special rules (Refuelled pp.81-82): Ammo, Blast, Blitz, Crew Fired, Fire and On Fire,
Indirect, Splash, Electrical, Zero Crew; special hits evaded last (p.42)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import (
    BLUE,
    armed,
    attack_game,
    blue_with,
    logged,
    play,
    red,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
)
from tests.games.refuelled.rules.test_weapons import without

from carnage.catalog import TemplateUse, load_catalog
from carnage.games.refuelled.engine.attack import STOP, attack_step, weapon_playable
from carnage.games.refuelled.engine.collision import resolve_collision
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import template_options, template_use
from carnage.games.refuelled.engine.wipeout import reset_gear_and_hazards
from carnage.games.refuelled.rules.weapons import splash_sets
from carnage.kernel.effects import run_flows
from carnage.rulesets import REFUELLED, refuelled_ruleset


@pytest.mark.parametrize("rule", ["ammo", "blast", "crew_fired", "all_round_arc", "electrical"])
def test_rules_the_core_plays_are_registered_and_gate_their_weapons(rule: str) -> None:
    cat = load_catalog()
    carrying = [w for w in cat.weapons if rule in w.special_rules and w.kind.value != "dropped"]
    assert carrying and all(weapon_playable(REFUELLED.rules, w) for w in carrying)
    assert not any(weapon_playable(without("weapon_rule", rule).rules, w) for w in carrying)


# -- Ammo (p.81) ----------------------------------------------------------------------------------


def test_ammo_is_spent_per_attack_and_an_empty_weapon_is_not_offered() -> None:
    blue = blue_with(("bazooka", "front", 1))
    g = attack_game(table(blue, red()), "blue", dice=[1, 1, 1])
    play(g, "bazooka#0>red", STOP)
    assert blue.weapons[0].ammo == 0
    assert logged(g, "ammo")[0][1] == {"vehicle": "blue", "weapon": "bazooka#0", "ammo": 0}
    g = attack_game(table(blue, red()), "blue")
    assert values(g.pending()) == [STOP, "handgun>red"]


# -- Blast (p.81) ---------------------------------------------------------------------------------


def test_blast_adds_a_hazard_per_uncancelled_hit() -> None:
    g = attack_game(table(blue_with(("bazooka", "front", 3)), red()), "blue",
                    dice=[6, 4, 1, 6])  # 3 hits, one evaded
    play(g, "bazooka#0>red", STOP)
    r = g.state.vehicles["red"]
    assert (r.hazards, r.hull_points) == (2, 8)


# -- Blitz (p.81) ---------------------------------------------------------------------------------


def test_blitz_weapon_attacks_once_per_ammo_token_within_the_crew_limit() -> None:
    truck = armed(vehicle("blue", "truck", *BLUE, player=0), ("grenades", None, 2))  # crew 3
    g = attack_game(table(truck, red()), "blue", dice=[1, 1, 1])
    play(g, "grenades#0>red")
    assert "grenades#0>red" in values(g.pending())  # a second copy
    play(g, "grenades#0>red")
    assert values(g.pending()) == [STOP, "handgun>red"]  # no ammo left for a third
    play(g, "handgun>red")
    assert rolls(g)[0] == ("attack", [1, 1, 1]) and truck.weapons[0].ammo == 0


def test_without_blitz_a_weapon_attacks_once() -> None:
    truck = armed(vehicle("blue", "truck", *BLUE, player=0), ("grenades", None, 5))
    idle = refuelled_ruleset(rules=REFUELLED.rules.with_rules(
        {("weapon_rule", "blitz"): lambda g, v, s: None}))  # registered, but does nothing
    g = attack_game(table(truck, red()), "blue", dice=[1], ruleset=idle)
    play(g, "grenades#0>red")
    assert "grenades#0>red" not in values(g.pending())


# -- Crew Fired (p.81) ----------------------------------------------------------------------------


def test_crew_fired_weapons_shoot_all_round() -> None:
    behind = vehicle("red", "car", 300, 180, 90, player=1)
    g = attack_game(table(blue_with(("submachine_gun", None, None),
                                    ("machine_gun", "front", None)), behind), "blue")
    assert values(g.pending()) == [STOP, "handgun>red", "submachine_gun#0>red"]


# -- Fire and On Fire (p.81) ----------------------------------------------------------------------


def test_fire_damage_sets_the_target_on_fire_and_it_burns_at_activation_start() -> None:
    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        yield from run_flows(g, "activation_start", {"game": g, "vehicle": r})

    r = red()
    g = run_step(table(blue_with(("molotov_cocktails", None, 5)), r), step, dice=[4, 1])
    play(g, "molotov_cocktails#0>red", STOP)
    assert logged(g, "on_fire") == [("on_fire", {"vehicle": "red"})]
    assert r.conditions == {"on_fire": 1} and r.hull_points == 10 - 1 - 1  # hit, then burn
    assert [d["amount"] for _, d in logged(g, "damage")] == [1, 1]


def test_a_cancelled_fire_hit_lights_nothing_and_fire_hits_are_cancelled_last() -> None:
    blue = blue_with(("molotov_cocktails", None, 5), ("machine_gun", "front", None))
    r = red()
    g = attack_game(table(blue, r), "blue", dice=[4, 4, 4, 6])  # 1 fire + 2 plain, 1 evade
    play(g, "molotov_cocktails#0>red", "machine_gun#1>red")
    assert r.conditions == {"on_fire": 1} and r.hull_points == 8
    g = attack_game(table(blue_with(("molotov_cocktails", None, 5)), red()), "blue",
                    dice=[4, 6])
    play(g, "molotov_cocktails#0>red", STOP)
    assert logged(g, "on_fire") == [] and g.state.vehicles["red"].conditions == {}


def test_fire_goes_out_when_the_hazards_drop_to_zero() -> None:
    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        g.add_hazards(r, 2, "test", None)
        assert r.conditions == {"on_fire": 1}
        reset_gear_and_hazards(g, r, source="wipeout", page=34)

    r = red()
    g = run_step(table(blue_with(("molotov_cocktails", None, 5)), r), step, dice=[4, 1])
    play(g, "molotov_cocktails#0>red", STOP)
    assert r.conditions == {} and logged(g, "fire_out") == [("fire_out", {"vehicle": "red"})]


def test_a_burning_vehicles_smash_attack_sets_the_other_on_fire() -> None:
    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        r.conditions["on_fire"] = 1
        yield from resolve_collision(g, r, "blue")

    blue = blue_with(("molotov_cocktails", None, 5), gear=1)
    r = vehicle("red", "car", 300, 360, 270, player=1, gear=2)  # nose to nose with Blue
    # Head-on: Red smashes with 2 + 1 = 3 dice (one hit), Blue evades with 1 die (a miss).
    g = run_step(table(blue, r), step, dice=[4, 1, 1, 1])
    play(g, "smash", "evade")
    assert blue.hull_points == 9 and blue.conditions == {"on_fire": 1}


# -- Indirect (p.82) ------------------------------------------------------------------------------


def test_indirect_ignores_tall_terrain_and_cover() -> None:
    wall = rock("wall", 310, 375, 80, 10, tall=True)  # across the gap between them
    blue = blue_with(("mortar", "front", 3), ("machine_gun", "front", None))
    g = attack_game(table(blue, red(), obstacles=[wall]), "blue", dice=[4, 4, 1, 1, 1])
    assert values(g.pending()) == [STOP, "mortar#0>red"]  # the MG is blocked
    play(g, "mortar#0>red")  # nothing else can shoot past the wall
    assert logged(g, "declare_attack")[0][1]["cover"] is False
    assert logged(g, "attack_hits")[0][1]["hits"] == 2  # 4s hit: no cover penalty


def test_without_indirect_the_wall_blocks() -> None:
    idle = refuelled_ruleset(rules=REFUELLED.rules.with_rules(
        {("weapon_rule", "indirect"): lambda g, v, s: None}))
    wall = rock("wall", 310, 375, 80, 10, tall=True)
    g = attack_game(table(blue_with(("mortar", "front", 3)), red(), obstacles=[wall]), "blue",
                    ruleset=idle)
    assert g.pending() is None


# -- Splash (p.82) --------------------------------------------------------------------------------


def test_splash_example_side_flamethrower_catches_both_cars_with_the_full_dice() -> None:
    # The book's example: a truck's side-mounted Flamethrower, two enemy cars beside it.
    truck = armed(vehicle("truck", "truck", 300, 300, 0, player=0), ("flamethrower", "side", 3))
    car_a = vehicle("a", "car", 280, 390, 90, player=1)
    car_b = vehicle("b", "car", 325, 390, 90, player=1)
    g = attack_game(table(truck, car_a, car_b), "truck",
                    dice=[4] * 6 + [1] + [1] * 6)
    play(g, "flamethrower#0>a")
    d = g.pending()
    assert d is not None and d.kind == "splash" and values(d) == ["-", "b"]
    play(g, "b", STOP)
    assert logged(g, "splash")[0][1]["also"] == ["b"]
    assert rolls(g) == [("attack", [4] * 6), ("evade", [1]), ("attack", [1] * 6)]
    assert truck.weapons[0].ammo == 2  # one token for the one attack
    assert (car_a.hull_points, car_a.conditions) == (10 - 6, {"on_fire": 1})
    assert car_b.hull_points == 10


def test_splash_ruler_behind_the_target_cannot_be_avoided() -> None:
    blue = blue_with(("combat_laser", "front", None))
    near = vehicle("near", "car", 300, 420, 90, player=1)
    beyond = vehicle("beyond", "car", 300, 520, 90, player=0)  # a friend in the line of fire
    g = attack_game(table(blue, near, beyond), "blue", dice=[1] * 6)
    assert splash_sets(g, blue, _shot(g, "combat_laser#0>near")) == [("beyond",)]
    play(g, "combat_laser#0>near", STOP)
    assert logged(g, "splash")[0][1]["also"] == ["beyond"]
    assert [len(d) for _, d in rolls(g)] == [3, 3]


def _shot(g: Game, value: str) -> Any:
    from carnage.games.refuelled.engine.attack import legal_shots

    return next(s for s in legal_shots(g, g.state.vehicles["blue"]) if s.value == value)


# -- Zero Crew (p.82) -----------------------------------------------------------------------------


def test_zero_crew_gears_down_on_activation_and_only_hazardous_templates_are_permitted() -> None:
    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        yield from run_flows(g, "activation_start", {"game": g, "vehicle": r})

    r = red(gear=4)
    g = run_step(table(blue_with(("gas_grenades", None, 5)), r), step, dice=[6, 1, 1, 1, 1])
    play(g, "gas_grenades#0>red", STOP)
    assert g.stat(r, "crew") == 0 and (r.gear, r.hazards) == (3, 1)  # geared down, a Hazard
    assert template_use(g, r, "hard", 3) is TemplateUse.HAZARDOUS
    assert template_use(g, r, "turn", 3) is TemplateUse.NOT_PERMITTED
    assert {v.split("/")[0] for v, _ in template_options(g, r, permitted_only=True)} == {
        "hard", "hairpin"}
    r.gear = 1  # nothing is hazardous in gear 1: the book's table stands in (WP-9)
    opts = {v.split("/")[0] for v, _ in template_options(g, r, permitted_only=True)}
    assert "medium_straight" in opts and "long_straight" not in opts
    g.effects.run_event("gear_phase_end", None, {"game": g, "phase": 1})
    assert template_use(g, r, "turn", 3) is TemplateUse.PERMITTED
