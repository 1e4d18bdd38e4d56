"""Upgrades in play (Refuelled pp.83-85): exact tables, scripted dice, each rule with and
without the upgrade so that the test fails if the rule is removed."""

from __future__ import annotations

import pytest
from tests.builders import (
    collide,
    ev,
    fit,
    on,
    play,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.catalog import TemplateUse, Weight
from carnage.games.refuelled.engine.attack import legal_shots
from carnage.games.refuelled.engine.damage import ammo_tokens, suffer_damage
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import movement_step, template_options
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.setup import vehicle_state
from carnage.games.refuelled.text import table_event_text
from carnage.geometry.shapes import Pose
from carnage.geometry.surfaces import Surface, SurfaceKind
from carnage.team import TeamSpec, check_team
from carnage.team.model import UpgradeSpec, VehicleSpec, WeaponSpec

SHIFT, HAZARD = 4, 1  # skid faces on a D6 (ruling R-1)


def built(vtype: str, *upgrades: str | UpgradeSpec, weapons: tuple[WeaponSpec, ...] = ()
          ) -> VehicleState:
    """A vehicle as the team builder makes it (derived stats), set up for the game."""
    ups = tuple(u if isinstance(u, UpgradeSpec) else UpgradeSpec(id=u) for u in upgrades)
    spec = TeamSpec(name="t", cans=200, sponsor="mishkin", vehicles=(
        VehicleSpec(name="v", type=vtype, upgrades=ups, weapons=weapons),))
    report = check_team(spec)
    assert report.valid, [e.message for e in report.errors]
    return vehicle_state(report.vehicles[0], vid="v", player=0, pose=Pose(600, 300, 90))


# -- stat upgrades: applied once, by the team builder ---------------------------------------
def test_armour_plating_and_extra_crew_come_from_the_builder_once() -> None:
    plain = built("car")
    v = built("car", "armour_plating", "armour_plating", "extra_crewmember")
    assert (plain.hull, plain.crew) == (10, 2)
    assert (v.hull, v.crew) == (14, 3)  # +2 hull each plate, +1 crew (p.84)
    g = run_step(table(v), lambda g: iter(()))
    assert g.stat(v, "crew") == 3 and v.hull_points == 14  # not counted again in play
    played = unplayed_rules(g)
    assert "upgrade:armour_plating" not in played and "upgrade:extra_crewmember" not in played


def test_extra_crewmember_gives_an_extra_attack() -> None:
    def attacks(v: VehicleState) -> int:
        target = vehicle("t", "car", 600, 420, heading=90, player=1)
        g = run_step(table(v, target), on("v", _attack_step), dice=[1] * 20)
        n = 0
        while (d := g.pending()) is not None and d.kind == "attack":
            g.apply(next(o.value for o in d.options if o.value != "stop"))
            n += 1
        return n

    assert attacks(built("car")) == 2
    assert attacks(built("car", "extra_crewmember")) == 3


def _attack_step(g: Game, v: VehicleState) -> Flow:
    from carnage.games.refuelled.engine.attack import attack_step

    yield from attack_step(g, v)


def test_turret_mounting_fires_all_round() -> None:
    behind = vehicle("t", "car", 600, 200, heading=90, player=1)  # 100 mm behind
    front = built("car", weapons=(WeaponSpec(id="machine_gun", facing="front"),))
    turret = built("car", weapons=(WeaponSpec(id="machine_gun", facing="turret"),))
    assert turret.weapons[0].facing == "turret"
    for v, expected in ((front, False), (turret, True)):
        g = run_step(table(v, behind), lambda g: iter(()))
        keys = {s.key for s in legal_shots(g, v)}
        assert ("machine_gun#0" in keys) is expected


# -- Tank Tracks (p.85) -------------------------------------------------------------------
def _rough_state(v: VehicleState, kind: SurfaceKind) -> GameState:
    st = table(v)
    st.surfaces["mud"] = Surface("mud", kind, ((550.0, 350.0), (650.0, 350.0),
                                               (650.0, 450.0), (550.0, 450.0)))
    return st


@pytest.mark.parametrize("kind, hazards", [(SurfaceKind.ROUGH, 1),
                                           (SurfaceKind.TREACHEROUS, 2)])
def test_tank_tracks_ignore_rough_and_treacherous_surfaces(kind: SurfaceKind,
                                                           hazards: int) -> None:
    plain, tracked = built("car"), built("car", "tank_tracks")
    assert (tracked.handling, tracked.max_gear) == (plain.handling + 1, plain.max_gear - 1)
    for v, expected in ((plain, hazards), (tracked, 0)):
        g = run_step(_rough_state(v, kind), on("v", movement_step))
        play(g, "medium_straight", 0, "done")  # trivial: a free Shift, not spent
        assert g.pending() is None
        assert v.hazards == expected


# -- Experimental Nuclear Engine (p.83) ----------------------------------------------------
def test_nuclear_engine_long_straight_in_every_gear() -> None:
    for gear in (1, 2, 3, 4):
        v = fit(vehicle("v", "car", 600, 300, gear=gear), "experimental_nuclear_engine")
        plain = vehicle("p", "car", 300, 300, gear=gear)
        g = run_step(table(v, plain), lambda g: iter(()))
        assert "long_straight" in dict(template_options(g, v, permitted_only=True))
        assert "long_straight" not in dict(template_options(g, plain, permitted_only=True))
        label = dict(template_options(g, v, permitted_only=True))["long_straight"]
        assert label.endswith(f"[{TemplateUse.PERMITTED.value}]")  # never trivial/hazardous
    v = built("car", "experimental_nuclear_engine")
    assert v.max_gear == 6  # 5 + 2, capped at 6


def test_nuclear_engine_failed_flip_check_wrecks_and_explodes_as_a_heavyweight() -> None:
    # Gear 3, flip check 1: the flip becomes a meltdown; the explosion check (1) explodes
    # anyway; the middleweight car explodes with 6 dice, as a heavyweight.
    car = fit(vehicle("car", "car", 600, 300, heading=90, gear=3, hazards=6),
              "experimental_nuclear_engine")
    near = vehicle("near", "car", 700, 300, heading=90, player=1)
    g = run_step(table(car, near), wipeouts("car"), dice=[1, 1, 4, 4, 4, 1, 1, 1, 1])
    assert g.pending() is None
    assert ev(g, "nuclear_meltdown") == [{"vehicle": "car"}]
    assert not ev(g, "flip")
    assert ev(g, "explosion_check")[0]["roll"] == 1 and ev(g, "explosion_check")[0]["explodes"]
    assert ev(g, "explosion")[0]["weight"] == Weight.HEAVYWEIGHT.value
    assert [r for r in rolls(g) if r[0] == "explosion"] == [("explosion", [4, 4, 4, 1, 1, 1])]
    assert car.status is Status.REMOVED
    assert near.damage == 3


def test_without_nuclear_engine_a_failed_flip_check_is_a_flip() -> None:
    car = vehicle("car", "car", 600, 300, heading=90, gear=3, hazards=6)
    g = run_step(table(car), wipeouts("car"), dice=[1])
    assert ev(g, "flip") and car.damage == 2 and car.in_play


def test_nuclear_engine_vehicle_explodes_as_heavyweight_whenever_it_explodes() -> None:
    car = fit(vehicle("car", "car", 600, 300, heading=90), "experimental_nuclear_engine")
    near = vehicle("near", "car", 700, 300, heading=90, player=1)

    def wreck_it(g: Game) -> Flow:
        yield from suffer_damage(g, car, 10, source="test", page=43)

    g = run_step(table(car, near), wreck_it, dice=[6] + [1] * 7)  # explodes on a 6
    assert ev(g, "explosion")[0]["dice"] == 6
    plain = vehicle("car", "car", 600, 300, heading=90)
    near2 = vehicle("near", "car", 700, 300, heading=90, player=1)

    def wreck_plain(g: Game) -> Flow:
        yield from suffer_damage(g, plain, 10, source="test", page=43)

    g2 = run_step(table(plain, near2), wreck_plain, dice=[6] + [1] * 5)
    assert ev(g2, "explosion")[0]["dice"] == 4


# -- Experimental Teleporter (p.83) ---------------------------------------------------------
def test_teleporter_shift_result_controller_places_within_medium_range() -> None:
    v = fit(vehicle("v", "car", 600, 600, heading=90), "experimental_teleporter")
    other = vehicle("o", "car", 900, 900, player=1)
    g = run_step(table(v, other), on("v", activation), dice=[SHIFT])
    d = g.pending()
    assert d is not None and d.kind == "teleporter" and d.player == 0 and d.page == 83
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "teleport_place" and d.player == 0
    # The open table offers every one of the 12 bearings at 40, 80 and 120 mm.
    assert len(values(d)) == 36 and "0@120" in values(d) and "0@180" not in values(d)
    play(g, "0@120")
    assert (v.pose.x, v.pose.y, v.pose.heading) == pytest.approx((720, 600, 90))
    assert v.hazards == 3
    assert ev(g, "teleport")[0]["face"] == "shift"
    assert not ev(g, "collision")
    d = g.pending()  # then its normal Movement Step from the new place
    assert d is not None and d.kind == "template"


def test_teleporter_hazard_result_next_player_places_within_long_range() -> None:
    v = fit(vehicle("v", "car", 600, 600, heading=90), "experimental_teleporter")
    blocker = rock("rock", 780, 600, length=40, width=40)  # sits on the 180 mm spot at 0
    g = run_step(table(v, obstacles=[blocker]), on("v", activation), dice=[HAZARD])
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "teleport_place" and d.player == 1
    assert "90@180" in values(d) and "0@180" not in values(d)
    play(g, "90@180")
    assert (v.pose.x, v.pose.y) == pytest.approx((600, 780))


def test_teleporter_may_be_declined_and_is_not_offered_without_the_upgrade() -> None:
    v = fit(vehicle("v", "car", 600, 600), "experimental_teleporter")
    g = run_step(table(v), on("v", activation))
    play(g, "no")
    assert v.hazards == 0 and (v.pose.x, v.pose.y) == (600, 600)
    d = g.pending()
    assert d is not None and d.kind == "template"
    g2 = run_step(table(vehicle("v", "car", 600, 600)), on("v", activation))
    d2 = g2.pending()
    assert d2 is not None and d2.kind == "template"


def test_worked_example_p84_a_pickup_truck_takes_up_to_three_extra_crewmembers() -> None:
    # p.84: a pickup truck (Crew 3) may buy up to 3 Extra Crewmembers, for Crew 6; a fourth
    # is refused. With Crew 6 it makes six shooting attacks in its Attack Step (p.30): six
    # Handgun attacks at the car ahead, and no seventh is offered.
    def team(n: int) -> TeamSpec:
        return TeamSpec(name="t", cans=200, vehicles=(VehicleSpec(
            name="v", type="pickup_truck", upgrades=(UpgradeSpec(id="extra_crewmember"),) * n),))

    refused = check_team(team(4))
    assert not refused.valid
    assert [e.message for e in refused.errors] == [
        "v: 4 x Extra Crewmember is more than the Truck's starting Crew of 3 (p.84)"]
    report = check_team(team(3))
    assert report.valid and report.vehicles[0].crew == 6
    truck = vehicle_state(report.vehicles[0], vid="v", player=0, pose=Pose(600, 300, 90))
    target = vehicle("t", "car", 600, 420, heading=270, player=1, gear=1)
    g = run_step(table(truck, target), on("v", _attack_step), dice=[1] * 6)
    asked = play(g, *["handgun>t"] * 6)
    assert [d.kind for d in asked] == ["attack"] * 6
    assert g.pending() is None  # crew spent: no seventh attack, not even a "stop"
    assert len(ev(g, "declare_attack")) == 6


# -- Nitro Booster (p.84) --------------------------------------------------------------------
def test_nitro_booster_long_straight_hazards_to_five_no_reverse_then_five_again() -> None:
    v = fit(vehicle("v", "car", 600, 300, heading=90, gear=1, hazards=1), "nitro_booster",
            ammo=1)
    g = run_step(table(v), on("v", activation))
    assert ammo_tokens(g, v) == 1
    d = g.pending()
    assert d is not None and d.kind == "nitro"
    play(g, "yes")
    # A forced Long Straight: the car ends past the 180 mm template, 240 mm on.
    assert (v.pose.x, v.pose.y) == pytest.approx((600, 540))
    assert v.hazards == 5
    assert ev(g, "ammo") == [{"vehicle": "v", "weapon": "nitro_booster#0", "ammo": 0}]
    d = g.pending()
    assert d is not None and d.kind == "template"
    assert not any("reverse" in str(x) for x in values(d))  # no reversing this step
    play(g, "short_straight", 0, "done")
    assert v.hazards == 5 and ammo_tokens(g, v) == 0


def test_nitro_booster_tops_up_again_at_the_end_of_the_movement_step() -> None:
    # Discarding a Hazard with a Shift during the step does not stick: back to 5 at the end.
    v = fit(vehicle("v", "car", 600, 300, heading=90, gear=1), "nitro_booster", ammo=1)
    g = run_step(table(v), on("v", activation), dice=[SHIFT])
    play(g, "yes", "short_straight", 1, "no", "discard_hazard", "discard_hazard")
    assert [e["hazards"] for e in ev(g, "hazards")][-3:] == [4, 3, 5]
    assert v.hazards == 5


def test_nitro_after_reversing_last_activation_leads_with_the_front() -> None:
    # p.53: only a vehicle moving backwards leads with its rear. The car reversed in its last
    # activation (60 mm back to y=180); this activation's Nitro is a forced move forwards, so
    # it meets the oncoming car front to front: a head-on (gears added: 1 + 1 = 2 dice each),
    # not a tailgate read from its rear edge.
    v = fit(vehicle("v", "car", 600, 300, heading=90, gear=1), "nitro_booster", ammo=2)
    b = vehicle("b", "car", 600, 470, heading=270, player=1, gear=1)

    def twice(g: Game) -> Flow:
        yield from activation(g, g.state.vehicles["v"])
        yield from activation(g, g.state.vehicles["v"])

    g = run_step(table(v, b), twice, dice=[6, 6, 1, 1])
    play(g, "no", "short_straight/reverse", 0, "done")
    assert (v.pose.y, v.reversing) == (pytest.approx(180), True)
    play(g, "yes", "smash", "smash")
    col = ev(g, "collision")[0]
    assert col["orientation"] == "head_on"
    assert col["edges"] == {"v": "front", "b": "front"}
    assert not v.reversing
    assert [s["dice"] for s in ev(g, "smash_attack")] == [2, 2]


def test_nitro_booster_once_per_ammo_token() -> None:
    v = fit(vehicle("v", "car", 600, 300, heading=90), "nitro_booster", ammo=0)
    g = run_step(table(v), on("v", activation))
    d = g.pending()
    assert d is not None and d.kind == "template"  # empty: not offered
    assert any("reverse" in str(x) for x in values(d))


# -- Ram (p.85) and Exploding Ram (p.84) ----------------------------------------------------
def t_bone(front_gear: int = 2) -> tuple[VehicleState, VehicleState]:
    """``a``'s front edge square against the middle of ``b``'s side."""
    a = vehicle("a", "car", 600, 555, heading=90, gear=front_gear)
    b = vehicle("b", "car", 600, 600, heading=0, player=1, gear=1)
    return a, b


def test_ram_adds_two_smash_dice_and_saves_the_hazards_on_its_facing() -> None:
    for rammed in (False, True):
        a, b = t_bone()
        if rammed:
            fit(a, "ram", "front")
        g = run_step(table(a, b), collide("a", "b"), dice=[1] * 10)
        play(g, "smash", "evade")
        smash = ev(g, "smash_attack")[0]
        assert smash["dice"] == (4 if rammed else 2)
        assert a.hazards == (0 if rammed else 2)
        assert b.hazards == 2


def test_ram_on_another_facing_does_nothing() -> None:
    a, b = t_bone()
    fit(a, "ram", "rear")
    g = run_step(table(a, b), collide("a", "b"), dice=[1] * 10)
    play(g, "smash", "evade")
    assert ev(g, "smash_attack")[0]["dice"] == 2 and a.hazards == 2


def tailgate() -> tuple[VehicleState, VehicleState]:
    """``a`` (gear 2) runs into the rear of ``b`` (gear 4): both would have to evade."""
    a = vehicle("a", "car", 600, 530, heading=90, gear=2)
    b = vehicle("b", "car", 600, 590, heading=90, player=1, gear=4)
    return a, b


def test_exploding_ram_smashes_even_in_a_tailgate_with_six_more_dice_and_backfires() -> None:
    a, b = tailgate()
    fit(a, "exploding_ram", "front", ammo=1)
    # |2 - 4| + 6 = 8 dice: 1, 2, 2 cost the rammer 3 hull; 4, 5, 6, 6, 3 -> 6 hits on b;
    # b evades with 4 dice (gear 4): one 6 cancels one hit.
    dice = [1, 2, 2, 4, 5, 6, 6, 3, 6, 1, 1, 1]
    g = run_step(table(a, b), collide("a", "b"), dice=dice)
    assert g.pending() is None  # both reactions forced: a must smash, b must evade
    assert [(r["vehicle"], r["reaction"]) for r in ev(g, "reaction")] == [
        ("a", "smash"), ("b", "evade")]
    assert ev(g, "exploding_ram")[0]["bonus"] == 6
    assert ev(g, "smash_attack")[0] == {"attacker": "a", "target": "b", "dice": 8, "hits": 6}
    assert a.damage == 3 and b.damage == 5
    assert a.fitted[0].ammo == 0


def test_exploding_ram_only_the_first_collision_on_its_facing() -> None:
    a, b = tailgate()
    fit(a, "exploding_ram", "front", ammo=1)
    g = run_step(table(a, b), collide("a", "b", "b"), dice=[4] * 8 + [1] * 4 + [1] * 6)
    # The second collision: the ram is spent, so the tailgate forces both to evade again.
    reactions = [(r["vehicle"], r["reaction"], r["why"]) for r in ev(g, "reaction")]
    assert reactions[2:] == [("a", "evade", "tailgate"), ("b", "evade", "tailgate")]
    assert len(ev(g, "exploding_ram")) == 1


def test_without_exploding_ram_a_tailgate_forces_both_to_evade() -> None:
    a, b = tailgate()
    g = run_step(table(a, b), collide("a", "b"), dice=[])
    assert [r["reaction"] for r in ev(g, "reaction")] == ["evade", "evade"]
    assert not ev(g, "smash_attack")


def test_exploding_ram_ammo_token_counts_for_the_explosion_check() -> None:
    a = fit(vehicle("a", "car", 600, 300), "exploding_ram", "front", ammo=1)
    g = run_step(table(a), lambda g: iter(()))
    assert ammo_tokens(g, a) == 1


def test_ram_and_exploding_ram_on_one_facing_add_up() -> None:
    a, b = t_bone()
    fit(a, "ram", "front")
    fit(a, "exploding_ram", "front", ammo=1)
    g = run_step(table(a, b), collide("a", "b"), dice=[5] * 10 + [1] * 3)
    play(g, "evade")  # a's smash is forced; b chooses
    assert ev(g, "smash_attack")[0]["dice"] == 2 + 2 + 6
    assert a.hazards == 0  # the Ram's facing


# -- Roll Cage (p.85) --------------------------------------------------------------------------
@pytest.mark.parametrize("pick, damage", [("yes", 0), ("no", 2)])
def test_roll_cage_upgrade_may_ignore_the_flip_hits(pick: str, damage: int) -> None:
    car = fit(vehicle("car", "car", 600, 300, heading=90, gear=4, hazards=6), "roll_cage")
    g = run_step(table(car), wipeouts("car"), dice=[1])
    d = g.pending()
    assert d is not None and d.kind == "roll_cage"
    play(g, pick)
    assert car.damage == damage
    assert ev(g, "flip")[0]["hits"] == damage
    chose = [table_event_text(g, e) for e in g.log.events if e.kind == "decision"][-1]
    assert ("chose to use the Roll Cage and ignore the Flip's hits (p.85)" if pick == "yes"
            else "chose to take the Flip's hits (p.85)") in chose


def test_buggy_roll_cage_is_asked_once_though_it_is_a_rule_and_a_built_in_upgrade() -> None:
    bug = built("buggy")
    assert "roll_cage" in bug.special_rules and "roll_cage" in bug.upgrades
    bug.gear, bug.hazards = 4, 6
    g = run_step(table(bug), wipeouts("v"), dice=[1])
    asked = []
    while (d := g.pending()) is not None:
        asked.append(d.kind)
        g.apply(values(d)[0] if d.options else 0.0)
    assert asked.count("roll_cage") == 1


# -- Improvised Sludge Thrower (p.84) ---------------------------------------------------------
def sludge_table(sludge: bool) -> tuple[Game, VehicleState]:
    """A rear-facing Napalm Dropper on ``v``; an enemy lies across its path, 95 mm ahead."""
    v = vehicle("v", "car", 600, 300, heading=90, weapons=[("napalm_dropper", "rear")])
    v.weapons[0].ammo = 1
    if sludge:
        fit(v, "improvised_sludge_thrower")
    foe = vehicle("foe", "car", 600, 440, heading=0, player=1)
    return run_step(table(v, foe), on("v", _attack_step), dice=[1] * 20), v


def test_sludge_thrower_drops_a_burst_anywhere_within_medium_range() -> None:
    g, _ = sludge_table(True)
    play(g, "drop:napalm_dropper#0")
    d = g.pending()
    assert d is not None and d.kind == "sludge_bearing" and d.page == 84
    assert d.domain is not None and (d.domain.low, d.domain.high) == (-180.0, 180.0)
    play(g, 0.0)  # straight ahead, out of the rear arc
    d = g.pending()
    assert d is not None and d.kind == "sludge_gap" and d.domain is not None
    assert d.domain.high == 120.0  # Medium range
    play(g, 50.0, 0.0)
    laid = ev(g, "dropped_template")[0]
    # Its tip 50 mm beyond the front edge (y = 330), pointing straight ahead.
    assert (laid["x"], laid["y"], laid["heading"]) == pytest.approx((600, 380, 90))
    assert ev(g, "dropped_effect")[0]["vehicle"] == "foe"  # the burst landed on it


def test_without_sludge_thrower_a_dropped_burst_goes_off_its_own_arc() -> None:
    g, _ = sludge_table(False)
    play(g, "drop:napalm_dropper#0")
    d = g.pending()  # the rear edge is the only one offered (a forced choice), then where
    assert d is not None and d.kind == "drop_offset" and "rear edge" in d.prompt
    assert ev(g, "forced_choice")[-1]["choice"] == "rear"


def test_wrecking_ball_collisions_get_no_help_from_rams() -> None:
    from carnage.games.refuelled.engine.collision import resolve_collision

    a, b = t_bone()
    fit(a, "ram", "front")
    fit(a, "exploding_ram", "front", ammo=1)

    def swing(g: Game) -> Flow:
        yield from resolve_collision(g, a, "b", orientation="t_bone", cause="wrecking_ball")

    g = run_step(table(a, b), swing, dice=[1] * 10)
    play(g, "smash", "evade")
    assert ev(g, "smash_attack")[0]["dice"] == 2  # no Ram, no Exploding Ram (p.75)
    assert a.hazards == 2 and a.fitted[1].ammo == 1 and not ev(g, "exploding_ram")


def test_upgrade_facings_and_ammo_come_from_the_team_file() -> None:
    v = built("truck", UpgradeSpec(id="ram", facing="rear"),
              UpgradeSpec(id="exploding_ram", facing="side"), "nitro_booster")
    fitted = {(m.upgrade, m.facing, m.ammo) for m in v.fitted}
    assert fitted == {("ram", "rear", None), ("exploding_ram", "side", 1),
                      ("nitro_booster", None, 1)}


def test_at_a_real_table_a_teleport_is_put_down_by_the_people() -> None:
    # A Hazard (a 1): the next player puts it down within Long at a real table (p.83, CP-19):
    # no bearing or distance asked, only whether there was anywhere to put it ("yes" first).
    for room, moved in (("yes", True), ("no", False)):
        v = fit(vehicle("v", "car", 600, 600, heading=90), "experimental_teleporter")
        g = run_step(table(v), on("v", activation), dice=[HAZARD],
                     options=RuleOptions(physical=True))
        play(g, "yes")
        d = g.pending()
        assert d is not None and d.kind == "table:teleport_room" and d.page == 83
        assert d.player == 1 and values(d) == ["yes", "no"] and "180 mm" in d.prompt  # Long
        play(g, room)
        assert ev(g, "teleport")[0]["moved"] is moved and ev(g, "teleport")[0]["chooser"] == 1
        assert v.hazards == 3
        d = g.pending()  # then its Movement Step, from where the people put it
        assert d is not None and d.kind != "teleport_place"


def test_at_a_real_table_a_sludge_thrown_burst_lies_over_whom_the_people_say() -> None:
    # The foe stands far off on the virtual table; at a real table the Napalm burst is laid
    # within Medium as the controller likes (no bearing, gap or turn asked; p.84, CP-19) and
    # the people say it overlaps the foe: the template affects it.
    v = vehicle("v", "car", 600, 300, heading=90, weapons=[("napalm_dropper", "rear")])
    v.weapons[0].ammo = 1
    fit(v, "improvised_sludge_thrower")
    foe = vehicle("foe", "car", 100, 1000, heading=0, player=1)
    g = run_step(table(v, foe), on("v", _attack_step), dice=[1] * 20,
                 options=RuleOptions(physical=True))
    while (d := g.pending()) is not None and d.kind != "attack":
        play(g, "none")  # touching nothing, the handgun reaching nobody
    play(g, "drop:napalm_dropper#0")
    d = g.pending()
    assert d is not None and d.kind == "table:under_template" and values(d) == ["none", "foe"]
    play(g, "foe", "none")
    assert ev(g, "dropped_effect")[0]["vehicle"] == "foe"
    assert not any(e.kind == "decision" and str(e.data["decision"]).startswith("sludge_")
                   for e in g.log)
