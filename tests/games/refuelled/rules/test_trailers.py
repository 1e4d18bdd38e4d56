"""Trailers and trailer cargo in play (Refuelled pp.102-103): exact tables, scripted dice, each
rule with and without its cargo so that the test fails if the rule is removed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.builders import (
    collide,
    ev,
    fit,
    noop,
    on,
    play,
    rock,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.combat import roll_evade
from carnage.games.refuelled.engine.damage import ammo_tokens, suffer_damage
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import movement_step
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.engine.state import Status, UpgradeMount, VehicleState
from carnage.games.refuelled.setup import vehicle_state
from carnage.geometry.shapes import Pose
from carnage.team import TeamSpec, check_team
from carnage.team.model import UpgradeSpec, VehicleSpec

SHIFT, HAZARD = 4, 1  # skid faces on a D6 (ruling R-1)


# -- trailers (p.102) and Stowage (p.103) ------------------------------------------------------
def rusty_car(*upgrades: str) -> VehicleState:
    sponsor = "rustys_bootleggers" if upgrades else None
    spec = TeamSpec(name="t", cans=50, sponsor=sponsor, vehicles=(
        VehicleSpec(name="v", type="car", upgrades=tuple(UpgradeSpec(id=u) for u in upgrades)),))
    report = check_team(spec)
    assert report.valid, [e.message for e in report.errors]
    return vehicle_state(report.vehicles[0], vid="v", player=0, pose=Pose(600, 300, 90))


def test_a_trailer_brings_articulated_ponderous_piledriver_and_stowage() -> None:
    v = rusty_car("trailer_middleweight", "peach_moonshine")
    assert {"articulated", "ponderous", "piledriver"} <= set(v.special_rules)
    report = check_team(TeamSpec(name="t", cans=50, sponsor="rustys_bootleggers", vehicles=(
        VehicleSpec(name="v", type="car", upgrades=(UpgradeSpec(id="trailer_middleweight"),)),)))
    assert report.vehicles[0].slots == 3  # a Car's 2 build slots + 1 for Stowage
    g = run_step(table(v), noop)
    assert v.trailer is not None  # the vehicle tows a body of its own on the table
    assert not [r for r in unplayed_rules(g) if "trailer" in r or "stowage" in r]


@pytest.mark.parametrize("towing, hazards", [(False, 0), (True, 1)])
def test_a_towing_car_gains_a_hazard_off_a_straight(towing: bool, hazards: int) -> None:
    v = rusty_car("trailer_middleweight") if towing else rusty_car()
    v.gear = 1
    g = run_step(table(v), on("v", movement_step))
    play(g, "turn", 0, "done")  # a trivial Turn in gear 1
    assert v.hazards == hazards


# -- Peach Moonshine ---------------------------------------------------------------------------
def molotov_car(moonshine: bool) -> VehicleState:
    v = vehicle("v", "car", 600, 300, heading=90, weapons=[("molotov_cocktails", None)])
    v.weapons[0].ammo = 0  # every token already thrown
    return fit(v, "peach_moonshine") if moonshine else v


def test_peach_moonshine_molotovs_never_run_out() -> None:
    plain, brewed = molotov_car(False), molotov_car(True)
    g = run_step(table(plain, brewed), noop)
    assert plain.weapons[0].ammo == 0
    assert brewed.weapons[0].ammo is None  # no token to spend, none to run out of
    from carnage.games.refuelled.engine.attack import legal_shots

    target = vehicle("t", "car", 600, 400, heading=90, player=1)
    g = run_step(table(brewed, target), noop)
    assert any(s.weapon == "molotov_cocktails" for s in legal_shots(g, brewed))
    g2 = run_step(table(molotov_car(False), vehicle("t", "car", 600, 400, player=1)), noop)
    assert not any(s.weapon == "molotov_cocktails"
                   for s in legal_shots(g2, g2.state.vehicles["v"]))


@pytest.mark.parametrize("moonshine", [False, True])
def test_peach_moonshine_endless_ammo_always_explodes(moonshine: bool) -> None:
    v = molotov_car(moonshine)

    def wreck_it(g: Game) -> Flow:
        yield from suffer_damage(g, v, 10, source="test", page=43)

    g = run_step(table(v), wreck_it, dice=[1])  # explosion check 1, no ammo tokens counted
    assert ammo_tokens(g, v) == 0
    assert ev(g, "explosion_check")[0]["explodes"] is moonshine
    assert v.status is (Status.REMOVED if moonshine else Status.WRECKED)


# -- Sourmash Jet Booster ----------------------------------------------------------------------
@pytest.mark.parametrize("hazards, boosted", [(4, False), (5, True)])
def test_sourmash_jet_booster_fires_on_five_hazards_at_the_end_of_the_move(
        hazards: int, boosted: bool) -> None:
    for has_cargo in (False, True):
        v = vehicle("v", "car", 600, 300, heading=90, gear=2, hazards=hazards)
        if has_cargo:
            fit(v, "sourmash_jet_booster")
        g = run_step(table(v), on("v", activation))
        play(g, "short_straight", 0)  # permitted in gear 2: 60 mm + the car's 60 mm
        fires = boosted and has_cargo
        assert len(ev(g, "sourmash")) == int(fires)
        assert v.pose.y == pytest.approx(420 + (240 if fires else 0))
        if fires:
            assert ev(g, "forced_move")[0]["template"] == "long_straight"


def test_sourmash_follows_a_nitro_top_up() -> None:
    v = vehicle("v", "car", 600, 300, heading=90, gear=2)
    fit(v, "sourmash_jet_booster")
    v.upgrades.append("nitro_booster")
    v.fitted.append(UpgradeMount("nitro_booster#1", "nitro_booster", None, 1))
    g = run_step(table(v, width=1200, height=1600), on("v", activation))
    play(g, "yes", "short_straight", 0)
    kinds = [e.kind for e in g.log if e.kind in ("nitro", "sourmash")]
    assert kinds == ["nitro", "sourmash"]  # nitro's end top-up to 5 sets off the Sourmash


# -- Siphon Pump -------------------------------------------------------------------------------
def siphon_table(pump: bool, *, distracted: bool = False) -> tuple[Game, VehicleState]:
    """``v`` ends its move at y = 420 beside ``near`` (a foe) and ``ally``, 20 mm off each;
    ``far`` is out of range. With ``distracted`` a rock touches its front instead, and its
    Attack Step starts where it stands."""
    v = vehicle("v", "car", 600, 300, heading=90, gear=2)
    if pump:
        fit(v, "siphon_pump")
    near = vehicle("near", "car", 650, 420, heading=90, player=1, hazards=3)
    ally = vehicle("ally", "car", 550, 420, heading=90, player=0, hazards=1)
    far = vehicle("far", "car", 900, 900, heading=90, player=1, hazards=4)
    if distracted:
        v.pose = Pose(600, 420, 90)
        st = table(v, near, ally, far, obstacles=[rock("rock", 600, 460, length=20, width=20)])
        return run_step(st, attack_part("v")), v
    g = run_step(table(v, near, ally, far), on("v", activation))
    play(g, "short_straight", 0)
    return g, v


def attack_part(vid: str) -> Callable[[Game], Flow]:
    """The Attack Step as the activation runs it: its ``attack_start`` flows, then the step."""

    def step(g: Game) -> Flow:
        from carnage.games.refuelled.engine.attack import attack_step
        from carnage.kernel.effects import run_flows

        v = g.state.vehicles[vid]
        yield from run_flows(g, "attack_start", {"game": g, "vehicle": v})
        yield from attack_step(g, v)

    return step


def test_siphon_pump_takes_one_hazard_from_each_vehicle_in_short_range() -> None:
    g, v = siphon_table(True)
    d = g.pending()
    assert d is not None and d.kind == "siphon_pump"
    assert values(d) == ["done", "near", "ally"]
    play(g, "near")
    d = g.pending()
    assert d is not None and values(d) == ["done", "ally"]  # at most one from each
    play(g, "ally")
    st = g.state.vehicles
    assert (st["near"].hazards, st["ally"].hazards, st["far"].hazards) == (2, 0, 4)
    assert v.hazards == 2
    assert [e["source_vehicle"] for e in ev(g, "siphon")] == ["near", "ally"]


def test_siphon_pump_works_while_distracted_and_not_without_the_pump() -> None:
    g, _ = siphon_table(True, distracted=True)
    d = g.pending()
    assert d is not None and d.kind == "siphon_pump"
    play(g, "done")
    assert ev(g, "distracted")
    g2, _ = siphon_table(False)
    d2 = g2.pending()
    assert d2 is None or d2.kind != "siphon_pump"
    assert not ev(g2, "siphon")


# -- Old Fashioned Corn Liquor -----------------------------------------------------------------
def test_corn_liquor_adds_a_hazard_to_vehicles_in_medium_range() -> None:
    still = fit(vehicle("still", "car", 600, 300), "old_fashioned_corn_liquor")
    near = vehicle("near", "car", 700, 300, player=1)  # 70 mm gap: Medium range
    far = vehicle("far", "car", 900, 300, player=1)  # 270 mm gap
    plain = vehicle("plain", "car", 600, 800)

    def gain(g: Game) -> Flow:
        for v in (still, near, far):
            g.add_hazards(v, 2, "test", None)
        yield from ()

    g = run_step(table(still, near, far, plain), gain)
    assert (still.hazards, near.hazards, far.hazards) == (2, 3, 2)
    assert ev(g, "corn_liquor") == [{"vehicle": "near", "liquor": "still"}]
    g2 = run_step(table(vehicle("near", "car", 700, 300), plain), lambda g: iter(()))
    g2.add_hazards(g2.state.vehicles["near"], 2, "test", None)
    assert g2.state.vehicles["near"].hazards == 2


def test_corn_liquor_counts_hazards_from_skid_dice() -> None:
    still = fit(vehicle("still", "car", 800, 300, player=1), "old_fashioned_corn_liquor")
    v = vehicle("v", "car", 700, 300, heading=90, gear=2)
    g = run_step(table(v, still), on("v", movement_step), dice=[HAZARD])
    play(g, "short_straight", 1, "no")  # one Hazard result: gains 1, +1 for the liquor
    assert v.hazards == 2
    assert ev(g, "corn_liquor") == [{"vehicle": "v", "liquor": "still"}]


# -- Cattle-Hammer -----------------------------------------------------------------------------
@pytest.mark.parametrize("hammer", [False, True])
def test_cattle_hammer_never_flips_in_a_wipeout(hammer: bool) -> None:
    v = vehicle("v", "car", 600, 300, heading=90, gear=4, hazards=6)
    if hammer:
        fit(v, "cattle_hammer")
    st = table(v)
    st.step = "wipeout"
    g = run_step(st, wipeouts("v"), dice=[1])
    assert ev(g, "flip_check")[0]["flipped"] is not hammer
    assert v.damage == (0 if hammer else 2)


def t_bone(hammer: bool) -> tuple[VehicleState, VehicleState]:
    a = vehicle("a", "car", 600, 555, heading=90, gear=1)
    b = vehicle("b", "car", 600, 600, heading=0, player=1, gear=1)
    if hammer:
        fit(a, "cattle_hammer")
    return a, b


def test_cattle_hammer_picks_its_gear_for_a_collision_in_the_wipeout_step() -> None:
    a, b = t_bone(True)
    st = table(a, b)
    st.step = "wipeout"
    g = run_step(st, collide("a", "b"), dice=[1] * 10)
    d = g.pending()
    assert d is not None and d.kind == "cattle_hammer" and values(d) == [1, 2, 3, 4, 5]
    play(g, 5, "smash", "smash")
    assert ev(g, "collision")[0]["gears"] == {"a": 5, "b": 1}
    smash = {s["attacker"]: s["dice"] for s in ev(g, "smash_attack")}
    assert smash == {"a": 5, "b": 1}  # T-bone: own gear
    assert a.gear == 1  # the real gear is unchanged


def test_cattle_hammer_outside_a_wipeout_step_or_without_the_cargo() -> None:
    for hammer, step in ((True, "movement"), (False, "wipeout")):
        a, b = t_bone(hammer)
        st = table(a, b)
        st.step = step
        g = run_step(st, collide("a", "b"), dice=[1] * 10)
        d = g.pending()
        assert d is not None and d.kind == "collision_reaction"


def test_cattle_hammer_evades_with_its_max_gear_in_a_wipeout_step() -> None:
    for hammer, n in ((True, 5), (False, 1)):
        v = vehicle("v", "car", 600, 300, gear=1)
        if hammer:
            fit(v, "cattle_hammer")
        st = table(v)
        st.step = "wipeout"
        g = run_step(st, evade_of("v"), dice=[1] * n)
        assert [len(r["dice"]) for r in ev(g, "roll")] == [n]


def evade_of(vid: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        roll_evade(g, g.state.vehicles[vid], 3, source="test", page=33)
        yield from ()

    return step


def test_at_a_real_table_the_siphon_pump_takes_from_whom_the_people_say_is_near() -> None:
    # On the virtual table "near" and "ally" are 20 mm off and "far" is out of range; the
    # people say only "far" is within Short (ruling CP-18): it is the only one offered.
    v = fit(vehicle("v", "car", 600, 420, heading=90, gear=2), "siphon_pump")
    near = vehicle("near", "car", 650, 420, heading=90, player=1, hazards=3)
    ally = vehicle("ally", "car", 550, 420, heading=90, player=0, hazards=1)
    far = vehicle("far", "car", 900, 900, heading=90, player=1, hazards=4)
    none = vehicle("calm", "car", 100, 100, heading=90, player=1)  # no Hazard: never asked
    g = run_step(table(v, near, ally, far, none), attack_part("v"),
                 options=RuleOptions(physical=True))
    d = g.pending()
    assert d is not None and d.kind == "table:within_short" and d.page == 103
    assert values(d) == ["none", "near", "ally", "far"]
    play(g, "far", "none")
    d = g.pending()
    assert d is not None and d.kind == "siphon_pump" and values(d) == ["done", "far"]
    play(g, "far")
    assert (far.hazards, near.hazards, v.hazards) == (3, 3, 1)


def test_at_a_real_table_corn_liquor_adds_to_whom_the_people_last_said_is_near() -> None:
    # Both far off on the virtual table. After deployment the still's controller names "near"
    # within Medium; "far" is asked again after its forced move and said to be near now: each
    # gains one Hazard more when it gains any (p.103, CP-18).
    still = fit(vehicle("still", "car", 600, 300), "old_fashioned_corn_liquor")
    near = vehicle("near", "car", 100, 1000, player=1)
    far = vehicle("far", "car", 1000, 1000, player=1)

    def step(g: Game) -> Flow:
        from carnage.games.refuelled.engine.movement import forced_move
        from carnage.kernel.effects import run_flows

        yield from run_flows(g, "game_start", {"game": g})
        for v in (near, far):
            g.add_hazards(v, 1, "test", None)
        yield from forced_move(g, far, "short_straight", source="test", page=39)
        g.add_hazards(far, 1, "test", None)

    g = run_step(table(still, near, far), step, options=RuleOptions(physical=True))
    d = g.pending()
    assert d is not None and d.kind == "table:within_medium" and d.player == 0
    assert d.page == 103 and values(d) == ["none", "near", "far"]
    play(g, "near", "none")
    assert (near.hazards, far.hazards) == (2, 1)
    play(g, "none", "no")  # the forced move touched nothing and was not interrupted
    d = g.pending()
    assert d is not None and d.kind == "table:within_medium" and d.player == 1
    assert d.target == "still" and values(d) == ["no", "yes"]
    play(g, "yes", "no")  # near now; the template stayed on the table
    assert g.pending() is None and far.hazards == 1 + 2
