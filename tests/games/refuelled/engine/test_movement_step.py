"""The Movement Step driven through decisions (Refuelled pp.21-26, 38-41, 86-87)."""

from __future__ import annotations

import pytest
from tests.builders import ev, play, rock, run_step, table, values, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import (
    movement_step,
    parse_template_value,
    template_value,
)
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.movement import final_pose
from carnage.geometry.shapes import Rect, penetration
from carnage.geometry.surfaces import SurfaceKind, surface_from_rect
from carnage.kernel.decisions import IllegalChoice

# D6 faces read as skid dice (ruling R-1): 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift.
HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def move_first(g: Game) -> Flow:
    yield from movement_step(g, g.state.vehicles["car"])


def test_template_values_roundtrip() -> None:
    assert template_value("turn", True, True) == "turn/left/reverse"
    assert parse_template_value("turn/left/reverse") == ("turn", True, True)
    assert parse_template_value("medium_straight") == ("medium_straight", False, False)


def test_permitted_templates_by_gear_without_touch_it_use_it() -> None:
    opts = RuleOptions(touch_it_use_it=False)
    g6 = run_step(table(vehicle("car", "performance_car", 600, 300, gear=6)), move_first,
                  options=opts)
    # Gear 6 permits only the Long Straight (p.18), so the choice was taken automatically.
    assert g6.log.of_kind("forced_choice")[0].data["choice"] == "long_straight"
    g1 = run_step(table(vehicle("car", "car", 600, 300, gear=1)), move_first, options=opts)
    v1 = values(g1.pending())
    # Gear 1: Short/Medium Straight, Gentle, Turn, Hard, Hairpin, forward and in reverse (p.39).
    assert "medium_straight/reverse" in v1 and "hairpin/left/reverse" in v1
    assert not any(v.startswith(("veer", "swerve", "long_straight")) for v in v1)
    g5 = run_step(table(vehicle("car", "car", 600, 300, gear=5)), move_first, options=opts)
    assert {parse_template_value(v)[0] for v in values(g5.pending())} == {
        "gentle", "swerve", "long_straight"
    }
    assert not any("reverse" in v for v in values(g5.pending()))


def test_trivial_medium_straight_free_shift_changes_gear() -> None:
    # p.40 "your first activation": Medium Straight is trivial in gear 1; no skid dice; the
    # free Shift changes up to gear 2 with a hazard.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=1)), move_first)
    play(g, "medium_straight", 0)
    d = g.pending()
    assert d is not None and d.kind == "spend_shift"
    assert "gear_up" in values(d) and "discard_hazard" not in values(d)
    play(g, "gear_up")
    car = g.state.vehicles["car"]
    assert (car.gear, car.hazards) == (2, 1)
    # Final position: rear edge centred on the far end (p.25): 30 + 120 + 30 mm ahead.
    assert car.pose.x == pytest.approx(600) and car.pose.y == pytest.approx(480)
    assert g.pending() is None


def test_hazardous_template_adds_a_hazard_on_selection() -> None:
    # Veer is hazardous in gear 4 (p.38).
    g = run_step(table(vehicle("car", "car", 600, 300, gear=4)), move_first)
    play(g, "veer", 0)
    assert g.state.vehicles["car"].hazards == 1
    assert g.log.of_kind("hazards")[0].source == "hazardous_manoeuvre"


def test_touch_it_use_it_hands_the_choice_to_the_next_player() -> None:
    # Gear 5 car touches the Hairpin (not permitted): player 1 must pick a permitted template
    # for it, and no skid dice may be rolled (p.38).
    g = run_step(table(vehicle("car", "car", 600, 300, gear=5)), move_first)
    play(g, "hairpin")
    d = g.pending()
    assert d is not None and d.player == 1 and d.kind == "template"
    assert "hairpin" not in values(d)
    with pytest.raises(IllegalChoice):
        g.apply("hairpin")
    play(g, "gentle")  # hazardous in gear 5: +1 hazard for the active vehicle
    assert g.pending() is None  # no skid dice decision
    car = g.state.vehicles["car"]
    assert car.hazards == 1 and not g.log.of_kind("roll")


