"""Speed perks (Refuelled p.113), each with and without the perk."""

from __future__ import annotations

from typing import Any

from tests.builders import (
    SHIFT,
    activate,
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
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.movement import template_use
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


def test_hot_start_rolls_the_starting_gear() -> None:
    def start(perks: tuple[str, ...]) -> Game:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        e = vehicle("e", "car", 300, 300, player=1)
        return Game(ruleset=REFUELLED, state=table(v, e), scenario=Scenario(),
                    dice=ScriptedDice([6, 3]))

    g = start(("hot_start",))
    # A car's max gear is 5: the 6 is rolled again.
    assert [r["dice"] for r in ev(g, "roll", why="hot start")] == [[6], [3]]
    assert g.state.vehicles["v"].gear == 3
    assert start(()).state.vehicles["v"].gear == 1


def _tailgate(perks: tuple[str, ...], b_gear: int, **answers: Any) -> Game:
    a = perked(vehicle("a", "car", 600, 300, gear=2), *perks)
    b = vehicle("b", "car", 600, 360, gear=b_gear, player=1)
    g = run_step(table(a, b), collide("a", "b", active="a"), [1] * 10)
    assert drive(g, **answers) is None
    return g


def test_slipstream_rides_the_other_car_and_changes_gear() -> None:
    g = _tailgate(("slipstream",), 2, collision_reaction=["slipstream"], slipstream="up")
    a, b = g.state.vehicles["a"], g.state.vehicles["b"]
    assert (a.gear, a.hazards, b.hazards) == (3, 1, 0)
    assert [s["dice"] for s in ev(g, "smash_attack")] == [0, 0]
    [forced] = ev(g, "forced_choice", decision="collision_reaction")
    assert forced["choice"] == "no_reaction" and forced["player"] == 1
    plain = _tailgate((), 2, collision_reaction=["smash", "smash"])
    assert (plain.state.vehicles["a"].hazards, plain.state.vehicles["b"].hazards) == (2, 2)


def test_slipstream_is_offered_even_when_the_tailgate_forces_evades() -> None:
    a = perked(vehicle("a", "car", 600, 300, gear=2), "slipstream")
    b = vehicle("b", "car", 600, 360, gear=3, player=1)  # faster front car: both must evade
    g = run_step(table(a, b), collide("a", "b", active="a"), [1] * 10)
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction" and values(d) == [
        "evade", "slipstream"]


def test_overload_rolls_an_extra_die_but_must_change_up() -> None:
    def play(perks: tuple[str, ...], n: int, shifts: list[str]) -> tuple[int, int, list[object]]:
        v = perked(vehicle("v", "car", 600, 300, gear=2), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"),
                [SHIFT] * 4)
        d = drive(g, template="medium_straight", skid_dice=[])
        assert d is not None
        offered = values(d)
        g.apply(n)
        assert drive(g, spend_shift=shifts) is None
        return v.gear, v.hazards, offered

    gear, hazards, offered = play(("overload",), 4, ["done"])
    assert offered == [0, 1, 2, 3, 4] and (gear, hazards) == (2, 1)  # no change up: +1
    assert play(("overload",), 4, ["gear_up", "done"])[:2] == (3, 1)  # the change's own
    assert play(("overload",), 3, ["done"])[:2] == (2, 0)  # no extra die, no penalty
    assert play((), 3, ["done"])[2] == [0, 1, 2, 3]


def test_downshift_rolls_on_after_changing_down() -> None:
    def play(perks: tuple[str, ...], shifts: list[str], **answers: Any) -> float:
        v = perked(vehicle("v", "car", 600, 300, gear=3), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"), [SHIFT])
        assert drive(g, template="medium_straight", skid_dice=1, spend_shift=shifts,
                     **answers) is None
        return v.pose.y

    assert play(("downshift",), ["gear_down", "done"], downshift="yes") == 480 + 120
    assert play(("downshift",), ["gear_down", "done"], downshift="no") == 480
    assert play(("downshift",), ["done"]) == 480  # no change down: not offered
    assert play((), ["gear_down", "done"]) == 480


def test_time_extended_sheds_hazards_after_passing_a_gate() -> None:
    def play(perks: tuple[str, ...], gate: bool, **answers: Any) -> int:
        v = perked(vehicle("v", "car", 600, 300, hazards=3), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"))

        def passed(value: None, ctx: dict[str, Any]) -> None:
            if gate and ctx.get("vehicle") is v:
                g.emit("gate_passed", source="scenario", vehicle=v.id, gate="g1")

        g.attach_untracked("after_move", "test_gate", passed)
        assert drive(g, template="short_straight", **answers) is None
        return v.hazards

    assert play(("time_extended",), True, time_extended=2) == 1
    assert play(("time_extended",), False) == 3
    assert play((), True) == 3


def test_hell_for_leather_long_straight_in_any_gear() -> None:
    v = perked(vehicle("v", "car", 600, 300), "hell_for_leather")
    p = vehicle("p", "car", 600, 600)
    g = run_step(table(v, p, vehicle("far", "car", 100, 1000, player=1)), move("v"))
    for gear in (1, 2, 3, 4):
        assert template_use(g, v, "long_straight", gear) is TemplateUse.PERMITTED
        assert template_use(g, p, "long_straight", gear) is TemplateUse.NOT_PERMITTED
    assert template_use(g, v, "medium_straight", 1) is TemplateUse.TRIVIAL  # others as usual
