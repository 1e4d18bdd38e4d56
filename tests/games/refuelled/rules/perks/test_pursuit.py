"""Pursuit perks (Refuelled p.111), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    HAZ,
    SHIFT,
    SLIDE,
    Step,
    activate,
    drive,
    ev,
    move,
    perked,
    play,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import movement_step
from carnage.kernel.effects import run_flows


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




# -- at a real table (companion mode, engine/table_facts.py, ruling CP-18) ----------------------
AT_TABLE = RuleOptions(physical=True)


def opening(vid: str) -> Step:
    """A step: the rules that open ``vid``'s Attack Step (``attack_start``) alone."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active, g.state.step = vid, "attack"
        yield from run_flows(g, "attack_start", {"game": g, "vehicle": v})

    return step


def test_at_a_real_table_out_run_rattles_the_slower_vehicles_the_people_name() -> None:
    # Both slower cars stand far off on the virtual table; the people say only "near" is
    # within Short. The faster one is never asked about (p.111).
    v = perked(vehicle("v", "car", 600, 300, gear=3), "out_run")
    near = vehicle("near", "car", 100, 1000, gear=2, player=1)
    off = vehicle("off", "car", 1000, 1000, gear=1, player=1)
    fast = vehicle("fast", "car", 1000, 100, gear=3, player=1)
    g = run_step(table(v, near, off, fast), opening("v"), options=AT_TABLE)
    d = g.pending()
    assert d is not None and d.kind == "table:within_short" and d.page == 111
    assert d.player == 0 and values(d) == ["none", "near", "off"]
    play(g, "near", "none")
    assert g.pending() is None
    assert (near.hazards, off.hazards, fast.hazards) == (1, 0, 0)


def test_at_a_real_table_taunt_rolls_no_die_when_nobody_is_said_to_be_near() -> None:
    v = perked(vehicle("v", "car", 600, 300), "taunt")
    t = vehicle("t", "car", 600, 420, player=1)  # within Short on the virtual table
    g = run_step(table(v, t), opening("v"), dice=[HAZ], options=AT_TABLE)
    play(g, "none")
    assert g.pending() is None and not rolls(g) and not t.conditions
    # Said near: the die is rolled and may go on its dashboard.
    t = vehicle("t", "car", 100, 1000, player=1)
    g = run_step(table(perked(vehicle("v", "car", 600, 300), "taunt"), t), opening("v"),
                 dice=[HAZ], options=AT_TABLE)
    play(g, "t")
    d = g.pending()
    assert d is not None and d.kind == "taunt" and values(d) == ["no", "t"]
    play(g, "t")
    assert t.conditions == {"taunted:hazard": 1}


def test_at_a_real_table_on_your_tail_asks_the_sliding_enemy_whether_it_is_near() -> None:
    t = perked(vehicle("t", "car", 100, 1000, heading=270), "on_your_tail")
    e = vehicle("e", "car", 600, 300, player=1)
    g = run_step(table(e, t), activate("e"), [SLIDE], options=AT_TABLE)
    d = drive(g, **{"template": "short_straight", "skid_dice": 1, "slide": "left",
                    "table:touching": "none", "table:move_touched": "none",
                    "table:move_interrupted": "no", "table:off_table": "no",
                    "table:in_reach": "none"})
    assert d is not None and d.kind == "table:within_short" and d.player == 1
    assert d.target == "t"
    play(g, "yes")
    assert drive(g, **{"table:touching": "none", "table:in_reach": "none"}) is None
    assert e.hazards == 1 + 1  # the Slide's Hazard and one more


def test_at_a_real_table_unnerving_eye_contact_asks_the_mover_whether_it_is_near() -> None:
    # Far apart on the virtual table; the mover's controller says it is within Short of the
    # unnerving vehicle once its Shift is rolled: no discarding Hazards with it (p.111).
    def options(answer: str) -> list[object]:
        u = perked(vehicle("u", "car", 100, 1000), "unnerving_eye_contact")
        e = vehicle("e", "car", 600, 300, gear=2, hazards=2, player=1)
        g = run_step(table(e, u), move("e"), [SHIFT], options=AT_TABLE)
        d = drive(g, **{"table:touching": "none", "template": "medium_straight",
                        "skid_dice": 1})
        assert d is not None and d.kind == "table:within_short" and d.player == 1
        assert d.target == "u" and values(d) == ["no", "yes"]
        play(g, answer)
        d = g.pending()
        assert d is not None and d.kind == "spend_shift"
        return values(d)

    assert "discard_hazard" not in options("yes")
    assert "discard_hazard" in options("no")


def test_at_a_real_table_schadenfreude_is_asked_again_after_the_flip() -> None:
    # The wiping-out car is said not to be within Short as its wipeout begins; it flips
    # (flip check 1 < gear 3) and is asked again once reset, now near: Hazards cleared (p.111).
    def hazards(after: str) -> int:
        s = perked(vehicle("s", "car", 100, 1000, hazards=4), "schadenfreude")
        w = vehicle("w", "car", 600, 300, gear=3, hazards=6, player=1)
        g = run_step(table(w, s), wipeouts("w"), [1], options=AT_TABLE)
        d = g.pending()
        assert d is not None and d.kind == "table:within_short" and d.player == 1
        assert d.target == "s" and values(d) == ["no", "yes"]
        d = drive(g, **{"table:within_short": ["no"], "table:forced_move_backed_up": "no",
                        "table:off_table": "no", "table:forced_move_ends_touching": "none"})
        assert d is not None and d.kind == "table:within_short" and w.damage == 2
        assert w.hazards == 0 and "after its Flip" in d.prompt
        g.apply(after)
        d = drive(g, lose_control="done", **{"table:pivot_touched": "none"})
        assert d is None
        return s.hazards

    assert hazards("yes") == 0
    assert hazards("no") == 4