def test_skid_example_one_through_the_engine() -> None:
    # p.40 example one: car, handling 3, gear 2, Medium Straight (trivial), rolls Slide and
    # two Shifts; up to gear 3, discard that hazard, cancel the Slide.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_first,
                 dice=[SLIDE, SHIFT, SHIFT])
    play(g, "medium_straight", 3, "no", "gear_up", "discard_hazard", "cancel:0")
    car = g.state.vehicles["car"]
    assert (car.gear, car.hazards) == (3, 0)
    assert g.log.of_kind("roll")[0].data["dice"] == [SLIDE, SHIFT, SHIFT]
    assert car.pose.y == pytest.approx(480)


def test_push_it_rerolls_chosen_dice_and_adds_a_hazard() -> None:
    g = run_step(table(vehicle("car", "car", 600, 300, gear=3, hazards=4)), move_first,
                 dice=[SLIDE, HAZ, 5, 6])
    play(g, "medium_straight", 2, "0,1")
    car = g.state.vehicles["car"]
    assert car.hazards == 5
    d = g.pending()
    assert d is not None and d.kind == "spend_shift"
    play(g, "discard_hazard", "discard_hazard")
    assert car.hazards == 3


def test_uncancelled_hazard_results_add_hazards() -> None:
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_first,
                 dice=[HAZ, HAZ, HAZ])
    play(g, "medium_straight", 3, "no", "done")
    assert g.state.vehicles["car"].hazards == 3


def test_example_activation_slide_around_the_rock() -> None:
    # p.36: Blue car in gear 2 picks the Turn; a rock overlaps its final position. Three skid
    # dice: two Shifts and a Slide. Shift up to gear 3, discard that hazard, keep the Slide,
    # take its hazard; the slide carries the car clear of the rock.
    start = vehicle("car", "car", 600, 300, heading=90, gear=2)
    body = Rect(start.pose, start.length, start.width)
    end = final_pose(body, "turn")
    boulder = rock("rock", end.x, end.y, 30, 30)
    g = run_step(table(start, obstacles=[boulder]), move_first, dice=[SHIFT, SHIFT, SLIDE])
    play(g, "turn", 3, "no", "gear_up", "discard_hazard")
    car = g.state.vehicles["car"]
    assert (car.gear, car.hazards) == (3, 1)
    moved = g.log.of_kind("move")[-1].data
    assert moved["interrupted"] is False and moved["touched"] == []
    slid = final_pose(body, "turn", slide="left")
    assert (car.pose.x, car.pose.y) == (pytest.approx(slid.x), pytest.approx(slid.y))
    assert g.pending() is None


def test_leaving_the_table_disqualifies() -> None:
    # p.87: a Long Straight from near the top edge reaches past it.
    g = run_step(table(vehicle("car", "car", 600, 1100, gear=5), height=1200), move_first)
    play(g, "long_straight", 0)
    car = g.state.vehicles["car"]
    assert car.status is Status.DISQUALIFIED
    assert g.log.of_kind("disqualified")[0].page == 87


def test_rough_and_treacherous_surfaces_add_hazards() -> None:
    from carnage.geometry.shapes import Pose

    st = table(vehicle("car", "car", 600, 300, gear=1))
    st.surfaces["mud"] = surface_from_rect(
        "mud", SurfaceKind.ROUGH, Rect(Pose(600, 400, 0), 50, 50)
    )
    st.surfaces["ice"] = surface_from_rect(
        "ice", SurfaceKind.TREACHEROUS, Rect(Pose(600, 470, 0), 50, 50)
    )
    g = run_step(st, move_first)
    play(g, "medium_straight", 0, "done")
    assert g.state.vehicles["car"].hazards == 3  # rough +1, treacherous +2 (p.86)


@pytest.mark.parametrize(("road_to", "offered"), [(600.0, True), (480.0, False)])
def test_a_move_wholly_on_road_may_discard_a_hazard(road_to: float, offered: bool) -> None:
    # p.86: the 30 mm wide car (y 270..330) takes the Medium Straight (330..480) to its
    # Final Position (y 450..510). A road 80 mm wide from y=200 to ``road_to`` holds all of
    # that, or stops at the template's end so the Final Position hangs off it.
    from carnage.geometry.shapes import Pose

    st = table(vehicle("car", "car", 600, 300, gear=1, hazards=2))
    st.surfaces["road"] = surface_from_rect(
        "road", SurfaceKind.ROAD, Rect(Pose(600, (200 + road_to) / 2, 90), road_to - 200, 80)
    )
    g = run_step(st, move_first)
    play(g, "medium_straight", 0, "done")
    car = g.state.vehicles["car"]
    d = g.pending()
    if not offered:
        assert d is None and car.hazards == 2
        return
    assert d is not None and d.kind == "road_surface" and d.page == 86 and d.vehicle == "car"
    assert values(d) == ["yes", "no"]
    g.apply("yes")
    assert car.hazards == 1
    assert g.log.of_kind("hazards")[-1].source == "road_surface"


