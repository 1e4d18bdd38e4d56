"""What the table's view gives a decision so that it can be played on the board itself
(web/static/js/boardpick.js): where a collision would stop each movement template, the place
each option of any placing decision puts the vehicle, the edges a dropped burst may go off."""

from __future__ import annotations

import pytest
from tests.builders import vehicle
from tests.games.refuelled.engine.test_scenario_view import MarkedGround

from carnage.games.refuelled.engine.game import Game, RuleOptions, ask
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.table_view import pending_view
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.dice import SeededDice
from carnage.rulesets import REFUELLED


class Spawning(MarkedGround):
    """Places for a ``spawn_pose`` decision (not a starting grid): two spots on the near edge."""

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        if decision.kind != "spawn_pose":
            return {}
        return {"a": Pose(100.0, 40.0, 90.0), "b": Pose(200.0, 40.0, 90.0)}


def table(*placed: object, scenario: MarkedGround | None = None) -> Game:
    st = GameState(900.0, 900.0, 2)
    for v in placed:
        st.vehicles[v.id] = v  # type: ignore[attr-defined]
    return Game(ruleset=REFUELLED, state=st, scenario=scenario or MarkedGround(),
                dice=SeededDice(0), options=RuleOptions())


def test_each_template_says_where_a_collision_would_stop_the_vehicle() -> None:
    # The red car (60 mm long, nose at y 330) faces the blue car's side 170 mm ahead (y 500).
    # A move carries the car past the template's end: its nose goes the template's length and
    # its own further (short: to y 450, clear; long: to y 570, through the blue car).
    red = vehicle("red", "car", 450, 300, player=0)
    blue = vehicle("blue", "car", 450, 515, heading=0, player=1)
    g = table(red, blue)
    d = ask(0, "template", "which?", [("short_straight", "Short [T]"),
                                      ("long_straight", "Long [P]")], vehicle="red")
    preview = pending_view(g, d).preview
    assert preview is not None
    stops = preview["stops"]
    assert set(stops) == {"long_straight"}
    stop = stops["long_straight"]
    assert stop["touched"] == ["blue"]
    assert stop["x"] == pytest.approx(450.0, abs=0.01)
    assert stop["y"] == pytest.approx(500.0 - 30.0, abs=0.5)  # nose against the blue car
    assert stop["heading"] == pytest.approx(90.0, abs=0.01)


def test_any_placing_decision_gives_the_pose_of_each_option() -> None:
    g = table(vehicle("red", "car", 450, 300, player=0), scenario=Spawning())
    d = ask(0, "spawn_pose", "where?", [("a", "spot a"), ("b", "spot b")], vehicle="red")
    assert pending_view(g, d).preview == {"vehicle": "red", "poses": {
        "a": {"x": 100.0, "y": 40.0, "heading": 90.0},
        "b": {"x": 200.0, "y": 40.0, "heading": 90.0}}}
    # A decision that places nothing has no places.
    other = ask(0, "push_it", "?", [("no", "no")], vehicle="red")
    assert pending_view(g, other).preview == {"vehicle": "red"}


def test_a_dropped_burst_offers_the_edges_of_its_vehicle() -> None:
    red = vehicle("red", "car", 450, 300, player=0, weapons=[("oil_slick_dropper", "side")])
    g = table(red)
    d = ask(0, "drop_edge", "which edge?", [("left", "left edge"), ("right", "right edge")],
            vehicle="red", weapon="oil_slick_dropper#0")
    preview = pending_view(g, d).preview
    assert preview is not None
    # Facing +y: the left edge is at x 435, the right at x 465; each runs from the offset
    # -30 mm end (the rear, the drop_offset domain's low end) to +30 mm (the front).
    assert preview["edges"] == {"left": [[435.0, 270.0], [435.0, 330.0]],
                                "right": [[465.0, 270.0], [465.0, 330.0]]}
    assert "edge" not in preview
    g.emit("decision", decision="drop_edge", player=0, choice="right")
    offset = Decision(0, "drop_offset", "how far along?", domain=Interval(-30.0, 30.0, "mm"),
                      vehicle="red", weapon="oil_slick_dropper#0")
    preview = pending_view(g, offset).preview
    assert preview is not None
    assert preview["edge"] == "right"
    assert preview["edges"] == {"right": [[465.0, 270.0], [465.0, 330.0]]}
