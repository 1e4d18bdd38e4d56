"""The search bot's value of a position counts the goals a vehicle has reached (Death Race's
gates passed, Capture the Flag's flags held), not only how far it is from the next one:
passing a gate is worth more than stopping short of it, though the next gate is further
away; holding a flag more than standing by it."""

from __future__ import annotations

from tests.builders import vehicle
from tests.games.refuelled.scenarios.test_death_race import race

from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter


def red_value(y: float, progress: int) -> float:
    red = vehicle("red", "car", 600, y, player=0)
    blue = vehicle("blue", "car", 300, 560, player=1)  # past Gate 1, 140 mm short of Gate 2
    g = race(red, blue, dice=[6, 1, 3], progress={"red": progress, "blue": 1})
    return RefuelledAdapter(2).values(g)[0]


def test_a_gate_passed_is_worth_more_than_standing_before_it() -> None:
    # Gate 1 lies across y=450 (the straight course of the Death Race tests), Gate 2 at 700.
    short = red_value(415.0, 0)  # nose 5 mm short of Gate 1
    past = red_value(485.0, 1)  # through it, 215 mm from Gate 2
    assert past > short
    # further up the course is better still, and a gate counts more than the ground to it
    assert red_value(650.0, 1) > past
    assert red_value(735.0, 2) > red_value(650.0, 1)


def test_a_scenario_without_goals_reached_values_distance_alone() -> None:
    from carnage.games.refuelled.engine.scenario import Scenario

    assert Scenario.goals_reached(None, None, None) == 0  # type: ignore[arg-type]


def test_a_flag_held_is_worth_more_than_standing_by_it() -> None:
    from tests.games.refuelled.scenarios.test_capture_the_flag import ctf

    def red_value(y: float, holds: bool) -> float:
        red = vehicle("red", "car", 300, y, heading=90, player=0)
        blue = vehicle("blue", "car", 700, 900, heading=270, player=1)
        flags: dict[str, tuple[float, float] | str] = {
            "flag-1": "red" if holds else (300.0, 700.0), "flag-2": (800.0, 100.0)}
        return RefuelledAdapter(2).values(ctf(red, blue, flags=flags, dice=[6, 1]))[0]

    # the second flag is far away: without counting the first, holding it reads as a loss
    assert red_value(640.0, holds=True) > red_value(640.0, holds=False)
