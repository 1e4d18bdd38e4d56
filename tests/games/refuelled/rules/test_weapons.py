"""Shooting weapons with rules of their own (Refuelled pp.72-77): exact tables, scripted dice."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.builders import (
    RED,
    armed,
    attack,
    attack_game,
    blue_with,
    drive,
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

from carnage.catalog import WeaponKind, load_catalog
from carnage.games.refuelled.engine.attack import STOP, attack_step, weapon_playable
from carnage.games.refuelled.engine.collision import weight_class
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import Obstacle, Status
from carnage.games.refuelled.rules.weapons import SHOOTING_WEAPONS, grab_spots, harpoon_turn
from carnage.geometry.shapes import Pose
from carnage.rulesets import REFUELLED, Ruleset, refuelled_ruleset


def without(family: str, rid: str) -> Ruleset:
    """A ruleset of its own: Refuelled without one installer (Refuelled is untouched)."""
    return refuelled_ruleset(rules=REFUELLED.rules.with_rules({(family, rid): None}))


# -- the arsenal is complete ----------------------------------------------------------------------


def test_every_shooting_weapon_in_the_catalogue_is_playable() -> None:
    cat = load_catalog()
    shooting = {w.id for w in cat.weapons if w.kind is not WeaponKind.DROPPED}
    assert set(SHOOTING_WEAPONS) == shooting and len(shooting) == 30
    assert all(weapon_playable(REFUELLED.rules, cat.weapons.get(w)) for w in shooting)


def test_a_weapon_without_its_installer_is_not_offered() -> None:
    st = table(blue_with(("machine_gun", "front", None)), red())
    assert values(attack_game(st, "blue").pending()) == [STOP, "handgun>red", "machine_gun#0>red"]
    st = table(blue_with(("machine_gun", "front", None)), red())
    ruleset = without("weapon", "machine_gun")
    assert values(attack_game(st, "blue", ruleset=ruleset).pending()) == [STOP, "handgun>red"]
    # the shipped ruleset still has it
    st = table(blue_with(("machine_gun", "front", None)), red())
    assert "machine_gun#0>red" in values(attack_game(st, "blue").pending())


# -- 125mm Cannon (p.72) --------------------------------------------------------------------------


def test_cannon_gives_two_hazards_unless_fired_by_a_tank() -> None:
    g = attack_game(table(blue_with(("125mm_cannon", "front", 3)), red()), "blue",
                    dice=[1] * 8)
    play(g, "125mm_cannon#0>red", STOP)
    blue = g.state.vehicles["blue"]
    assert (blue.hazards, blue.weapons[0].ammo) == (2, 2)
    tank = blue_with(("125mm_cannon", "turret", 3), vtype="tank")
    g = attack_game(table(tank, red()), "blue", dice=[1] * 8)
    play(g, "125mm_cannon#0>red", STOP)
    assert tank.hazards == 0 and tank.weapons[0].ammo == 2


# -- BFG (p.73) -----------------------------------------------------------------------------------


def test_bfg_recoils_backwards_in_the_attack_window_to_gear_1_with_three_hazards() -> None:
    blue = blue_with(("bfg", "front", 1), gear=3)
    g = attack_game(table(blue, red()), "blue", dice=[6] + [1] * 9 + [1])
    play(g, "bfg#0>red", STOP)
    order = [e.kind for e in g.log if e.kind in ("roll", "forced_move", "evade")]
    assert order == ["roll", "forced_move", "roll", "evade"]  # dice, recoil, evade
    # back by the template and the car's length (p.25)
    assert blue.pose.y == pytest.approx(300.0 - 180.0) and blue.pose.heading == 90.0
    assert (blue.gear, blue.hazards, blue.reversing) == (1, 3, True)
    assert g.state.vehicles["red"].hull_points == 10 - 2


# -- Death Ray (p.73) -----------------------------------------------------------------------------


def test_death_ray_removes_the_target_on_five_uncancelled_hits() -> None:
    g = attack_game(table(blue_with(("death_ray", "front", 1)), red()), "blue",
                    dice=[6, 6, 6, 1])  # 6 hits, evade 1
    play(g, "death_ray#0>red", STOP)
    r = g.state.vehicles["red"]
    assert r.status is Status.REMOVED and r.hull_points == 10  # no damage: removed instead
    assert logged(g, "death_ray")[0][1] == {"vehicle": "red", "hits": 6}
    assert g.state.votes == [0, 1]  # counts as wrecked for the audience
    assert logged(g, "damage") == []


def test_death_ray_below_five_hits_only_damages() -> None:
    g = attack_game(table(blue_with(("death_ray", "front", 1)), red()), "blue",
                    dice=[6, 6, 4, 6])  # 5 hits, one evaded: 4 left
    play(g, "death_ray#0>red", STOP)
    r = g.state.vehicles["red"]
    assert r.in_play and r.hull_points == 6 and logged(g, "death_ray") == []


# -- Grabber Arm (p.73) ---------------------------------------------------------------------------


def test_grabber_arm_sets_the_target_down_within_short_range_and_turns_it() -> None:
    g = attack_game(table(blue_with(("grabber_arm", "front", None)),
                          vehicle("red", "car", 320, 400, 270, player=1)), "blue",
                    dice=[4, 1, 1, 1])  # one hit (Short range: 40 mm gap), evade 1
    play(g, "grabber_arm#0>red", STOP)
    d = g.pending()
    assert d is not None and d.kind == "grabber_arm" and d.player == 0
    assert "stay" in values(d) and "behind:60" in values(d)
    assert "ahead:60" not in values(d)  # would overlap Blue
    play(g, "behind:60", 90.0)
    r = g.state.vehicles["red"]
    assert (r.pose.x, r.pose.y) == pytest.approx((320, 460)) and r.pose.heading == 0.0
    assert r.hull_points == 9  # the hit still damages


def test_grabber_arm_placement_touching_something_opens_a_collision_window() -> None:
    rock_ = rock("rock", 320, 510, 40, 40)  # its near face 60 mm behind Red's rear
    g = attack_game(table(blue_with(("grabber_arm", "front", None)),
                          vehicle("red", "car", 320, 400, 270, player=1), obstacles=[rock_]),
                    "blue", dice=[4, 1, 1, 1, 1, 1, 1])
    play(g, "grabber_arm#0>red", STOP)
    r = g.state.vehicles["red"]
    spots = {val: p for val, _, p in grab_spots(g, r)}
    assert spots["behind:60"].y == pytest.approx(460)  # rear edge on the rock's face
    play(g, "behind:60", 0.0)
    assert logged(g, "collision")[0][1]["other"] == "rock"
    play(g, "evade")  # the rock smashes with 1 (gear) + 2 (heavier) dice: all miss
    assert (r.hazards, r.hull_points) == (2, 9) and g.pending() is None


def test_grabber_arm_never_sets_a_car_down_overlapping_something() -> None:
    rock_ = rock("rock", 320, 505, 40, 40)
    g = attack_game(table(blue_with(("grabber_arm", "front", None)),
                          vehicle("red", "car", 320, 400, 270, player=1), obstacles=[rock_]),
                    "blue", dice=[4, 1, 1, 1])
    play(g, "grabber_arm#0>red", STOP)
    assert "behind:60" not in values(g.pending()) and "behind:30" in values(g.pending())
    assert "ahead:60" not in values(g.pending())  # Blue is in the way


def test_grabber_arm_cannot_lift_a_heavier_target() -> None:
    g = attack_game(table(blue_with(("grabber_arm", "front", None)),
                          vehicle("red", "heavy_truck", 320, 410, 270, player=1)), "blue",
                    dice=[4, 1, 1, 1])
    play(g, "grabber_arm#0>red", STOP)
    assert g.pending() is None and logged(g, "grabbed") == []


# -- Grav Gun (p.73) ------------------------------------------------------------------------------


def test_grav_gun_changes_weight_class_until_the_end_of_the_next_activation() -> None:
    seen: list[int] = []

    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        seen.append(weight_class(g, r))
        g.effects.run_event("activation_end", None, {"game": g, "vehicle": r})  # not its own
        seen.append(weight_class(g, r))
        g.emit("activation", vehicle="red", player=1, phase=1)
        seen.append(weight_class(g, r))
        g.effects.run_event("activation_end", None, {"game": g, "vehicle": r})
        seen.append(weight_class(g, r))

    g = run_step(table(blue_with(("grav_gun", "front", 1)), red()), step, [4, 1, 1, 1])
    play(g, "grav_gun#0>red", STOP)
    assert values(g.pending()) == ["heavier", "lighter"]
    play(g, "heavier")
    assert seen == [3, 3, 3, 2]
    assert g.state.vehicles["red"].hull_points == 10  # no damage
    assert logged(g, "grav_gun_ends") == [("grav_gun_ends", {"vehicle": "red"})]


# -- Harpoon (p.73) -------------------------------------------------------------------------------


def test_harpoon_spins_the_target_the_shorter_way_then_reels_it_in() -> None:
    r = vehicle("red", "car", 320, 600, 0.0, player=1)  # broadside on, facing east
    g = attack_game(table(blue_with(("harpoon", "front", None)), r), "blue",
                    dice=[4, 4, 1, 1, 1, 1])  # two hits, evade 1
    play(g, "harpoon#0>red")
    bearing = math.degrees(math.atan2(300 - 600, 300 - 320))  # from Red to Blue
    turn, towards = harpoon_turn(vehicle("x", "car", 320, 600, 0.0), g.state.vehicles["blue"])
    assert not towards and turn == pytest.approx(bearing + 180.0)  # facing away is nearer
    assert r.pose.heading == pytest.approx(bearing + 180.0)
    step = 60.0 + 60.0  # a Short Straight moves a car its length further (p.25)
    rad = math.radians(bearing)
    assert (r.pose.x, r.pose.y) == pytest.approx((320 + step * math.cos(rad),
                                                  600 + step * math.sin(rad)))
    assert r.hull_points == 10 and logged(g, "harpoon")[0][1]["towards"] is False


def test_harpoon_pulls_the_attacker_when_the_target_is_heavier() -> None:
    blue = blue_with(("harpoon", "front", None))
    big = vehicle("red", "heavy_truck", 300, 500, 90.0, player=1)
    g = attack_game(table(blue, big), "blue", dice=[4, 4, 1, 1, 1, 1])
    play(g, "harpoon#0>red")  # the truck is beyond Handgun range: nothing else to declare
    assert big.pose == Pose(300, 500, 90.0)
    assert blue.pose.heading == pytest.approx(90.0)  # already facing it
    assert blue.pose.y == pytest.approx(420.0) and not blue.reversing


# -- Kinetic Super Booster (p.73) -----------------------------------------------------------------


def test_super_booster_raises_gear_per_hit_without_hazards_up_to_max_gear() -> None:
    g = attack_game(table(blue_with(("kinetic_super_booster", "front", 1)), red()), "blue",
                    dice=[4, 4, 1, 1, 1, 1, 1])
    play(g, "kinetic_super_booster#0>red", STOP)
    r = g.state.vehicles["red"]
    assert (r.gear, r.hazards, r.hull_points) == (3, 0, 10)
    g = attack_game(table(blue_with(("kinetic_super_booster", "front", 1)), red(gear=2)),
                    "blue", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    play(g, "kinetic_super_booster#0>red", STOP)
    assert g.state.vehicles["red"].gear == 5  # car max gear


# -- Magnetic Jammer (p.74) -----------------------------------------------------------------------


def test_magnetic_jammer_stops_ammo_use_during_the_targets_next_activation() -> None:
    offered: list[list[Any]] = []

    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        g.emit("activation", vehicle="red", player=1, phase=1)
        yield from attack_step(g, r)
        g.effects.run_event("activation_end", None, {"game": g, "vehicle": r})
        yield from attack_step(g, r)

    r = armed(vehicle("red", "car", *RED, player=1), ("rockets", "front", 3))
    g = run_step(table(blue_with(("magnetic_jammer", "front", None)), r), step, [])
    play(g, "magnetic_jammer#0>red", STOP)
    assert rolls(g) == [("attack", [])] and r.conditions == {"jammed": 2}
    offered.append(values(g.pending()))
    play(g, STOP)
    offered.append(values(g.pending()))
    assert offered == [[STOP, "handgun>blue"], [STOP, "handgun>blue", "rockets#0>blue"]]


# -- Thumper (p.74) -------------------------------------------------------------------------------


def test_thumper_flip_checks_everyone_within_medium_two_gears_higher() -> None:
    blue = blue_with(("thumper", None, 1))
    near = red(gear=3)
    far = vehicle("far", "car", 700, 700, 0, player=1, gear=1)
    g = attack_game(table(blue, near, far), "blue", dice=[4])  # 4 < 3 + 2: flips
    assert "thumper#0" in values(g.pending())
    play(g, "thumper#0")
    assert logged(g, "thumper")[0][1]["targets"] == ["red"]
    check = logged(g, "flip_check")[0][1]
    assert (check["gear"], check["flipped"]) == (5, True)
    assert near.hull_points == 8 and logged(g, "flip")  # two unevadable hits, then the move
    assert blue.weapons[0].ammo == 0


def test_thumper_is_not_a_shooting_attack_so_a_distracted_vehicle_may_use_it() -> None:
    blue = blue_with(("thumper", None, 1))
    touching = rock("rock", 300, 250, 40, 40)  # against Blue's rear edge
    g = attack_game(table(blue, red(gear=1), obstacles=[touching]), "blue", dice=[6])
    assert logged(g, "distracted") and values(g.pending()) == [STOP, "thumper#0"]
    play(g, "thumper#0")
    assert logged(g, "flip_check")[0][1]["flipped"] is False


# -- Wall of Amplifiers (p.74) --------------------------------------------------------------------


def test_wall_of_amplifiers_hits_everyone_near_and_each_hit_adds_or_removes_a_hazard() -> None:
    blue = blue_with(("wall_of_amplifiers", None, None))
    r = red(hazards=2)
    mate = vehicle("mate", "car", 220, 300, 90, player=0, hazards=3)  # 50 mm to the left
    g = attack_game(table(blue, r, mate), "blue", dice=[6, 1])  # mate evades, red does not
    play(g, "wall_of_amplifiers#0")
    assert logged(g, "amplifiers")[0][1]["targets"] == ["mate", "red"]  # nearest first
    d = g.pending()
    assert d is not None and d.kind == "amplifiers" and d.player == 0
    play(g, "discard")
    assert (r.hazards, mate.hazards, r.hull_points) == (1, 3, 10)


def test_wall_of_amplifiers_discards_through_the_hooks_so_dont_come_knocking_holds() -> None:
    # A discarded Hazard goes through ``hazards_lost``: held fast by Don't Come Knocking (p.112)
    # it stays, and the log shows no change.
    blue = blue_with(("wall_of_amplifiers", None, None))
    r = red(hazards=2)
    r.perks.append("dont_come_knocking")
    r.conditions["dont_come_knocking"] = 1  # it took its 4 Hazards as it last activated
    g = attack_game(table(blue, r), "blue", dice=[1])  # red fails its evade
    play(g, "wall_of_amplifiers#0", "discard")
    assert r.hazards == 2
    assert not [e for e in g.log.of_kind("hazards") if e.data["vehicle"] == "red"]


# -- Wrecking Ball (p.75) -------------------------------------------------------------------------


def test_wrecking_ball_t_bones_everything_within_short_range() -> None:
    blue = blue_with(("wrecking_ball", None, None), gear=2)
    r = vehicle("red", "car", 320, 380, 270, player=1)  # 20 mm gap
    crate = rock("crate", 240, 300, 20, 20, destructible=True, weight=load_catalog()
                 .vehicles.get("buggy").weight)  # 35 mm to the left
    # Order: red then crate. Red: Blue smashes with gear 2 + 2 = 4 dice, Red must evade (1
    # die). Crate: Blue 2 + 2 + weight 2 = 6 dice; the crate smashes with 0 - 1 = no dice.
    g = attack_game(table(blue, r, obstacles=[crate]), "blue",
                    dice=[4, 4, 1, 1] + [1] + [1] * 6)
    play(g, "wrecking_ball#0")
    assert values(g.pending()) == ["red", "crate"]
    play(g, "red", STOP)
    reactions = [(d["vehicle"], d["other"], d["reaction"]) for _, d in logged(g, "reaction")]
    assert reactions == [("blue", "red", "smash"), ("red", "blue", "evade"),
                         ("blue", "crate", "smash"), ("crate", "blue", "smash")]
    assert logged(g, "collision")[0][1]["orientation"] == "t_bone"
    assert (r.hull_points, r.hazards) == (8, 2)
    assert blue.hazards == 0  # no Hazards for the swinging vehicle
    assert "crate" not in g.state.obstacles and g.pending() is None


# -- Wreck Lobber (p.75) --------------------------------------------------------------------------


def test_trebuchet_on_a_shift_drops_the_wreck_against_the_target() -> None:
    blue = blue_with(("wreck_lobber", "front", 3))
    g = attack_game(table(blue, red()), "blue", dice=[5, 1])  # Shift; wreck smashes 1 die
    assert values(g.pending()) == [STOP, "handgun>red", "wreck_lobber#0>@red",
                                   "wreck_lobber#0>dump"]
    play(g, "wreck_lobber#0>@red", "evade", STOP)
    placed = logged(g, "wreck_placed")[0][1]
    assert placed["how"] == "shift" and placed["by"] == 0
    assert placed["y"] == pytest.approx(420 - 15)  # its long side against Red's front
    col = logged(g, "collision")[0][1]
    assert (col["vehicle"], col["orientation"]) == ("red", "head_on")
    assert not any(o.startswith("lobbed:") for o in g.state.obstacles)  # gone after it
    assert blue.weapons[0].ammo == 2


def test_trebuchet_on_a_hazard_the_next_player_drops_it_on_the_thrower_low_loader_reloads(
) -> None:
    blue = blue_with(("wreck_lobber", "front", 3))
    g = attack_game(table(blue, red()), "blue", dice=[1, 1, 1])
    play(g, "wreck_lobber#0>@red")
    d = g.pending()
    assert d is not None and d.kind == "lob_wreck" and d.player == 1
    assert values(d) == ["front", "rear", "left", "right"]
    play(g, "rear", "evade")
    assert values(g.pending()) == ["load", "no"]  # Low-loader after hitting a wreck
    play(g, "load")
    assert blue.weapons[0].ammo == 3 and logged(g, "low_loader")


def test_trebuchet_on_a_spin_lands_within_short_range_of_the_marker() -> None:
    g = attack_game(table(blue_with(("wreck_lobber", "front", 3)), red()), "blue", dice=[2])
    play(g, "wreck_lobber#0>@red")
    d = g.pending()
    assert d is not None and d.player == 1 and "marker" in values(d) and "east" in values(d)
    play(g, "east")
    assert [o for o in g.state.obstacles if o.startswith("lobbed:")] == ["lobbed:blue#1"]
    assert logged(g, "collision") == []


def test_dumper_drops_the_wreck_behind_without_a_collision() -> None:
    blue = blue_with(("wreck_lobber", "rear", 3))
    g = attack_game(table(blue, red()), "blue")
    play(g, "wreck_lobber#0>dump", STOP)
    ob = g.state.obstacles["lobbed:blue#1"]
    assert (ob.pose.x, ob.pose.y) == pytest.approx((300, 240)) and ob.wreck_of is not None
    assert logged(g, "collision") == [] and blue.weapons[0].ammo == 2


# -- crew fired (pp.76-77) ------------------------------------------------------------------------


def test_gas_grenades_take_crew_until_the_end_of_the_gear_phase() -> None:
    crews: list[int] = []

    def step(g: Game) -> Flow:
        r = g.state.vehicles["red"]
        yield from attack_step(g, g.state.vehicles["blue"])
        crews.append(g.stat(r, "crew"))
        g.effects.run_event("gear_phase_end", None, {"game": g, "phase": 1})
        crews.append(g.stat(r, "crew"))

    g = run_step(table(blue_with(("gas_grenades", None, 5)), red()), step, [6, 1, 1])
    play(g, "gas_grenades#0>red", STOP)
    assert crews == [0, 2]  # two hits (a 6) took both crew, back at the phase's end
    assert g.state.vehicles["red"].hull_points == 10
    assert logged(g, "gassed")[0][1] == {"vehicle": "red", "lost": 2, "crew": 0}


@pytest.mark.parametrize(("y", "dice"), [(400.0, 3), (450.0, 2), (530.0, 1)])
def test_shotgun_dice_by_range(y: float, dice: int) -> None:
    g = attack_game(table(blue_with(("shotgun", None, None)),
                          vehicle("red", "car", 320, y, 270, player=1)), "blue", dice=[1] * 3)
    play(g, "shotgun#0>red", *([STOP] if y < 500 else []))
    assert rolls(g)[0] == ("attack", [1] * dice)


def test_steel_nets_cause_hazards_not_damage() -> None:
    g = attack_game(table(blue_with(("steel_nets", None, None)),
                          vehicle("red", "car", 320, 400, 270, player=1)), "blue",
                    dice=[4, 4, 6, 1])  # 4 hits, evade 1
    play(g, "steel_nets#0>red", STOP)
    r = g.state.vehicles["red"]
    assert (r.hazards, r.hull_points) == (4, 10)


def test_submachine_gun_and_magnum_are_plain_crew_fired_weapons() -> None:
    behind = vehicle("red", "car", 300, 180, 90, player=1)  # behind Blue: 360 degrees
    g = attack_game(table(blue_with(("submachine_gun", None, None), ("magnum", None, None)),
                          behind), "blue", dice=[4, 4, 4, 4, 1])
    play(g, "submachine_gun#0>red", "magnum#1>red")
    assert rolls(g)[0] == ("attack", [4, 4, 4, 4])
    assert (behind.hull_points, behind.hazards) == (6, 1)


def test_lobbed_wreck_is_a_destructible_car_wreck() -> None:
    g = attack_game(table(blue_with(("wreck_lobber", "front", 3)), red()), "blue", dice=[3])
    play(g, "wreck_lobber#0>@red", "east")
    ob: Obstacle = g.state.obstacles["lobbed:blue#1"]
    assert ob.destructible and ob.weight.value == "middleweight"
    assert (ob.length, ob.width) == (60, 30)


# -- Arc Lightning Projector (p.73) ---------------------------------------------------------------


def test_arc_lightning_chains_to_a_vehicle_near_each_damaged_target_until_one_holds() -> None:
    blue = blue_with(("arc_lightning_projector", "front", 1))
    c = vehicle("c", "car", 400, 450, 270, player=1)  # 50 mm beside Red
    d = vehicle("d", "car", 480, 450, 270, player=0)  # 50 mm beside c: a friend
    g = attack_game(table(blue, red(), c, d), "blue",
                    dice=[4, 1, 1, 1, 1, 1, 1]  # Red: one hit, not evaded
                    + [4, 4, 1, 1, 1, 1, 1]  # c: two hits
                    + [1] * 6)  # d: nothing: the chain stops
    play(g, "arc_lightning_projector#0>red", STOP)
    assert g.pending() is None  # each jump had one candidate: taken for the player
    links = [(e["origin"], e["target"]) for _, e in logged(g, "arc_lightning")]
    assert links == [("red", "c"), ("c", "d")]
    assert [g.state.vehicles[i].hull_points for i in ("red", "c", "d")] == [9, 8, 10]
    assert blue.weapons[0].ammo == 0  # the chain spends no more ammo


def test_arc_lightning_may_jump_back_to_the_attacker() -> None:
    blue = blue_with(("arc_lightning_projector", "front", 1))
    near = vehicle("red", "car", 320, 400, 270, player=1)  # 40 mm in front: Short range
    g = attack_game(table(blue, near), "blue", dice=[6, 1, 1, 1, 1, 1, 1] + [4] + [1] * 5 + [1])
    play(g, "arc_lightning_projector#0>red", STOP)
    assert [(e["origin"], e["target"]) for _, e in logged(g, "arc_lightning")] == [("red", "blue")]
    assert (near.hull_points, blue.hull_points) == (8, 9)


def test_grav_gun_weight_classes_stay_between_light_and_heavy() -> None:
    big = vehicle("red", "heavy_truck", 320, 470, 270, player=1)
    small = vehicle("bike", "bike", 500, 500, 0, player=1)
    g = attack_game(table(blue_with(("grav_gun", "front", 1)), big, small), "blue")
    big.conditions["grav_gun"], small.conditions["grav_gun"] = 1, -1
    assert (weight_class(g, big), weight_class(g, small)) == (3, 1)


def test_wrecking_ball_is_no_shooting_attack_so_a_distracted_vehicle_may_swing_it() -> None:
    blue = blue_with(("wrecking_ball", None, None))
    post = rock("post", 300, 250, 40, 40)  # touching Blue's rear: Distracted
    g = attack_game(table(blue, vehicle("red", "car", 320, 380, 270, player=1),
                          obstacles=[post]), "blue")
    assert logged(g, "distracted") and values(g.pending()) == [STOP, "wrecking_ball#0"]


# -- the heuristic bot's answers (ai/arsenal.py) --------------------------------------------------


def test_heuristic_bot_spares_friends_under_a_splash_template_and_in_a_lightning_chain() -> None:
    import random

    from carnage.games.refuelled.ai.bots import HeuristicBot

    bot, rng = HeuristicBot(), random.Random(0)
    truck = armed(vehicle("truck", "truck", 300, 300, 0, player=0), ("flamethrower", "side", 3))
    foe = vehicle("a", "car", 280, 390, 90, player=1)
    mate = vehicle("b", "car", 325, 390, 90, player=0)
    g = attack_game(table(truck, foe, mate), "truck", dice=[1] * 6)
    play(g, "flamethrower#0>a")
    d = g.pending()
    assert d is not None and values(d) == ["-", "b"] and bot.choose(g, d, rng) == "-"

    blue = blue_with(("arc_lightning_projector", "front", 1))
    near = vehicle("red", "car", 320, 400, 270, player=1)
    foe2 = vehicle("c", "car", 400, 400, 270, player=1)  # 50 mm beside Red
    g = attack_game(table(blue, near, foe2), "blue", dice=[6] + [1] * 5 + [1])
    play(g, "arc_lightning_projector#0>red", STOP)
    d = g.pending()
    assert d is not None and d.kind == "arc_lightning" and set(values(d)) == {"blue", "c"}
    assert bot.choose(g, d, rng) == "c"


def test_heuristic_bot_calms_friends_and_rattles_foes_with_the_amplifiers() -> None:
    import random

    from carnage.games.refuelled.ai.bots import HeuristicBot

    blue = blue_with(("wall_of_amplifiers", None, None))
    mate = vehicle("mate", "car", 220, 300, 90, player=0, hazards=3)
    g = attack_game(table(blue, red(), mate), "blue", dice=[1, 1])
    play(g, "wall_of_amplifiers#0")
    d = g.pending()
    assert d is not None and d.kind == "amplifiers"
    assert HeuristicBot().choose(g, d, random.Random(0)) == "discard"  # mate was hit first
    play(g, "discard")
    d = g.pending()
    assert d is not None and HeuristicBot().choose(g, d, random.Random(0)) == "add"  # red


def test_grabber_arm_does_not_lift_an_articulated_vehicle() -> None:
    tank = blue_with(("grabber_arm", "front", None), vtype="tank")  # heavyweight, like the rig
    rig = vehicle("rig", "war_rig", 300, 420, 270, player=1)
    rig.special_rules = ["articulated"]
    g = attack_game(table(tank, rig), "blue", dice=[4, 1, 1, 1])
    assert rig.trailer is not None
    play(g, "grabber_arm#0>rig", STOP)
    assert g.pending() is None and logged(g, "grabbed") == [] and rig.hull_points == rig.hull - 1


# -- at a real table (companion mode, engine/table_facts.py) ------------------------------------
AT_TABLE = RuleOptions(physical=True)


def test_at_a_real_table_a_harpoon_turns_the_way_the_people_say() -> None:
    # On the virtual table Red, up and right of Blue and facing east, would turn away from
    # Blue; the people say facing Blue is the smaller turn, so each further hit reels it in
    # forwards (p.73). Two hits of five dice, Red's evade 1 fails.
    blue = blue_with(("harpoon", "front", None))
    r = vehicle("red", "car", 1000, 1000, 0.0, player=1)
    assert harpoon_turn(r, blue)[1] is False
    g = run_step(table(blue, r), attack("blue"), dice=[4, 4, 1, 1, 1, 1], options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@double"],
                "attack": ["harpoon#0>red", STOP], "table:cover": "no"})
    d = g.pending()
    assert d is not None and d.kind == "table:harpoon_facing" and d.page == 73
    assert d.player == 1 and values(d) == ["towards", "away"]  # the book's tie: towards
    play(g, "towards")
    d = g.pending()
    assert d is not None and d.kind == "table:pivot_touched"
    assert "to face blue directly" in d.prompt
    drive(g, **{"table:pivot_touched": "none", "table:forced_move_touched": "none",
                "table:forced_move_interrupted": "no", "table:off_table": "no"})
    assert logged(g, "harpoon")[0][1] == {"vehicle": "red", "anchor": "blue", "hits": 2,
                                          "towards": True}
    # The log says it in words, the turn with no gap where an angle would be.
    from carnage.games.refuelled.text import table_event_text

    said = [table_event_text(g, e) for e in g.log.events
            if e.kind in ("harpoon", "pivot", "forced_move")]
    assert said == ["Red is pulled on the Harpoon's line (2 hits) and turns to face blue (p.73)",
                    "Red is turned by hand at the table on the Harpoon's line (p.73)",
                    "Red is forced along the short straight on the real table (p.73)"]
    assert [d["template"] for _, d in logged(g, "forced_move")] == ["short_straight"]
    assert not r.reversing and r.pose == Pose(1000, 1000, 0.0)  # the people moved it (CP-1)
    assert r.hull_points == 10
    # Said the other way, the reel goes in reverse.
    r2 = vehicle("red", "car", 1000, 1000, 0.0, player=1)
    g = run_step(table(blue_with(("harpoon", "front", None)), r2), attack("blue"),
                 dice=[4, 4, 1, 1, 1, 1], options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@double"],
                "attack": ["harpoon#0>red", STOP], "table:cover": "no",
                "table:harpoon_facing": "away", "table:pivot_touched": "none",
                "table:forced_move_touched": "none", "table:forced_move_interrupted": "no",
                "table:off_table": "no"})
    assert logged(g, "harpoon")[0][1]["towards"] is False and r2.reversing


def test_at_a_real_table_the_wrecking_ball_swings_at_what_the_people_name() -> None:
    # Nothing is within Short range on the virtual table; the people say Red and the crate
    # are. Red: 2 + 2 = 4 smash dice, Red evades (1 die); the crate: 2 + 2 + 2 = 6 dice.
    blue = blue_with(("wrecking_ball", None, None), gear=2)
    r = vehicle("red", "car", 1000, 1000, 270, player=1)
    far = vehicle("far", "car", 100, 1000, 270, player=1)
    crate = rock("crate", 900, 100, 20, 20, destructible=True,
                 weight=load_catalog().vehicles.get("buggy").weight)
    g = run_step(table(blue, r, far, obstacles=[crate]), attack("blue"),
                 dice=[4, 4, 1, 1] + [1] + [1] * 6, options=AT_TABLE)
    play(g, "none", "none")  # touching nothing; the handgun reaches nobody
    d = g.pending()
    assert d is not None and d.kind == "table:wrecking_ball_reach" and d.page == 75
    assert values(d) == ["none", "red", "far", "crate"]
    play(g, "red", "crate", "none")
    d = g.pending()
    assert d is not None and d.kind == "attack"
    assert values(d) == [STOP, "wrecking_ball#0"]
    play(g, "wrecking_ball#0")
    assert values(g.pending()) == ["red", "crate"]
    drive(g, **{"wrecking_ball": ["red"], "table:collision_edge": []})
    assert logged(g, "wrecking_ball")[0][1]["targets"] == ["red", "crate"]
    reactions = [(d["vehicle"], d["other"], d["reaction"]) for _, d in logged(g, "reaction")]
    assert reactions == [("blue", "red", "smash"), ("red", "blue", "evade"),
                         ("blue", "crate", "smash"), ("crate", "blue", "smash")]
    assert (r.hull_points, far.hull_points) == (8, 10)  # the far car untouched
    assert "crate" not in g.state.obstacles


def test_at_a_real_table_nothing_named_in_reach_is_no_wrecking_ball() -> None:
    blue = blue_with(("wrecking_ball", None, None), gear=2)
    r = vehicle("red", "car", 320, 380, 270, player=1)  # 20 mm gap on the virtual table
    g = run_step(table(blue, r), attack("blue"), options=AT_TABLE)
    play(g, "none", "none", "none")  # touching nothing, in reach of nothing, nothing near
    assert g.pending() is None  # no attack to declare
    assert not logged(g, "wrecking_ball")


def test_at_a_real_table_the_thumper_flip_checks_whom_the_people_name() -> None:
    # Red stands beside Blue on the virtual table, "far" far off; the people say only "far"
    # is within Medium (CP-15): its flip check, gear 1 + 2 = 3 against a 4, holds.
    blue = blue_with(("thumper", None, 1))
    near = red(gear=3)
    far = vehicle("far", "car", 1000, 1000, 0, player=1, gear=1)
    g = run_step(table(blue, near, far), attack("blue"), dice=[4], options=AT_TABLE)
    d = drive(g, **{"table:touching": "none", "table:in_reach": "none"})
    assert d is not None and d.kind == "table:thumper_reach" and d.page == 74
    assert values(d) == ["none", "red", "far"]
    play(g, "far", "none", "thumper#0")
    assert logged(g, "thumper")[0][1]["targets"] == ["far"]
    assert logged(g, "flip_check")[0][1] == {"vehicle": "far", "roll": 4, "score": 4,
                                             "gear": 3, "flipped": False}
    assert blue.weapons[0].ammo == 0


def test_at_a_real_table_arc_lightning_jumps_only_to_whom_the_people_name() -> None:
    # c and d stand beside Red on the virtual table; the people say nothing is within Short
    # of Red, so the lightning stops there (p.73, CP-18).
    blue = blue_with(("arc_lightning_projector", "front", 1))
    c = vehicle("c", "car", 400, 450, 270, player=1)
    g = run_step(table(blue, red(), c), attack("blue"), dice=[4, 1, 1, 1, 1, 1, 1],
                 options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@double"],
                "table:in_reach:more": "none", "attack": ["arc_lightning_projector#0>red"],
                "table:cover": "no"})
    d = g.pending()
    assert d is not None and d.kind == "table:arc_lightning_reach" and values(d) == [
        "none", "blue", "c"]
    play(g, "none")
    assert not logged(g, "arc_lightning") and g.state.vehicles["red"].hull_points == 9


def test_at_a_real_table_the_shotgun_rolls_the_dice_of_the_band_the_people_name() -> None:
    # Red stands at Long on the virtual table; the people say Short reaches it: 3 dice (p.77).
    g = run_step(table(blue_with(("shotgun", None, None)),
                       vehicle("red", "car", 320, 530, 270, player=1)), attack("blue"),
                 dice=[1] * 3, options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@long"],
                "attack": ["shotgun#0>red", STOP], "table:cover": "no"})
    d = g.pending()
    assert d is not None and d.kind == "table:shotgun_band" and d.page == 77
    assert values(d) == ["long", "medium", "short"]
    play(g, "short")
    drive(g)
    assert rolls(g)[0] == ("attack", [1] * 3)


def test_at_a_real_table_the_trebuchet_offers_the_targets_the_people_name() -> None:
    # Red stands within Double of the Wreck Lobber's front arc on the virtual table; the
    # people say it is not (CP-15): no lob at it, only the dump (p.75).
    g = run_step(table(blue_with(("wreck_lobber", "front", 3)), red()), attack("blue"),
                 options=AT_TABLE)
    d = drive(g, **{"table:touching": "none", "table:in_reach": "none"})
    assert d is not None and d.kind == "table:lobber_reach" and d.page == 75
    assert values(d) == ["none", "red"]
    play(g, "none")
    assert values(g.pending()) == [STOP, "wreck_lobber#0>dump"]
    far = vehicle("red", "car", 1000, 1000, 0, player=1)
    g = run_step(table(blue_with(("wreck_lobber", "front", 3)), far), attack("blue"),
                 options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": "none"})
    play(g, "red")  # said within Double of the arc, though far off on the virtual table
    assert values(g.pending()) == [STOP, "wreck_lobber#0>@red", "wreck_lobber#0>dump"]


def test_at_a_real_table_a_lobbed_wreck_hits_whom_the_people_say_it_touches() -> None:
    # Red stands far off on the virtual table; the people say it is within Double, that the
    # Shift (a 5) left room against it, and that the wreck touches it: a Collision window,
    # the edge Red names and its reaction, the wreck smashing with 1 die (p.75, CP-19).
    far = vehicle("red", "car", 1000, 1000, 0, player=1)
    g = run_step(table(blue_with(("wreck_lobber", "front", 3)), far), attack("blue"),
                 dice=[5, 1], options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": "none"})
    play(g, "red", "wreck_lobber#0>@red")
    d = g.pending()
    assert d is not None and d.kind == "table:lob_room" and d.page == 75 and d.player == 0
    assert values(d) == ["yes", "no"]
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "table:lob_touching" and values(d) == [
        "none", "blue", "red"]
    play(g, "red", "none", "front", "evade")
    col = logged(g, "collision")[0][1]
    assert (col["vehicle"], col["orientation"]) == ("red", "head_on")
    assert rolls(g)[-1] == ("smash attack", [1])
    assert logged(g, "wreck_placed")[0][1]["how"] == "shift"
    assert g.state.vehicles["blue"].weapons[0].ammo == 2


def test_at_a_real_table_a_lobbed_wreck_with_no_room_is_lost() -> None:
    # A Hazard (a 1): Red's controller lays it against the thrower, and says there is no room.
    g = run_step(table(blue_with(("wreck_lobber", "front", 3)), red()), attack("blue"),
                 dice=[1], options=AT_TABLE)
    drive(g, **{"table:touching": "none", "table:in_reach": "none"})
    play(g, "red", "wreck_lobber#0>@red")
    d = g.pending()
    assert d is not None and d.kind == "table:lob_room" and d.player == 1
    play(g, "no")
    assert logged(g, "wreck_lost") and not logged(g, "wreck_placed")
    assert not any(o.startswith("lobbed:") for o in g.state.obstacles)
    assert g.state.vehicles["blue"].weapons[0].ammo == 2  # thrown all the same


def test_at_a_real_table_the_dumper_asks_whether_the_wreck_fits_behind() -> None:
    # A rock lies right behind Blue on the virtual table (the exact table offers no dump);
    # at a real table the dump is offered and the people say whether it fits (p.75, CP-19).
    behind = rock("crate", 300, 240)
    state = table(blue_with(("wreck_lobber", "rear", 3)), red(), obstacles=[behind])
    exact = attack_game(state, "blue")
    assert "wreck_lobber#0>dump" not in values(exact.pending())
    for fits, ammo, wrecks in (("yes", 2, 1), ("no", 3, 0)):
        state = table(blue_with(("wreck_lobber", "rear", 3)), red(), obstacles=[behind])
        g = run_step(state, attack("blue"), options=AT_TABLE)
        drive(g, **{"table:touching": "none", "table:in_reach": "none"})
        play(g, "none", "wreck_lobber#0>dump")
        d = g.pending()
        assert d is not None and d.kind == "table:dump_room" and d.page == 75
        assert values(d) == ["yes", "no"]
        play(g, fits)
        assert g.state.vehicles["blue"].weapons[0].ammo == ammo
        assert sum(o.startswith("lobbed:") for o in g.state.obstacles) == wrecks
        assert logged(g, "collision") == []


def test_at_a_real_table_a_grabbed_car_set_down_touching_what_the_people_say_collides() -> None:
    # The rock lies far off on the virtual table; the people say Blue's Grabber Arm set Red
    # down against it (p.73, CP-19): no spot or angle asked, a Collision window with the rock,
    # which smashes with 1 (gear) + 2 (heavier) dice, all missing.
    far_rock = rock("rock", 900, 900, 40, 40)
    g = run_step(table(blue_with(("grabber_arm", "front", None)),
                       vehicle("red", "car", 320, 400, 270, player=1), obstacles=[far_rock]),
                 attack("blue"), dice=[4, 1, 1, 1, 1, 1, 1], options=AT_TABLE)
    d = drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@short"],
                    "table:in_reach:more": "none", "attack": ["grabber_arm#0>red", STOP],
                    "table:cover": "no"})
    assert d is not None and d.kind == "table:grab_moved" and d.page == 73 and d.player == 0
    assert values(d) == ["no", "yes"]
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "table:grab_touching" and "rock" in values(d)
    play(g, "rock", "none", "front", "evade")
    r = g.state.vehicles["red"]
    assert logged(g, "collision")[0][1]["other"] == "rock"
    assert (r.hazards, r.hull_points) == (2, 9) and g.pending() is None


def test_at_a_real_table_a_grabbed_car_left_where_it_was_meets_nothing() -> None:
    g = run_step(table(blue_with(("grabber_arm", "front", None)),
                       vehicle("red", "car", 320, 400, 270, player=1)),
                 attack("blue"), dice=[4, 1, 1, 1], options=AT_TABLE)
    d = drive(g, **{"table:touching": "none", "table:in_reach": ["none", "red@short"],
                    "table:in_reach:more": "none", "attack": ["grabber_arm#0>red", STOP],
                    "table:cover": "no"})
    assert d is not None and d.kind == "table:grab_moved"
    play(g, "no")
    assert g.pending() is None and logged(g, "grabbed") and logged(g, "collision") == []
    assert g.state.vehicles["red"].hull_points == 9
