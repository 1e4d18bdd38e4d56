"""Technology perks (Refuelled p.114), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    SHIFT,
    activate,
    drive,
    ev,
    perked,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, ask
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


def test_rocket_thrusters_flip_along_a_long_straight() -> None:
    def end(perks: tuple[str, ...], **answers: object) -> tuple[float, float]:
        v = perked(vehicle("v", "car", 600, 300, gear=3, hazards=6), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), wipeouts("v"), [1])
        d = drive(g, lose_control=0.0, **answers)
        assert d is None
        return round(v.pose.x, 3), round(v.pose.y, 3)

    assert end(("rocket_thrusters",), rocket_thrusters="long_straight") == (600, 300 + 240)
    assert end(("rocket_thrusters",), rocket_thrusters="medium_straight") == (600, 480)
    assert end(()) == (600, 480)


def test_rocket_thrusters_offer_veer_and_gentle_either_way_up() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=3, hazards=6), "rocket_thrusters")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), wipeouts("v"), [1])
    d = drive(g)
    assert d is not None and values(d) == ["medium_straight", "long_straight", "veer",
                                           "veer/left", "gentle", "gentle/left"]


def _start(perks: tuple[str, ...], dice: list[int], vtype: str = "car") -> Game:
    v = perked(vehicle("v", vtype, 600, 300), *perks)
    e = vehicle("e", "car", 300, 300, player=1)
    return Game(ruleset=REFUELLED, state=table(v, e), scenario=Scenario(), dice=ScriptedDice(dice))


def test_whizbang_draws_a_speed_perk_for_the_game() -> None:
    # D6 1: the first Speed perk, Hot Start, which then rolls the starting gear (4).
    g = _start(("whizbang",), [1, 4])
    v = g.state.vehicles["v"]
    assert v.perks == ["whizbang", "hot_start"] and v.gear == 4
    assert ev(g, "perk", perk="whizbang")[0]["gained"] == "hot_start"
    assert _start((), [1, 4]).state.vehicles["v"].perks == []


def test_gyroscope_draws_a_daring_perk_it_may_take() -> None:
    # D6 6 is Stunt Driver, which a heavyweight may not take: rolled again, 2 is Slippery.
    g = _start(("gyroscope",), [6, 2], vtype="heavy_truck")
    assert g.state.vehicles["v"].perks == ["gyroscope", "slippery"]
    assert [r["dice"] for r in ev(g, "roll", why="random daring perk")] == [[6], [2]]
    g = _start(("gyroscope",), [6], vtype="car")  # a car may
    assert g.state.vehicles["v"].perks == ["gyroscope", "stunt_driver"]


def test_satellite_navigation_banks_a_shift_for_a_teammate() -> None:
    nav = perked(vehicle("nav", "car", 600, 300, gear=2), "satellite_navigation")
    mate = vehicle("mate", "car", 300, 300, gear=2, hazards=1)

    def both(g: Game) -> Flow:
        g.state.gear_phase = 2
        yield from activation(g, nav)
        yield ask(0, "pause", "-", [("on", "on"), ("x", "x")])
        yield from activation(g, mate)

    g = run_step(table(nav, mate, vehicle("far", "car", 100, 1000, player=1)), both, [SHIFT])
    d = drive(g, template=["medium_straight"], skid_dice=[1], satellite_navigation="yes",
              spend_shift=["done"])
    assert d is not None and d.kind == "pause"
    assert nav.conditions == {"sat_nav_shifts": 1}
    g.apply("on")
    d = drive(g, template="medium_straight", skid_dice=0, satellite_navigation_use=1,
              spend_shift=[])
    # The free Shift of the trivial template and the banked one.
    assert d is not None and d.kind == "spend_shift"
    assert d.prompt.endswith("(2 left)")
    g.apply("discard_hazard")
    g.apply("done")
    assert drive(g) is None
    assert mate.hazards == 0 and not nav.conditions


def test_mobile_mechanic_repairs_a_hull_point_for_a_crew_attack() -> None:
    def play(perks: tuple[str, ...], **answers: object) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        v.damage = 3
        t = vehicle("t", "car", 660, 450, player=1)
        g = run_step(table(v, t), activate("v"), [1] * 6)
        assert drive(g, template="short_straight", attack=["handgun>t", "handgun>t"],
                     **answers) is None
        return v.damage, len(ev(g, "declare_attack"))

    assert play(("mobile_mechanic",), mobile_mechanic="yes") == (2, 1)  # crew 2 - 1
    assert play(("mobile_mechanic",), mobile_mechanic="no") == (3, 2)
    assert play(()) == (3, 2)


def test_eureka_arms_it_with_a_weapon_for_one_attack() -> None:
    def twice(g: Game) -> Flow:
        for phase in (1, 2):
            g.state.gear_phase = phase
            yield from activation(g, g.state.vehicles["v"])

    v = perked(vehicle("v", "car", 600, 300), "eureka")
    t = vehicle("t", "car", 600, 700, player=1)
    g = run_step(table(v, t), twice, [1] * 20)
    d = drive(g, template=["short_straight"], eureka="machine_gun", eureka_facing="front",
              attack=[])
    assert d is not None and d.kind == "attack"
    assert "eureka#machine_gun>t" in values(d)  # out of Handgun range, in the MG's
    g.apply("eureka#machine_gun>t")
    d = drive(g, template=["short_straight"], attack=[])
    # Next activation: the Machine Gun is gone and Eureka! is spent (once per game).
    assert [m.key for m in v.weapons] == []
    assert not ev(g, "decision", decision="eureka")[1:]
    assert d is None or "eureka#machine_gun>t" not in values(d)
