"""The round: gear phases, pole position, alternating activations, passing (Refuelled pp.19-20)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import play, run_step, table, vehicle

from carnage.games.refuelled.engine import flow
from carnage.games.refuelled.engine.game import Flow, Game, GameOver, RuleOptions
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import Status, VehicleState
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.effects import HandlerFn
from carnage.kernel.hooks import hooks
from carnage.rulesets import REFUELLED, refuelled_ruleset

WITH_TEST_HOOK = refuelled_ruleset(hooks=REFUELLED.hooks.extended(hooks(
    ("test_activation", "notice", "vehicle", "this test's own hook, run as a vehicle activates"),
)))
"""Refuelled with one more declared hook (a ruleset of the test's own)."""


def recorder(log: list[tuple[int, str]]) -> object:
    """An activation that only records (phase, vehicle) and lets a hook change gears."""

    def activation(g: Game, v: VehicleState) -> Flow:
        v.activated_phases.add(g.state.gear_phase)
        log.append((g.state.gear_phase, v.id))
        g.effects.run_event("test_activation", None, {"game": g, "vehicle": v})
        yield from ()

    return activation


class OneRound(Scenario):
    """Plays one round and stops."""

    def end_of_gear_phase(self, game: Game) -> None:
        if game.state.gear_phase == 6:
            game.finish(None, "one round", draw=True)

    def check_end(self, game: Game) -> None:
        pass


def one_round(*vehicles: VehicleState, pole: int = 0) -> Game:
    st = table(*vehicles)
    st.pole = pole
    return Game(ruleset=WITH_TEST_HOOK, state=st, scenario=OneRound())


def test_activation_order_alternates_from_pole(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[tuple[int, str]] = []
    monkeypatch.setattr(flow, "activation", recorder(log))
    g = one_round(
        vehicle("a1", "car", 100, 100, gear=2, player=0),
        vehicle("a2", "buggy", 200, 100, gear=1, player=0),
        vehicle("b1", "car", 300, 100, gear=3, player=1),
        pole=1,
    )
    # Phase 1: pole (player 1) first; player 0 has two qualifying vehicles: a choice.
    d = g.pending()
    assert d is not None and d.kind == "activate" and d.player == 0
    assert [o.value for o in d.options] == ["a1", "a2"]
    play(g, "a2")
    # Player 0 still has a1: it activates when its turn comes again (a single option).
    assert log == [(1, "b1"), (1, "a2"), (1, "a1"), (2, "b1"), (2, "a1"), (3, "b1")]
    assert g.pending() is None and g.state.finished
    passes = [e.data["phase"] for e in g.log.of_kind("pass")]
    assert passes.count(4) == 2 and passes.count(6) == 2


def test_qualifying_is_checked_when_the_chance_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    # A vehicle that shifts up during its activation qualifies for the next phase (p.20).
    log: list[tuple[int, str]] = []
    monkeypatch.setattr(flow, "activation", recorder(log))

    def shift_up(_: Any, ctx: dict[str, Any]) -> None:
        v = ctx["vehicle"]
        assert isinstance(v, VehicleState)
        if v.id == "a1" and v.gear < 3:
            v.gear += 1

    st = table(vehicle("a1", "car", 100, 100, gear=1, player=0))
    st.players = 1
    st.votes = [0]
    game = Game(ruleset=WITH_TEST_HOOK, state=st, scenario=_HookedOneRound(shift_up))
    assert [p for p, _ in log] == [1, 2, 3]
    assert game.state.vehicles["a1"].gear == 3


def test_worked_example_p20_a_car_in_gear_2_and_a_bike_in_gear_6() -> None:
    # p.20: a car in Gear 2 activates in the first two Gear Phases and not in the other four;
    # a bike in Gear 6 activates in all six. Real activations: Long Straights where the gear
    # permits them, else Medium Straights, no Skid Dice, no gear change.
    car = vehicle("car", "car", 300, 200, gear=2, player=0)
    bike = vehicle("bike", "bike", 900, 200, gear=6, player=1)
    g = Game(ruleset=WITH_TEST_HOOK, state=table(car, bike, height=2000), scenario=OneRound(),
             dice=ScriptedDice([]))
    while (d := g.pending()) is not None:
        opts = [o.value for o in d.options]
        if d.kind == "template":
            g.apply("long_straight" if "long_straight" in opts else "medium_straight")
        else:
            g.apply({"skid_dice": 0, "spend_shift": "done", "attack": "stop"}.get(d.kind, opts[0]))
    seen = [(e.data["phase"], e.data["vehicle"]) for e in g.log.of_kind("activation")]
    assert [p for p, v in seen if v == "car"] == [1, 2]
    assert [p for p, v in seen if v == "bike"] == [1, 2, 3, 4, 5, 6]
    assert (car.gear, bike.gear, car.hazards, bike.hazards) == (2, 6, 0, 0)
    assert not g.log.of_kind("skid_hazards") and not g.log.of_kind("wipeout")


class _HookedOneRound(OneRound):
    def __init__(self, fn: HandlerFn) -> None:
        self.fn = fn

    def install(self, game: Game) -> None:
        game.attach_untracked("test_activation", "test", self.fn)


def test_wrecked_vehicles_do_not_activate(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[tuple[int, str]] = []
    monkeypatch.setattr(flow, "activation", recorder(log))
    gone = vehicle("a2", "car", 200, 100, gear=6, player=0)
    gone.status = Status.WRECKED
    one_round(vehicle("a1", "car", 100, 100, gear=1, player=0), gone)
    assert log == [(1, "a1")]


def test_apply_rejects_illegal_and_finished() -> None:
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)),
                 lambda g: flow_template_only(g))
    with pytest.raises(IllegalChoice, match="not a legal choice"):
        g.apply("warp_drive")
    assert g.choices == [] and not g.log.of_kind("decision")
    g.apply("medium_straight")
    with pytest.raises(GameOver):
        g.apply("medium_straight")


def flow_template_only(g: Game) -> Flow:
    from carnage.games.refuelled.engine.game import ask

    yield ask(0, "template", "pick", [("medium_straight", "M"), ("turn", "T")])


def test_max_rounds_ends_in_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flow, "activation", recorder([]))

    class Endless(Scenario):
        def check_end(self, game: Game) -> None:
            pass

    # One player: a second player with no vehicles would gain Audience Votes every round
    # and be asked to spend them (p.88).
    st = table(vehicle("a1", "car", 100, 100, gear=1, player=0), players=1)
    g = Game(ruleset=WITH_TEST_HOOK, state=st, scenario=Endless(),
             options=RuleOptions(max_rounds=3))
    out = g.outcome()
    assert out is not None and out.draw and out.rounds == 3
