"""Scenarios describe what they draw and report (engine/scenario_view.py); the web view, the
server's SVG and the CLI draw and print any scenario from that description alone.

``MarkedGround`` is a scenario that exists only here: a zone, a token, a gate, a spawn point and a
label, and a progress row. Nothing in web/ or cli/ knows it, yet all of it reaches the table.
"""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from tests.builders import race, vehicle

from carnage.ai import bot_rng, make_bot, play_out
from carnage.cli.play_cmd import TerminalPlay, report_lines, table_view
from carnage.cli.simulate_cmd import simulate
from carnage.games.refuelled.engine.game import Game, RuleOptions, ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios import SCENARIOS, StreetRace, TableScenario
from carnage.games.refuelled.setup import GameSetup
from carnage.games.refuelled.table_view import SeatControl, game_view, pending_view, table_svg
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import SeededDice
from carnage.kernel.session import GameRequest
from carnage.rulesets import REFUELLED, build_game

SRC = Path(__file__).resolve().parents[4] / "src" / "carnage"
YARD = ((100.0, 600.0), (300.0, 600.0), (300.0, 800.0), (100.0, 800.0))


class MarkedGround(TableScenario):
    """A scenario unknown to the table: a scrap yard owned by seat 0, scrap tokens, a gate, a
    spawn point and a warning, and how much scrap has been gathered."""

    id = "marked-ground"
    name = "Marked Ground"
    width = 900.0
    height = 900.0

    def __init__(self) -> None:
        self.scrap = 3

    def drawables(self, game: Game) -> list[Drawable]:
        return [
            Drawable("yard", "zone", YARD, label="Scrap yard", owner=0),
            Drawable("scrap-1", "token", ((200.0, 700.0),), label="Scrap", number=self.scrap),
            Drawable("gate-1", "gate", ((400.0, 450.0), (500.0, 450.0)), number=1,
                     direction=(0.0, 1.0)),
            Drawable("entry", "spawn", ((450.0, 20.0),), label="Entry", direction=(0.0, 1.0),
                     owner=1),
            Drawable("warning", "label", ((700.0, 700.0),), label="Here be dragons"),
        ]

    def report(self, game: Game) -> list[ReportRow]:
        return [ReportRow("scrap", "Scrap gathered", self.scrap, f"{self.scrap} tokens",
                          tally=True)]

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        """A ``grid`` decision's options are entry lanes, 100 mm apart along the near edge."""
        if decision.kind != "grid":
            return {}
        return {str(o.value): Pose(100.0 * float(o.value), 40.0, 90.0) for o in decision.options}


def marked_game() -> Game:
    st = GameState(MarkedGround.width, MarkedGround.height, 2)
    for v in (vehicle("red", "car", 450, 300, player=0),
              vehicle("blue", "car", 450, 600, heading=270, player=1)):
        st.vehicles[v.id] = v
    return Game(ruleset=REFUELLED, state=st, scenario=MarkedGround(), dice=SeededDice(0),
                options=RuleOptions())


SEATS = [SeatControl(0, "human"), SeatControl(1, "heuristic")]


# -- a scenario the table has never heard of ----------------------------------------------------
def test_the_web_view_carries_any_scenarios_marks_and_report() -> None:
    v = game_view(marked_game(), "g", SEATS).model_dump(mode="json")
    marks = {d["id"]: d for d in v["drawables"]}
    assert list(marks) == ["yard", "scrap-1", "gate-1", "entry", "warning"]
    assert marks["yard"] == {"id": "yard", "kind": "zone", "points": [list(p) for p in YARD],
                             "label": "Scrap yard", "number": None, "direction": None,
                             "owner": 0, "style": ""}
    assert marks["scrap-1"]["kind"] == "token" and marks["scrap-1"]["number"] == 3
    assert marks["gate-1"]["direction"] == [0.0, 1.0] and marks["gate-1"]["number"] == 1
    assert marks["entry"]["owner"] == 1 and marks["warning"]["label"] == "Here be dragons"
    assert v["report"] == [{"key": "scrap", "label": "Scrap gathered", "value": 3,
                            "text": "3 tokens", "tally": True}]


def test_the_server_svg_and_the_cli_table_draw_any_scenarios_marks() -> None:
    g = marked_game()
    svg = table_svg(g)
    # The zone, the token, the gate and the spawn point (a label has no shape of its own).
    assert len(re.findall(r'class="template scenario"', svg)) == 4
    assert 'data-label="Scrap yard"' in svg and 'data-label="gate-1"' in svg
    marks = [t for t in table_view(g).templates if t.kind == "scenario"]
    assert [t.label for t in marks] == ["Scrap yard", "Scrap", "gate-1", "Entry"]
    assert marks[0].polygons == (YARD,)


def test_the_cli_prints_any_scenarios_report() -> None:
    g = marked_game()
    assert report_lines(g) == ["Scrap gathered: 3 tokens"]
    out = io.StringIO()
    TerminalPlay(g, ["human", "human"], Console(file=out, width=120), io.StringIO(),
                 Path("."), 0).show_state()
    assert "Scrap gathered: 3 tokens" in out.getvalue()


def test_the_grid_preview_shows_where_any_scenario_puts_the_vehicle() -> None:
    g = marked_game()
    d = ask(0, "grid", "where?", [("2", "lane 2"), ("3", "lane 3")], vehicle="red")
    preview = pending_view(g, d).preview
    assert preview == {"vehicle": "red", "poses": {
        "2": {"x": 200.0, "y": 40.0, "heading": 90.0},
        "3": {"x": 300.0, "y": 40.0, "heading": 90.0}}}
    assert g.scenario.option_poses(g, ask(0, "template", "?", [("a", "a")], vehicle="red")) == {}


