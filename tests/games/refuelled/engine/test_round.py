"""The round: gear phases, pole position, alternating activations, passing (Refuelled pp.19-20)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import drive, run_step, table, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, GameOver, RuleOptions
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import Status, VehicleState
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.effects import HandlerFn, always
from carnage.kernel.hooks import hooks
from carnage.rulesets import REFUELLED, refuelled_ruleset

WITH_TEST_HOOK = refuelled_ruleset(hooks=REFUELLED.hooks.extended(hooks(
    ("test_activation", "notice", "vehicle", "this test's own hook, run as a vehicle activates"),
)))
"""Refuelled with one more declared hook (a ruleset of the test's own)."""


class OneRound(Scenario):
    """Plays one round and stops."""

    def end_of_gear_phase(self, game: Game) -> None:
        if game.state.gear_phase == 6:
            game.finish(None, "one round", draw=True)

    def check_end(self, game: Game) -> None:
        pass


class Recorded(OneRound):
    """Whole games whose activations only record (phase, vehicle) in ``log`` and run the
    test's own hook (which may change gears): an ``activation_start`` flow claims every
    activation, so the Movement Step is skipped, and the vehicles (unarmed, no Hazards) have
    nothing to do in the other steps but to stop (crew attacks: ``drive`` answers them).
    ``one_round``: stop after one round, else play on
    to ``max_rounds``."""

    def __init__(self, log: list[tuple[int, str]], *, one_round: bool = True,
                 hook: HandlerFn | None = None) -> None:
        self.log = log
        self.one_round = one_round
        self.hook = hook

    def install(self, game: Game) -> None:
        game.effects.add_flow("activation_start", "test", always(self.activation))
        if self.hook is not None:
            game.effects.on("test_activation", "test", self.hook)

    def activation(self, g: Any, ctx: dict[str, Any]) -> Flow:
        v = ctx["vehicle"]
        assert isinstance(v, VehicleState)
        self.log.append((g.state.gear_phase, v.id))
        g.effects.run_event("test_activation", None, {"game": g, "vehicle": v})
        return True
        yield  # a flow: a generator

    def end_of_gear_phase(self, game: Game) -> None:
        if self.one_round:
            super().end_of_gear_phase(game)


def one_round(log: list[tuple[int, str]], *vehicles: VehicleState, pole: int = 0) -> Game:
    st = table(*vehicles)
    st.pole = pole
    return Game(ruleset=WITH_TEST_HOOK, state=st, scenario=Recorded(log))


def test_activation_order_alternates_from_pole() -> None:
    log: list[tuple[int, str]] = []
    g = one_round(
        log,
        vehicle("a1", "car", 100, 100, gear=2, player=0),
        vehicle("a2", "buggy", 200, 100, gear=1, player=0),
        vehicle("b1", "car", 300, 100, gear=3, player=1),
        pole=1,
    )
    # Phase 1: pole (player 1) first; player 0 has two qualifying vehicles: a choice.
    d = drive(g)
    assert d is not None and d.kind == "activate" and d.player == 0
    assert log == [(1, "b1")] and [o.value for o in d.options] == ["a1", "a2"]
    assert drive(g, activate=["a2"]) is None
    # Player 0 still has a1: it activates when its turn comes again (a single option).
    assert log == [(1, "b1"), (1, "a2"), (1, "a1"), (2, "b1"), (2, "a1"), (3, "b1")]
    assert g.pending() is None and g.state.finished
    passes = [e.data["phase"] for e in g.log.of_kind("pass")]
    assert passes.count(4) == 2 and passes.count(6) == 2
    # The engine's own activations ran (the flow only claimed their Movement Steps).
    assert [(e.data["phase"], e.data["vehicle"]) for e in g.log.of_kind("activation")] == log
    assert len(g.log.of_kind("activation_end")) == len(log)


def test_qualifying_is_checked_when_the_chance_comes() -> None:
    # A vehicle that shifts up during its activation qualifies for the next phase (p.20).
    log: list[tuple[int, str]] = []

    def shift_up(_: Any, ctx: dict[str, Any]) -> None:
        v = ctx["vehicle"]
        assert isinstance(v, VehicleState)
        if v.id == "a1" and v.gear < 3:
            v.gear += 1

    st = table(vehicle("a1", "car", 100, 100, gear=1, player=0))
    st.players = 1
    st.votes = [0]
    game = Game(ruleset=WITH_TEST_HOOK, state=st, scenario=Recorded(log, hook=shift_up))
    assert drive(game) is None
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


def test_wrecked_vehicles_do_not_activate() -> None:
    log: list[tuple[int, str]] = []
    gone = vehicle("a2", "car", 200, 100, gear=6, player=0)
    gone.status = Status.WRECKED
    g = one_round(log, vehicle("a1", "car", 100, 100, gear=1, player=0), gone)
    assert drive(g, spend_votes="done") is None  # player 1, nothing in play, gains votes
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


def test_max_rounds_ends_in_a_draw() -> None:
    log: list[tuple[int, str]] = []
    # One player: a second player with no vehicles would gain Audience Votes every round
    # and be asked to spend them (p.88).
    st = table(vehicle("a1", "car", 100, 100, gear=1, player=0), players=1)
    g = Game(ruleset=WITH_TEST_HOOK, state=st, scenario=Recorded(log, one_round=False),
             options=RuleOptions(max_rounds=3))
    assert drive(g) is None
    out = g.outcome()
    assert out is not None and out.draw and out.rounds == 3
    assert log == [(1, "a1")] * 3
