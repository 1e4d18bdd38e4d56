"""``--physical`` (companion mode, engine/table_facts.py) on the command line: bots answer the
table's questions and games play to the end; a ruleset without the mode refuses it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from carnage.cli.main import app

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})


@pytest.mark.parametrize(("ruleset", "scenario"), [
    ("refuelled", "street-race"), ("refuelled", "death-race"),
    ("refuelled", "arena-of-death"), ("kart", "street-race"), ("legacy", "street-race"),
])
def test_simulate_physical_plays_to_the_end_without_errors(ruleset: str, scenario: str) -> None:
    r = runner.invoke(app, ["simulate", "--physical", "--ruleset", ruleset, "--scenario",
                            scenario, "--bots", "random", "--games", "5", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["errors"] == 0 and out["games"] == 5
    assert sum(out["end_reasons"].values()) == 5


def test_simulate_physical_logs_the_table_questions(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path)) / "logs"
    r = runner.invoke(app, ["simulate", "--physical", "--scenario", "street-race", "--bots",
                            "heuristic", "--games", "1", "--log", str(folder)])
    assert r.exit_code == 0, r.output
    lines = (folder / "game-0.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header["setup"]["physical"] is True
    facts = [json.loads(x) for x in lines[1:] if '"table_fact"' in x]
    assert {f["data"]["fact"] for f in facts} >= {"touching", "move_touched", "off_table",
                                                  "in_reach"}
    assert all(f["source"] == "table" and f["page"] for f in facts)
    # the log replays in companion mode, the table's answers among its choices
    r = runner.invoke(app, ["replay", str(folder / "game-0.jsonl")])
    assert r.exit_code == 0, r.output
    assert "replayed identically" in r.stdout


def test_a_ruleset_without_companion_mode_refuses_physical() -> None:
    r = runner.invoke(app, ["simulate", "--physical", "--ruleset", "devils-run", "--games", "1"])
    assert r.exit_code == 2
    assert "--physical" in r.output and "companion mode" in r.output


def test_play_physical_takes_bots_answers() -> None:
    r = runner.invoke(app, ["play", "--physical", "--p1", "heuristic", "--p2", "random",
                            "--seed", "4", "--max-rounds", "2"])
    assert r.exit_code == 0, r.output
    assert ("wins in round" in r.stdout) or ("Draw after" in r.stdout)
