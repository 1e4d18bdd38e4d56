"""Collisions (Refuelled pp.52-57): orientation, reactions, smash dice, evades, damage, hazards."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import (
    collide,
    ev,
    example_of_play_table,
    move_and_wipeout,
    play,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
)

from carnage.catalog import Weight
from carnage.games.refuelled.engine.collision import base_smash_dice, smash_dice, weight_bonus
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import Status
from carnage.kernel.decisions import IllegalChoice

# Skid faces on a D6 (ruling R-1): 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift.
HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def t_bone_table(car_gear: int = 5, buggy_gear: int = 2) -> Any:
    """p.57: the car's front edge square against the middle of the buggy's right side."""
    buggy = vehicle("buggy", "buggy", 600, 600, heading=0, player=1, gear=buggy_gear)
    car = vehicle("car", "car", 600, 555, heading=90, player=0, gear=car_gear)
    return table(car, buggy)


def test_worked_example_p57_t_bone() -> None:
    # Car (middleweight, gear 5) T-bones a buggy (lightweight, gear 2); car smashes, buggy
    # evades. 7 dice 1,1,2,4,4,5,6 -> 5 hits; evade 3,6 -> 1 cancelled; 4 damage; +2 each.
    g = run_step(t_bone_table(), collide("car", "buggy"), dice=[1, 1, 2, 4, 4, 5, 6, 3, 6])
    first = g.pending()
    assert first is not None and first.kind == "collision_reaction" and first.player == 0
    assert values(first) == ["smash", "evade"]
    second = play(g, "smash")
    assert second[0].page == 53
    d = g.pending()
    assert d is not None and d.player == 1
    play(g, "evade")
    assert g.pending() is None
    col = ev(g, "collision")[0]
    assert col["orientation"] == "t_bone"
    assert col["edges"] == {"car": "front", "buggy": "side"}
    assert ev(g, "smash_attack") == [
        {"attacker": "car", "target": "buggy", "dice": 7, "hits": 5}
    ]
    assert rolls(g) == [("smash attack", [1, 1, 2, 4, 4, 5, 6]), ("evade", [3, 6])]
    assert ev(g, "evade")[0] == {"vehicle": "buggy", "hits": 5, "cancelled": 1}
    car, buggy = g.state.vehicles["car"], g.state.vehicles["buggy"]
    assert (buggy.damage, buggy.hull_points) == (4, 2)
    assert car.damage == 0
    assert (car.hazards, buggy.hazards) == (2, 2)
    # Had the buggy smashed back it would have rolled 1 die: gear 2, one class lighter.
    assert smash_dice("t_bone", 2, 5, 1, 2) == 1


def test_worked_example_p57_the_car_is_distracted_after_the_t_bone() -> None:
    # p.57: after T-boning the buggy in its Movement Step the car, still touching it, is
    # Distracted and may not shoot in its Attack Step, though its front Machine Gun would
    # reach the buggy. Whole activation: Long Straight (gear 5) into the buggy's side.
    from carnage.games.refuelled.engine.flow import activation as whole_activation

    car = vehicle("car", "car", 600, 375, heading=90, player=0, gear=5,
                  weapons=[("machine_gun", "front")])
    buggy = vehicle("buggy", "buggy", 600, 600, heading=0, player=1, gear=2)

    def step(g: Game) -> Flow:
        g.state.gear_phase = 5
        yield from whole_activation(g, g.state.vehicles["car"])

    g = run_step(table(car, buggy), step, dice=[1, 1, 2, 4, 4, 5, 6, 3, 6])
    play(g, "long_straight", 0, "smash", "evade")
    assert ev(g, "collision")[0]["orientation"] == "t_bone"
    assert (buggy.damage, car.hazards, buggy.hazards) == (4, 2, 2)
    assert ev(g, "distracted") == [{"vehicle": "car", "touching": ["buggy"]}]
    assert not ev(g, "declare_attack")
    assert g.pending() is None  # no attack was offered
    from carnage.games.refuelled.engine.attack import legal_shots

    assert {s.key for s in legal_shots(g, car)} == {"machine_gun#0", "handgun"}  # in reach


def test_collision_in_example_of_play_p58_59() -> None:
    # Red (gear 1) takes the trivial Medium Straight, rolls 3 skid dice (two Shifts and a
    # Slide), cancels the Slide with the free Shift, changes up twice to gear 3 and drives
    # into the corner of Blue's front edge: head-on, both smash with 2 + 3 = 5 dice.
    g = run_step(example_of_play_table(), move_and_wipeout("red"),
                 dice=[SHIFT, 5, SLIDE, 6, 6, 4, 1, 2, 4, 5, 4, 1, 2])
    play(g, "medium_straight", 3, "no", "cancel:2", "gear_up", "gear_up")
    red, blue = g.state.vehicles["red"], g.state.vehicles["blue"]
    assert red.gear == 3 and red.hazards == 2
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction" and d.player == 1
    play(g, "smash")
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction" and d.player == 0
    play(g, "smash")
    assert g.pending() is None
    move = ev(g, "move", vehicle="red")[0]
    assert move["interrupted"] and move["touched"] == ["blue"]
    # Red stopped with its front edge on Blue's front edge (y = 440).
    assert red.pose.y + red.length / 2 == pytest.approx(440, abs=0.15)
    assert ev(g, "collision")[0]["orientation"] == "head_on"
    assert [(s["attacker"], s["dice"], s["hits"]) for s in ev(g, "smash_attack")] == [
        ("red", 5, 5), ("blue", 5, 3)
    ]
    assert not ev(g, "evade")  # neither declared Evade
    assert (red.damage, blue.damage) == (1 + 3, 5)
    assert red.hazards == 4  # "Red is now on 4 Hazard Tokens" (p.59)
    assert blue.hazards == 3
    assert not ev(g, "wipeout")


@pytest.mark.parametrize(
    ("orientation", "own", "other", "expected"),
    [("head_on", 2, 3, 5), ("head_on", 0, 4, 4), ("t_bone", 5, 2, 5), ("t_bone", 0, 6, 0),
     ("tailgate", 4, 1, 3), ("tailgate", 1, 4, 3), ("tailgate", 3, 3, 0)],
)
def test_smash_dice_by_orientation(orientation: str, own: int, other: int, expected: int) -> None:
    assert base_smash_dice(orientation, own, other) == expected


def test_smash_dice_weight_difference_and_unknown_orientation() -> None:
    assert [weight_bonus(m, t) for m, t in [(2, 1), (3, 1), (1, 2), (1, 3), (2, 2)]] == [
        2, 4, -1, -2, 0
    ]
    assert smash_dice("head_on", 0, 3, 3, 2) == 5  # a heavyweight rock hit by a gear 3 car
    with pytest.raises(ValueError, match="unknown collision orientation 'sideways'"):
        base_smash_dice("sideways", 1, 1)


def test_zero_or_fewer_dice_still_counts_as_smashing() -> None:
    # A gear 1 buggy T-bones a heavyweight monster truck: 1 - 2 = -1 dice, so it rolls
    # nothing but did not evade, so both gain 2 Hazards (not 1).
    truck = vehicle("truck", "monster_truck", 600, 600, heading=0, player=1, gear=3)
    buggy = vehicle("buggy", "buggy", 600, 550, heading=90, player=0, gear=1)
    g = run_step(table(buggy, truck), collide("buggy", "truck"))
    play(g, "smash", "evade")
    assert ev(g, "smash_attack") == [{"attacker": "buggy", "target": "truck", "dice": 0,
                                      "hits": 0}]
    assert rolls(g) == []  # no attack dice, and no evade roll against zero hits
    assert (buggy.hazards, truck.hazards) == (2, 2)


def test_both_evade_gain_one_hazard_each_and_roll_nothing() -> None:
    g = run_step(t_bone_table(), collide("car", "buggy"))
    play(g, "evade", "evade")
    assert rolls(g) == []
    car, buggy = g.state.vehicles["car"], g.state.vehicles["buggy"]
    assert (car.hazards, buggy.hazards) == (1, 1)
    assert car.damage == buggy.damage == 0


def tailgate_table(rear_gear: int, front_gear: int) -> Any:
    # "chaser" drives its front edge into the rear edge of "leader", both heading north.
    leader = vehicle("leader", "car", 600, 600, heading=90, player=1, gear=front_gear)
    chaser = vehicle("chaser", "car", 600, 540, heading=90, player=0, gear=rear_gear)
    return table(chaser, leader)


def test_tailgate_faster_front_vehicle_forces_both_to_evade() -> None:
    g = run_step(tailgate_table(rear_gear=2, front_gear=4), collide("chaser", "leader"))
    assert g.pending() is None  # no reaction was asked of anyone
    assert ev(g, "collision")[0]["orientation"] == "tailgate"
    assert ev(g, "tailgate_evade") == [{"vehicle": "chaser", "other": "leader",
                                        "front": "leader"}]
    assert [(r["vehicle"], r["reaction"], r["why"]) for r in ev(g, "reaction")] == [
        ("chaser", "evade", "tailgate"), ("leader", "evade", "tailgate")
    ]
    assert g.state.vehicles["chaser"].hazards == g.state.vehicles["leader"].hazards == 1


def test_tailgate_slower_front_vehicle_smash_dice_are_the_gear_difference() -> None:
    g = run_step(tailgate_table(rear_gear=4, front_gear=1), collide("chaser", "leader"),
                 dice=[4, 4, 6, 1, 1, 1])
    play(g, "smash", "smash")
    assert [(s["attacker"], s["dice"], s["hits"]) for s in ev(g, "smash_attack")] == [
        ("chaser", 3, 4), ("leader", 3, 0)
    ]
    assert g.state.vehicles["leader"].damage == 4
    assert not ev(g, "tailgate_evade")


def test_reversing_vehicle_hits_with_its_rear_as_its_front() -> None:
    # "reverser" backs (heading north, moving south) its rear edge into the front of "other",
    # which faces north: a reversing rear counts as a front, so it is head-on (p.53).
    other = vehicle("other", "car", 600, 500, heading=90, player=1, gear=2)
    reverser = vehicle("reverser", "car", 600, 560, heading=90, player=0, gear=1)
    st = table(reverser, other)
    reverser.reversing = True
    g = run_step(st, collide("reverser", "other"), dice=[1, 1, 1, 1, 1, 1])
    play(g, "smash", "smash")
    assert ev(g, "collision")[0]["orientation"] == "head_on"
    assert [s["dice"] for s in ev(g, "smash_attack")] == [3, 3]
    # Moving forward instead, the same contact is a tailgate.
    reverser.reversing = False
    g2 = run_step(table(vehicle("r2", "car", 600, 560, heading=90, player=0, gear=1),
                        vehicle("o2", "car", 600, 500, heading=90, player=1, gear=2)),
                  collide("r2", "o2"))
    assert ev(g2, "collision")[0]["orientation"] == "tailgate"


def test_obstacle_is_head_on_gear_zero_always_smashes_and_takes_no_hazards() -> None:
    # A gear 3 middleweight car noses into a heavyweight rock: the rock smashes with
    # 0 + 3 + 2 = 5 dice; the car, choosing to evade, rolls 3 evade dice.
    car = vehicle("car", "car", 600, 550, heading=90, player=0, gear=3)
    boulder = rock("rock", 600, 600)
    g = run_step(table(car, obstacles=[boulder]), collide("car", "rock"),
                 dice=[6, 4, 4, 1, 1, 6, 1, 1])
    d = g.pending()
    assert d is not None and d.player == 0
    play(g, "evade")
    assert g.pending() is None
    col = ev(g, "collision")[0]
    assert col["orientation"] == "head_on" and col["gears"] == {"car": 3, "rock": 0}
    assert [(r["vehicle"], r["reaction"], r["why"]) for r in ev(g, "reaction")] == [
        ("car", "evade", "declared"), ("rock", "smash", "obstacle")
    ]
    assert ev(g, "smash_attack") == [{"attacker": "rock", "target": "car", "dice": 5, "hits": 4}]
    assert car.damage == 3 and car.hazards == 2
    assert "rock" in g.state.obstacles  # not destructible: it stays


@pytest.mark.parametrize("kind", ["destructible", "wreck"])
def test_destructible_obstacles_and_wrecks_are_removed_after_the_collision(kind: str) -> None:
    car = vehicle("car", "car", 600, 550, heading=90, player=0, gear=3)
    extra: dict[str, Any] = (
        {"destructible": True} if kind == "destructible" else {"wreck_of": "old"}
    )
    crate = rock("crate", 600, 600, weight=Weight.LIGHTWEIGHT, **extra)
    # Car smash: 0 + 3 + 2 (one class heavier) = 5 dice; crate smash: 3 - 1 = 2 dice.
    g = run_step(table(car, obstacles=[crate]), collide("car", "crate"),
                 dice=[1, 1, 1, 1, 1, 4, 4])
    play(g, "smash")
    assert [s["dice"] for s in ev(g, "smash_attack")] == [5, 2]
    assert car.damage == 2
    assert "crate" not in g.state.obstacles
    assert ev(g, "obstacle_removed") == [{"obstacle": "crate"}]
    # Removal comes after the hazards, as the last act of the Collision.
    order = [e.kind for e in g.log if e.kind in {"hazards", "obstacle_removed"}]
    assert order == ["hazards", "obstacle_removed"]


def test_damage_is_simultaneous_then_each_wreck_in_order() -> None:
    # Both cars are on 1 hull point; both smash and both hit: both are wrecked, the moving
    # one first, and Twisted Metal removes both (p.44).
    a = vehicle("a", "car", 600, 500, heading=90, player=0, gear=1)
    b = vehicle("b", "car", 600, 560, heading=270, player=1, gear=1)
    a.damage = b.damage = 9
    g = run_step(table(a, b), collide("a", "b"), dice=[4, 1, 1, 5, 1, 1])
    play(g, "smash", "smash")
    assert [s["hits"] for s in ev(g, "smash_attack")] == [1, 1]
    dmg = [e.data["vehicle"] for e in g.log.of_kind("damage")]
    wrecked = [e.data["vehicle"] for e in g.log.of_kind("wrecked")]
    assert dmg == ["a", "b"] and wrecked == ["a", "b"]
    # Both damages landed before either wreck began.
    ks = [e.kind for e in g.log if e.kind in {"damage", "wrecked"}]
    assert ks == ["damage", "damage", "wrecked", "wrecked"]
    assert a.status is Status.REMOVED and b.status is Status.REMOVED
    assert not ev(g, "hazards", source="collision")  # no longer vehicles: no hazards


def test_volatile_obstacle_that_does_not_explode_collides_as_usual() -> None:
    car = vehicle("car", "car", 600, 550, heading=90, player=0, gear=2)
    barrel = rock("barrel", 600, 590, 20, 20, weight=Weight.MIDDLEWEIGHT, volatile=True)
    g = run_step(table(car, obstacles=[barrel]), collide("car", "barrel"),
                 dice=[3, 1, 1])
    assert rolls(g)[0] == ("volatile obstacle", [3])  # rolled before any reaction
    play(g, "evade")
    assert ev(g, "smash_attack")[0]["dice"] == 2  # 0 + 2, same weight
    assert "barrel" in g.state.obstacles and car.hazards == 2


def test_volatile_obstacle_exploding_ends_the_collision() -> None:
    # 4+: it explodes (a middleweight: 4 blast dice at the car), is removed, and no
    # reactions, smash attacks or collision hazards follow (ruling CO-4).
    car = vehicle("car", "car", 600, 550, heading=90, player=0, gear=2)
    barrel = rock("barrel", 600, 590, 20, 20, weight=Weight.MIDDLEWEIGHT, volatile=True)
    g = run_step(table(car, obstacles=[barrel]), collide("car", "barrel"),
                 dice=[4, 4, 5, 1, 1, 1, 1])
    assert g.pending() is None
    assert rolls(g) == [("volatile obstacle", [4]), ("explosion", [4, 5, 1, 1]),
                        ("evade", [1, 1])]
    assert ev(g, "explosion")[0]["targets"] == ["car"]
    assert "barrel" not in g.state.obstacles
    assert not ev(g, "reaction") and not ev(g, "smash_attack")
    assert car.damage == 2 and car.hazards == 2  # blast hazards only


def test_collision_skipped_when_no_longer_touching_or_gone() -> None:
    a = vehicle("a", "car", 600, 300, heading=90, player=0)
    b = vehicle("b", "car", 600, 500, heading=90, player=1)
    g = run_step(table(a, b), collide("a", "b", "ghost"))
    assert g.pending() is None
    assert [s["reason"] for s in ev(g, "collision_skipped")] == [
        "a no longer touches b", "ghost is no longer on the table"
    ]


def test_collisions_resolve_in_the_order_given() -> None:
    car = vehicle("car", "car", 600, 550, heading=90, player=0, gear=1)
    left = rock("left", 590, 590, 20, 20)
    right = rock("right", 610, 590, 20, 20)
    g = run_step(table(car, obstacles=[left, right]), collide("car", "right", "left"),
                 dice=[1, 1, 1] * 2)
    play(g, "evade", "evade")
    assert [c["other"] for c in ev(g, "collision")] == ["right", "left"]
    assert car.hazards == 4


def test_illegal_reaction_is_refused_and_changes_nothing() -> None:
    g = run_step(t_bone_table(), collide("car", "buggy"))
    before = len(g.log)
    with pytest.raises(IllegalChoice, match="collision_reaction: 'ram' is not a legal choice"):
        g.apply("ram")
    assert len(g.log) == before
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"


def test_hooks_change_smash_dice_reactions_and_hazards() -> None:
    g0 = run_step(t_bone_table(), collide("car", "buggy"), dice=[1] * 9)

    def front_ram(n: int, ctx: dict[str, Any]) -> int | None:
        return n + 2 if ctx["edge"] == "front" else None

    g0.attach_untracked("smash_dice", "test:ram", front_ram)
    g0.attach_untracked("collision_reactions", "test:shaken",
                  lambda opts, ctx: ["evade"] if ctx["party"] == "buggy" else None)
    g0.attach_untracked("collision_hazards", "test:calm", lambda n, ctx: n - 1)
    play(g0, "smash")
    # The buggy had one legal reaction, taken for it and logged as forced.
    assert ev(g0, "forced_choice")[-1]["choice"] == "evade"
    assert ev(g0, "smash_attack")[0]["dice"] == 9  # 5 + 2 weight + 2 ram
    assert g0.state.vehicles["car"].hazards == 1 and g0.state.vehicles["buggy"].hazards == 1


@pytest.mark.parametrize("kind", ["destructible", "wreck"])
def test_movement_through_a_destructible_obstacle_collides_then_carries_on(kind: str) -> None:
    # p.49: interrupted by a destructible obstacle (or a wreck, p.44), the car collides, the
    # obstacle is removed, and with the way now clear it reaches its Final Position.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=1)
    extra: dict[str, Any] = (
        {"destructible": True} if kind == "destructible" else {"wreck_of": "old"}
    )
    crate = rock("crate", 600, 400, 30, 30, weight=Weight.LIGHTWEIGHT, **extra)
    g = run_step(table(car, obstacles=[crate]), move_and_wipeout("car"))
    play(g, "medium_straight", 0, "done")
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"
    play(g, "evade")
    assert g.pending() is None
    moves = ev(g, "move", vehicle="car")
    assert [m["interrupted"] for m in moves] == [True, False]
    assert moves[0]["y"] == pytest.approx(385 - 30, abs=0.15)  # front against the crate
    assert car.pose.y == pytest.approx(480)
    # The crate (gear 0, one class lighter than gear 1's car: 0 + 1 - 1) rolled no dice.
    assert ev(g, "smash_attack") == [{"attacker": "crate", "target": "car", "dice": 0,
                                      "hits": 0}]
    assert "crate" not in g.state.obstacles and car.hazards == 2
