"""One command-line path for every ruleset of the registry: ``carnage scenarios --json``
lists it, ``carnage simulate --log DIR`` writes one log per game, ``carnage play`` with a bot in
both seats plays to an end, and ``carnage replay`` reads each log back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.rulesets.test_plain_log import codes
from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.rulesets import RULESETS

runner = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})
NAMES = list(RULESETS)


@pytest.mark.parametrize("name", NAMES)
def test_scenarios_json_lists_every_ruleset(name: str) -> None:
    r = runner.invoke(app, ["scenarios", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert name in doc["rulesets"]
    ids = [row["id"] for row in doc["scenarios"] if row["ruleset"] == name]
    assert ids == [s.id for s in RULESETS[name].scenario_infos()] and ids


@pytest.mark.parametrize("name", NAMES)
def test_simulate_writes_one_log_per_game_and_replay_reads_each(name: str,
                                                                tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    r = runner.invoke(app, ["simulate", "--ruleset", name, "--games", "2", "--seed", "7",
                            "--bots", "heuristic", "--log", str(logs), "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert summary["games"] == 2 and summary["errors"] == 0
    assert sum(summary["end_reasons"].values()) == 2
    assert sorted(p.name for p in logs.iterdir()) == ["game-7.jsonl", "game-8.jsonl"]
    for seed in (7, 8):
        log = logs / f"game-{seed}.jsonl"
        head = json.loads(log.read_text().splitlines()[0])
        assert head["setup"]["ruleset"] == name and head["seed"] == seed
        again = runner.invoke(app, ["replay", str(log)])
        assert again.exit_code == 0, again.output
        assert f"seed {seed}" in again.stdout and "replayed identically" in again.stdout


@pytest.mark.parametrize("name", NAMES)
def test_play_with_a_bot_in_each_seat_runs_to_an_end_and_its_log_replays(
        name: str, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    r = runner.invoke(app, ["play", "--ruleset", name, "--p1", "heuristic", "--p2",
                            "heuristic", "--seed", "3", "--log", str(log)])
    assert r.exit_code == 0, r.output
    last = r.stdout.strip().splitlines()[-1]
    assert " wins in round " in last or last.startswith("Draw after "), last
    assert "game abandoned" not in r.stdout
    # the game is told in the ruleset's own sentences, as the table's log tells it
    assert [ln for ln in r.stdout.splitlines()
            if codes(ln) and not ln.startswith("log written to ")] == []
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 0, again.output
    assert "replayed identically" in again.stdout


@pytest.mark.parametrize("command", ["play", "simulate", "scenarios"])
def test_an_unknown_ruleset_is_refused_naming_every_known_one(command: str) -> None:
    r = runner.invoke(app, [command, "--ruleset", "croquet"])
    assert r.exit_code == 2
    for name in RULESETS:
        assert name in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_each_rulesets_own_commands_are_mounted_under_its_name() -> None:
    for name, rs in RULESETS.items():
        if rs.cli is None:
            continue
        r = runner.invoke(app, [name, "--help"])
        assert r.exit_code == 0, r.output


def test_devils_run_refuses_the_options_it_does_not_have_by_name() -> None:
    r = runner.invoke(app, ["simulate", "--ruleset", "devils-run", "--max-rounds", "3"])
    assert r.exit_code == 2 and r.stderr.startswith("--max-rounds: a Devil's Run mission")
    r = runner.invoke(app, ["simulate", "--ruleset", "devils-run", "--sides", "1/2"])
    assert r.exit_code == 2 and r.stderr.startswith("--sides: Devil's Run has no such option")


def test_a_log_whose_header_names_no_ruleset_is_replayed_as_refuelleds(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    r = runner.invoke(app, ["play", "--p1", "heuristic", "--p2", "random", "--seed", "2",
                            "--log", str(log)])
    assert r.exit_code == 0, r.output
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    del head["setup"]["ruleset"]  # as logs were written before rulesets were named
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 0, again.output
    assert "street-race, seed 2" in again.stdout and "replayed identically" in again.stdout


def test_a_log_naming_an_unknown_ruleset_is_refused_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps({"carnage_log": 1, "scenario": "x", "seed": 1, "choices": [],
                               "setup": {"ruleset": "croquet", "scenario": "x"}}) + "\n")
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 2 and r.stdout == ""
    assert "unknown ruleset 'croquet'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
