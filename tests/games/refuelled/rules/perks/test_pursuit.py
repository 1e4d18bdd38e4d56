"""Pursuit perks (Refuelled p.111), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    HAZ,
    SHIFT,
    SLIDE,
    activate,
    drive,
    ev,
    move,
    perked,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import movement_step


def test_on_your_tail_punishes_a_slide_ending_close_by() -> None:
    def hazards(perks: tuple[str, ...], die: int) -> int:
        t = perked(vehicle("t", "car", 600, 540, heading=270), *perks)
        e = vehicle("e", "car", 600, 300, player=1)
        g = run_step(table(e, t), activate("e"), [die])
        assert drive(g, template="short_straight", skid_dice=1, slide="left") is None
        return e.hazards

    assert hazards(("on_your_tail",), SLIDE) == 1 + 1  # the Slide's Hazard and one more
    assert hazards((), SLIDE) == 1
    assert hazards(("on_your_tail",), SHIFT) == 0  # within Short range, but no Slide


def test_schadenfreude_clears_its_hazards_when_a_neighbour_wipes_out() -> None:
    def hazards(perks: tuple[str, ...], x: float) -> int:
        s = perked(vehicle("s", "car", x, 300, hazards=4), *perks)
        w = vehicle("w", "car", 600, 300, hazards=6, player=1)
        g = run_step(table(w, s), wipeouts("w"), [6])
        assert drive(g, lose_control=0.0) is None
        return s.hazards

    assert hazards(("schadenfreude",), 650) == 0
    assert hazards(("schadenfreude",), 900) == 4  # out of Short range
    assert hazards((), 650) == 4


def taunt_then_move(g: Game) -> Flow:
    g.state.gear_phase = 1
    yield from activation(g, g.state.vehicles["v"])
    g.state.active = "t"
    yield from movement_step(g, g.state.vehicles["t"])


def test_taunt_puts_a_skid_result_on_a_dashboard_that_must_be_resolved() -> None:
    v = perked(vehicle("v", "car", 600, 300), "taunt")
    t = vehicle("t", "car", 600, 520, player=1)
    # Taunt rolls a Hazard; the taunted car rolls one Shift but may not cancel the Hazard.
    g = run_step(table(v, t), taunt_then_move, [HAZ, SHIFT])
    d = drive(g, template=["short_straight"], taunt="t")
    assert d is not None and d.kind == "template" and d.player == 1
    assert t.conditions == {"taunted:hazard": 1}
    g.apply("medium_straight")
    d = drive(g, skid_dice=1, spend_shift=[])
    assert d is not None and d.kind == "spend_shift"
    assert "cancel:1" not in values(d)  # the taunted die (index 1) may not be cancelled
    g.apply("done")
    assert drive(g) is None
    assert t.hazards == 1 and not t.conditions


def test_taunt_shift_does_nothing() -> None:
    v = perked(vehicle("v", "car", 600, 300), "taunt")
    t = vehicle("t", "car", 600, 520, player=1)
    g = run_step(table(v, t), activate("v"), [SHIFT])
    assert drive(g, template="short_straight") is None
    assert not t.conditions and not ev(g, "decision", decision="taunt")


def test_out_run_rattles_slower_vehicles_within_short_range() -> None:
    def hazards(perks: tuple[str, ...]) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 300, gear=3), *perks)
        slow = vehicle("slow", "car", 660, 560, gear=2, player=1)
        fast = vehicle("fast", "car", 540, 560, gear=3, player=1)
        g = run_step(table(v, slow, fast), activate("v"))
        assert drive(g, template="medium_straight") is None
        return slow.hazards, fast.hazards

    assert hazards(("out_run",)) == (1, 0)
    assert hazards(()) == (0, 0)


def test_pit_pushes_the_enemy_onto_a_hazardous_template() -> None:
    def play(perks: tuple[str, ...], reaction: str) -> tuple[list[object], tuple[float, float]]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        t = vehicle("t", "car", 600, 400, heading=0, gear=3, player=1)
        g = run_step(table(v, t), move("v"), [1] * 10)
        d = drive(g, template="medium_straight")
        assert d is not None and d.kind == "collision_reaction"
        offered = values(d)
        g.apply(reaction if reaction in offered else "smash")
        assert drive(g, collision_reaction="evade", pit="hard") is None
        return offered, (round(t.pose.x, 3), round(t.pose.y, 3))

    offered, where = play(("pit",), "pit")
    assert offered == ["smash", "evade", "pit"]
    assert where != (600, 400)  # pushed along the Hard template
    offered, where = play((), "pit")
    assert offered == ["smash", "evade"] and where == (600, 400)


def test_unnerving_eye_contact_bars_shifts_from_discarding_hazards() -> None:
    def options(perks: tuple[str, ...]) -> list[object]:
        u = perked(vehicle("u", "car", 650, 300), *perks)
        e = vehicle("e", "car", 600, 300, gear=2, hazards=2, player=1)
        g = run_step(table(e, u), move("e"), [SHIFT])
        d = drive(g, template="medium_straight", skid_dice=1, spend_shift=[])
        assert d is not None and d.kind == "spend_shift"
        return values(d)

    assert "discard_hazard" not in options(("unnerving_eye_contact",))
    assert "discard_hazard" in options(())


