"""Savage Highways 1: Escape the City (Refuelled pp.168-169): the Riggers' and Gangers' teams
checked, the set-up upgrade, deployment on opposite edges, Road Blocks beyond Long of the rig,
Pole swapping sides, the rig's escape and its loss ending the game at once."""

from __future__ import annotations

import pytest
from tests.builders import armed, drive, ev, vehicle
from tests.games.refuelled.rules.savage_table import placed, rig

from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.rules import war_rig_upgrades as wru
from carnage.games.refuelled.scenarios import SCENARIOS, scenario_class
from carnage.games.refuelled.scenarios.common.selection import ROLLS
from carnage.games.refuelled.scenarios.escape_the_city import EscapeTheCity
from carnage.games.refuelled.scenarios.savage_highways import (
    SAVAGE,
    body_polys,
    gap_to_edge,
    riggers,
    the_rig,
)
from carnage.games.refuelled.setup import GameSetup, SetupError, build_game
from carnage.geometry.shapes import distance
from carnage.kernel.dice import ScriptedDice
from carnage.team import parse_team

SH = ("escape-the-city", "rescue", "ambush", "long-road-home")
LONG, MEDIUM = 180.0, 120.0


def test_registered_on_the_savage_highways_table_and_never_rolled() -> None:
    assert scenario_class("escape-the-city") is EscapeTheCity
    for sid in SH:
        cls = SCENARIOS[sid]
        assert cls.table == SAVAGE and cls.summary and cls.width == cls.height == 1220.0
        assert all(sid not in table.values() for table in ROLLS.values())
    assert EscapeTheCity.page == 168


def riggers_team(**rig_extra: object) -> dict[str, object]:
    rig_spec: dict[str, object] = {"name": "Rig", "type": "war_rig",
                                   "weapons": [{"id": "heavy_machine_gun", "facing": "front"}]}
    rig_spec.update(rig_extra)
    return {"name": "Riggers", "cans": 200, "sponsor": "rutherford", "vehicles": [
        rig_spec, {"name": "Car", "type": "car",
                   "weapons": [{"id": "machine_gun", "facing": "front"}]}]}


def gangers_team(n: int = 2, cans: int = 120) -> dict[str, object]:
    return {"name": "Gang", "cans": cans, "vehicles": [
        {"name": f"Raider {i}", "type": "car", "weapons": [{"id": "machine_gun",
                                                            "facing": "front"}]}
        for i in range(n)]}


def game_with(*teams: dict[str, object], **kw: object) -> object:
    specs = tuple(parse_team(t, f"team {i}") for i, t in enumerate(teams))
    return build_game(GameSetup(scenario="escape-the-city", teams=specs, players=len(specs),
                                **kw), 1)


def test_teams_are_checked_as_riggers_and_gangers() -> None:
    g = game_with(riggers_team(), gangers_team())
    assert g.pending() is not None
    with pytest.raises(SetupError, match="may have no perks"):
        game_with(riggers_team(perks=["powder_keg"]), gangers_team())
    with pytest.raises(SetupError, match="Nitro Booster"):
        game_with(riggers_team(upgrades=["nitro_booster"]), gangers_team())
    sparky = riggers_team(upgrades=["experimental_teleporter"])
    sparky["sponsor"] = "mishkin"
    with pytest.raises(SetupError, match="may not have an electrical upgrade"):
        game_with(sparky, gangers_team())
    with pytest.raises(SetupError, match="one War Rig only"):
        two = riggers_team()
        two["vehicles"] = [*two["vehicles"], {"name": "Rig 2", "type": "war_rig"}]
        game_with(two, gangers_team())
    over = riggers_team()
    over["vehicles"] = [*over["vehicles"], *({"name": f"Truck {i}", "type": "truck"}
                                            for i in range(4))]
    with pytest.raises(SetupError, match="rest of the Riggers' team costs 74 Cans"):
        game_with(over, gangers_team())
    with pytest.raises(SetupError, match="may not field a War Rig"):
        game_with(riggers_team(), riggers_team())
    with pytest.raises(SetupError, match="need a War Rig"):
        game_with(gangers_team(), gangers_team())
    # Three players: the Gangers share 120 Cans, 60 each.
    with pytest.raises(SetupError, match=r"over their share \(60\)"):
        game_with(riggers_team(), gangers_team(5), gangers_team(1))
    with pytest.raises(SetupError, match="Riggers' seat 3"):
        game_with(riggers_team(), gangers_team(), scenario_options=(("riggers", 2),))
    with pytest.raises(SetupError, match="the sides must be the Riggers"):
        game_with(riggers_team(), gangers_team(1), gangers_team(1), sides=((0, 1), (2,)))


def test_the_upgrades_option_is_checked_and_attached() -> None:
    g = build_game(GameSetup(scenario="escape-the-city",
                             scenario_options=(("upgrades", ["fuel_pod"]),)), 1)
    assert wru.attached(g) == ["fuel_pod"]
    assert g.pending() is not None and g.pending().kind == "edge_pose"
    g = build_game(GameSetup(scenario="escape-the-city",  # as --option upgrades=... gives it
                             scenario_options=(("upgrades", "fuel_pod,selvaggio"),)), 1)
    assert wru.attached(g) == ["fuel_pod", "selvaggio"]
    with pytest.raises(SetupError, match="a list of War Rig Upgrade ids"):
        build_game(GameSetup(scenario="escape-the-city", scenario_options=(("upgrades", 3),)), 1)
    with pytest.raises(SetupError, match="'turbo' is not a War Rig Upgrade"):
        build_game(GameSetup(scenario="escape-the-city",
                             scenario_options=(("upgrades", ["turbo"]),)), 1)