def test_a_drawable_says_what_is_wrong_with_it() -> None:
    with pytest.raises(ValueError, match="kind 'blob' is not one of line, gate, zone"):
        Drawable("x", "blob", ((0.0, 0.0),))
    with pytest.raises(ValueError, match="a zone needs at least 3 point"):
        Drawable("x", "zone", ((0.0, 0.0), (1.0, 1.0)))
    with pytest.raises(ValueError, match="a line needs at least 2 point"):
        Drawable("x", "line", ((0.0, 0.0),))


# -- Street Race through the same description ---------------------------------------------------
def test_street_race_draws_its_start_and_finish_lines() -> None:
    sc = StreetRace()
    g = build_game(GameSetup(), 0)
    start, finish = sc.drawables(g)
    assert (start.id, start.kind, start.style, start.label) == ("start-line", "line", "start",
                                                                "START")
    assert start.points == (sc.start_line.a, sc.start_line.b)
    assert (finish.id, finish.style, finish.label) == ("finish-line", "finish", "FINISH")
    assert finish.points == ((360.0, 1050.0), (540.0, 1050.0))
    assert finish.direction == (0.0, 1.0)  # crossed driving away from the start


def test_street_race_reports_the_leader_then_who_crossed() -> None:
    red = vehicle("red", "car", 450, 920, player=0)  # nose 30 mm short of the finish line
    blue = vehicle("blue", "car", 700, 300, player=1)
    g = race(red, blue, dice=[6, 1])
    before = {r.key: r for r in g.scenario.report(g)}
    assert before["finish_crossed"].value is None
    assert before["finish_crossed"].text == "nobody yet"
    assert before["leader"].value == "red" and before["leader"].text == "red, 130 mm to go"
    g.apply("medium_straight")
    g.apply(0)
    g.apply("done")
    assert g.state.finished
    after = g.scenario.report(g)
    assert [(r.key, r.value, r.text, r.tally) for r in after] == [
        ("finish_crossed", "red", "red", True)]


def test_street_race_gives_no_distance_to_a_racer_not_yet_on_the_table() -> None:
    """Before a racer is placed on the starting grid it waits off the table: the table's
    scoreboard says so in words, with no distance to the finish, until it is placed."""
    g = build_game(GameSetup(), 0)
    board = game_view(g, "g", SEATS).model_dump(mode="json")["scoreboard"]
    assert [(r["score"], r["details"]) for r in board["rows"]] == [
        ("not yet on the table", ["Red Buggy: not yet on the table",
                                  "Red Car: not yet on the table"]),
        ("not yet on the table", ["Blue Buggy: not yet on the table",
                                  "Blue Car: not yet on the table"])]
    assert all("mm" not in r["score"] for r in board["rows"])
    # Place one racer: its seat counts it; the one still waiting stays without a distance.
    p = g.pending()
    assert p is not None and p.kind == "deploy"
    placed = g.state.vehicles[str(p.options[0].value)]
    seat = placed.player
    g.apply(placed.id)
    grid = g.pending()
    assert grid is not None and grid.kind == "grid"
    g.apply(grid.options[0].value)  # its place on the starting grid
    row = next(r for r in game_view(g, "g", SEATS).model_dump(mode="json")["scoreboard"]
               ["rows"] if r["seat"] == seat)
    waiting = next(v for v in g.state.vehicles.values()
                   if v.player == seat and v.id != placed.id)
    assert row["score"].endswith(" mm to go")
    assert row["details"] == [f"{placed.name}: {row['score']}",
                              f"{waiting.name}: not yet on the table"]


def test_simulate_tallies_the_games_won_across_the_finish_line() -> None:
    setup, seeds = GameSetup(max_rounds=6), range(40, 48)
    maker = REFUELLED.games(GameRequest(max_rounds=6)) if REFUELLED.games else None
    assert maker is not None
    summary = simulate(maker, REFUELLED, ["heuristic", "random"], len(seeds), seeds[0])
    crossed = 0
    for seed in seeds:
        g = play_out(build_game(setup, seed), [make_bot("heuristic"), make_bot("random")],
                     bot_rng(seed))
        out = g.outcome()
        crossed += out is not None and out.reason.endswith("crossed the finish line")
    assert crossed > 0
    assert summary.scenario["finish_crossed"] == crossed
    assert summary.to_json()["scenario"] == {"finish_crossed": crossed}
    assert summary.scenario_labels == {"finish_crossed": "Finish line crossed by"}


# -- web/ and cli/ know no scenario ---------------------------------------------------------------
def test_web_and_cli_name_no_scenario_class_nor_its_attributes() -> None:
    classes = {cls.__name__ for cls in SCENARIOS.values()} | {"TableScenario", "Line"}
    offences = []
    for path in sorted((SRC / "web").rglob("*.py")) + sorted((SRC / "cli").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Name) and node.id in classes:
                offences.append(f"{where}: {node.id}")
            elif isinstance(node, ast.Attribute) and node.attr.endswith("_line"):
                offences.append(f"{where}: .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "carnage.games.refuelled.scenarios."):
                offences.append(f"{where}: imports {node.module}")
    assert offences == []
