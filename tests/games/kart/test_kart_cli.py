"""``--ruleset kart`` on the command line: simulate, play (a bot game), and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.games.refuelled.setup import read_log
from carnage.rulesets import replay

runner = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})


def test_simulate_kart_street_races_with_no_errors(tmp_path: Path) -> None:
    r = runner.invoke(app, ["simulate", "--ruleset", "kart", "--scenario", "street-race",
                            "--games", "4", "--bots", "heuristic,random", "--json",
                            "--log", str(tmp_path)])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["games"], doc["errors"]) == (4, 0)
    record = read_log(tmp_path / "game-0.jsonl")
    assert record.setup.ruleset == "kart"
    assert any(e["kind"] == "kart_rule" for e in record.events)
    assert not any(e["kind"] == "damage" for e in record.events)
    assert replay(record).identical


def test_simulate_refuses_a_kart_scenario_it_does_not_race() -> None:
    r = runner.invoke(app, ["simulate", "--ruleset", "kart", "--scenario", "flag-tag",
                            "--games", "1"])
    assert r.exit_code == 2
    assert "unknown scenario 'flag-tag' for Kart variant" in r.stderr
    r = runner.invoke(app, ["simulate", "--ruleset", "croquet", "--games", "1"])
    assert r.exit_code == 2
    assert "unknown ruleset 'croquet'" in r.stderr and "kart" in r.stderr


def test_play_a_kart_death_race_between_bots(tmp_path: Path) -> None:
    log = tmp_path / "kart.jsonl"
    r = runner.invoke(app, ["play", "--ruleset", "kart", "--scenario", "death-race",
                            "--p1", "heuristic", "--p2", "heuristic", "--seed", "2",
                            "--max-rounds", "8", "--log", str(log)], input="")
    assert r.exit_code == 0, r.output
    record = read_log(log)
    assert record.setup.ruleset == "kart" and record.setup.scenario == "death-race"
    assert replay(record).identical
