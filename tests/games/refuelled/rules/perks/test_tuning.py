"""Tuning perks (Refuelled pp.114-115), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    HAZ,
    SHIFT,
    SLIDE,
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
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import movement_step, template_use


def test_fenderkiss_takes_two_dice_off_its_smashes_and_smashes_at_it() -> None:
    def dice(a_perks: tuple[str, ...], b_perks: tuple[str, ...]) -> tuple[int, int]:
        a = perked(vehicle("a", "car", 600, 300, gear=3), *a_perks)
        b = perked(vehicle("b", "car", 600, 360, heading=270, player=1, gear=2), *b_perks)
        g = run_step(table(a, b), collide("a", "b", active="a"), [1] * 12)
        drive(g, collision_reaction="smash")
        got = {s["attacker"]: int(str(s["dice"])) for s in ev(g, "smash_attack")}
        return got["a"], got["b"]

    assert dice(("fenderkiss",), ()) == (3, 3)
    assert dice((), ("fenderkiss",)) == (3, 3)
    assert dice((), ()) == (5, 5)


def test_rear_drive_spins_about_the_front_edge() -> None:
    def end(perks: tuple[str, ...], **answers: object) -> tuple[float, float, float]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SPIN])
        assert drive(g, template="short_straight", skid_dice=1, spin=90.0, **answers) is None
        return round(v.pose.x, 3), round(v.pose.y, 3), v.pose.heading

    # After the move the front edge's centre is at (600, 450); a quarter turn about it.
    assert end(("rear_drive",), rear_drive="front") == (630, 450, 180)
    assert end(("rear_drive",), rear_drive="centre") == (600, 420, 180)
    assert end(()) == (600, 420, 180)


def test_delicate_touch_ignores_hazard_icons() -> None:
    def hazards(perks: tuple[str, ...]) -> tuple[TemplateUse, int]:
        v = perked(vehicle("v", "car", 600, 300, gear=3), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"))
        use = template_use(g, v, "hard", 3)
        assert drive(g, template="hard") is None
        return use, v.hazards

    assert hazards(("delicate_touch",)) == (TemplateUse.PERMITTED, 0)
    assert hazards(()) == (TemplateUse.HAZARDOUS, 1)


def test_momentum_sets_aside_a_spin_to_reroll_a_hazard() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=2), "momentum")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"),
                 [HAZ, SPIN, SHIFT])
    d = drive(g, template="medium_straight", skid_dice=2, momentum=[1, "no"],
              momentum_reroll=[0], spend_shift=[])
    assert d is not None and d.kind == "spend_shift"
    # The Hazard became a Shift; the set-aside Spin may not be cancelled.
    assert "cancel:1" not in values(d)
    g.apply("done")
    assert drive(g, spin=0.0) is None
    assert v.hazards == 1  # the Spin's Hazard only
    plain = vehicle("v", "car", 600, 300, gear=2)
    g = run_step(table(plain, vehicle("far", "car", 100, 1000, player=1)), move("v"), [HAZ, SPIN])
    d = drive(g, template="medium_straight", skid_dice=2, spend_shift=[])
    assert d is not None and "cancel:1" in values(d)


def test_purring_gains_one_hazard_per_kind_of_result_an_activation() -> None:
    def hazards(perks: tuple[str, ...]) -> int:
        v = perked(vehicle("v", "car", 600, 300, gear=2), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"),
                [HAZ, HAZ, SLIDE])
        assert drive(g, template="medium_straight", skid_dice=3, slide="left") is None
        return v.hazards

    assert hazards(("purring",)) == 2  # one Hazard result counted, and the Slide
    assert hazards(()) == 3


def test_skiing_lets_other_vehicles_drive_through_it() -> None:
    def through(perks: tuple[str, ...], answer: str | None) -> tuple[float, bool, int]:
        s = perked(vehicle("s", "car", 800, 150), *perks)
        e = vehicle("e", "car", 800, 100, gear=5, player=1)

        def step(g: Game) -> Flow:
            g.state.gear_phase = 1
            yield from activation(g, s)
            g.state.active = "e"
            yield from movement_step(g, e)

        g = run_step(table(s, e), step, [1] * 10)
        answers: dict[str, object] = {"template": ["short_straight", "long_straight"],
                                      "collision_reaction": "evade"}
        if answer is not None:
            answers["skiing"] = answer
        assert drive(g, **answers) is None
        return e.pose.y, bool(ev(g, "collision")), s.hazards

    # The skier ends at y 240..300; the Long Straight carries e to 310..370, past it.
    assert through(("skiing",), "yes") == (340, False, 3)
    y, collided, _ = through(("skiing",), "no")
    assert collided and y < 340
    assert through((), None)[1]
