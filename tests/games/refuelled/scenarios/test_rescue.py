"""Savage Highways 2A: Rescue (Refuelled pp.169-170): the Gangers choose the upgrade, the rig in
the middle of an edge and the Riggers opposite, the Gangers on the side edges, the Sandstorm
at the end of round 1, the escape by the Riggers' edge and the end at a Gear Phase's start."""

from __future__ import annotations

import pytest
from tests.builders import drive, ev, vehicle
from tests.games.refuelled.rules.savage_table import placed, rig

from carnage.games.refuelled.rules import war_rig_upgrades as wru
from carnage.games.refuelled.scenarios.savage_highways import memory, the_rig
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.kernel.dice import ScriptedDice


def test_the_gangers_choose_the_upgrade_and_deploy_on_the_side_edges() -> None:
    g = build_game(GameSetup(scenario="rescue", players=3), 5, dice=ScriptedDice([3] * 10))
    st = g.state
    d = g.pending()
    assert d is not None and d.kind == "war_rig_upgrade" and d.player == 1  # a Ganger
    g.apply("cow_catcher")
    assert wru.attached(g) == ["cow_catcher"]
    d = g.pending()
    assert d is not None and d.kind == "edge_pose" and d.vehicle == "p1-big-rig"
    values = [str(o.value) for o in d.options]
    assert values and all(v.endswith(":610") for v in values)  # the middle of an edge
    g.apply("south:610")
    rig_ = the_rig(st)
    assert rig_ is not None and rig_.pose.heading == 90.0
    d = g.pending()
    assert d is not None and all(str(o.value).startswith("north:") for o in d.options)
    while (d := g.pending()) is not None and d.player == 0:
        g.apply(d.options[0].value)
    assert memory(st)["edges"]["riggers"] == ["north"]
    d = drive(g, deploy=["p2-raider-1-1"])
    assert d is not None and d.kind == "edge_pose"
    assert {str(o.value).split(":")[0] for o in d.options} == {"west", "east"}
    g.apply("east:590")
    while (d := g.pending()) is not None and d.player == 1:
        assert str(d.options[0].value).startswith(("east:", "p2-"))  # the same edge
        g.apply(d.options[0].value)
    while (d := g.pending()) is not None and d.kind in ("deploy", "edge_pose"):
        if d.kind == "edge_pose" and d.vehicle == "p3-raider-2-1":
            g.apply(next(o.value for o in d.options if str(o.value).startswith("west:")))
        else:
            g.apply(d.options[0].value)
    assert memory(st)["edges"]["p1"] == ["east"] and memory(st)["edges"]["p2"] == ["west"]
    assert d is not None and d.kind == "pole_ganger"
    # Respawns: each Ganger touches their own edge.
    spots = g.scenario.respawn_positions(g, st.vehicles["p3-raider-2-2"])
    assert spots and all(k.startswith("west:") for k in spots)


def test_sandstorm_turns_the_rig_when_round_one_ends() -> None:
    r = rig(600, 600, gear=1)
    g = placed("rescue", r, vehicle("a", "car", 100, 1000, 270, player=1), dice=[3] * 200,
               upgrades=("fuel_pod",), edges={"riggers": ["north"], "p1": ["west"]})
    d = drive(g, tanker_anchor="anchor", tanker_anchor_gear="stay", template="short_straight")
    assert d is not None and d.kind == "sandstorm" and d.player == 1
    assert [o.value for o in d.options] == list(range(-90, 91, 15))
    assert g.state.round == 1 and g.state.gear_phase == 6
    before = r.pose.heading
    g.apply(-90)
    assert ev(g, "sandstorm") == [{"vehicle": "rig", "angle": -90}]
    assert r.pose.heading == pytest.approx((before - 90) % 360)
    assert [e for e in ev(g, "pivot") if e["vehicle"] == "rig"]
    # The bot turns it away from the Riggers' edge (north): it faces south after 90 either way
    assert g.scenario.bot_choice(g, d) in (-90, 90)


def test_the_rig_touching_the_riggers_edge_escapes() -> None:
    r = rig(600, 1100, gear=2)
    g = placed("rescue", r, vehicle("a", "car", 100, 600, 90, player=1), dice=[3] * 20,
               upgrades=("fuel_pod",), edges={"riggers": ["north"], "p1": ["west"]})
    drive(g, tanker_anchor="move", template="medium_straight")
    out = g.outcome()
    assert out is not None and out.winner == 0 and ev(g, "escaped")[0]["edge"] == "north"


def test_a_lost_rig_ends_the_game_when_the_next_gear_phase_begins() -> None:
    r = rig(1170, 600, heading=0, gear=2)  # towards the east edge: not the Riggers'
    g = placed("rescue", r, vehicle("a", "car", 100, 600, 90, player=1), dice=[3] * 40,
               upgrades=("fuel_pod",), edges={"riggers": ["north"], "p1": ["west"]})
    drive(g, tanker_anchor="move", template="medium_straight")
    assert ev(g, "disqualified")[0]["vehicle"] == "rig"
    over = next(i for i, e in enumerate(g.log) if e.kind == "game_over")
    phases = [i for i, e in enumerate(g.log) if e.kind == "gear_phase"]
    assert phases[-1] < over and g.log.events[phases[-1]].data["phase"] == 2
    out = g.outcome()
    assert out is not None and out.winner == 1
    assert out.reason == "a Gear Phase began with the War Rig disqualified"
