"""Express Delivery (Refuelled pp.136-138): spawn points on the entry edge, delivery slips
dealt face down and swapped on collision, a VP for leaving by the exit edge once per table,
the Leader handing Pole Position on, and the game's end once a player has 2 VP."""

from __future__ import annotations

import math
import random

from tests.builders import drive, ev, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.scenarios import SCENARIOS, scenario_class
from carnage.games.refuelled.scenarios.base import SKIRMISH
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.spawn import set_spawn_point, spawn_points
from carnage.games.refuelled.scenarios.express_delivery import ExpressDelivery, slip_key
from carnage.games.refuelled.scenarios.rolling_road import LONG, road
from carnage.games.refuelled.setup import GameSetup
from carnage.kernel.dice import ScriptedDice
from carnage.kernel.secrets import secret
from carnage.rulesets import REFUELLED, build_game

MEDIUM = 120.0
POLE_TO_0 = [6, 1]
KEEP = [2]
"""The deal's one die for two players: 2 -> the last slip stays put (each holds their own)."""
SWAP = [1]
"""... 1 -> the two slips change places (each holds the other's)."""


class PlacedDelivery(ExpressDelivery):
    """Express Delivery with the vehicles placed by the test: roll-off, spawn points at the
    entry edge, slips dealt; no deployment decisions."""

    def generate(self, state: GameState, rng: random.Random) -> None:
        return None

    def setup(self, game: Game) -> Flow:
        game.state.pole = self.roll_off(game)
        for p, x in enumerate((150.0, 750.0)[: game.state.players]):
            set_spawn_point(game, p, (x, 10.0), source="test", page=None)
        self.deal_slips(game)
        yield from ()


def placed(*vehicles: VehicleState, dice: list[int], players: int = 2,
           physical: bool = False) -> Game:
    sc = PlacedDelivery()
    st = GameState(sc.width, sc.height, players)
    for v in vehicles:
        st.vehicles[v.id] = v
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=8, physical=physical))


def test_registered_with_its_table_and_page() -> None:
    assert scenario_class("express-delivery") is ExpressDelivery
    assert SCENARIOS["express-delivery"].table == SKIRMISH
    assert ExpressDelivery.table_rolls == (2,) and ExpressDelivery.page == 136
    assert ExpressDelivery.summary


def test_the_seeded_table_keeps_clear_of_the_entry_edge_and_repeats() -> None:
    sc = ExpressDelivery()
    tables = []
    for _ in range(2):
        st = GameState(sc.width, sc.height, 2)
        sc.generate(st, random.Random(7))
        tables.append({k: o.pose for k, o in st.obstacles.items()})
        assert len(st.obstacles) >= 4
        for o in st.obstacles.values():
            assert min(y for _, y in o.polygon()) > LONG
    assert tables[0] == tables[1]


def test_spawn_points_touch_the_entry_edge_more_than_medium_apart() -> None:
    g = build_game(GameSetup(scenario="express-delivery", players=3), 4,
                   dice=ScriptedDice([6, 2, 1] + [3] * 10))
    assert g.pending() is not None and g.pending().kind == "spawn_point"
    first = [str(o.value) for o in g.pending().options]
    assert all(v.endswith(",10") for v in first)  # a 20 mm disc touching y = 0
    g.apply("460,10")
    second = [str(o.value) for o in g.pending().options]
    for v in second:
        x = float(v.split(",")[0])
        assert abs(x - 460.0) - 20.0 > MEDIUM
    g.apply(second[0])
    g.apply(g.pending().options[-1].value)
    pts = list(spawn_points(g.state).values())
    assert len(pts) == 3
    for i, a in enumerate(pts):
        assert a[1] == 10.0
        for b in pts[i + 1:]:
            assert math.dist(a, b) - 20.0 > MEDIUM
    # then the vehicles deploy within Short of their own spawn point
    assert g.pending().kind in ("deploy", "spawn_pose")


def test_slips_are_dealt_face_down_one_each() -> None:
    a = vehicle("a", "car", 150, 100, player=0)
    b = vehicle("b", "car", 750, 100, player=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP)
    s0, s1 = secret(g, slip_key(0)), secret(g, slip_key(1))
    assert s0 is not None and s1 is not None
    assert (s0.value, s0.seen_by, s1.value, s1.seen_by) == (0, [0], 1, [1])
    deal = [e for e in g.log.of_kind("roll") if e.data["why"] == "delivery slips dealt"]
    assert len(deal) == 1 and deal[0].data["seen_by"] == []
    g2 = placed(vehicle("a", "car", 150, 100), vehicle("b", "car", 750, 100, player=1),
                dice=POLE_TO_0 + SWAP)
    assert ExpressDelivery.slip_of(g2.scenario, g2, 0) == 1
    assert ExpressDelivery.slip_of(g2.scenario, g2, 1) == 0


def test_a_collision_between_two_players_swaps_their_slips() -> None:
    a = vehicle("a", "car", 450, 500, player=0, gear=1)   # front at 530
    b = vehicle("b", "car", 450, 600, heading=270, player=1, gear=1)  # front at 570
    g = placed(a, b, dice=POLE_TO_0 + KEEP + [4] * 40)
    drive(g, template=["short_straight"], spend_shift="done", collision_reaction="smash",
          spend_votes="done")
    assert ev(g, "collision")
    assert ev(g, "slips_swapped")[0]["players"] == [0, 1]
    s0, s1 = secret(g, slip_key(0)), secret(g, slip_key(1))
    assert s0 is not None and s1 is not None
    assert (s0.value, s1.value) == (1, 0)
    assert s0.seen_by == [0, 1] and s1.seen_by == [0, 1]  # each saw the slip handed over


