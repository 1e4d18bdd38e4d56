"""The rolling road (Refuelled pp.137-138; scenarios/rolling_road.py): exits by the exit
edge, the Leader, exits marked by Gear Phase, disqualification after the phase marking 6, the
table rebuilt and vehicles coming back opposite where they left, in their gear."""

from __future__ import annotations

from tests.builders import drive, ev, rock, vehicle
from tests.games.refuelled.scenarios.road_table import road_game

from carnage.games.refuelled.engine.state import Obstacle, Status
from carnage.games.refuelled.scenarios.rolling_road import LONG, road
from carnage.geometry.shapes import Pose, penetration

POLE_TO_0 = [6, 1]
"""Roll-off: player 1 (seat 0) rolls 6, player 2 rolls 1."""


def test_a_template_over_the_exit_edge_exits_and_makes_the_leader() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)  # front at 1150: 60 mm to go
    b = vehicle("b", "car", 200, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    d = drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert a.status is Status.EXITED and not a.in_play
    assert ev(g, "disqualified") == []
    (out,) = ev(g, "exit")
    assert out["vehicle"] == "a" and out["mark"] == 1 and out["leader"] is True
    assert out["x"] == 450.0 and out["gear"] == 1 and out["table"] == 1
    r = road(g.state)
    assert r["leader"] == "a" and r["exits"]["a"]["mark"] == 1
    # The Leader's controller held the pole: it passed at once to the player on the left.
    assert ev(g, "pole", reason="the Leader hands it on") == [{"player": 1, "reason":
                                                               "the Leader hands it on"}]
    assert d is not None and d.vehicle == "b"


def test_the_final_position_over_the_exit_edge_exits_too() -> None:
    a = vehicle("a", "car", 450, 1090, player=0, gear=1)  # template to 1180; body to 1240
    b = vehicle("b", "car", 200, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert a.status is Status.EXITED and [e["vehicle"] for e in ev(g, "exit")] == ["a"]


def test_a_side_edge_still_disqualifies() -> None:
    a = vehicle("a", "car", 880, 600, heading=0.0, player=0, gear=1)
    b = vehicle("b", "car", 200, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert a.status is Status.DISQUALIFIED and ev(g, "exit") == []


def test_exits_are_marked_by_gear_phase_and_the_sixth_disqualifies_the_rest() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 200, 1000, player=1, gear=2)  # leaves in phase 2: marked 2
    c = vehicle("c", "car", 700, 300, player=1, gear=1)   # never leaves
    g = road_game(a, b, c, dice=POLE_TO_0, obstacles=(
        Obstacle("wreck-x", Pose(700, 700, 0), 60, 30, wreck_of="c"),))
    # Phase 1: a leaves; player 2 moves c then b up the table; phase 2: b leaves.
    drive(g, activate=["c"], template=["short_straight"] * 4, spend_shift="done",
          spend_votes="done")
    marks = {e["vehicle"]: e["mark"] for e in ev(g, "exit")}
    assert marks == {"a": 1, "b": 2}
    (dq,) = ev(g, "disqualified")
    assert dq["vehicle"] == "c" and "marked 6" in dq["reason"]
    # The table was empty after the phase marking 6 (phase 6 of round 1): it is cleared, the
    # round ends, and the next round starts on a new table.
    cleared = ev(g, "table_cleared")
    assert cleared == [{"table": 1, "returning": ["a", "b"]}]
    assert "wreck-x" not in g.state.obstacles
    assert ev(g, "new_table") == [{"table": 2}]
    enters = {e["vehicle"]: e for e in ev(g, "enter")}
    # a (marked 1) comes back at the start of Gear Phase 1, opposite its exit point, gear 1.
    assert enters["a"]["x"] == 450.0 and enters["a"]["y"] == 30.0
    assert enters["a"]["heading"] == 90.0 and enters["a"]["gear"] == 1
    assert g.state.vehicles["a"].in_play and g.state.vehicles["a"].gear == 1


def test_a_vehicle_marked_two_waits_for_gear_phase_two_in_its_gear() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 200, 1000, player=1, gear=2)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"] * 3, spend_shift="done", spend_votes="done")
    # The table emptied in phase 2; new table; a is back in phase 1, b still waits.
    assert g.state.round == 2 and g.state.gear_phase == 1
    assert g.state.vehicles["a"].in_play and not g.state.vehicles["b"].in_play
    d = drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert g.state.gear_phase == 2 and g.state.vehicles["b"].in_play
    b2 = g.state.vehicles["b"]
    assert (b2.pose.x, b2.pose.heading, b2.gear) == (200.0, 90.0, 2)
    assert d is not None


def test_a_re_entry_spot_taken_moves_along_the_entry_edge() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 450, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    sc = g.scenario
    pose = sc.road.entry_spot(g.state, a, 450.0)
    assert pose == Pose(450.0, a.length / 2 + 1e-6, 90.0)
    b.pose = Pose(450.0, 40.0, 90.0)  # standing on the spot
    moved = sc.road.entry_spot(g.state, a, 450.0)
    assert moved is not None and moved.x != 450.0
    a.pose = moved
    assert penetration(a.rect().polygon(), b.rect().polygon()) < 0  # clear of b
    a.pose = Pose(moved.x + (5.0 if moved.x < 450.0 else -5.0), moved.y, 90.0)
    assert penetration(a.rect().polygon(), b.rect().polygon()) >= -1e-6  # the nearest


def test_rebuilt_terrain_lies_beyond_long_of_the_entry_edge_placed_in_turns() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 200, 1120, player=1, gear=1)
    rocks = (rock("rock-1", 450, 100), rock("rock-2", 450, 600), rock("rock-3", 100, 900))
    g = road_game(a, b, obstacles=rocks, dice=POLE_TO_0)
    d = drive(g, activate=["a", "b"], template=["short_straight", "short_straight"],
              spend_shift="done", spend_votes="done")
    assert d is not None and d.kind == "place_terrain"
    seen = []
    while d is not None and d.kind == "place_terrain":
        seen.append((d.player, d.target))
        for o in d.options:
            _, y = (float(t) for t in str(o.value).split(","))
            assert y - 20 > LONG  # a 40 mm rock: wholly beyond Long of the entry edge
        d = drive(g, place_terrain=[d.options[0].value], template=["short_straight"],
                  spend_shift="done", spend_votes="done")
    # Pole order: player 2 has the pole (the Leader's controller handed it on).
    assert seen == [(1, "rock-1"), (0, "rock-2"), (1, "rock-3")]
    obs = [g.state.obstacles[k] for k in ("rock-1", "rock-2", "rock-3")]
    for i, o in enumerate(obs):
        assert min(y for _, y in o.polygon()) > LONG
        for other in obs[i + 1:]:
            assert penetration(o.polygon(), other.polygon()) < 0
    assert [e["obstacle"] for e in ev(g, "terrain_placed")] == ["rock-1", "rock-2", "rock-3"]


