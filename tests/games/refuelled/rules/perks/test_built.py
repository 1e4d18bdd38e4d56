"""Built perks (Refuelled p.106), each with and without the perk."""

from __future__ import annotations

from collections.abc import Callable

from tests.builders import (
    activate,
    attack,
    collide,
    drive,
    move,
    perked,
    run_step,
    table,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.collision import weight_class
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions, ask

PAUSE = [("on", "go on"), ("stop", "-")]


def twice(vid: str) -> Callable[[Game], Flow]:
    """Two activations of ``vid`` with a pause between them."""

    def step(g: Game) -> Flow:
        g.state.gear_phase = 1
        yield from activation(g, g.state.vehicles[vid])
        yield ask(0, "pause", "between activations", PAUSE)
        g.state.gear_phase = 2
        yield from activation(g, g.state.vehicles[vid])

    return step


def test_dead_weight_counts_one_class_heavier_until_its_next_activation() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=2), "dead_weight")
    far = vehicle("far", "car", 100, 1000, player=1)
    g = run_step(table(v, far), twice("v"))
    d = drive(g, template="short_straight", dead_weight=["yes"])
    assert d is not None and d.kind == "pause"
    assert weight_class(g, v) == 3 and v.hazards == 2
    g.apply("on")
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "dead_weight"  # offered again in the new Attack Step
    assert weight_class(g, v) == 2
    plain = vehicle("v", "car", 600, 300, gear=2)
    g = run_step(table(plain, vehicle("far", "car", 100, 1000, player=1)), twice("v"))
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "pause" and weight_class(g, plain) == 2


def test_dead_weight_is_not_offered_to_a_heavyweight() -> None:
    v = perked(vehicle("v", "heavy_truck", 600, 300), "dead_weight")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
    assert drive(g, template="short_straight") is None


def _flip(perks: tuple[str, ...], **answers: object) -> Game:
    v = perked(vehicle("v", "car", 600, 300, gear=3, hazards=6), *perks)
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), wipeouts("v"), [1])
    assert drive(g, lose_control=0.0, **answers) is None
    return g


def test_barrel_roll_flips_off_a_side_edge() -> None:
    # Flip check 1 < gear 3. Off the left side the car rolls the Medium Straight plus its own
    # width (120 + 30 mm) to the west, keeping its facing (ruling PK-6).
    g = _flip(("barrel_roll",), barrel_roll="left")
    v = g.state.vehicles["v"]
    assert (round(v.pose.x, 3), round(v.pose.y, 3), v.pose.heading) == (450, 300, 90)
    assert v.damage == 2
    g = _flip(("barrel_roll",), barrel_roll="rear")
    v = g.state.vehicles["v"]
    assert (round(v.pose.x, 3), round(v.pose.y, 3), v.pose.heading) == (600, 120, 90)
    g = _flip(())
    v = g.state.vehicles["v"]
    assert (round(v.pose.x, 3), round(v.pose.y, 3)) == (600, 480)  # forward, as usual


def test_bruiser_gives_the_enemy_a_hazard_when_it_does_not_evade() -> None:
    def hazards(perks: tuple[str, ...], reaction: str) -> int:
        a = perked(vehicle("a", "car", 600, 300, gear=1), *perks)
        b = vehicle("b", "car", 600, 360, heading=270, player=1, gear=1)
        g = run_step(table(a, b), collide("a", "b", active="a"), [1] * 6)
        assert drive(g, collision_reaction=[reaction, "evade"]) is None
        return g.state.vehicles["b"].hazards

    assert hazards(("bruiser",), "smash") == 1 + 2
    assert hazards(("bruiser",), "evade") == 1  # both evaded: +1 each, nothing from Bruiser
    assert hazards((), "smash") == 2


def test_splashback_strikes_back_at_the_end_of_the_step() -> None:
    def damage(perks: tuple[str, ...]) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 660, 450), *perks)
        e = vehicle("e", "car", 600, 300, player=1)
        # e's Handgun: 6 (two hits), v evades 1; Splashback 6 at e, e evades 1.
        g = run_step(table(v, e), activate("e"), [6, 1, 6, 1])
        assert drive(g, template="short_straight", attack=["handgun>v", "stop"]) is None
        return v.damage, e.damage

    assert damage(("splashback",)) == (2, 2)
    assert damage(()) == (2, 0)


def test_crusher_goes_up_and_over_lighter_obstructions() -> None:
    def stops_at(perks: tuple[str, ...]) -> str | None:
        a = perked(vehicle("a", "car", 600, 300), *perks)
        buggy = vehicle("b", "buggy", 600, 400, heading=0, player=1)
        g = run_step(table(a, buggy), move("a"), [1] * 10)
        d = drive(g, template="medium_straight", collision_reaction=["evade", "evade"])
        return None if d is None else d.kind

    assert stops_at(("crusher",)) == "up_and_over"
    assert stops_at(()) is None


def test_feel_no_pain_shrugs_off_two_hits_from_an_enemy_attack() -> None:
    def damage(perks: tuple[str, ...], dice: list[int]) -> int:
        v = perked(vehicle("v", "car", 600, 400), *perks)
        e = vehicle("e", "car", 600, 300, player=1)  # 40 mm behind v: Handgun range
        g = run_step(table(v, e), attack("e"), dice)
        assert drive(g, attack=["handgun>v", "handgun>v"]) is None
        return v.damage

    assert damage(("feel_no_pain",), [6, 1, 1]) == 0  # two hits, none evaded: cancelled
    assert damage(("feel_no_pain",), [6, 4, 1]) == 3  # three hits: all land
    assert damage((), [6, 1, 1]) == 2


def test_splashback_needs_the_vehicle_still_in_play() -> None:
    v = perked(vehicle("v", "car", 660, 450), "splashback")
    v.damage = v.hull - 1
    e = vehicle("e", "car", 600, 300, player=1)
    far = vehicle("far", "car", 100, 1000)
    # Two hits wreck it; the explosion check rolls 1: no strike back from the wreck.
    g = run_step(table(v, e, far), activate("e"), [6, 1, 1])
    assert drive(g, template="short_straight", attack=["handgun>v", "stop"]) is None
    assert not v.in_play and e.damage == 0


def test_at_a_real_table_barrel_roll_asks_the_edge_then_what_the_roll_met() -> None:
    # Companion mode: the edge is the driver's pick (p.106); the people lay the template
    # there, roll the car and say how the forced move ended (ruling CP-18); the notional pose
    # is not moved by the engine's geometry.
    v = perked(vehicle("v", "car", 600, 300, gear=3, hazards=6), "barrel_roll")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), wipeouts("v"), [1],
                 options=RuleOptions(physical=True))
    d = drive(g, barrel_roll="left")
    assert d is not None and d.kind == "table:forced_move_backed_up" and d.player == 0
    d = drive(g, **{"table:forced_move_backed_up": "no", "table:off_table": "no"})
    assert d is not None and d.kind == "table:forced_move_ends_touching"
    assert [o.value for o in d.options] == ["none", "far"]
    d = drive(g, **{"table:forced_move_ends_touching": "far"})
    assert d is not None and d.kind == "table:collision_edge"  # the window they named
    rolled = [e for e in g.log.events if e.kind == "perk"]
    assert rolled and rolled[0].data["edge"] == "left"
    assert v.damage == 2 and (v.pose.x, v.pose.y, v.pose.heading) == (600, 300, 90)
