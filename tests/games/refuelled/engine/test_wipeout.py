"""The Wipeout Step (Refuelled pp.34-35): order, flip check, flip, reset, lose control."""

from __future__ import annotations

import pytest
from tests.builders import (
    ev,
    example_of_play_table,
    move_and_wipeout,
    play,
    rock,
    rolls,
    run_step,
    table,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import Status
from carnage.kernel.decisions import IllegalChoice

HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def test_example_of_play_p58_60_red_wipes_out_and_blue_spins_it() -> None:
    def both(g: Game) -> Flow:
        yield from move_and_wipeout("red")(g)  # gear phase 1: the head-on crash
        yield from move_and_wipeout("red")(g)  # gear phase 2: Red moves first

    first = [SHIFT, 5, SLIDE, 6, 6, 4, 1, 2, 4, 5, 4, 1, 2]
    # Gear phase 2: skid dice Hazard, Hazard, Spin; Push It rerolls both Hazards into Spins;
    # flip check 5.
    second = [HAZ, HAZ, SPIN, SPIN, SPIN, 5]
    g = run_step(example_of_play_table(), both, dice=first + second)
    play(g, "medium_straight", 3, "no", "cancel:2", "gear_up", "gear_up", "smash", "smash")
    red = g.state.vehicles["red"]
    assert (red.gear, red.hazards) == (3, 4)
    stop_y = red.pose.y
    # Red starts touching Blue, so ignores it; the Medium Straight is trivial in gear 3.
    play(g, "medium_straight", 3, "0,1", "gear_down")
    assert red.gear == 2
    d = g.pending()
    assert d is not None and d.kind == "spin"
    play(g, 30.0)
    # 4 + 1 (Push It) + 1 (gear down) + 3 (Spins) = 9; the book's text says 8, but either
    # way Red is over 6 and wipes out.
    assert ev(g, "wipeout") == [{"vehicle": "red", "hazards": 9, "gear": 2}]
    assert ev(g, "flip_check") == [
        {"vehicle": "red", "roll": 5, "score": 5, "gear": 2, "flipped": False}
    ]
    assert (red.gear, red.hazards) == (1, 0)
    d = g.pending()
    assert d is not None and d.kind == "lose_control" and d.player == 0  # Blue spins Red
    assert d.domain is not None and (d.domain.low, d.domain.high) == (-180.0, 180.0)
    play(g, 180.0)
    assert g.pending() is None
    assert red.pose.y == pytest.approx(stop_y + 180)
    assert red.pose.heading == pytest.approx(300.0)  # 90 + 30 (spin) + 180 (lose control)
    assert ev(g, "pivot", source="lose_control")[0]["turned"] == pytest.approx(180.0)
    assert rolls(g)[-1] == ("flip check", [5])


def test_no_wipeout_below_six_hazards() -> None:
    car = vehicle("car", "car", 600, 300, hazards=5, gear=3)
    g = run_step(table(car), wipeouts("car"))
    assert g.pending() is None and not ev(g, "wipeout")
    assert (car.gear, car.hazards) == (3, 5)


def test_flip_two_unevadable_hits_then_medium_straight_over_everything() -> None:
    # Gear 4, flip check 2: flips. 2 hits with no evade roll, then a forced Medium Straight
    # straight over the rock just ahead, landing clear beyond it (p.35).
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=4, hazards=7)
    boulder = rock("rock", 600, 400)
    g = run_step(table(car, obstacles=[boulder]), wipeouts("car"), dice=[2])
    assert rolls(g) == [("flip check", [2])]  # nothing else rolled: the hits are not evaded
    assert ev(g, "flip") == [{"vehicle": "car", "hits": 2}]
    assert car.damage == 2
    fm = ev(g, "forced_move", source="flip")[0]
    assert fm["template"] == "medium_straight" and not fm["touched"]
    assert (car.pose.x, car.pose.y) == pytest.approx((600, 480))
    assert not ev(g, "collision")
    assert (car.gear, car.hazards) == (1, 0)
    d = g.pending()
    assert d is not None and d.kind == "lose_control" and d.player == 1
    play(g, -90.0)
    assert car.pose.heading == pytest.approx(0.0)


@pytest.mark.parametrize(("roll", "flipped"), [(4, True), (5, False), (6, False)])
def test_worked_example_p34_in_gear_5_a_5_or_more_avoids_the_flip(roll: int,
                                                                   flipped: bool) -> None:
    # p.34: a Flip check needs the current gear or more; in Gear 5 that is a 5+. The car
    # (gear 5, 5 Hazards) takes the Long Straight and rolls one Skid Die: a Hazard, its
    # sixth token, so it wipes out in its Wipeout Step.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=5, hazards=5)
    g = run_step(table(car), move_and_wipeout("car"), dice=[HAZ, roll])
    play(g, "long_straight", 1, "no")
    assert ev(g, "wipeout") == [{"vehicle": "car", "hazards": 6, "gear": 5}]
    assert ev(g, "flip_check") == [
        {"vehicle": "car", "roll": roll, "score": roll, "gear": 5, "flipped": flipped}]
    assert car.damage == (2 if flipped else 0)
    assert bool(ev(g, "forced_move", source="flip")) is flipped
    assert (car.gear, car.hazards) == (1, 0)  # reset either way
    d = g.pending()
    assert d is not None and d.kind == "lose_control"


