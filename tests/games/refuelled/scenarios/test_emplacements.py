"""Emplacements (gun turrets p.130, rocket turrets p.146) and toxic clouds (p.146): scripted
dice and exact poses through the real flow."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tests.builders import StepScenario, armed, attack, ev, play, table, values, vehicle

from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.hazards_on_table import lay
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.scenarios.clouds import install_clouds, lay_cloud
from carnage.games.refuelled.scenarios.emplacements import (
    GUN_TURRET,
    ROCKET_TURRET,
    TurretKind,
    install_emplacements,
    turret_obstacle,
    turrets,
)
from carnage.geometry.shapes import Point, Pose
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


class Rig(StepScenario):
    """One step as the whole game, with the turrets' and clouds' rules attached."""

    def install(self, game: Game) -> None:
        install_emplacements(game)
        install_clouds(game)


def rig(state: GameState, step: Callable[[Game], Flow], dice: Iterable[int] = (), *,
        guns: Iterable[tuple[TurretKind, Point]] = (),
        clouds: Iterable[tuple[Point, float]] = (), physical: bool = False) -> Game:
    for i, (kind, at) in enumerate(guns, start=1):
        ob = turret_obstacle(kind, i, at)
        state.obstacles[ob.id] = ob

    def run(g: Game) -> Flow:
        for centre, heading in clouds:
            lay_cloud(g, centre, heading, player=None)
        yield from step(g)

    return Game(ruleset=REFUELLED, state=state, scenario=Rig(run), dice=ScriptedDice(list(dice)),
                options=RuleOptions(physical=physical))


def ahead(g: Game, template: str = "short_straight") -> None:
    """Answer a Movement Step: ``template`` ahead, no skid dice, no Shift spent."""
    play(g, template)
    for _ in range(3):
        d = g.pending()
        if d is None or d.kind not in ("skid_dice", "spend_shift"):
            return
        g.apply(0 if d.kind == "skid_dice" else "done")


def stop(g: Game) -> None:
    """Make no (more) attacks, if asked."""
    d = g.pending()
    if d is not None and d.kind == "attack":
        g.apply("stop")


def airborne(v: VehicleState) -> VehicleState:
    v.special_rules = ["airborne"]
    return v


# -- gun turrets (p.130) -----------------------------------------------------------------------
def test_a_gun_turret_shoots_the_first_vehicle_ending_its_move_within_medium_once_a_phase(
) -> None:
    a = vehicle("a", "car", 600, 400, 90)  # ends 35 mm short of the turret
    b = vehicle("b", "car", 700, 400, 90, player=1)  # ends about 78 mm from it

    def step(g: Game) -> Flow:
        g.state.round, g.state.gear_phase = 1, 1
        yield from activation(g, g.state.vehicles["a"])
        yield from activation(g, g.state.vehicles["b"])
        g.state.gear_phase = 2
        yield from activation(g, g.state.vehicles["b"])

    # Phase 1: 2D6 at a (6, 4: 3 hits), a evades with 1 die (1). b: nothing.
    # Phase 2: 2D6 at b (5, 1: 1 hit), b evades (2).
    g = rig(table(a, b), step, [6, 4, 1, 5, 1, 2], guns=[(GUN_TURRET, (600.0, 600.0))])
    ahead(g)
    stop(g)
    ahead(g)
    stop(g)
    ahead(g, "short_straight")
    stop(g)
    shots = ev(g, "turret_attack")
    assert [(s["target"], s["dice"], s["cover"]) for s in shots] == [("a", 2, False),
                                                                    ("b", 2, False)]
    assert (a.damage, b.damage) == (3, 1)
    assert g.state.scenario["turrets_fired"] == {"gun_turret:1": [1, 2]}


def test_a_gun_turret_waits_for_a_vehicle_it_can_see() -> None:
    # A Tall wall hides a from the turret: the turret keeps its shot for b.
    from tests.builders import rock

    a = vehicle("a", "car", 600, 400, 90)  # ends 75 mm south of the turret, behind the wall
    b = vehicle("b", "car", 600, 860, 270, player=1)  # ends 55 mm north of it, in the open
    wall = rock("wall", 600, 592, length=120, width=15, tall=True)

    def step(g: Game) -> Flow:
        g.state.round, g.state.gear_phase = 1, 1
        yield from activation(g, g.state.vehicles["a"])
        yield from activation(g, g.state.vehicles["b"])

    g = rig(table(a, b, obstacles=[wall]), step, [6, 6, 1],
            guns=[(GUN_TURRET, (600.0, 640.0))])
    ahead(g)
    stop(g)
    ahead(g)
    stop(g)
    assert [s["target"] for s in ev(g, "turret_attack")] == ["b"]
    assert (a.damage, b.damage) == (0, 4)


def test_a_gun_turret_does_not_shoot_beyond_medium() -> None:
    a = vehicle("a", "car", 600, 240, 90)  # ends 165 mm from it

    def step(g: Game) -> Flow:
        g.state.round, g.state.gear_phase = 1, 1
        yield from activation(g, g.state.vehicles["a"])

    g = rig(table(a), step, [], guns=[(GUN_TURRET, (600.0, 600.0))])
    ahead(g)
    stop(g)
    assert ev(g, "turret_attack") == []


def test_a_gun_turret_has_four_hull_points_against_shooting_and_never_evades() -> None:
    a = armed(vehicle("a", "car", 600, 500, 90), ("machine_gun", "front", None))
    g = rig(table(a), attack("a"), [6, 4, 6, 6], guns=[(GUN_TURRET, (600.0, 600.0))])
    d = g.pending()
    assert d is not None and "machine_gun#0>gun_turret:1" in values(d)
    assert "handgun>gun_turret:1" in values(d)
    play(g, "machine_gun#0>gun_turret:1")  # 6, 4: 3 hits, no evade roll
    assert ev(g, "obstacle_damage") == [{"obstacle": "gun_turret:1", "amount": 3,
                                         "hull_points": 1}]
    play(g, "handgun>gun_turret:1")  # 6, 6 would be 4 hits; the handgun rolls 1 die: 6
    assert ev(g, "turret_wrecked") == [{"obstacle": "gun_turret:1", "turret": "gun_turret",
                                        "player": 0, "how": "gun_turret"}]
    assert not turrets(g) and ev(g, "explosion") == []


def test_at_a_real_table_a_weapon_shoots_the_turrets_the_people_say_it_reaches() -> None:
    # A metre from the turret on the virtual table; the people say the machine gun reaches it,
    # in cover: 2 dice hit on 5+ (p.42): 6 (two hits), 4 (a miss in cover). No evade roll.
    a = armed(vehicle("a", "car", 100, 100, 90), ("machine_gun", "front", None))
    g = rig(table(a), attack("a"), [6, 4], guns=[(GUN_TURRET, (600.0, 1100.0))],
            physical=True)
    play(g, "none")  # touching nothing: not Distracted
    d = g.pending()
    assert d is not None and d.kind == "table:turret_in_reach" and d.weapon == "handgun"
    assert d.page == 130 and values(d) == ["none", "gun_turret:1", "gun_turret:1@cover"]
    assert [o.label for o in d.options][1:] == ["Gun Turret 1", "Gun Turret 1, in cover"]
    play(g, "none")  # the Handgun reaches no turret
    d = g.pending()
    assert d is not None and d.kind == "table:turret_in_reach" and d.weapon == "machine_gun#0"
    play(g, "gun_turret:1@cover")
    d = g.pending()
    assert d is not None and values(d) == ["stop", "machine_gun#0>gun_turret:1"]
    assert d.options[1].label == "Machine Gun at Gun Turret 1 [cover]"
    play(g, "machine_gun#0>gun_turret:1")
    assert ev(g, "obstacle_damage") == [{"obstacle": "gun_turret:1", "amount": 2,
                                         "hull_points": 2}]


# -- rocket turrets (p.146) --------------------------------------------------------------------
def test_a_rocket_turret_is_camouflaged_beyond_medium() -> None:
    far = armed(vehicle("a", "car", 600, 430, 90), ("machine_gun", "front", None))  # 125 mm
    g = rig(table(far), attack("a"), [], guns=[(ROCKET_TURRET, (600.0, 600.0))])
    d = g.pending()
    assert d is None or not any(str(v).endswith("rocket_turret:1") for v in values(d))
    near = armed(vehicle("a", "car", 600, 470, 90), ("machine_gun", "front", None))  # 85 mm
    g = rig(table(near), attack("a"), [], guns=[(ROCKET_TURRET, (600.0, 600.0))])
    assert "machine_gun#0>rocket_turret:1" in values(g.pending())


def test_a_rocket_turret_evades_as_gear_6_and_explodes_when_wrecked() -> None:
    a = armed(vehicle("a", "car", 600, 500, 90),
              ("machine_gun", "front", None), ("heavy_machine_gun", "front", None))
    a.crew = 2
    other = vehicle("b", "car", 660, 600, 90, player=1)  # 30 mm from the turret
    ok = rig(table(a, other), attack("a"), [
        6, 6,               # machine gun: 4 hits
        6, 1, 1, 1, 1, 1,   # 6 evade dice: 1 cancelled -> 3 damage
        6, 6, 6,            # heavy machine gun: 6 hits
        1, 1, 1, 1, 1, 6,   # evade: 1 cancelled -> 5 more: 8 >= 7, wrecked
        1, 1, 1, 1,         # explosion: 4 dice at b, nearest (no hits)
        4, 4, 1, 1,         # then at a (2 hits)
        1,                  # a evades (gear 1)
    ], guns=[(ROCKET_TURRET, (600.0, 600.0))])
    play(ok, "machine_gun#0>rocket_turret:1")
    assert ev(ok, "evade", obstacle="rocket_turret:1")[0]["cancelled"] == 1
    assert ok.state.obstacles["rocket_turret:1"].damage == 3
    play(ok, "heavy_machine_gun#1>rocket_turret:1")
    assert ev(ok, "turret_wrecked")[0]["player"] == 0
    (boom,) = ev(ok, "explosion")
    assert boom["origin"] == "rocket_turret:1" and boom["dice"] == 4
    assert boom["targets"] == ["b", "a"]
    assert a.damage == 2 and other.damage == 0


def test_rocket_turrets_shoot_the_active_vehicle_at_the_start_of_its_wipeout_step() -> None:
    a = vehicle("a", "car", 600, 300, 90)  # ends its move about 165 mm away: Long
    far = vehicle("far", "car", 100, 100, 90, player=1)

    def step(g: Game) -> Flow:
        g.state.round, g.state.gear_phase = 1, 1
        yield from activation(g, g.state.vehicles["a"])
        yield from activation(g, g.state.vehicles["far"])

    # 6D6 at a: 6, 5, 4, 1, 1, 1 = 4 hits; a evades: 1.
    g = rig(table(a, far), step, [6, 5, 4, 1, 1, 1, 1],
            guns=[(ROCKET_TURRET, (600.0, 600.0)), (ROCKET_TURRET, (1000.0, 1100.0))])
    ahead(g, "short_straight")
    stop(g)
    ahead(g, "short_straight")
    stop(g)
    shots = ev(g, "turret_attack")
    assert [(s["obstacle"], s["target"], s["dice"]) for s in shots] == [
        ("rocket_turret:1", "a", 6)]
    assert a.damage == 4 and far.damage == 0


def test_a_dropped_mine_over_a_rocket_turret_attacks_it_and_goes() -> None:
    a = armed(vehicle("a", "car", 600, 650, 90), ("mine_dropper", "rear", 3))
    # The mine's small burst runs 80 mm back from a's rear edge (y 620) over the turret at 570.
    g = rig(table(a), attack("a"), [6, 6, 5, 1, 1, 1, 1, 1, 1, 1],
            guns=[(ROCKET_TURRET, (600.0, 570.0))])
    play(g, "drop:mine_dropper#0", 0.0)
    assert ev(g, "dropped_template_removed") == [{"template": "mine_dropper:1",
                                                  "reason": "attacked rocket_turret:1"}]
    assert g.state.obstacles["rocket_turret:1"].damage == 5
    assert not g.state.dropped


def test_a_turret_cleared_away_in_a_collision_is_wrecked_and_a_rocket_turret_explodes(
) -> None:
    from carnage.games.refuelled.engine.collision import resolve_collision

    a = vehicle("a", "car", 600, 555, 90)  # front edge touching the turret

    def step(g: Game) -> Flow:
        g.state.active = "a"
        yield from resolve_collision(g, g.state.vehicles["a"], "rocket_turret:1")

    g = rig(table(a), step, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            guns=[(ROCKET_TURRET, (600.0, 600.0))])
    while (d := g.pending()) is not None:
        g.apply("evade" if "evade" in values(d) else values(d)[0])
    assert not turrets(g)
    (wrecked,) = ev(g, "turret_wrecked")
    assert (wrecked["how"], wrecked["player"]) == ("collision", 0)
    assert ev(g, "explosion")[0]["origin"] == "rocket_turret:1"


# -- toxic clouds (p.146) ----------------------------------------------------------------------
def test_a_toxic_cloud_blocks_line_of_fire_like_tall_terrain_even_for_aircraft() -> None:
    a = airborne(vehicle("a", "gyrocopter", 600, 300, 90))
    b = vehicle("b", "car", 600, 460, 90, player=1)  # 100 mm apart
    clear = rig(table(a, b), attack("a"), [1])
    assert "handgun>b" in values(clear.pending())
    a2 = airborne(vehicle("a", "gyrocopter", 600, 300, 90))
    b2 = vehicle("b", "car", 600, 460, 90, player=1)
    # A cloud across the whole gap, side to side.
    cloudy = rig(table(a2, b2), attack("a"), [], clouds=[((560.0, 380.0), 0.0)])
    assert cloudy.pending() is None or "handgun>b" not in values(cloudy.pending())


def test_a_toxic_cloud_blocks_a_turret_shot() -> None:
    a = vehicle("a", "car", 600, 300, 90)

    def step(g: Game) -> Flow:
        g.state.round, g.state.gear_phase = 1, 1
        yield from activation(g, g.state.vehicles["a"])

    g = rig(table(a), step, [], guns=[(ROCKET_TURRET, (600.0, 600.0))],
            clouds=[((560.0, 515.0), 0.0)])
    ahead(g)
    stop(g)
    assert ev(g, "turret_attack") == []


def test_touching_a_toxic_cloud_distracts_even_an_aircraft() -> None:
    a = airborne(vehicle("a", "gyrocopter", 600, 300, 90))
    b = vehicle("b", "car", 600, 460, 90, player=1)
    # The cloud's widest part overlaps a's left edge (x 585) by 2 mm, not between them.
    g = rig(table(a, b), attack("a"), [], clouds=[((552.0, 260.0), 90.0)])
    assert ev(g, "distracted") and g.pending() is None


def test_a_move_touching_a_toxic_cloud_gains_two_hazards_even_flying() -> None:
    for vtype, rules in (("car", []), ("gyrocopter", ["airborne"])):
        v = vehicle("v", vtype, 600, 300, 90)
        v.special_rules = list(rules)

        def step(g: Game) -> Flow:
            g.state.round, g.state.gear_phase = 1, 1
            yield from activation(g, g.state.vehicles["v"])

        g = rig(table(v), step, [], clouds=[((600.0, 440.0), 90.0)])  # across the path
        ahead(g)
        assert ev(g, "hazards", source="toxic_cloud") == [
            {"vehicle": "v", "change": 2, "hazards": 2}], vtype


def test_smoke_is_still_ignored_by_aircraft_but_clouds_are_not() -> None:
    a = airborne(vehicle("a", "gyrocopter", 600, 300, 90))
    b = vehicle("b", "car", 600, 460, 90, player=1)

    def step(g: Game) -> Flow:
        lay(g, "smoke_dropper", "large_burst", Pose(600, 330, 90), placed_by=None,
            player=None, source="test", page=80)
        yield from attack_step(g, g.state.vehicles["a"])

    g = rig(table(a, b), step, [1])
    assert ev(g, "distracted") == [] and g.pending() is not None
    assert a.status is Status.ACTIVE


def test_a_cannon_fired_at_a_turret_still_costs_a_car_its_hazards() -> None:
    a = armed(vehicle("a", "car", 600, 500, 90), ("125mm_cannon", "front", 3))
    g = rig(table(a), attack("a"), [1, 1, 1, 1, 1, 1, 1, 1],
            guns=[(GUN_TURRET, (600.0, 600.0))])
    play(g, "125mm_cannon#0>gun_turret:1")
    assert ev(g, "hazards", source="125mm_cannon") == [
        {"vehicle": "a", "change": 2, "hazards": 2}]
    assert a.weapons[0].ammo == 2


def test_turret_threat_counts_the_dice_a_pose_would_draw() -> None:
    from carnage.games.refuelled.scenarios.emplacements import turret_threat

    a = vehicle("a", "car", 100, 100, 90)
    g = rig(table(a), attack("a"), [], guns=[(GUN_TURRET, (600.0, 600.0)),
                                             (ROCKET_TURRET, (850.0, 600.0))])
    assert turret_threat(g, a, Pose(100, 100, 90)) == 0  # far from both
    assert turret_threat(g, a, Pose(600, 520, 90)) == 2  # the gun turret only (35 mm)
    assert turret_threat(g, a, Pose(760, 520, 90)) == 6  # the rocket turret only
    assert turret_threat(g, a, Pose(690, 520, 90)) == 8  # both
    g.state.round, g.state.gear_phase = 1, 1
    g.state.scenario["turrets_fired"] = {"gun_turret:1": [1, 1]}  # it has fired this phase
    assert turret_threat(g, a, Pose(690, 520, 90)) == 6
    assert a.pose == Pose(100, 100, 90)  # the vehicle itself is not moved
