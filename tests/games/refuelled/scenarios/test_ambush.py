"""Savage Highways 2B: Ambush (Refuelled pp.172-173): Swamps, the rig in the centre facing the
Riggers' edge, the Gangers on the edges square to it, the rig starting Wrecked and restarted
by a Rigger vehicle within Short, its wreck kept, and how the game ends."""

from __future__ import annotations

import pytest
from tests.builders import drive, ev, vehicle
from tests.games.refuelled.rules.savage_table import placed, rig

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.engine.votes import respawn_candidates
from carnage.games.refuelled.rules.war_rig import shared_centre
from carnage.games.refuelled.scenarios.ambush import SWAMP
from carnage.games.refuelled.scenarios.savage_highways import memory, the_rig
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.surfaces import SurfaceKind
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import ScriptedDice

GANGERS_EDGES = {"riggers": ["north"], "gangers": ["west", "east"]}


def test_swamps_the_rig_in_the_centre_and_the_gangers_square_to_its_edge() -> None:
    g = build_game(GameSetup(scenario="ambush"), 4, dice=ScriptedDice([3] * 10))
    st = g.state
    drive(g, war_rig_upgrade="selvaggio")
    d = g.pending()
    assert d is not None and d.kind == "swamp" and d.player == 0
    g.apply(next(o.value for o in d.options if o.value != "none"))
    g.apply("none")
    d = g.pending()
    assert d is not None and d.kind == "swamp"
    g.apply(d.options[-1].value)
    swamps = [s for s in st.surfaces.values() if s.id.startswith("swamp")]
    assert len(swamps) == 2 and all(s.kind is SurfaceKind.TREACHEROUS for s in swamps)
    for s in swamps:
        xs = [p[0] for p in s.polygon]
        assert max(xs) - min(xs) == pytest.approx(SWAMP, abs=1e-6)  # Medium across
    d = g.pending()
    assert d is not None and d.kind == "rig_facing"
    g.apply("east")
    rig_ = the_rig(st)
    assert rig_ is not None and rig_.pose.heading == 0.0
    cx, cy = shared_centre(rig_)
    assert (cx, cy) == pytest.approx((610.0, 610.0), abs=0.5)
    assert memory(st)["edges"] == {"riggers": ["east"], "gangers": ["south", "north"]}
    d = g.pending()
    assert d is not None and all(str(o.value).startswith("east:") for o in d.options)
    while (d := g.pending()) is not None and d.player == 0:
        g.apply(d.options[0].value)
    d = drive(g, deploy=["p2-raider-1-1"])
    assert d is not None and {str(o.value).split(":")[0] for o in d.options} == {"south",
                                                                                 "north"}
    while (d := g.pending()) is not None and d.kind in ("deploy", "edge_pose"):
        g.apply(d.options[0].value)
    # The rig begins Wrecked: no Hull Points, its two wrecks on the table.
    assert rig_.status is Status.WRECKED and rig_.hull_points == 0
    assert sorted(memory(st)["rig_wrecks"]) == ["wreck:p1-big-rig", "wreck:p1-big-rig/trailer"]
    assert all(st.obstacles[o].wreck_of == rig_.id for o in memory(st)["rig_wrecks"])


def wrecked_game(*others: object, dice: list[int], pole: int = 0,
                 physical: bool = False) -> Game:
    r = rig(600, 600)
    g = placed("ambush", r, *others, dice=dice, upgrades=("fuel_pod",), pole=pole,
               edges=GANGERS_EDGES, physical=physical)
    g.scenario.wreck_the_rig(g, r)
    return g


def test_a_rigger_vehicle_within_short_restarts_the_rig_where_it_lies() -> None:
    scout = vehicle("scout", "car", 660, 500, 90, player=0)  # a Short Straight ends beside it
    g = wrecked_game(scout, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 40)
    st = g.state
    r = st.vehicles["rig"]
    assert respawn_candidates(g, 0) == []  # votes cannot
    drive(g, template="short_straight", activate="scout")
    assert ev(g, "rig_restarted") == [{"vehicle": "rig", "by": "scout"}]
    assert r.in_play and r.pose.x == 600 and r.pose.y == 600
    assert r.hull_points == 13  # p.90: half its Hull Value
    assert not memory(st)["rig_wrecks"] or not any(o in st.obstacles
                                                   for o in memory(st)["rig_wrecks"])