def test_flip_that_wrecks_ends_the_wipeout() -> None:
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3, hazards=6)
    car.damage = 8  # 2 hull points left
    g = run_step(table(car), wipeouts("car"), dice=[1, 1])  # flip check, explosion check
    assert g.pending() is None  # no lose-control pivot for a wreck
    assert car.status is Status.WRECKED
    assert not ev(g, "forced_move", source="flip")
    assert ev(g, "forced_move", source="skid_to_a_halt")


def test_order_active_first_then_clockwise_from_the_active_player() -> None:
    # Three players; the active vehicle belongs to player 1. Due: a (p0), b (p2), c (p1,
    # active), d (p1). Order: c, then d (player 1's other vehicle), then b (p2), then a (p0).
    vs = [
        vehicle("a", "car", 200, 200, player=0, hazards=6),
        vehicle("b", "car", 400, 200, player=2, hazards=7),
        vehicle("c", "car", 600, 200, player=1, hazards=6),
        vehicle("d", "car", 800, 200, player=1, hazards=9),
        vehicle("e", "car", 1000, 200, player=2, hazards=5),
    ]
    g = run_step(table(*vs, players=3), wipeouts("c"), dice=[6, 6, 6, 6])
    choosers = []
    while (d := g.pending()) is not None:
        choosers.append(d.player)
        play(g, 0.0)
    assert [w["vehicle"] for w in ev(g, "wipeout")] == ["c", "d", "b", "a"]
    # Each is pivoted by the player clockwise of its own controller (ruling CO-7).
    assert choosers == [2, 2, 0, 1]
    assert g.state.vehicles["e"].hazards == 5


def test_lose_control_chooser_for_another_players_vehicle() -> None:
    # Player 0 is active; player 2's vehicle wipes out: player 0 (clockwise of player 2)
    # pivots it, not player 1 (clockwise of the active player) - ruling CO-7.
    active = vehicle("act", "car", 200, 200, player=0)
    victim = vehicle("victim", "car", 600, 200, player=2, hazards=6)
    g = run_step(table(active, victim, vehicle("x", "car", 900, 200, player=1), players=3),
                 wipeouts("act"), dice=[6])
    d = g.pending()
    assert d is not None and d.kind == "lose_control" and d.player == 0


def test_lose_control_pivot_collision_pushes_another_over_six_and_it_wipes_out_too() -> None:
    # "spinner" (6 hazards) pivots into "bystander" (4 hazards) lying just off its side: the
    # collision gives both 2 Hazards, so the bystander wipes out in the same step (p.34);
    # the spinner, already wiped out this step, does not again (ruling CO-5).
    spinner = vehicle("spinner", "car", 600, 300, heading=90, player=0, gear=2, hazards=6)
    bystander = vehicle("bystander", "car", 600 + 15 + 15 + 5, 300, heading=90, player=1,
                        gear=1, hazards=4)
    g = run_step(table(spinner, bystander), wipeouts("spinner"), dice=[6])  # flip check
    play(g, -90.0)  # player 1 turns the spinner clockwise into the bystander
    piv = ev(g, "pivot", vehicle="spinner")[0]
    assert piv["touched"] == ["bystander"] and abs(piv["turned"]) < 90
    play(g, "evade", "evade")  # both evade: +1 Hazard each
    assert spinner.hazards == 1 and bystander.hazards == 5
    assert [w["vehicle"] for w in ev(g, "wipeout")] == ["spinner"]
    g2 = run_step(
        table(vehicle("spinner", "car", 600, 300, heading=90, player=0, gear=2, hazards=6),
              vehicle("bystander", "car", 635, 300, heading=90, player=1, gear=1,
                      hazards=4)),
        wipeouts("spinner"), dice=[6, 6],
    )
    g2.attach_untracked("collision_hazards", "test:rough", lambda n, ctx: 6)
    play(g2, -90.0, "evade", "evade")
    assert [w["vehicle"] for w in ev(g2, "wipeout")] == ["spinner", "bystander"]
    d = g2.pending()
    assert d is not None and d.kind == "lose_control" and d.player == 0
    # The bystander has been reset; the spinner keeps its 6 Hazards for its next Wipeout Step.
    assert g2.state.vehicles["bystander"].hazards == 0
    assert g2.state.vehicles["spinner"].hazards == 6


def test_lose_control_angle_is_validated() -> None:
    g = run_step(table(vehicle("car", "car", 600, 300, hazards=6)), wipeouts("car"), dice=[6])
    with pytest.raises(IllegalChoice, match=r"lose_control: 200 is outside \[-180, 180\] deg"):
        g.apply(200)
    with pytest.raises(IllegalChoice, match="lose_control: expected a number"):
        g.apply("left")
    assert g.pending() is not None


def test_flip_check_and_threshold_hooks() -> None:
    # Without effects: 5 Hazards is no Wipeout. With a threshold of 5 and +1 on the flip
    # check, a roll of 3 in gear 4 scores 4 and does not flip.
    plain = run_step(table(vehicle("car", "car", 600, 300, gear=4, hazards=5)),
                     wipeouts("car"))
    assert not ev(plain, "wipeout")

    def hooked(game: Game) -> Flow:
        game.attach_untracked("wipeout_threshold", "test:nervy", lambda n, ctx: 5)
        game.attach_untracked("flip_check", "test:steady", lambda n, ctx: n + 1)
        yield from wipeouts("car")(game)

    g = run_step(table(vehicle("car", "car", 600, 300, gear=4, hazards=5)), hooked, dice=[3])
    assert ev(g, "flip_check") == [
        {"vehicle": "car", "roll": 3, "score": 4, "gear": 4, "flipped": False}
    ]