def test_a_spin_off_the_road_loses_the_road_discard() -> None:
    # p.86: the Final Position counts after all Skid Dice, so after the Spin. The road is
    # 40 mm wide: template (35) and car (30) fit straight, but turned 45 degrees the car's
    # corners leave it.
    from carnage.geometry.shapes import Pose

    st = table(vehicle("car", "car", 600, 300, gear=2, hazards=1))
    st.surfaces["road"] = surface_from_rect(
        "road", SurfaceKind.ROAD, Rect(Pose(600, 400, 90), 400, 40))
    g = run_step(st, move_first, dice=[SPIN])
    play(g, "medium_straight", 1, "no", "done", 45)
    assert g.pending() is None
    assert g.state.vehicles["car"].hazards == 2  # 1 + the Spin's, none discarded


def test_reversing_in_gear_one_ends_front_edge_on_the_far_edge() -> None:
    # p.39: template laid from the rear edge; the front edge ends on the far edge. Car 60 mm
    # long heading +y at y=300: rear edge at 270, Short Straight to 210, front edge there, so
    # the centre ends at 180, still facing +y.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=1)), move_first)
    play(g, "short_straight/reverse", 0, "done")
    car = g.state.vehicles["car"]
    assert (car.pose.x, car.pose.y, car.pose.heading) == (
        pytest.approx(600), pytest.approx(180), pytest.approx(90)
    )
    assert car.reversing


def test_spin_is_a_continuous_decision_within_ninety_degrees() -> None:
    # An uncancelled Spin: +1 hazard, then after the final position the player pivots the car
    # about its centre by up to 90 degrees either way (p.24).
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), move_first, dice=[SPIN])
    play(g, "medium_straight", 1, "no", "done")
    d = g.pending()
    assert d is not None and d.kind == "spin" and d.domain is not None
    assert (d.domain.low, d.domain.high) == (-90, 90)
    with pytest.raises(IllegalChoice, match="outside"):
        g.apply(120)
    g.apply(-45)
    car = g.state.vehicles["car"]
    assert car.pose.heading == pytest.approx(45) and car.hazards == 1
    assert (car.pose.x, car.pose.y) == (pytest.approx(600), pytest.approx(480))


def test_obstruction_touched_at_the_start_is_ignored() -> None:
    # p.45: a crate touching the car's front edge is ignored this Movement Step: the car drives
    # through it without a collision and ends beyond it.
    crate = rock("crate", 600, 345, 30, 30)  # its near edge at y = 330, the car's front edge
    g = run_step(table(vehicle("car", "car", 600, 300, gear=1), obstacles=[crate]), move_first)
    play(g, "medium_straight", 0, "done")
    assert g.log.of_kind("ignoring")[0].data["obstructions"] == ["crate"]
    assert not g.log.of_kind("collision")
    assert g.state.vehicles["car"].pose.y == pytest.approx(480)


def test_backing_up_never_ends_deeper_in_what_it_started_touching() -> None:
    # p.46: a vehicle that starts touching an obstruction ignores it for the move, but its
    # Final Position backs up until it overlaps nothing, that obstruction too. The car
    # starts touching the rock on its left (a 0.05 mm overlap is within the touch
    # tolerance, GM-7); the reversing Hairpin would end beside its start, 10 mm into the
    # rock, so it backs up along the template until clear of it.
    car = vehicle("car", "car", 600, 300, heading=90, gear=1)
    g = run_step(table(car, obstacles=[rock("r", 555.05, 300, 60, 60)]), move_first)
    play(g, "hairpin/reverse", 0)
    assert g.pending() is None
    assert ev(g, "ignoring") == [{"vehicle": "car", "obstructions": ["r"]}]
    assert penetration(car.polygon(), g.state.obstacles["r"].polygon()) <= 1e-6
    m = ev(g, "move")[0]
    assert m["interrupted"] and m["touched"] == []  # ignored: no collision
    assert car.pose.y < 300 and car.pose.heading == pytest.approx(314.336, abs=1e-3)
