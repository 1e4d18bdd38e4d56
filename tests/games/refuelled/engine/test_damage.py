"""Damage, the wreck sequence, Twisted Metal and explosions (Refuelled pp.43-44, 81, 88)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.builders import armed, logged, on, play, rock, rolls, run_step, table, vehicle, wound

from carnage.catalog import Weight
from carnage.games.refuelled.engine.damage import (
    EXPLOSION_DICE,
    HitGroup,
    explode,
    suffer_damage,
    take_hits,
    wreck,
)
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import obstructions_for
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.geometry.shapes import Pose, Rect


def hurt(amount: int) -> Callable[[Game, VehicleState], Flow]:
    def fn(g: Game, v: VehicleState) -> Flow:
        yield from suffer_damage(g, v, amount, source="test", page=43)

    return fn


def drive(g: Game, prefer: str = "evade") -> None:
    """Answer every pending decision with ``prefer`` when offered, else the first option."""
    while (d := g.pending()) is not None:
        opts = [o.value for o in d.options]
        g.apply(prefer if prefer in opts else opts[0])


def test_damage_below_zero_hull_runs_the_wreck_sequence() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90, player=1, gear=4, hazards=3), 2)
    other = vehicle("other", "car", 800, 800, 0, player=0)
    g = run_step(table(car, other), on("car", hurt(3)), dice=[2])  # explosion check: 2
    assert g.pending() is None
    assert [k for k, _ in logged(g, "damage", "wrecked", "audience_vote", "forced_move", "gear",
                                "hazards", "explosion_check", "wreck")] == [
        "damage", "wrecked", "audience_vote", "forced_move", "gear", "hazards",
        "explosion_check", "wreck",
    ]
    assert car.hull_points == 0 and car.damage == car.hull  # never below zero
    # 1 skid to a halt: forced Short Straight forward (rear edge to the template's far end).
    fm = logged(g, "forced_move")[0][1]
    assert (fm["template"], fm["x"], fm["y"], fm["heading"]) == ("short_straight", 300, 420, 90)
    # 2 reset; 3 explosion check 2 + 0 ammo.
    assert (car.gear, car.hazards) == (1, 0)
    assert logged(g, "explosion_check")[0][1] == {
        "vehicle": "car", "roll": 2, "ammo": 0, "total": 2, "explodes": False,
    }
    # 4 a wreck: a destructible obstacle of the car's weight, footprint and final pose.
    assert car.status is Status.WRECKED and not car.in_play
    ob = g.state.obstacles["wreck:car"]
    assert (ob.pose, ob.length, ob.width) == (Pose(300, 420, 90), 60, 30)
    assert (ob.weight, ob.destructible, ob.tall, ob.wreck_of) == (
        Weight.MIDDLEWEIGHT, True, False, "car")
    # Audience vote for the wrecked car's controller (p.44, p.88).
    assert g.state.votes == [0, 1]
    # The wreck is an obstruction for everyone else; the car no longer is a vehicle.
    ids = {o.id for o in obstructions_for(g, other)}
    assert "wreck:car" in ids and "car" not in ids


def test_damage_short_of_zero_is_only_marked_off() -> None:
    car = vehicle("car", "car", 300, 300, 90)
    g = run_step(table(car, vehicle("o", "car", 800, 800, 0, player=1)), on("car", hurt(4)))
    assert car.hull_points == 6 and car.in_play
    assert logged(g, "wrecked") == []


def test_a_wreck_is_not_damaged_or_wrecked_again() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90), 1)

    def twice(g: Game, v: VehicleState) -> Flow:
        yield from suffer_damage(g, v, 1, source="test", page=43)
        yield from suffer_damage(g, v, 5, source="test", page=43)
        yield from wreck(g, v)

    g = run_step(table(car, vehicle("o", "car", 800, 800, 0, player=1)), on("car", twice),
                 dice=[1])
    assert len(logged(g, "wrecked")) == 1 and len(logged(g, "damage")) == 1
    assert g.state.votes == [1, 0]


def test_explosion_check_counts_ammo_tokens_and_the_vehicle_explodes() -> None:
    # Rockets with 2 ammo tokens: a 4 on the die makes 6, so the car explodes (p.43).
    car = wound(armed(vehicle("car", "car", 300, 300, 90, player=0), ("rockets", "front", 2)), 1)
    near = vehicle("near", "car", 370, 360, 90, player=1, gear=2, hazards=1)  # 40 mm away
    far = vehicle("far", "car", 500, 360, 90, player=1)  # 170 mm away: beyond Medium
    dice = [4,  # explosion check
            4, 5, 6, 1,  # 4D6 (middleweight) at "near": 4 hits
            6, 2]  # near evades one
    g = run_step(table(car, near, far), on("car", hurt(1)), dice=dice)
    assert logged(g, "explosion_check")[0][1]["total"] == 6
    ex = logged(g, "explosion")[0][1]
    assert (ex["origin"], ex["weight"], ex["dice"], ex["targets"]) == ("car", "middleweight", 4,
                                                                        ["near"])
    assert logged(g, "hits_taken")[0][1] == {
        "vehicle": "near", "hits": 4, "cancelled": 1, "damage": 3, "blast": 3,
    }
    assert (near.hull_points, near.hazards) == (7, 4)  # Blast: +1 hazard per uncancelled hit
    assert (far.hull_points, far.hazards) == (10, 0)
    # Then removed from play: no wreck is left (p.44).
    assert car.status is Status.REMOVED and "wreck:car" not in g.state.obstacles
    order = [e.kind for e in g.log if e.kind in ("explosion", "hits_taken", "removed")]
    assert order == ["explosion", "hits_taken", "removed"]
    assert g.state.votes == [1, 0]  # still a wreck for the audience


def test_ammo_tokens_hook_adds_upgrade_ammo() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90), 1)

    def step(g: Game) -> Flow:
        g.attach_untracked("ammo_tokens", "test:nitro", lambda n, ctx: n + 1)
        yield from suffer_damage(g, g.state.vehicles["car"], 1, source="test", page=43)

    g = run_step(table(car, vehicle("o", "car", 800, 800, 0, player=1)), step, dice=[5])
    assert logged(g, "explosion_check")[0][1]["total"] == 6
    assert car.status is Status.REMOVED


def _blast_table() -> tuple[GameState, Rect]:
    origin = Rect(Pose(300, 300, 0), 60, 30)  # lying across the table: x 270..330, y 285..315
    near = vehicle("b", "car", 300, 360, 90, player=0)  # 15 mm from the origin
    mid = vehicle("a", "car", 420, 300, 90, player=1, gear=2)  # 75 mm
    edge = vehicle("d", "car", 466, 300, 90, player=1)  # 121 mm: just beyond Medium (AT-6)
    out = vehicle("c", "car", 300, 600, 90, player=1)  # 255 mm
    return table(near, mid, edge, out), origin


@pytest.mark.parametrize("weight", list(Weight))
def test_explosion_dice_by_weight_each_target_a_separate_attack(weight: Weight) -> None:
    state, origin = _blast_table()
    n = EXPLOSION_DICE[weight]
    assert n == {Weight.LIGHTWEIGHT: 2, Weight.MIDDLEWEIGHT: 4, Weight.HEAVYWEIGHT: 6}[weight]

    def step(g: Game) -> Flow:
        yield from explode(g, "barrel", origin.polygon(), weight, page=87)

    # Nearest first (AT-7): "b" all 4s (n hits), evades with 1 die: 1; then "a" all 1s, no
    # evade roll. "d" and "c" are beyond Medium range.
    g = run_step(state, step, dice=[4] * n + [1] + [1] * n)
    assert rolls(g) == [("explosion", [4] * n), ("evade", [1]), ("explosion", [1] * n)]
    assert logged(g, "explosion")[0][1]["targets"] == ["b", "a"]
    a, b, c, d = (g.state.vehicles[i] for i in "abcd")
    assert (b.hazards, b.hull_points) == (n, 10 - n)  # Blast: a hazard per uncancelled hit
    for v in (a, c, d):
        assert (v.hazards, v.hull_points) == (0, 10)
    assert logged(g, "explosion")[0][1]["origin"] == "barrel"
    assert g.log.of_kind("explosion")[0].page == 87


def test_blast_hazards_then_damage_so_a_wreck_ends_with_none() -> None:
    state, origin = _blast_table()
    wound(state.vehicles["b"], 2)

    def step(g: Game) -> Flow:
        yield from explode(g, "tank", origin.polygon(), Weight.HEAVYWEIGHT)

    # "b": six 4s -> 6 hits, evade 1 -> wrecked; it skids to a halt, explosion check 1;
    # "a": six 1s.
    g = run_step(state, step, dice=[4] * 6 + [1] + [1] + [1] * 6)
    b = g.state.vehicles["b"]
    assert b.status is Status.WRECKED and b.hazards == 0
    h = [d for k, d in logged(g, "hazards") if d["vehicle"] == "b"]
    assert [d["hazards"] for d in h] == [6, 0]  # six Blast hazards, then the wreck's reset


def test_twisted_metal_when_wrecked_in_a_collision() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90, player=1, gear=3), 0)
    g = run_step(table(car, vehicle("o", "car", 800, 800, 0)),
                 on("car", lambda g, v: wreck(g, v, in_collision=True)), dice=[1])
    assert car.status is Status.REMOVED
    assert "wreck:car" not in g.state.obstacles
    assert logged(g, "removed")[0][1] == {"vehicle": "car", "reason": "wrecked in a collision"}
    assert g.log.of_kind("removed")[0].source == "twisted_metal"
    # Every step still ran: skid, reset, explosion check; and the vote.
    assert logged(g, "forced_move") and logged(g, "explosion_check") and car.gear == 1
    assert g.state.votes == [0, 1]


def test_twisted_metal_when_the_skid_to_a_halt_collides() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90, player=1, gear=2), 1)
    wall = rock("wall", 300, 360, length=100, width=20)  # 20 mm ahead of the car's front
    g = run_step(table(car, vehicle("o", "car", 800, 800, 0), obstacles=[wall]),
                 on("car", hurt(1)), dice=[1] * 20)
    drive(g)
    fm = logged(g, "forced_move")[0][1]
    assert fm["touched"] == ["wall"] and fm["interrupted"] is True
    assert logged(g, "collision")  # the collision window was resolved
    assert logged(g, "explosion_check")[0][1]["explodes"] is False
    assert car.status is Status.REMOVED and "wreck:car" not in g.state.obstacles
    assert logged(g, "removed")[-1][1]["reason"] == "collided while skidding"
    assert "wall" in g.state.obstacles  # a solid wall is not destructible


def test_skidding_off_the_table_disqualifies_without_a_wreck() -> None:
    car = wound(vehicle("car", "car", 300, 1160, 90, player=0), 1)  # front 10 mm from the edge
    g = run_step(table(car, vehicle("o", "car", 800, 300, 0, player=1)), on("car", hurt(1)))
    assert car.status is Status.DISQUALIFIED
    assert logged(g, "explosion_check") == [] and not g.state.obstacles
    assert g.state.votes == [1, 0]  # ruling AT-5: the vote came with the wreck


def test_wreck_ids_stay_unique() -> None:
    car = wound(vehicle("car", "car", 300, 300, 90), 1)
    old = rock("wreck:car", 900, 900)
    g = run_step(table(car, vehicle("o", "car", 800, 100, 0, player=1), obstacles=[old]),
                 on("car", hurt(1)), dice=[1])
    assert logged(g, "wreck")[0][1]["obstacle"] == "wreck:car#2"
    assert g.state.obstacles["wreck:car#2"].wreck_of == "car"


def _hits_step(groups: list[HitGroup], **kw: bool) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        yield from take_hits(g, g.state.vehicles["t"], groups, source="test", page=42, **kw)

    return step


def _target(gear: int) -> GameState:
    return table(vehicle("t", "car", 300, 300, 90, player=1, gear=gear),
                 vehicle("o", "car", 800, 800, 0))


def test_evades_cancel_plain_hits_before_blast_hits() -> None:
    groups = [HitGroup("mg", 2), HitGroup("magnum", 2, ("blast",))]
    g = run_step(_target(3), _hits_step(groups), dice=[6, 6, 6])
    assert [grp.uncancelled for grp in groups] == [0, 1]
    t = g.state.vehicles["t"]
    assert (t.hazards, t.hull_points) == (1, 9)


def test_target_chooses_which_special_hits_to_cancel() -> None:
    for pick, hazards in (("fire", 2), ("blast", 1)):
        groups = [HitGroup("magnum", 2, ("blast",)), HitGroup("napalm", 1, ("fire",))]
        g = run_step(_target(2), _hits_step(groups), dice=[6, 1])
        d = g.pending()
        assert d is not None and d.player == 1 and d.kind == "cancel_hit"
        assert [o.value for o in d.options] == ["blast", "fire"]
        play(g, pick)
        t = g.state.vehicles["t"]
        assert (t.hazards, t.hull_points) == (hazards, 8)


def test_non_damaging_hits_and_unevadable_hits() -> None:
    groups = [HitGroup("nets", 3, ("blast",), damaging=False)]
    g = run_step(_target(2), _hits_step(groups, evadable=False))
    t = g.state.vehicles["t"]
    assert rolls(g) == [] and (t.hazards, t.hull_points) == (3, 10)

    groups2 = [HitGroup("mg", 2)]
    state = _target(2)

    def step(g: Game) -> Flow:
        g.attach_untracked("can_evade", "test:no_evade", lambda ok, ctx: False)
        yield from take_hits(g, g.state.vehicles["t"], groups2, source="test", page=33)

    g2 = run_step(state, step)
    assert rolls(g2) == [] and state.vehicles["t"].hull_points == 8