def test_a_vehicle_waiting_on_the_road_is_not_respawned_by_votes() -> None:
    from carnage.games.refuelled.engine.votes import respawn_candidates

    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 200, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    g.state.votes[0] = 5
    assert respawn_candidates(g, 0) == []


def test_a_template_over_the_exit_edge_and_a_side_edge_exits() -> None:
    a = vehicle("a", "car", 870, 1150, heading=45.0, player=0, gear=1)  # the top-right corner
    b = vehicle("b", "car", 200, 300, player=1, gear=1)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert a.status is Status.EXITED and ev(g, "disqualified") == []
    assert 0 < ev(g, "exit")[0]["x"] <= 900 - a.width / 2


def test_a_table_is_not_cleared_while_vehicles_are_still_due_to_come_back() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 200, 1000, player=1, gear=2)
    g = road_game(a, b, dice=POLE_TO_0)
    drive(g, template=["short_straight"] * 3, spend_shift="done", spend_votes="done")
    assert road(g.state)["table"] == 2 and g.state.gear_phase == 1
    # On table 2, a leaves again in Gear Phase 1 while b (marked 2) has not come back yet.
    a2 = g.state.vehicles["a"]
    a2.pose = Pose(450, 1120, 90.0)  # as if it had raced up the new table already
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    assert a2.status is Status.EXITED
    assert ev(g, "table_cleared") == [{"table": 1, "returning": ["a", "b"]}]
    assert g.state.vehicles["b"].in_play and g.state.gear_phase == 2