def test_its_wreck_cannot_be_removed_by_a_collision() -> None:
    a = vehicle("a", "car", 600, 760, 270, player=1)  # ahead of the cab's wreck (front 640)
    g = wrecked_game(a, vehicle("scout", "car", 100, 100, 90, player=0), dice=[3] * 60, pole=1)
    drive(g, template="short_straight", collision_reaction="evade")
    assert ev(g, "collision")[0]["other"] == "wreck:rig"
    assert ev(g, "wreck_kept") == [{"obstacle": "wreck:rig"}]
    assert "wreck:rig" in g.state.obstacles


def test_the_game_ends_when_no_rigger_is_left_to_restart_the_rig() -> None:
    scout = vehicle("scout", "car", 100, 100, 90, player=0)
    g = wrecked_game(scout, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 40)
    assert g.outcome() is None  # a wreck at the start is no loss
    scout.status = Status.DISQUALIFIED
    g.scenario.check_end(g)
    out = g.outcome()
    assert out is not None and out.winner == 1 and "no Rigger vehicle left" in out.reason


def test_once_restarted_the_rig_escapes_by_either_gangers_edge() -> None:
    r = rig(1100, 600, heading=0, gear=2)
    g = placed("ambush", r, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 20,
               upgrades=("fuel_pod",), edges=GANGERS_EDGES)
    memory(g.state)["restarted"] = True
    drive(g, tanker_anchor="move", template="medium_straight")
    out = g.outcome()
    assert out is not None and out.winner == 0 and ev(g, "escaped")[0]["edge"] == "east"


# -- at a real table (companion mode, rulings CP-22, CP-8) -------------------------------------
def answer(g: Game, **said: list[str]) -> Decision | None:
    """Play on: each table question of a kind in ``said`` takes the next answer listed, any
    other its default; the scout moves a Short Straight. Stops at the first question of a
    kind in ``said`` with no answer left, or a decision past the scout's Movement Step."""
    queues = {k: list(v) for k, v in said.items()}
    while (d := g.pending()) is not None:
        kind = d.kind.removeprefix("table:")
        if kind in queues:
            if not queues[kind]:
                return d
            g.apply(queues[kind].pop(0))
        elif d.kind == "template":
            g.apply("short_straight")
        elif d.kind in ("attack", "activate") and ev(g, "move"):
            return d
        else:
            g.apply(d.options[0].value if d.options else 0.0)
    return None


def test_at_a_real_table_a_rigger_the_people_say_near_the_wreck_restarts_the_rig() -> None:
    # The scout ends far from the wreck on the virtual table; the people say it is within
    # Short of it: the rig restarts where it lies (SH-27).
    scout = vehicle("scout", "car", 100, 100, 90, player=0)
    g = wrecked_game(scout, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 40,
                     physical=True)
    d = answer(g, near_rig_wreck=[])
    assert d is not None and d.kind == "table:near_rig_wreck" and d.vehicle == "scout"
    assert d.target == "rig" and [o.value for o in d.options] == ["no", "yes"]
    g.apply("yes")
    assert ev(g, "rig_restarted") == [{"vehicle": "rig", "by": "scout"}]
    assert g.state.vehicles["rig"].in_play


def test_at_a_real_table_no_restart_when_the_people_say_the_rigger_is_far() -> None:
    # The scout ends beside the wreck on the virtual table (it restarts the rig there); the
    # people say it is beyond Short: the rig stays a wreck.
    scout = vehicle("scout", "car", 660, 500, 90, player=0)
    g = wrecked_game(scout, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 40,
                     physical=True)
    answer(g, near_rig_wreck=["no"])
    assert ev(g, "rig_restarted") == [] and not g.state.vehicles["rig"].in_play


def test_at_a_real_table_the_rig_escapes_by_the_edge_the_people_name() -> None:
    # Mid-table on the virtual table; the people say its Final Position touches the west
    # edge, one of the Gangers' edges: it escapes (CP-8 for the rig's escape edges).
    r = rig(600, 600, heading=0, gear=2)
    g = placed("ambush", r, vehicle("a", "car", 100, 1100, 270, player=1), dice=[3] * 20,
               upgrades=("fuel_pod",), edges=GANGERS_EDGES, physical=True)
    memory(g.state)["restarted"] = True
    d = drive(g, tanker_anchor="move", template="medium_straight",
              **{"table:touching": "none", "table:move_touched": "none", "table:off_table": "no"})
    while d is not None and d.kind != "table:final_on_escape_edge":
        g.apply(d.options[0].value)
        d = g.pending()
    assert d is not None and d.vehicle == "rig"
    assert [o.value for o in d.options] == ["none", "west", "east"]
    g.apply("west")
    out = g.outcome()
    assert out is not None and out.winner == 0 and ev(g, "escaped")[0]["edge"] == "west"
