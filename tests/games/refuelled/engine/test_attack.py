"""The Attack Step (Refuelled pp.27-33, 42, 81): declarations, arcs, cover, dice, evades."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.builders import (
    BLUE,
    RED,
    StepScenario,
    armed,
    attack_game,
    logged,
    play,
    rock,
    rolls,
    table,
    values,
    vehicle,
    wound,
)

from carnage.games.refuelled.engine.attack import HANDGUN, STOP, Sight, attack_step, legal_shots
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, check_fire
from carnage.geometry.movement import final_pose
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Rect, unit
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.effects import CANCEL
from carnage.rulesets import REFUELLED, refuelled_ruleset


def test_example_of_play_p58_blue_fires_two_handguns_at_red() -> None:
    blue = vehicle("blue", "car", *BLUE, player=0, gear=2, hazards=1)
    red = vehicle("red", "car", *RED, player=1, gear=1)
    # Attack dice 3 and 6; Red's one evade die (gear 1) is a 6.
    g = attack_game(table(blue, red), "blue", dice=[3, 6, 6])
    d = g.pending()
    assert d is not None and d.player == 0 and d.kind == "attack"
    assert values(d) == [STOP, "handgun>red"]  # Red is in Medium range of a handgun
    play(g, "handgun>red", "handgun>red")  # both crew fire Handguns; the crew limit stops it
    assert g.pending() is None
    assert rolls(g) == [("attack", [3, 6]), ("evade", [6])]
    hits = logged(g, "attack_hits")[0][1]
    assert hits["hits"] == 2  # the 3 misses, the 6 is a Critical Hit: two hits
    assert hits["weapons"] == [
        {"weapon": "handgun", "dice": [3], "hits": 0, "criticals": 0, "cover": False},
        {"weapon": "handgun", "dice": [6], "hits": 2, "criticals": 1, "cover": False},
    ]
    assert logged(g, "evade")[0][1]["cancelled"] == 1
    assert logged(g, "damage")[0][1] == {"vehicle": "red", "amount": 1, "hull_points": 9}
    assert (red.hull_points, red.hazards, red.gear) == (9, 0, 1)
    assert (blue.hull_points, blue.hazards, blue.gear) == (10, 1, 2)


def test_crew_limits_the_number_of_attacks() -> None:
    racer = vehicle("racer", "performance_car", *BLUE, player=0)  # crew 1
    red = vehicle("red", "car", *RED, player=1)
    g = attack_game(table(racer, red), "racer", dice=[1])
    play(g, "handgun>red")
    assert g.pending() is None
    assert len(logged(g, "declare_attack")) == 1
    assert rolls(g) == [("attack", [1])]


def test_each_weapon_once_but_handguns_any_number_of_times() -> None:
    truck = armed(vehicle("truck", "truck", *BLUE, player=0),  # crew 3
                  ("machine_gun", "front", None), ("machine_gun", "front", None))
    red = vehicle("red", "car", *RED, player=1)
    g = attack_game(table(truck, red), "truck", dice=[1] * 8)
    assert values(g.pending()) == [STOP, "handgun>red", "machine_gun#0>red", "machine_gun#1>red"]
    play(g, "machine_gun#0>red")
    assert values(g.pending()) == [STOP, "handgun>red", "machine_gun#1>red"]
    with pytest.raises(IllegalChoice, match="machine_gun#0>red"):
        g.apply("machine_gun#0>red")
    play(g, "handgun>red")
    assert values(g.pending()) == [STOP, "handgun>red", "machine_gun#1>red"]
    play(g, "handgun>red")
    assert g.pending() is None  # three attacks: crew 3
    assert rolls(g)[0] == ("attack", [1, 1, 1, 1])  # 2 (MG) + 1 + 1 dice, rolled together

    g2 = attack_game(table(vehicle("t", "truck", *BLUE), vehicle("r", "car", *RED, player=1)),
                     "t", dice=[1, 1, 1])
    play(g2, "handgun>r", "handgun>r", "handgun>r")
    assert g2.pending() is None and rolls(g2) == [("attack", [1, 1, 1])]


def test_out_of_arc_and_out_of_range_are_not_offered() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    behind = vehicle("behind", "car", 300, 200, 90, player=1)  # 40 mm behind: rear, Short
    ahead_far = vehicle("far", "car", 300, 600, 90, player=1)  # 240 mm ahead: Double
    ahead_beyond = vehicle("beyond", "car", 300, 700, 90, player=1)  # 340 mm: beyond Double
    g = attack_game(table(car, behind, ahead_far, ahead_beyond), "car")
    # The MG reaches only the car ahead within Double range; a Handgun (Medium, 360°) reaches
    # only the car close behind.
    assert values(g.pending()) == [STOP, "handgun>behind", "machine_gun#0>far"]


def test_side_rear_and_turret_mounts() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("minigun", "side", None),
                ("heavy_machine_gun", "rear", None), ("machine_gun", "turret", None))
    left = vehicle("left", "car", 100, 300, 90, player=1)  # beside, 170 mm gap
    back = vehicle("back", "car", 300, 100, 90, player=1)  # behind, 140 mm gap
    g = attack_game(table(car, left, back), "car")
    assert set(values(g.pending())) == {
        STOP, "minigun#0>left", "heavy_machine_gun#1>back",
        "machine_gun#2>left", "machine_gun#2>back",
    }


def test_friendly_vehicles_are_valid_targets() -> None:
    blue = vehicle("blue", "car", *BLUE, player=0)
    mate = vehicle("mate", "car", *RED, player=0)
    g = attack_game(table(blue, mate), "blue")
    assert values(g.pending()) == [STOP, "handgun>mate"]


def test_cover_needs_5_plus_but_a_natural_6_still_crits() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0, gear=2),
                ("heavy_machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1)
    wall = rock("wall", 300, 420, length=200, width=20)  # low wall across the line of fire
    # HMG: 4, 5, 6 -> 0 + 1 + 2 = 3 hits in cover (4 in the open); Red evades with a 1.
    g = attack_game(table(car, red, obstacles=[wall]), "car", dice=[4, 5, 6, 1])
    assert values(g.pending()) == [STOP, "heavy_machine_gun#0>red"]
    play(g, "heavy_machine_gun#0>red")
    assert logged(g, "declare_attack")[0][1]["cover"] is True
    assert logged(g, "attack_hits")[0][1]["hits"] == 3
    assert red.hull_points == 7

    open_table = table(armed(vehicle("car", "car", *BLUE), ("heavy_machine_gun", "front", None)),
                       vehicle("red", "car", 300, 600, 270, player=1))
    g2 = attack_game(open_table, "car", dice=[4, 5, 6, 1])
    play(g2, "heavy_machine_gun#0>red")
    assert logged(g2, "attack_hits")[0][1]["hits"] == 4


def test_other_vehicles_give_cover() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1)
    between = vehicle("between", "bus", 300, 430, 0, player=1)  # a bus lying across the line
    g = attack_game(table(car, red, between), "car", dice=[1, 1])
    assert all(s.cover is None for s in legal_shots(g, car))  # judged on declaration
    sight = Sight(g, car)
    assert sight.check(red, Arc.FRONT, "double").cover is True
    assert sight.check(between, Arc.FRONT, "double").cover is False
    play(g, "machine_gun#0>red")
    assert logged(g, "declare_attack")[0][1]["cover"] is True


@pytest.mark.parametrize("seed", range(12))
def test_sight_shortcuts_agree_with_the_full_fire_check(seed: int) -> None:
    # Random crowded tables (seeds 0-11 give clear, covered and Tall-blocked shots in every
    # arc): the engine's quick answers (gap beyond the template, 360° ruler with nothing in
    # reach, Tall-only range checks) match geometry's exact check_fire.
    rng = random.Random(seed)
    cars = [vehicle(f"v{i}", "car", rng.uniform(250, 550), rng.uniform(250, 550),
                    rng.uniform(0, 360), player=i % 2) for i in range(4)]
    walls = [rock(f"r{j}", rng.uniform(250, 550), rng.uniform(250, 550), length=60, width=15,
                  heading=rng.uniform(0, 180), tall=j == 0) for j in range(4)]
    state = table(*cars, obstacles=walls)
    g = attack_game(state, "v0")
    shooter = cars[0]
    sight = Sight(g, shooter)
    for t in cars[1:]:
        blockers = [Blocker(o.id, tuple(o.polygon()), o.tall) for o in walls]
        blockers += [Blocker(o.id, tuple(o.polygon())) for o in cars if o not in (shooter, t)]
        for arc, tid in ((Arc.TURRET, "medium"), (Arc.FRONT, "double"), (Arc.SIDE, "long")):
            exact = check_fire(shooter.rect(), t.polygon(), arc, shooting_template(tid),
                               blockers)
            quick = sight.check(t, arc, tid)
            assert (quick.in_range, quick.cover, quick.blocked) == (
                exact.in_range, exact.cover, exact.blocked), (t.id, arc, tid)
            reach = sight.check(t, arc, tid, cover=False)
            assert (reach.in_range, reach.blocked) == (exact.in_range, exact.blocked)


def test_tall_obstacle_blocks_the_target() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1)
    tall = rock("tower", 300, 420, length=200, width=20, tall=True)
    g = attack_game(table(car, red, obstacles=[tall]), "car")
    assert g.pending() is None  # nothing to shoot at: no decision, no dice
    assert logged(g, "declare_attack", "roll") == []


def test_ammo_is_spent_and_an_empty_weapon_is_not_offered() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("rockets", "front", 1),
                ("rockets", "front", 0))
    red = vehicle("red", "car", 300, 600, 270, player=1)
    g = attack_game(table(car, red), "car", dice=[1] * 6)
    assert values(g.pending()) == [STOP, "rockets#0>red"]  # rockets#1 has no ammo token
    play(g, "rockets#0>red")
    assert car.weapons[0].ammo == 0
    assert logged(g, "ammo") == [("ammo", {"vehicle": "car", "weapon": "rockets#0", "ammo": 0})]
    assert rolls(g) == [("attack", [1] * 6)]  # Rockets: 6D6
    g2 = attack_game(table(car, vehicle("red", "car", 300, 600, 270, player=1)), "car")
    assert g2.pending() is None  # both racks empty now


def test_distracted_vehicle_makes_no_shooting_attacks() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1)
    barrel = rock("barrel", 300, 260, length=20, width=20)  # touching the car's rear edge
    g = attack_game(table(car, red, obstacles=[barrel]), "car")
    assert g.pending() is None
    assert logged(g, "distracted") == [("distracted", {"vehicle": "car", "touching": ["barrel"]})]
    assert logged(g, "roll") == []
    # Touching another vehicle distracts too.
    g2 = attack_game(table(car, vehicle("red", "car", 300, 360, 90, player=1)), "car")
    assert logged(g2, "distracted")[0][1]["touching"] == ["red"]


def test_evade_cancels_at_most_the_hits() -> None:
    car = vehicle("car", "car", *BLUE, player=0)
    red = vehicle("red", "car", *RED, player=1, gear=3)
    g = attack_game(table(car, red), "car", dice=[5, 6, 6, 6])  # 1 hit; evades 6, 6, 6
    play(g, "handgun>red", STOP)
    assert logged(g, "evade")[0][1] == {"vehicle": "red", "hits": 1, "cancelled": 1}
    assert logged(g, "damage") == []
    assert red.hull_points == 10


def test_no_hits_no_evade_roll() -> None:
    car = vehicle("car", "car", *BLUE, player=0)
    red = vehicle("red", "car", *RED, player=1, gear=3)
    g = attack_game(table(car, red), "car", dice=[3])
    play(g, "handgun>red", STOP)
    assert rolls(g) == [("attack", [3])]


def test_targets_resolved_in_declaration_order_dice_together_per_target() -> None:
    truck = armed(vehicle("truck", "truck", *BLUE, player=0), ("machine_gun", "front", None))
    a = vehicle("a", "car", 300, 600, 270, player=1)  # MG only (Double range)
    b = vehicle("b", "car", 220, 300, 90, player=1)  # beside: Handgun only
    g = attack_game(table(truck, a, b), "truck", dice=[4, 1, 1, 4, 2, 1])
    play(g, "handgun>b", "machine_gun#0>a", "handgun>b")
    assert rolls(g) == [("attack", [4, 1]), ("evade", [1]), ("attack", [4, 2]), ("evade", [1])]
    assert [e.data["target"] for e in g.log.of_kind("attack_hits")] == ["b", "a"]
    assert (a.hull_points, b.hull_points) == (9, 9)


def test_illegal_declaration_leaves_the_game_untouched() -> None:
    car = vehicle("car", "car", *BLUE, player=0)
    red = vehicle("red", "car", *RED, player=1)
    g = attack_game(table(car, red), "car")
    before = len(g.log)
    for bad in ("minigun#0>red", "handgun>car", "handgun", 3):
        with pytest.raises(IllegalChoice, match="not a legal choice"):
            g.apply(bad)
    assert len(g.log) == before and g.pending() is not None


def test_weapons_whose_rules_are_not_registered_are_not_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A weapon is offered once it and each of its rules have an installer in the ruleset.
    car = armed(vehicle("car", "car", *BLUE, player=0), ("flamethrower", "front", 3),
                ("mortar", "front", 3))
    red = vehicle("red", "car", 300, 400, 270, player=1)
    g = attack_game(table(car, red), "car")
    assert values(g.pending()) == [STOP, "handgun>red", "flamethrower#0>red", "mortar#1>red"]
    # both carry Indirect: a ruleset of its own without it, Refuelled untouched
    ruleset = refuelled_ruleset(
        rules=REFUELLED.rules.with_rules({("weapon_rule", "indirect"): None}))
    g = attack_game(table(car, red), "car", ruleset=ruleset)
    assert values(g.pending()) == [STOP, "handgun>red"]


def test_magnum_blast_gives_a_hazard_per_uncancelled_hit() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("magnum", None, None))
    red = vehicle("red", "car", 300, 600, 270, player=1, gear=2, hazards=1)
    g = attack_game(table(car, red), "car", dice=[6, 6, 1])  # crit: 2 hits; evades 6, 1
    play(g, "magnum#0>red")
    assert logged(g, "hits_taken")[0][1] == {
        "vehicle": "red", "hits": 2, "cancelled": 1, "damage": 1, "blast": 1,
    }
    assert (red.hazards, red.hull_points) == (2, 9)


def test_blast_hits_are_cancelled_after_plain_hits() -> None:
    car = armed(vehicle("car", "car", *BLUE, player=0), ("magnum", None, None),
                ("machine_gun", "front", None))
    red = vehicle("red", "car", *RED, player=1, gear=2)
    # Magnum 4 (1 hit, Blast), MG 4, 4 (2 hits); evades 6, 6 cancel the two MG hits.
    g = attack_game(table(car, red), "car", dice=[4, 4, 4, 6, 6])
    play(g, "magnum#0>red", "machine_gun#1>red")
    assert logged(g, "hits_taken")[0][1]["blast"] == 1
    assert (red.hazards, red.hull_points) == (1, 9)


def test_attack_hooks_change_dice_penalty_and_can_cancel() -> None:
    car = vehicle("car", "car", *BLUE, player=0)
    red = vehicle("red", "car", *RED, player=1)
    g = attack_game(table(car, red), "car", dice=[4, 4, 1])
    g.attach_untracked("attack_dice", "test:extra_die", lambda n, ctx: n + 1)
    g.attach_untracked("to_hit_penalty", "test:harder", lambda p, ctx: p + 1)
    play(g, "handgun>red", STOP)
    assert rolls(g)[0] == ("attack", [4, 4])  # two dice for one Handgun
    assert logged(g, "attack_hits")[0][1]["hits"] == 0  # 4s miss at 5+

    g2 = attack_game(table(vehicle("car", "car", *BLUE), vehicle("red", "car", *RED, player=1)),
                     "car", dice=[6])
    g2.attach_untracked("attack", "test:veto", lambda res, ctx: CANCEL)
    play(g2, "handgun>red", STOP)
    assert logged(g2, "attack_cancelled") and logged(g2, "damage") == []


def test_attack_window_flow_runs_before_the_evade() -> None:
    car = vehicle("car", "car", *BLUE, player=0)
    red = vehicle("red", "car", *RED, player=1)
    g = attack_game(table(car, red), "car", dice=[5, 1])

    def window(game: Any, res: Any) -> Any:
        game.emit("window", target=res.target.id)
        yield from ()

    g.attach_untracked("attack_window", "test:window", lambda ws, ctx: [*ws, window])
    play(g, "handgun>red", STOP)
    order = [e.kind for e in g.log if e.kind in ("attack_hits", "window", "evade")]
    assert order == ["attack_hits", "window", "evade"]


def test_zero_crew_makes_no_attacks() -> None:
    def step(gm: Game) -> Flow:
        gm.attach_untracked("stat:crew", "test:gassed", lambda n, ctx: 0)
        yield from attack_step(gm, gm.state.vehicles["car"])

    state = table(vehicle("car", "car", *BLUE), vehicle("red", "car", *RED, player=1))
    g = Game(ruleset=REFUELLED, state=state, scenario=StepScenario(step))
    assert g.pending() is None and logged(g, "declare_attack", "roll") == []


def test_wrecked_attacker_loses_its_remaining_attacks() -> None:
    # Blue (1 hull left) shoots Red first: Red is wrecked, its rockets' ammo makes it explode,
    # and the blast wrecks Blue, whose Handgun at Green is then lost (ruling AT-3).
    blue = wound(vehicle("blue", "car", *BLUE, player=0), 1)
    red = wound(armed(vehicle("red", "car", 400, 300, 90, player=1), ("rockets", "rear", 3)), 1)
    green = vehicle("green", "car", 200, 300, 90, player=1)  # 70 mm left of Blue
    dice = [
        5,  # Handgun at Red: 1 hit
        1,  # Red's evade (gear 1)
        3,  # Red skids 60 mm forward; explosion check: 3 + 3 ammo = 6, explodes
        4, 1, 1, 1,  # explosion at Blue (70 mm away; Green is 170 mm away): 1 hit
        1,  # Blue's evade
        1,  # Blue skids to a halt; explosion check (no ammo): a wreck
    ]
    g = attack_game(table(blue, red, green), "blue", dice=dice)
    play(g, "handgun>red", "handgun>green")
    assert red.status is Status.REMOVED and blue.status is Status.WRECKED
    lost = logged(g, "attack_lost")
    assert lost == [("attack_lost", {"vehicle": "blue", "target": "green",
                                     "weapons": [HANDGUN], "reason": "attacker out of play"})]
    assert green.hull_points == 10


def test_example_of_play_p58_whole_activation_through_the_game_flow() -> None:
    # Gear phase 1, Blue has pole: the Turn (trivial in gear 1), its free Shift to gear 2
    # (+1 hazard), then two Handguns at Red 90 mm ahead; then it is Red's turn.
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    end = final_pose(Rect(blue.pose, blue.length, blue.width), "turn")
    fx, fy = unit(end.heading)
    red = vehicle("red", "car", end.x + fx * 180, end.y + fy * 180, end.heading + 180,
                  player=1)  # front to front: 180 - 30 - 30 = 90 mm apart
    g = Game(ruleset=REFUELLED, state=table(blue, red), scenario=Scenario(),
             dice=ScriptedDice([3, 6, 6]))
    play(g, "turn", 0, "gear_up", "handgun>red", "handgun>red")
    assert (blue.gear, blue.hazards) == (2, 1)
    assert blue.pose.x == pytest.approx(end.x) and blue.pose.y == pytest.approx(end.y)
    assert [r for r in rolls(g) if r[1]] == [("attack", [3, 6]), ("evade", [6])]
    assert (red.hull_points, red.gear) == (9, 1)
    steps = [e.kind for e in g.log if e.kind in ("activation", "move", "declare_attack",
                                                   "damage", "activation_end")]
    assert steps == ["activation", "move", "declare_attack", "declare_attack", "damage",
                     "activation_end", "activation"]
    d = g.pending()
    assert d is not None and (d.player, d.kind) == (1, "template")
