"""Automated Salvage (Refuelled pp.135-136): Magnetic Scavenger Hooks, Ramshackle counters,
Twisted Metal, Scarper, the end and the spoils. Exact poses, scripted dice, the real flow."""

from __future__ import annotations

import random

import pytest
from tests.builders import armed, drive, ev, vehicle
from tests.games.refuelled.scenarios.skirmish_tables import placed

from carnage.games.refuelled.engine.state import GameState, Status
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.automated_salvage import COUNTER, SALVAGE, AutomatedSalvage
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.tokens import on_table
from carnage.games.refuelled.scenarios.skirmish_layout import COUNTER_RADIUS
from carnage.games.refuelled.scenarios.snl_prizes import point_gap

MOVE = dict(skid_dice=0, spend_shift="done", attack="stop")


def sp(g: object, vid: str) -> int:
    return score.vehicle_total(g, SALVAGE, g.state.vehicles[vid])


@pytest.mark.parametrize(("red_x", "gained"), [(360.0, 1), (450.0, 0)])
def test_hooks_a_move_within_short_of_an_enemy_scores_one(red_x: float, gained: int) -> None:
    # Blue's Medium Straight runs from y=330 to y=450 (35 mm wide, so x 282.5-317.5); Red
    # (30 mm wide) stands beside it: 27.5 mm away at x=360 (within Short), 117.5 at x=450.
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", red_x, 450, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[])
    drive(g, template=["medium_straight"], **MOVE)
    assert sp(g, "blue") == gained
    rows = ev(g, "score", vehicle="blue")
    assert [r["reason"] for r in rows] == (
        ["Magnetic Scavenger Hooks (red within Short)"] if gained else [])


def test_hooks_count_once_per_move_however_many_enemies() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 360, 450, 270, player=1)
    red2 = vehicle("red2", "car", 240, 450, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, red2, dice=[])
    drive(g, template=["medium_straight"], **MOVE)
    assert sp(g, "blue") == 1


def test_ramshackle_a_damaged_vehicle_gets_one_counter_on_its_side_per_step() -> None:
    # Blue fires its front machine gun (2 dice, 5 and 4: two hits) at Red ahead; Red in Gear 1
    # rolls one evade die (a 1). Two damage: still one counter, placed as the step ends by
    # Red's controller, touching Red's side edge.
    blue = armed(vehicle("blue", "car", 300, 300, 90, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 300, 560, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[5, 4, 1])
    d = drive(g, template=["short_straight"], skid_dice=0, spend_shift="done",
              attack=["machine_gun#0>red", "stop"])
    assert ev(g, "damage", vehicle="red")[0]["amount"] == 2
    assert d is not None and d.kind == "salvage_counter" and d.player == 1
    assert d.vehicle == "red"
    g.apply("left side, middle")
    counters = on_table(g.state, COUNTER)
    assert len(counters) == 1
    (t,) = counters.values()
    assert point_gap(red.polygon(), (t["x"], t["y"])) == pytest.approx(COUNTER_RADIUS)
    assert t["size"] == 2 * COUNTER_RADIUS


def test_a_move_overlapping_a_counter_salvages_it_but_touching_is_not_enough() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 1000, 270, player=1)
    on_path = ("salvage_counter", (300.0, 420.0), 20.0)
    beside = ("salvage_counter", (328.0, 420.0), 20.0)  # 0.5 mm from the template's edge
    g = placed(AutomatedSalvage, blue, red, dice=[],
               tokens={"salvage-1": on_path, "salvage-2": beside})
    drive(g, template=["medium_straight"], **MOVE)
    assert sp(g, "blue") == 1
    assert sorted(on_table(g.state, COUNTER)) == ["salvage-2"]
    assert ev(g, "token_removed")[0]["reason"] == "salvaged by blue"


def test_at_a_real_table_the_counters_the_people_name_are_salvaged() -> None:
    # On the virtual table the move overlaps salvage-1 only; the people say it overlapped
    # salvage-2 (CP-11): that one is salvaged, 1 SP, and salvage-1 stays.
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 800, 1000, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[], physical=True,
               tokens={"salvage-1": ("salvage_counter", (300.0, 420.0), 20.0),
                       "salvage-2": ("salvage_counter", (700.0, 700.0), 20.0)})
    d = drive(g, template=["medium_straight"], **MOVE, **{
        "table:touching": "none", "table:move_touched": "none", "table:off_table": "no",
        "table:within_short": "none"})
    assert d is not None and d.kind == "table:counters_overlapped" and d.page == 135
    assert (d.vehicle, [str(o.value) for o in d.options]) == (
        "blue", ["none", "salvage-1", "salvage-2"])
    g.apply("salvage-2")
    g.apply("none")  # nothing more
    assert sp(g, "blue") == 1 and sorted(on_table(g.state, COUNTER)) == ["salvage-1"]
    assert ev(g, "token_removed")[0] == {"token": "salvage-2", "token_kind": COUNTER,
                                         "reason": "salvaged by blue"}


