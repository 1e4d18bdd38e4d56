"""Saturday Night Live's special prizes (Refuelled pp.133-134): the generator and the thirteen
conditions, with exact poses and scripted dice through the real activation flow."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import StepScenario, activate, drive, ev, table, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios.snl_prizes import (
    PRIZES,
    claimable,
    generate,
    install_prizes,
    moment_met,
    near_centre,
    prize_for,
    prizes,
    standing_met,
)
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED


class PrizeStep(StepScenario):
    """A step as the whole game, with the special prizes installed."""

    id = "snl-test"

    def install(self, game: Game) -> None:
        install_prizes(game, "scenario:snl-test")


def game_with(state: GameState, step: Any, dice: list[int], prize: int | None) -> Game:
    if prize is not None:
        prizes(state)["prize"] = prize
    return Game(ruleset=REFUELLED, state=state, scenario=PrizeStep(step),
                dice=ScriptedDice(dice), options=RuleOptions())


def two_cars(gap: float = 200.0, **kw: Any) -> GameState:
    """Blue (player 0) at (300, 300) facing up; Red (player 1) ``gap`` mm beyond its front edge
    (cars are 60 mm long), facing it."""
    blue = vehicle("blue", "car", 300, 300, 90, player=0, **kw)
    red = vehicle("red", "car", 300, 300 + 60 + gap, 270, player=1)
    return table(blue, red, width=900, height=1200)


def test_prize_is_die_plus_gear_phase_plus_round_capped_at_15() -> None:
    assert prize_for(1, 1, 1) == 3
    assert prize_for(4, 2, 3) == 9
    assert prize_for(6, 6, 3) == 15  # "15+"
    with pytest.raises(ValueError, match="1 to 6"):
        prize_for(7, 1, 1)


def test_before_the_first_gear_phase_the_phase_counts_as_one() -> None:
    # Ruling SNL-1: at the start of round 1 no Gear Phase has begun; it counts as 1.
    assert prize_for(1, 0, 1) == 3
    assert prize_for(1, 0, 0) == 3


def test_a_repeat_of_the_last_prize_is_rolled_again() -> None:
    st = two_cars()
    st.round, st.gear_phase = 1, 1

    def step(g: Game) -> Flow:
        generate(g, "test")
        yield from ()

    g = game_with(st, step, [3, 3, 4], prize=5)  # 3+1+1 = 5 repeats twice, then 4+1+1 = 6
    assert [e["dice"] for e in ev(g, "roll", why="special prize")] == [[3], [3], [4]]
    assert prizes(g.state)["prize"] == 6
    assert ev(g, "snl_prize")[-1]["prize"] == 6


def test_prize_3_is_claimed_as_the_activation_starts_and_pays_once_per_activation() -> None:
    st = two_cars()
    # Prize 3 claimed; the new roll is 1+1+1 = 3 again (a repeat, rolled again), then 4.
    g = game_with(st, activate("blue"), [1, 2], prize=3)
    d = g.pending()
    assert d is not None and d.kind == "snl_prize" and d.player == 0 and d.vehicle == "blue"
    g.apply("claim")
    assert g.state.votes == [1, 0]
    assert ev(g, "snl_claim") == [{"player": 0, "vehicle": "blue", "prize": 3}]
    assert prizes(g.state)["prize"] == 4  # Gear 1: prize 4 is not met, nothing more offered
    assert g.pending() is not None and g.pending().kind == "template"


def test_prize_8_a_hazardous_template_is_claimed_at_the_end_of_the_movement_step() -> None:
    st = two_cars(gap=400.0, gear=3)
    g = game_with(st, activate("blue"), [5], prize=8)  # new prize: 5+1+1 = 7
    assert g.pending().kind == "template"
    g.apply("hard")  # Hard is Hazardous in Gear 3 (p.18)
    while (d := g.pending()) is not None and d.kind != "snl_prize":
        g.apply(0 if d.kind == "skid_dice" else d.options[-1].value)
    assert d is not None and d.kind == "snl_prize"
    g.apply("claim")
    assert g.state.votes[0] == 1
    assert prizes(g.state)["prize"] == 7


def test_a_declined_prize_is_offered_again_at_the_end_of_the_next_step() -> None:
    st = two_cars(gap=400.0)
    g = game_with(st, activate("blue"), [], prize=3)
    g.apply("decline")  # ruling SNL-3: left for now
    assert g.state.votes == [0, 0] and prizes(g.state)["prize"] == 3
    d = drive(g)  # Blue's Movement Step (a Short Straight by default, no skid dice)
    assert d is not None and d.kind == "template"
    g.apply("short_straight")
    d = drive(g)
    assert d is not None and d.kind == "snl_prize" and d.vehicle == "blue"
    assert claimable(g, g.state.vehicles["blue"]) == 3


def test_standing_conditions() -> None:
    st = two_cars(gear=3)
    g = game_with(st, lambda g: iter(()), [], prize=None)
    blue, red = g.state.vehicles["blue"], g.state.vehicles["red"]
    assert standing_met(g, 3, red)
    assert standing_met(g, 4, blue) and not standing_met(g, 4, red)  # gears 3 and 1
    g.state.pole = 1
    assert standing_met(g, 6, red) and not standing_met(g, 6, blue)
    assert not standing_met(g, 15, blue)  # a car's max gear is 5
    blue.gear = 5
    assert standing_met(g, 15, blue)
    red.hazards = 8
    assert standing_met(g, 11, blue)  # red is 200 mm away: within Double (300)
    red.pose = red.pose.__class__(300, 300 + 60 + 310, 270)
    assert not standing_met(g, 11, blue)
    blue.hazards = 8
    assert standing_met(g, 11, blue)  # the active vehicle is within Double of itself


@pytest.mark.parametrize(("gap", "met"), [(290.0, True), (310.0, False)])
def test_moment_conditions_need_the_vehicle_within_double(gap: float, met: bool) -> None:
    st = two_cars(gap=gap)
    g = game_with(st, lambda g: iter(()), [], prize=None)
    blue = g.state.vehicles["blue"]
    want = {10} if met else set()
    assert moment_met(g, "damage", {"vehicle": "red", "amount": 1}, blue) == want
    assert moment_met(g, "flip_check", {"vehicle": "red", "flipped": True}, blue) == (
        {12} if met else set())
    assert moment_met(g, "wrecked", {"vehicle": "red"}, blue) == ({13} if met else set())
    assert moment_met(g, "explosion", {"origin": "red"}, blue) == ({14} if met else set())
    # ... and the active vehicle always counts as within Double of itself.
    assert moment_met(g, "damage", {"vehicle": "blue", "amount": 2}, blue) == {10}
    assert moment_met(g, "flip_check", {"vehicle": "red", "flipped": False}, blue) == set()
    assert moment_met(g, "explosion", {"origin": "rock-1"}, blue) == set()  # not a vehicle


def test_prize_7_a_discard_of_the_last_hazard_but_not_the_wipeout_reset() -> None:
    st = two_cars()
    g = game_with(st, lambda g: iter(()), [], prize=None)
    blue = g.state.vehicles["blue"]
    discard = {"vehicle": "blue", "change": -1, "hazards": 0, "why": "thunderous_applause"}
    assert moment_met(g, "hazards", discard, blue) == {7}
    assert moment_met(g, "hazards", {**discard, "why": "wipeout"}, blue) == set()  # SNL-4
    assert moment_met(g, "hazards", {**discard, "hazards": 1}, blue) == set()
    assert moment_met(g, "hazards", {**discard, "vehicle": "red"}, blue) == set()


def test_prize_8_and_9_moments() -> None:
    st = two_cars()
    g = game_with(st, lambda g: iter(()), [], prize=None)
    blue = g.state.vehicles["blue"]
    assert moment_met(g, "template", {"vehicle": "blue", "use": "H"}, blue) == {8}
    assert moment_met(g, "template", {"vehicle": "blue", "use": "P"}, blue) == set()
    prizes(g.state)["orientation"] = "t_bone"
    assert moment_met(g, "reaction", {"vehicle": "blue", "reaction": "smash"}, blue) == {9}
    assert moment_met(g, "reaction", {"vehicle": "blue", "reaction": "evade"}, blue) == set()
    prizes(g.state)["orientation"] = "head_on"
    assert moment_met(g, "reaction", {"vehicle": "blue", "reaction": "smash"}, blue) == set()


def test_prize_5_template_or_final_position_within_short_of_the_centre() -> None:
    st = two_cars()
    g = game_with(st, lambda g: iter(()), [], prize=None)
    # The table is 900 x 1200: centre (450, 600); Short is 60 mm.
    near = [[(500.0, 590.0), (520.0, 590.0), (520.0, 610.0), (500.0, 610.0)]]  # 50 mm away
    far = [[(515.0, 590.0), (530.0, 590.0), (530.0, 610.0), (515.0, 610.0)]]  # 65 mm away
    assert near_centre(g, near)
    assert not near_centre(g, far)


def test_every_prize_has_a_condition() -> None:
    assert sorted(PRIZES) == list(range(3, 16))


def test_when_every_face_gives_the_last_prize_it_stays_without_a_roll() -> None:
    # Ruling SNL-5: in round 13 every roll is 15+; with 15 just claimed nothing else can come.
    st = two_cars()
    st.round, st.gear_phase = 13, 2

    def step(g: Game) -> Flow:
        generate(g, "test")
        yield from ()

    g = game_with(st, step, [], prize=15)
    assert ev(g, "roll", why="special prize") == []
    assert prizes(g.state)["prize"] == 15
    assert ev(g, "snl_prize")[0]["reason"] == "test; no other prize can come up now"