def test_deployment_on_opposite_edges_then_road_blocks_beyond_long_of_the_rig() -> None:
    g = build_game(GameSetup(scenario="escape-the-city", players=3), 2,
                   dice=ScriptedDice([3] * 10))
    st = g.state
    d = g.pending()
    assert d is not None and d.kind == "war_rig_upgrade" and d.player == 0
    g.apply("grease_monkey")
    d = g.pending()
    assert d is not None and d.kind == "edge_pose" and d.vehicle == "p1-big-rig"
    assert {str(o.value).split(":")[0] for o in d.options} == {"south", "north", "west", "east"}
    g.apply("west:590")
    rig_ = the_rig(st)
    assert rig_ is not None
    assert gap_to_edge(st, body_polys(rig_), "west") == pytest.approx(0, abs=1e-5)
    assert rig_.pose.heading == 0.0  # square to the edge, facing in
    d = g.pending()
    assert d is not None and all(str(o.value).startswith("west:") for o in d.options)
    drive(g, edge_pose=["west:110", "west:1110"], deploy=["p2-raider-1-1"])
    d = g.pending()
    assert d is not None and d.kind == "edge_pose" and d.player == 1
    assert all(str(o.value).startswith("east:") for o in d.options)  # the Gangers' edge
    g.apply("east:310")
    first = st.vehicles["p2-raider-1-1"]
    d = drive(g, deploy="p2-raider-1-2")
    assert d is not None and d.kind == "edge_pose"
    medium = [str(o.value) for o in d.options]
    assert medium and all(v.startswith("east:") for v in medium)
    for v in medium:  # within Medium of the first vehicle, touching the edge
        s = float(v.split(":")[1])
        assert abs(s - 310.0) - 30.0 <= MEDIUM + 1e-6
    g.apply(medium[0])
    d = g.pending()
    while d is not None and d.kind in ("edge_pose", "deploy"):
        g.apply(d.options[0].value)
        d = g.pending()
    assert d is not None and d.kind == "road_block" and d.player == 1
    spots = [str(o.value) for o in d.options if o.value != "none"]
    assert spots
    from carnage.games.refuelled.scenarios.escape_the_city import ROAD_BLOCK, road_block_pose
    from carnage.geometry.shapes import Rect

    for k in spots:
        poly = Rect(road_block_pose(k), *ROAD_BLOCK).polygon()
        assert min(distance(poly, q) for q in body_polys(rig_)) > LONG
    g.apply(spots[0])
    d = g.pending()
    assert d is not None and d.kind == "road_block" and d.player == 2  # the Gangers take turns
    g.apply("none")
    assert [e["obstacle"] for e in ev(g, "road_block")] == ["road-block-1"]
    assert st.obstacles["road-block-1"].length == 120.0
    d = g.pending()
    assert d is not None and d.kind == "pole_ganger" and d.player == 1
    assert [o.value for o in d.options] == [1, 2]
    g.apply(2)
    assert st.pole == 2 and ev(g, "pole")[-1]["reason"] == "chosen by the Gangers"
    assert first.pose.x > 1100 and riggers(st) == 0


def test_pole_swaps_sides_after_every_gear_phase_round_the_gangers() -> None:
    r = rig(600, 300)
    b = vehicle("b", "car", 100, 1000, 270, player=1)
    c = vehicle("c", "car", 1100, 1000, 270, player=2)
    g = placed("escape-the-city", r, b, c, dice=[3] * 200, upgrades=("fuel_pod",), pole=1,
               players=3)
    from carnage.games.refuelled.scenarios.savage_highways import memory

    memory(g.state)["last_ganger"] = 1
    drive(g, template="short_straight", tanker_anchor="move")
    poles = [e["player"] for e in ev(g, "pole") if e["reason"] == "swaps sides"]
    assert poles[:4] == [0, 2, 0, 1]


def test_the_rig_touching_the_gangers_edge_escapes_and_the_riggers_win() -> None:
    r = rig(600, 1100, gear=2)  # cab front at 1140: a Medium Straight touches the edge
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 600, 90, player=1),
               dice=[3] * 20, upgrades=("fuel_pod",))
    drive(g, tanker_anchor="move", template="medium_straight")
    assert ev(g, "escaped") == [{"vehicle": "rig", "edge": "north"}]
    out = g.outcome()
    assert out is not None and out.winner == 0 and "escaped" in out.reason
    assert r.status is Status.EXITED


def test_the_rig_leaving_by_another_edge_is_disqualified_and_the_gangers_win_at_once() -> None:
    r = rig(1170, 600, heading=0, gear=2)  # facing the east edge, the Riggers' own side
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 600, 90, player=1),
               dice=[3] * 20, upgrades=("fuel_pod",))
    drive(g, tanker_anchor="move", template="medium_straight")
    assert ev(g, "disqualified")[0]["vehicle"] == "rig"
    out = g.outcome()
    assert out is not None and out.winner == 1 and out.reason == "the War Rig was disqualified"
    assert g.state.round == 1 and g.state.gear_phase == 1  # at once, not at a phase's start


def test_respawns_touch_ones_own_edge() -> None:
    r = rig(600, 300)
    a = armed(vehicle("a", "car", 600, 700, 270, player=1), ("machine_gun", "front", None))
    g = placed("escape-the-city", r, a, dice=[3] * 20, upgrades=("fuel_pod",))
    spots = g.scenario.respawn_positions(g, a)
    assert spots and all(k.startswith("north:") for k in spots)
    for p in spots.values():
        assert p.heading == 270.0 and p.y + 30.0 == pytest.approx(1220.0, abs=1e-5)
    mine = g.scenario.respawn_positions(g, r)
    assert mine and all(k.startswith("south:") for k in mine)