def test_at_a_real_table_a_new_counter_may_go_at_any_of_the_six_stations() -> None:
    # Red stands with its left side on the table edge: the exact table offers only its right
    # side's stations; at a real table all six (CP-11), the people keeping it on the table.
    blue = armed(vehicle("blue", "car", 20, 300, 90, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 15, 560, 270, player=1)
    exact = placed(AutomatedSalvage, blue, red, dice=[5, 4, 1])
    d = drive(exact, template=["short_straight"], skid_dice=0, spend_shift="done",
              attack=["machine_gun#0>red", "stop"])
    assert d is not None and d.kind == "salvage_counter" and len(d.options) == 3
    blue = armed(vehicle("blue", "car", 20, 300, 90, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 15, 560, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[5, 4, 1], physical=True)
    d = drive(g, template=["short_straight"], skid_dice=0, spend_shift="done",
              attack=["machine_gun#0>red", "stop"], **{
                  "table:touching": "none", "table:move_touched": "none",
                  "table:off_table": "no", "table:within_short": "none",
                  "table:in_reach": ["none", "red@double"],
                  "table:cover": "no"})
    assert d is not None and d.kind == "salvage_counter" and len(d.options) == 6


def test_twisted_metal_a_wrecked_vehicle_loses_its_points_a_scarpered_one_keeps_them() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 360, 450, 270, player=1)
    red2 = vehicle("red2", "car", 700, 900, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, red2, dice=[])
    g.state.scenario["scores"] = {SALVAGE: {"v:red": 3, "v:red2": 2}}
    g.emit("wrecked", source="damage", page=43, vehicle="red", player=1, in_collision=False)
    assert sp(g, "red") == 0
    assert ev(g, "score", vehicle="red")[0]["reason"] == "Twisted Metal: destroyed"
    red2.status = Status.DISQUALIFIED
    assert score.side_totals(g, SALVAGE, with_vehicles=True)[1] == 2


def test_the_game_stops_when_one_vehicle_is_left_and_the_most_salvage_wins() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 700, 900, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[])
    g.state.scenario["scores"] = {SALVAGE: {"v:blue": 1, "v:red": 2}}
    red.status = Status.DISQUALIFIED  # scarpered with its 2 SP
    g.scenario.check_end(g)
    out = g.outcome()
    assert out is not None and out.winner == 1
    assert out.reason == "most Salvage Points (only one vehicle left): P2 with 2"


def test_three_rounds_then_the_most_salvage_points() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 700, 900, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[])
    g.state.scenario["scores"] = {SALVAGE: {"v:blue": 2}}
    drive(g, template="short_straight", **MOVE)
    out = g.outcome()
    assert out is not None and out.rounds == 3 and out.winner == 0
    assert out.reason == "most Salvage Points (after 3 rounds): P1 with 2"


def test_spoils_a_can_per_salvage_point_and_the_registry() -> None:
    cls = SCENARIOS["automated-salvage"]
    assert cls is AutomatedSalvage
    assert (cls.page, cls.table, cls.table_rolls, cls.round_limit, cls.scarper) == (
        135, "Wasteland Skirmish", (1,), 3, True)
    assert cls.spoils.formula(4) == "4 Cans"
    assert cls.spoils.to_json() == {"tally": "salvage", "unit": "Salvage Point", "per_unit": 1,
                                    "dice": 0, "cap": None, "page": 136}


def test_the_generated_wasteland_is_seeded() -> None:
    def laid(seed: int) -> list[tuple[float, float]]:
        st = GameState(900.0, 1200.0, 2)
        AutomatedSalvage().generate(st, random.Random(seed))
        return [(o.pose.x, o.pose.y) for o in st.obstacles.values()]

    assert len(laid(5)) == 7 and laid(5) == laid(5) and laid(5) != laid(6)


def test_the_table_draws_spawn_points_and_counters_and_reports_each_vehicles_points() -> None:
    blue = vehicle("blue", "car", 300, 300, 90, player=0)
    red = vehicle("red", "car", 700, 900, 270, player=1)
    g = placed(AutomatedSalvage, blue, red, dice=[], spawn={0: (105.0, 105.0)},
               tokens={"salvage-1": ("salvage_counter", (450.0, 600.0), 20.0)})
    g.state.scenario["scores"] = {SALVAGE: {"v:blue": 2}}
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert marks["spawn-1"].kind == "spawn"
    assert marks["token-salvage-1"].kind == "token"
    assert marks["token-salvage-1"].points == ((450.0, 600.0),)
    rows = {r.key: r for r in g.scenario.report(g)}
    assert rows["sp_blue"].value == 2 and rows["salvage_counters"].value == 1
    assert rows["spoils_p1"].text == "2 Salvage Point(s): 2 Cans"
