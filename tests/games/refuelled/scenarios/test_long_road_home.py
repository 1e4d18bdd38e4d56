"""Savage Highways 3: Long Road Home (Refuelled pp.173-175): three upgrades, the entry edge
(the table turned), deployment, the rolling road started by the rig's exit, Wheeled Army,
Desperate Flight and the Riggers' three Victory Points."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.builders import drive, ev, values, vehicle
from tests.games.refuelled.rules.savage_table import placed, rig

from carnage.games.refuelled.engine.state import GameState, Status
from carnage.games.refuelled.engine.votes import EFFECTS, respawn_candidates, vote_cost
from carnage.games.refuelled.rules import war_rig_upgrades as wru
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.long_road_home import LongRoadHome, turn_table
from carnage.games.refuelled.scenarios.rolling_road import LONG, road
from carnage.games.refuelled.scenarios.savage_highways import body_polys, the_rig
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import distance
from carnage.kernel.dice import ScriptedDice

ROAD = {"riggers": ["south"], "gangers": ["south"]}
RESPAWN = next(e for e in EFFECTS if e.id == "respawn")


def test_sparse_terrain_beyond_long_of_every_edge_and_the_table_turns() -> None:
    sc = LongRoadHome()
    st = GameState(sc.width, sc.height, 2)
    sc.generate(st, random.Random(3))
    assert 1 <= len(st.obstacles) <= 4
    for o in st.obstacles.values():
        assert all(LONG < x < 1220 - LONG and LONG < y < 1220 - LONG for x, y in o.polygon())
    before = {k: (o.pose.x, o.pose.y) for k, o in st.obstacles.items()}
    turn_table(st, 90.0)  # the west edge becomes the bottom
    for k, o in st.obstacles.items():
        x, y = before[k]
        assert (o.pose.x, o.pose.y) == pytest.approx((1220 - y, x))


def test_setup_three_upgrades_the_entry_edge_and_deployment() -> None:
    g = build_game(GameSetup(scenario="long-road-home"), 2, dice=ScriptedDice([3] * 10))
    st = g.state
    for pick in ("hangers_on", "selvaggio", "cow_catcher"):
        d = g.pending()
        assert d is not None and d.kind == "war_rig_upgrade" and pick in [o.value
                                                                          for o in d.options]
        g.apply(pick)
    assert wru.attached(g) == ["hangers_on", "selvaggio", "cow_catcher"]
    d = g.pending()
    assert d is not None and d.kind == "entry_edge"
    g.apply("north")
    assert ev(g, "entry_edge") == [{"edge": "north", "turned": 180.0}]
    rig_ = the_rig(st)
    assert rig_ is not None and (rig_.pose.x, rig_.pose.heading) == (610.0, 90.0)
    medium, double = 120.0, 300.0
    while (d := g.pending()) is not None and d.player == 0:
        v = st.vehicles[str(d.vehicle)]
        g.apply(d.options[0].value)
        assert min(distance(p, q) for p in body_polys(v) for q in body_polys(rig_)) <= medium
    while (d := g.pending()) is not None and d.kind in ("deploy", "edge_pose"):
        g.apply(d.options[0].value)
        if d.kind == "edge_pose":
            v = st.vehicles[str(d.vehicle)]
            assert min(distance(p, q) for p in body_polys(v)
                       for q in body_polys(rig_)) > double
            assert min(y for p in body_polys(v) for _, y in p) == pytest.approx(0.0, abs=1e-5)


def road_game(*others: object, rig_y: float = 1100, vp: int = 0, **kw: Any) -> Any:
    r = rig(600, rig_y, gear=2)
    g = placed("long-road-home", r, *others, dice=[3] * 200,
               upgrades=("fuel_pod",), edges=ROAD, **kw)
    if vp:
        score.add(g, score.VP, vp, player=0, source="test", page=None)
    return g


def test_no_tanker_anchor_on_the_long_road() -> None:
    g = road_game(vehicle("a", "car", 100, 600, 90, player=1))
    d = g.pending()
    assert d is not None and d.kind == "template" and d.vehicle == "rig"
    assert ev(g, "desperate_flight") == [{"vehicle": "rig"}]


def test_the_rig_leaving_by_the_exit_edge_scores_and_opens_the_road() -> None:
    a = vehicle("a", "car", 300, 1160, 90, player=1, gear=2)  # near the exit edge
    g = road_game(a)
    drive(g, template="medium_straight", activate=["rig", "a"])
    exits = ev(g, "exit")
    assert exits[0]["vehicle"] == "rig" and exits[0]["mark"] == 1 and exits[0]["leader"]
    assert score.total(g, score.VP, 0) == 1
    # The Ganger follows it off in the same phase: marked 1 too.
    assert [e["vehicle"] for e in exits] == ["rig", "a"] and exits[1]["mark"] == 1
    # The table empties: a new one, and both come back in Gear Phase 1 opposite their exits.
    assert ev(g, "new_table")[0]["table"] == 2
    back = ev(g, "enter")[:2]
    assert [e["vehicle"] for e in back] == ["a", "rig"] and all(e["table"] == 2 for e in back)
    assert back[1]["x"] == pytest.approx(exits[0]["x"]) and back[1]["gear"] == exits[0]["gear"]
    assert not [p for p in ev(g, "pole") if p["reason"] == "the Leader hands it on"]


def test_before_the_rig_has_left_the_exit_edge_is_an_ordinary_edge() -> None:
    a = vehicle("a", "car", 300, 1160, 90, player=1, gear=2)
    g = road_game(a, rig_y=300, pole=1)
    drive(g, template="medium_straight")
    assert ev(g, "disqualified")[0]["vehicle"] == "a"
    assert not ev(g, "exit")


def test_the_third_vp_wins_at_once() -> None:
    g = road_game(vehicle("a", "car", 100, 600, 90, player=1), vp=2)
    drive(g, template="medium_straight")
    out = g.outcome()
    assert out is not None and out.winner == 0 and "3 VP" in out.reason


def test_wheeled_army_respawns_with_vehicles_in_play_for_fewer_votes() -> None:
    for vp, cost in ((0, 1), (1, 2), (2, None)):
        g = road_game(vehicle("a", "car", 100, 600, 90, player=1),
                      vehicle("b", "car", 300, 600, 90, player=1), vp=vp)
        st = g.state
        wa = st.vehicles["a"]
        wa.status = Status.WRECKED
        g.log.emit("wrecked", source="test", vehicle="a", player=1, in_collision=False)
        cands = [v.id for v in respawn_candidates(g, 1)]
        if cost is None:
            assert cands == []
        else:
            assert cands == ["a"] and vote_cost(g, 1, RESPAWN) == cost
            spots = g.scenario.respawn_positions(g, wa)
            assert spots and all(k.startswith("south:") for k in spots)
        wa.status = Status.ACTIVE
        assert vote_cost(g, 0, RESPAWN) == 3  # the Riggers: as usual
    assert road(st)["table"] == 1


def test_a_gear_phase_beginning_with_the_rig_wrecked_ends_it_for_the_gangers() -> None:
    g = road_game(vehicle("a", "car", 100, 600, 90, player=1), vp=1)
    st = g.state
    st.vehicles["rig"].status = Status.WRECKED
    assert g.outcome() is None
    g.scenario.check_end_at(g, "gear_phase_start")
    out = g.outcome()
    assert out is not None and out.winner == 1
    assert out.reason == "a Gear Phase began with the War Rig Wrecked"


# -- at a real table (companion mode: CP-8) ------------------------------------------------------
AT_TABLE = {"table:touching": "none", "table:move_touched": "none", "table:in_reach": "none",
            "spend_shift": "done", "spend_votes": "done", "skid_dice": 0,
            "table:move_trailer_room": "yes"}
"""A move at a real table that touched nothing (the rig's trailer found room, CP-24), no
target in reach."""


def test_at_a_real_table_the_rig_reported_past_the_exit_edge_leaves_and_scores() -> None:
    # Mid-table on the virtual table: only the people's word takes the rig over the exit edge.
    g = road_game(vehicle("a", "car", 100, 600, 90, player=1), rig_y=500, physical=True)
    d = drive(g, **AT_TABLE, template=["medium_straight"], **{"table:off_table": ["yes"]})
    assert d is not None and d.kind == "table:past_exit_edge" and d.vehicle == "rig"
    assert d.page == 173
    g.apply("yes")
    assert ev(g, "exit")[0]["vehicle"] == "rig" and score.total(g, score.VP, 0) == 1
    assert not ev(g, "disqualified")


def test_at_a_real_table_the_rigs_final_position_reported_on_the_exit_edge_leaves() -> None:
    g = road_game(vehicle("a", "car", 100, 600, 90, player=1), rig_y=500, physical=True)
    d = drive(g, **AT_TABLE, template=["medium_straight"], **{"table:off_table": ["no"]})
    assert d is not None and d.kind == "table:final_over_exit" and d.vehicle == "rig"
    assert values(d) == ["no", "yes"]
    g.apply("yes")
    assert ev(g, "exit")[0]["vehicle"] == "rig" and score.total(g, score.VP, 0) == 1


def test_at_a_real_table_a_ganger_past_the_edge_before_the_rig_left_is_disqualified() -> None:
    # Before the rig has left a table the exit edge is an ordinary edge: nobody asks which.
    a = vehicle("a", "car", 300, 600, 90, player=1, gear=2)
    g = road_game(a, rig_y=300, pole=1, physical=True)
    drive(g, **AT_TABLE, activate=["a"], template=["medium_straight"],
          **{"table:off_table": ["yes"]})
    assert ev(g, "disqualified")[0]["vehicle"] == "a" and not ev(g, "exit")
    assert not [e for e in g.log if e.kind == "decision"
                and str(e.data["decision"]).startswith("table:past_exit_edge")]
