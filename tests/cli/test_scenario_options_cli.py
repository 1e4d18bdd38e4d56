"""``carnage simulate`` and ``carnage play`` scenario options: ``--players``, ``--sides``,
``--option``, ``--table`` and ``random:<table>`` scenarios; ``end_reasons`` in the summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.games.refuelled.setup import read_log, replay

runner = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})


def simulate(*args: str) -> dict[str, object]:
    r = runner.invoke(app, ["simulate", "--json", *args])
    assert r.exit_code == 0, r.output
    out: dict[str, object] = json.loads(r.stdout)
    return out


def test_simulate_counts_how_games_ended() -> None:
    doc = simulate("--scenario", "capture-the-flag", "--games", "2", "--seed", "3",
                   "--bots", "heuristic,heuristic", "--max-rounds", "25")
    assert doc["end_reasons"] == {"holds N flags": 2}
    doc = simulate("--games", "2", "--max-rounds", "1", "--bots", "random,random")
    reasons = doc["end_reasons"]
    assert isinstance(reasons, dict) and sum(reasons.values()) == 2


def test_simulate_plays_three_players_and_team_sides() -> None:
    doc = simulate("--scenario", "capture-the-flag", "--games", "1", "--players", "4",
                   "--sides", "1,3/2,4", "--bots", "heuristic,heuristic,heuristic,heuristic",
                   "--max-rounds", "25")
    assert doc["games"] == 1 and doc["errors"] == 0
    wins = doc["wins"]
    assert isinstance(wins, dict) and len(wins) == 4


def test_a_random_scenario_is_rolled_from_the_seed_and_replays(tmp_path: Path) -> None:
    doc = simulate("--scenario", "random:televised", "--games", "1", "--seed", "0",
                   "--bots", "random,random", "--max-rounds", "2", "--log", str(tmp_path))
    assert doc["errors"] == 0
    rec = read_log(tmp_path / "game-0.jsonl")
    assert rec.setup.scenario == "random:televised"
    assert rec.events[0]["kind"] == "scenario_roll"
    assert rec.events[0]["data"]["scenario"] == "capture-the-flag"
    assert replay(rec).identical


@pytest.mark.parametrize(("args", "needle"), [
    (["--sides", "1,2,3/4"], "seat 3 is not one of the 2 players"),
    (["--sides", "1/x"], "not a seat number"),
    (["--option", "volatile"], "use name=value"),
    (["--option", "speed=3"], "Street Race has no such option"),
    (["--scenario", "random:weekly"], "unknown scenario table"),
    (["--players", "9"], "--players must be 2 to 8"),
])
def test_bad_scenario_options_are_refused_in_one_line(args: list[str], needle: str) -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", *args])
    assert r.exit_code == 2
    assert needle in r.output and len(r.output.strip().splitlines()) == 1


def test_a_hand_laid_table_is_used_and_a_bad_one_refused(tmp_path: Path) -> None:
    good = tmp_path / "table.json"
    good.write_text(json.dumps({"obstacles": [
        {"id": "wall", "x": 450, "y": 600, "length": 300, "width": 30}]}))
    logs = tmp_path / "logs"
    simulate("--games", "1", "--table", str(good), "--log", str(logs), "--max-rounds", "1")
    rec = read_log(logs / "game-0.jsonl")
    assert rec.setup.table is not None and rec.setup.table["obstacles"][0]["id"] == "wall"
    bad = tmp_path / "bad.yaml"
    bad.write_text("obstacles:\n  - {id: w, x: 1, y: 1, length: 5}\n")
    r = runner.invoke(app, ["simulate", "--games", "1", "--table", str(bad)])
    assert r.exit_code == 2 and "obstacles[0].width: missing field" in r.output
    r = runner.invoke(app, ["play", "--p1", "random", "--p2", "random", "--table", str(bad)])
    assert r.exit_code == 2 and "--table" in r.output
