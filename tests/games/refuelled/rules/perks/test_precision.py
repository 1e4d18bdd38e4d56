"""Precision perks (Refuelled p.110), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    HAZ,
    SHIFT,
    SPIN,
    collide,
    drive,
    ev,
    move,
    perked,
    run_step,
    table,
    values,
    vehicle,
)

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.game import Flow, Game, ask
from carnage.games.refuelled.engine.movement import movement_step, template_use
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.setup import vehicle_state
from carnage.geometry.shapes import Pose
from carnage.team import TeamSpec, check_team
from carnage.team.model import VehicleSpec


def test_mister_fahrenheit_caps_collision_hazards_at_two_an_activation() -> None:
    def hazards(perks: tuple[str, ...]) -> int:
        a = perked(vehicle("a", "car", 600, 300), *perks)
        b = vehicle("b", "car", 600, 360, heading=270, player=1)
        c = vehicle("c", "car", 630, 300, player=1)  # touching a's right side
        g = run_step(table(a, b, c), collide("a", "b", "c", active="a"), [1] * 20)
        assert drive(g, collision_reaction="smash") is None
        return a.hazards

    assert hazards(("mister_fahrenheit",)) == 2
    assert hazards(()) == 4


def test_moment_of_glory_sets_the_skid_dice_once_a_game() -> None:
    def play(perks: tuple[str, ...], **answers: object) -> Game:
        v = perked(vehicle("v", "car", 600, 300, gear=2), *perks)

        def twice(g: Game) -> Flow:
            g.state.active = "v"
            yield from movement_step(g, v)
            yield ask(0, "pause", "-", [("on", "on"), ("x", "x")])
            yield from movement_step(g, v)

        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), twice,
                [HAZ, SPIN, HAZ, SPIN])
        d = drive(g, template="medium_straight", skid_dice=2, spin=0.0, **answers)
        assert d is not None and d.kind == "pause"
        return g

    g = play(("moment_of_glory",), moment_of_glory="yes",
             moment_of_glory_face=["shift", "shift"])
    v = g.state.vehicles["v"]
    assert v.hazards == 0 and ev(g, "perk", perk="moment_of_glory")[0]["faces"] == [
        "shift", "shift"]
    g.apply("on")
    d = drive(g, template="medium_straight", skid_dice=2)
    assert d is not None and d.kind == "spin"  # no second Moment of Glory
    plain = play(())
    assert plain.state.vehicles["v"].hazards == 2


def test_restraint_discards_a_hazard_when_changing_down() -> None:
    def play(perks: tuple[str, ...], **answers: object) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 300, gear=3, hazards=2), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SHIFT])
        assert drive(g, template="medium_straight", skid_dice=1,
                     spend_shift=["gear_down", "done"], **answers) is None
        return v.gear, v.hazards

    assert play(("restraint",), restraint="yes") == (2, 1)
    assert play(("restraint",), restraint="no") == (2, 3)
    assert play(()) == (2, 3)


def test_expertise_is_one_more_handling_from_the_builder() -> None:
    def built(perks: tuple[str, ...]) -> int:
        spec = TeamSpec(name="t", cans=50, sponsor="miyazaki", vehicles=(
            VehicleSpec(name="v", type="car", perks=perks),))
        report = check_team(spec)
        assert report.valid, [e.message for e in report.errors]
        v = vehicle_state(report.vehicles[0], vid="v", player=0, pose=Pose(600, 300, 90))
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"))
        assert "perk:expertise" not in unplayed_rules(g)
        return g.stat(v, "handling")

    assert built(("expertise",)) == built(()) + 1


def test_trick_driving_uses_the_best_of_the_neighbouring_gears() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=1), "trick_driving")
    plain = vehicle("p", "car", 600, 600, gear=1)
    g = run_step(table(v, plain, vehicle("far", "car", 100, 1000, player=1)), move("v"))
    assert template_use(g, v, "veer", 1) is TemplateUse.TRIVIAL  # as if in gear 2
    assert template_use(g, plain, "veer", 1) is TemplateUse.NOT_PERMITTED
    assert template_use(g, v, "turn", 4) is TemplateUse.PERMITTED  # as if in gear 3
    assert template_use(g, plain, "turn", 4) is TemplateUse.HAZARDOUS
    assert template_use(g, v, "long_straight", 2) is TemplateUse.NOT_PERMITTED  # 1-3: none


def test_easy_rider_discards_one_skid_die_once_a_round() -> None:
    def play(perks: tuple[str, ...], **answers: object) -> tuple[int, list[object]]:
        v = perked(vehicle("v", "car", 600, 300, gear=2), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [HAZ, SHIFT])
        d = drive(g, template="medium_straight", skid_dice=2, **answers)
        assert d is None
        return v.hazards, [x["decision"] for x in ev(g, "decision")]

    hazards, asked = play(("easy_rider",), easy_rider=0)
    assert hazards == 0 and "easy_rider" in asked
    assert play(())[0] == 1


def test_easy_rider_offers_each_rolled_die() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=2), "easy_rider")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [HAZ, SHIFT])
    d = drive(g, template="medium_straight", skid_dice=2)
    assert d is not None and values(d) == ["no", 0, 1]
