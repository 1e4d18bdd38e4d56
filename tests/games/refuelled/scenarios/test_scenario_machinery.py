"""The shared scenario machinery: gear-phase flows and end checks (M-10), scenario metadata,
scenario advice to bots, and the set-up fields (sides, options, tables laid out by hand)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tests.builders import drive, ev, table, vehicle

from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions, ask
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.base import TableScenario
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.table import LayoutError, check_layout, load_layout
from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    check_sides,
    parse_scenario_options,
    parse_sides,
)
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED, build_game


class Phases(RollOffPole, TableScenario):
    """Asks a decision as every Gear Phase begins and as it ends; checks the end only at the
    end of a Gear Phase."""

    id = "phases-test"
    name = "Phases"
    end_checks = frozenset({"gear_phase_end"})

    def setup(self, game: Game) -> Flow:
        game.state.pole = self.roll_off(game)
        yield from ()

    def gear_phase_start(self, game: Game) -> Flow:
        pick = yield ask(game.state.pole, "phase_note", "note the phase", [("a", "A"), ("b", "B")],
                         source="phases", page=None)
        game.state.scenario.setdefault("notes", []).append(f"start{game.state.gear_phase}{pick}")

    def end_of_gear_phase(self, game: Game) -> Flow:
        pick = yield ask(0, "phase_end", "end of phase", [("x", "X"), ("y", "Y")],
                         source="phases", page=None)
        game.state.scenario.setdefault("notes", []).append(f"end{game.state.gear_phase}{pick}")
        self.pass_pole_clockwise(game)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        return "b" if decision.kind == "phase_note" else None


def phases_game(dice: list[int]) -> Game:
    # Two parked vehicles in gear 1: nobody may activate after Gear Phase 1.
    st = table(vehicle("a", "car", 200, 300, player=0, gear=1),
               vehicle("b", "car", 700, 900, player=1, gear=1))
    return Game(ruleset=REFUELLED, state=st, scenario=Phases(), dice=ScriptedDice(dice),
                options=RuleOptions(max_rounds=1))


def test_gear_phase_start_and_end_are_flows_that_ask_before_the_pole_acts() -> None:
    g = phases_game([3, 5])  # roll-off: seat 1 takes the pole
    d = g.pending()
    assert d is not None and d.kind == "phase_note" and d.player == 1
    g.apply("a")
    d = g.pending()
    assert d is not None and d.vehicle == "b" and d.player == 1  # the pole acts first
    drive(g, spend_votes="pass", template="short_straight", attack="stop",
          phase_note="a", phase_end="x")
    notes = g.state.scenario["notes"]
    assert notes[:2] == ["start1a", "end1x"]
    assert notes[-1] == "end6x" and len(notes) == 12
    # The pole passed clockwise after every phase (through ``move_pole``).
    assert [e["player"] for e in ev(g, "pole")][:3] == [1, 0, 1]


def test_a_game_cloned_inside_a_gear_phase_flow_goes_on_identically() -> None:
    g = phases_game([3, 5])
    drive(g, phase_note="a", spend_votes="pass", template="short_straight",
          attack="stop")
    d = g.pending()
    assert d is not None and d.kind == "phase_end"
    c = g.clone()
    for game in (g, c):
        drive(game, phase_note="b", phase_end="y", spend_votes="pass")
    assert g.state.scenario == c.state.scenario
    assert [e.to_json() for e in g.log] == [e.to_json() for e in c.log]


def test_end_checks_only_at_the_end_of_a_gear_phase_when_the_scenario_says_so() -> None:
    g = phases_game([3, 5])
    drive(g, phase_note="a")
    seen: list[int] = []
    g.attach_untracked("logged:game_over", "test",
                       lambda v, ctx: seen.append(ctx["game"].state.gear_phase))
    g.state.vehicles["b"].status = g.state.vehicles["b"].status.__class__("wrecked")
    drive(g, spend_votes="pass", template="short_straight", attack="stop",
          phase_note="a")
    d = g.pending()
    assert d is not None and d.kind == "phase_end"  # not over mid-phase
    g.apply("x")
    assert g.state.finished and g.state.winner == 0 and seen == [1]


def test_bots_take_the_scenarios_advice_first() -> None:
    g = phases_game([3, 5])
    d = g.pending()
    assert d is not None
    import random
    assert HeuristicBot().choose(g, d, random.Random(0)) == "b"


# -- metadata ----------------------------------------------------------------------------------
def test_every_registered_scenario_says_who_plays_it_and_what_it_is() -> None:
    for sid, cls in SCENARIOS.items():
        assert cls.id == sid
        assert cls.min_players >= 1 and cls.summary, sid
        assert cls.max_players is None or cls.max_players >= cls.min_players
        assert cls.table in (None, "Televised Event", "Wasteland Skirmish", "Special Event",
                             "Savage Highways")


# -- set-up fields ------------------------------------------------------------------------------
def test_sides_are_checked_and_parsed_from_text() -> None:
    assert parse_sides("1,3/2,4", 4) == ((0, 2), (1, 3))
    with pytest.raises(SetupError, match="seat 3 is on side 1 and side 2"):
        check_sides([[0, 2], [2, 1]], 3)
    with pytest.raises(SetupError, match=r"seat\(s\) 4 on no side"):
        check_sides([[0, 2], [1]], 4)
    with pytest.raises(SetupError, match="not a seat number"):
        parse_sides("1,x/2", 2)
    with pytest.raises(SetupError, match="at least two sides"):
        check_sides([[0, 1]], 2)


def test_a_team_game_built_from_sides_never_passes_the_pole_to_a_teammate() -> None:
    setup = GameSetup(players=4, sides=((0, 1), (2, 3)))
    g = build_game(setup, 5)
    assert ["team_game", [[0, 1], [2, 3]]] in g.state.installed
    st = g.state
    st.pole = 0
    assert g.scenario.move_pole(g, 1, "passed clockwise", source="test", page=None)
    assert st.pole == 2
    again = GameSetup.from_json(json.loads(json.dumps(setup.to_json())))
    assert again == setup
    assert g.clone().state.installed == st.installed


class Optioned(TableScenario):
    id = "optioned"
    name = "Optioned"
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {"volatile": (bool, False),
                                                             "flags": (int, 3)}


def test_scenario_options_are_validated_against_the_scenarios_schema() -> None:
    from carnage.games.refuelled.setup import check_scenario_options

    sc = Optioned()
    assert check_scenario_options(sc, {}) == {"volatile": False, "flags": 3}
    assert check_scenario_options(sc, dict(parse_scenario_options(["volatile=yes"]))) == {
        "volatile": True, "flags": 3}
    with pytest.raises(SetupError, match="has no such option"):
        check_scenario_options(sc, {"speed": 1})
    with pytest.raises(SetupError, match="must be int"):
        check_scenario_options(sc, {"flags": True})
    with pytest.raises(SetupError, match="no such option"):
        build_game(GameSetup(scenario_options=(("x", 1),)), 0)


# -- tables laid out by hand --------------------------------------------------------------------
LAYOUT = {"table": {"width": 1000, "height": 1000},
          "obstacles": [{"id": "rock", "x": 500, "y": 500, "length": 80, "width": 60,
                         "heading": 30, "tall": True}],
          "surfaces": [{"id": "oil", "kind": "treacherous", "x": 200, "y": 200,
                        "length": 100, "width": 50}],
          "ramps": [{"id": "ramp", "x": 800, "y": 800, "length": 60, "width": 40}]}


def test_a_table_laid_out_by_hand_replaces_the_scenarios_terrain(tmp_path: Path) -> None:
    f = tmp_path / "table.yaml"
    f.write_text("table: {width: 1000, height: 1000}\nobstacles:\n"
                 "  - {id: rock, x: 500, y: 500, length: 80, width: 60, heading: 30, tall: true}\n"
                 "surfaces:\n  - {id: oil, kind: treacherous, x: 200, y: 200, length: 100, "
                 "width: 50}\nramps:\n  - {id: ramp, x: 800, y: 800, length: 60, width: 40}\n")
    layout = load_layout(f)
    assert layout == check_layout(LAYOUT)
    g = build_game(GameSetup(table=layout), 1)
    st = g.state
    assert (st.width, st.height) == (1000.0, 1000.0)
    assert set(st.obstacles) == {"rock"} and st.obstacles["rock"].tall
    assert set(st.surfaces) == {"oil"} and set(st.ramps) == {"ramp"}
    assert st.scenario["table"] == "laid out by hand"


@pytest.mark.parametrize(("raw", "message"), [
    ({"obstacles": [{"id": "r", "x": 1, "y": 1, "length": 5}]}, r"obstacles\[0\]\.width: missing"),
    ({"obstacles": [], "walls": []}, "walls: unknown field"),
    ({"surfaces": [{"id": "s", "kind": "lava", "x": 1, "y": 1, "length": 5, "width": 5}]},
     r"surfaces\[0\]\.kind"),
    ({"obstacles": [{"id": "r", "x": 1, "y": 1, "length": 5, "width": 5},
                    {"id": "r", "x": 9, "y": 9, "length": 5, "width": 5}]}, "used twice"),
    ([1, 2], "must be a mapping"),
])
def test_bad_layouts_are_refused_in_one_line(raw: Any, message: str) -> None:
    with pytest.raises(LayoutError, match=message) as e:
        check_layout(raw)
    assert "\n" not in str(e.value)


def test_a_layout_piece_off_the_table_is_refused_at_set_up() -> None:
    lay = check_layout({"obstacles": [{"id": "r", "x": 895, "y": 10, "length": 40,
                                       "width": 40}]})
    with pytest.raises(SetupError, match=r"obstacles\[0\] \(r\) lies partly off"):
        build_game(GameSetup(table=lay), 0)


def test_the_generated_table_seed_is_in_the_state_and_defaults_to_the_dice_seed() -> None:
    assert build_game(GameSetup(), 7).state.scenario["table_seed"] == 7
    assert build_game(GameSetup(table_seed="x"), 7).state.scenario["table_seed"] == "x"


# -- the score ledger, victory and the round limit ------------------------------------------------
def four_seat_game() -> Game:
    st = table(vehicle("a", "car", 200, 300, player=0), vehicle("b", "car", 700, 300, player=1),
               vehicle("c", "car", 200, 900, player=2), vehicle("d", "car", 700, 900, player=3),
               players=4)
    return Game(ruleset=REFUELLED, state=st, scenario=Phases(), dice=ScriptedDice([6, 1, 1, 1]),
                options=RuleOptions(max_rounds=1))


def test_points_go_to_the_side_in_a_team_game_and_every_change_is_logged() -> None:
    from carnage.games.refuelled.engine.votes import install_team_game
    from carnage.games.refuelled.scenarios.common import score

    g = four_seat_game()
    install_team_game(g, [[0, 2], [1, 3]])
    assert score.add(g, "vp", 2, player=2, source="test", page=132, reason="a flag") == 2
    assert score.add(g, "vp", 1, player=0, source="test", page=132) == 3
    assert score.total(g, "vp", 0) == score.total(g, "vp", 2) == 3
    assert score.side_totals(g, "vp") == {0: 3, 1: 0}
    assert score.add(g, "vp", -5, player=1, source="test", page=None) == 0  # never below 0
    v = g.state.vehicles["d"]
    score.add(g, "salvage", 2, vehicle=v, source="test", page=None)
    assert score.vehicle_total(g, "salvage", v) == 2
    assert score.side_totals(g, "salvage", with_vehicles=True) == {0: 0, 1: 2}
    assert ev(g, "score")[0] == {"tally": "vp", "player": 2, "side": 0, "vehicle": None,
                                 "change": 2, "total": 2, "reason": "a flag"}
    rows = score.report_rows(g, "vp")
    assert [(r.label, r.value) for r in rows] == [("Side P1+P3 VP", 3), ("Side P2+P4 VP", 0)]


def test_ties_are_broken_by_vehicles_in_play_then_hull_points_then_shared() -> None:
    from carnage.games.refuelled.engine.state import Status
    from carnage.games.refuelled.scenarios.common import victory

    g = four_seat_game()
    g.state.vehicles["b"].status = Status.WRECKED
    victory.decide(g, {0: 2, 1: 2, 2: 1, 3: 0}, "most VP")
    assert g.state.winner == 0 and "tie-break" in g.state.reason  # seat 1 has no vehicle left

    g = four_seat_game()
    g.state.vehicles["a"].damage = 1
    victory.decide(g, {0: 2, 1: 2, 2: 1, 3: 0}, "most VP")
    assert g.state.winner == 1  # as many vehicles, more hull left

    g = four_seat_game()
    victory.decide(g, {0: 2, 1: 2, 2: 1, 3: 0}, "most VP")
    assert g.state.draw and g.state.winner is None
    assert ev(g, "shared_win") == [{"players": [0, 1], "reason": "most VP"}]


class ThreeRounds(Phases):
    id = "three-rounds"
    round_limit = 1

    def gear_phase_start(self, game: Game) -> None:
        from carnage.games.refuelled.scenarios.common import score

        if game.state.gear_phase == 3:
            score.add(game, "vp", 1, player=1, source="test", page=None)

    def end_of_gear_phase(self, game: Game) -> None:
        return None


def test_the_round_limit_ends_the_game_at_the_end_of_the_round_and_counts_vp() -> None:
    st = table(vehicle("a", "car", 200, 300, player=0, gear=1),
               vehicle("b", "car", 700, 900, player=1, gear=1))
    g = Game(ruleset=REFUELLED, state=st, scenario=ThreeRounds(), dice=ScriptedDice([3, 5]),
             options=RuleOptions(max_rounds=5))
    drive(g, template="short_straight")
    assert g.state.finished and g.state.winner == 1 and g.state.round == 1
    assert "most Victory Points after 1 rounds" in g.state.reason
    assert [e.kind for e in g.log][-3:] == ["final_scores", "game_over", "round_end"]


def test_each_scenario_on_a_table_of_p122_sits_where_the_table_says() -> None:
    from carnage.games.refuelled.scenarios.common.selection import ROLLS

    for sid, cls in SCENARIOS.items():
        if cls.table is None:
            assert sid == "street-race"
            continue
        if cls.table == "Savage Highways":  # a campaign's own scenarios: on no table of p.122
            assert not cls.table_rolls
            continue
        faces = sorted(d for d, s in ROLLS[cls.table].items() if s == sid)
        assert faces and tuple(faces) == tuple(sorted(cls.table_rolls)), sid
