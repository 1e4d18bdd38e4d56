"""The Kart variant's Movement Step is Refuelled's (MK-02, MK-03, MK-05..MK-14): the same
scripted skid dice and choices give the same moves, Hazards, gears and spins in both rulesets,
and the kart ruleset adds nothing to the step's log."""

from __future__ import annotations

import pytest
from tests.builders import play, rock, run_step, table, vehicle

from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import movement_step
from carnage.geometry.movement import final_pose
from carnage.geometry.shapes import Rect
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import KART, REFUELLED

HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def move_car(g: Game) -> Flow:
    yield from movement_step(g, g.state.vehicles["car"])


def trace(g: Game) -> list[tuple[str, dict[str, object]]]:
    return [(e.kind, dict(e.data)) for e in g.log if e.kind != "kart_rule"]


@pytest.mark.parametrize("ruleset", [REFUELLED, KART], ids=["refuelled", "kart"])
def test_shifts_gear_change_and_cancel_as_in_refuelled(ruleset: Ruleset) -> None:
    # MK-03, MK-06..MK-10: Medium Straight in gear 2 rolls Slide and two Shifts; one Shift up
    # a gear, one discards the hazard, the Slide is cancelled.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_car,
                 dice=[SLIDE, SHIFT, SHIFT], ruleset=ruleset)
    play(g, "medium_straight", 3, "no", "gear_up", "discard_hazard", "cancel:0")
    car = g.state.vehicles["car"]
    assert (car.gear, car.hazards, car.damage) == (3, 0, 0)
    assert car.pose.y == pytest.approx(480)


@pytest.mark.parametrize("ruleset", [REFUELLED, KART], ids=["refuelled", "kart"])
def test_push_it_rerolls_chosen_dice_for_a_hazard(ruleset: Ruleset) -> None:
    # MK-09 (ruling MK-R9): Push It re-rolls the chosen dice once, for one more Hazard.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=3, hazards=4)), move_car,
                 dice=[SLIDE, HAZ, 5, 6], ruleset=ruleset)
    play(g, "medium_straight", 2, "0,1")
    car = g.state.vehicles["car"]
    assert car.hazards == 5
    play(g, "discard_hazard", "discard_hazard")
    assert car.hazards == 3


@pytest.mark.parametrize("ruleset", [REFUELLED, KART], ids=["refuelled", "kart"])
def test_slide_spin_and_uncancelled_hazards_as_in_refuelled(ruleset: Ruleset) -> None:
    # MK-11, MK-12, MK-14 (ruling MK-R10): a kept Slide carries the kart clear of a rock; a
    # Spin is a pivot of up to 90 degrees after the move; each uncancelled result is a Hazard.
    start = vehicle("car", "car", 600, 300, heading=90, gear=2)
    body = Rect(start.pose, start.length, start.width)
    end = final_pose(body, "turn")
    g = run_step(table(start, obstacles=[rock("rock", end.x, end.y, 30, 30)]), move_car,
                 dice=[SHIFT, SHIFT, SLIDE], ruleset=ruleset)
    play(g, "turn", 3, "no", "gear_up", "discard_hazard")
    car = g.state.vehicles["car"]
    slid = final_pose(body, "turn", slide="left")
    assert (car.gear, car.hazards) == (3, 1)
    assert (car.pose.x, car.pose.y) == (pytest.approx(slid.x), pytest.approx(slid.y))
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_car, dice=[SPIN],
                 ruleset=ruleset)
    play(g, "medium_straight", 1, "no", "done", -45)
    car = g.state.vehicles["car"]
    assert car.pose.heading == pytest.approx(45) and car.hazards == 1


def test_the_kart_movement_step_logs_exactly_what_refuelleds_does() -> None:
    # MK-05, MK-13: only the Attack Step is renamed; the Movement Step's events are the same.
    logs = []
    for ruleset in (REFUELLED, KART):
        g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_car,
                     dice=[SLIDE, SHIFT, SHIFT], ruleset=ruleset)
        play(g, "medium_straight", 3, "no", "gear_up", "discard_hazard", "cancel:0")
        logs.append(trace(g))
    assert logs[0] == logs[1]