def test_a_delivery_scores_once_per_player_per_table() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    a2 = vehicle("a2", "car", 300, 1120, player=0, gear=1)
    b = vehicle("b", "car", 700, 1120, player=1, gear=1)
    g = placed(a, a2, b, dice=POLE_TO_0 + KEEP)
    drive(g, activate=["a", "a2"], template=["short_straight"] * 3, spend_shift="done",
          spend_votes="done")
    exits = [e["vehicle"] for e in ev(g, "exit")]
    assert sorted(exits) == ["a", "a2", "b"]
    assert [e["player"] for e in ev(g, "score")] == [0, 1]  # a2 scored nothing more
    assert score.total(g, score.VP, 0) == 1 and score.total(g, score.VP, 1) == 1


def test_two_vp_end_the_game_once_the_table_is_empty_and_the_slips_are_shown() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 300, 500, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + SWAP)
    memory_vp = score.add(g, score.VP, 1, player=0, source="test", page=None)
    assert memory_vp == 1
    drive(g, template=["short_straight"] * 12, spend_shift="done", spend_votes="done")
    # a delivered (2 VP) in phase 1; b stayed on until the Gear Phase marking 6.
    assert ev(g, "target_reached")[0]["player"] == 0
    assert g.state.vehicles["b"].status is Status.DISQUALIFIED
    out = g.outcome()
    assert out is not None and out.winner == 0 and "reached 2 Victory Points first" in out.reason
    shown = {e["player"]: e["value"] for e in ev(g, "secret_revealed")}
    assert shown == {0: 1, 1: 0}
    # Spoils (p.138): a left the final table (1D6) + 2 VP (2D6); P1 holds P2's slip: no 4D6.
    assert g.scenario.spoils_dice(g) == {0: 3, 1: 0}
    assert road(g.state)["table"] == 1


def test_the_board_shows_the_edges_and_the_table_count() -> None:
    a = vehicle("a", "car", 450, 1120, player=0, gear=1)
    b = vehicle("b", "car", 300, 500, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP)
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert {"entry-edge", "exit-edge", "table-count", "no-terrain"} <= set(marks)
    assert marks["table-count"].label == "Table 1" and marks["table-count"].number == 1
    assert marks["exit-edge"].direction == (0.0, 1.0)
    drive(g, template=["short_straight"], spend_shift="done", spend_votes="done")
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert marks["return-a"].number == 1 and marks["return-a"].points[0][0] == 450.0


def test_no_vehicle_left_and_nobody_to_come_back_ends_the_game() -> None:
    a = vehicle("a", "car", 880, 600, heading=0.0, player=0, gear=1)  # off the side edge
    b = vehicle("b", "car", 20, 600, heading=180.0, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP)
    drive(g, template=["short_straight"] * 2, spend_shift="done", spend_votes="done")
    assert a.status is Status.DISQUALIFIED and b.status is Status.DISQUALIFIED
    out = g.outcome()
    assert out is not None and out.draw and out.rounds == 1
    assert out.reason == "no vehicle left to make a delivery"


# -- at a real table (companion mode, ruling CP-8) -----------------------------------------------
AT_TABLE = {"table:touching": "none", "table:move_touched": "none", "table:in_reach": "none",
            "spend_shift": "done", "spend_votes": "done"}
"""A move at a real table that touched nothing, no target in reach."""


def test_at_a_real_table_a_move_reported_past_the_exit_edge_is_a_delivery() -> None:
    # Mid-table on the virtual table: only the people's word takes it over the exit edge.
    a = vehicle("a", "car", 450, 500, player=0, gear=1)
    b = vehicle("b", "car", 700, 500, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP, physical=True)
    d = drive(g, **AT_TABLE, activate=["a"], template=["short_straight"],
              **{"table:off_table": ["yes"]})
    assert d is not None and d.kind == "table:past_exit_edge" and d.vehicle == "a"
    assert d.page == 137  # leaving by the exit edge
    g.apply("yes")
    assert a.status is Status.EXITED and a.pose == vehicle("a", "car", 450, 500).pose
    assert [e["vehicle"] for e in ev(g, "exit")] == ["a"]
    assert score.total(g, score.VP, 0) == 1  # a delivery (ED-9)
    assert not ev(g, "disqualified")


def test_at_a_real_table_past_another_edge_only_is_disqualified() -> None:
    a = vehicle("a", "car", 450, 500, player=0, gear=1)
    b = vehicle("b", "car", 700, 500, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP, physical=True)
    drive(g, **AT_TABLE, activate=["a"], template=["short_straight"],
          **{"table:off_table": ["yes"], "table:past_exit_edge": ["no"]})
    assert ev(g, "disqualified") == [{"vehicle": "a", "reason": "left the table"}]
    assert not ev(g, "exit") and score.total(g, score.VP, 0) == 0


def test_at_a_real_table_a_final_position_reported_over_the_exit_edge_exits() -> None:
    a = vehicle("a", "car", 450, 500, player=0, gear=1)
    b = vehicle("b", "car", 700, 500, player=1, gear=1)
    g = placed(a, b, dice=POLE_TO_0 + KEEP, physical=True)
    d = drive(g, **AT_TABLE, activate=["a"], template=["short_straight"],
              **{"table:off_table": ["no"]})
    assert d is not None and d.kind == "table:final_over_exit"
    g.apply("yes")
    assert [e["vehicle"] for e in ev(g, "exit")] == ["a"]
    assert score.total(g, score.VP, 0) == 1
