"""The Devil's Run command app: simulate, scenarios, play, replay."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.devilsrun_cmd import app

runner = CliRunner()


def test_simulate_json_reports_games_wins_draws_errors_and_end_reasons() -> None:
    for mission in ("devils-run", "hell-on-wheels"):
        r = runner.invoke(app, ["simulate", "--scenario", mission, "--games", "12", "--seed", "7",
                                "--bots", "heuristic,random", "--json"])
        assert r.exit_code == 0, r.output
        s = json.loads(r.stdout)
        assert s["games"] == 12 and s["errors"] == 0 and s["scenario"] == mission
        assert sum(s["wins"].values()) + s["draws"] == 12
        assert sum(s["end_reasons"].values()) == 12
        assert set(s["wins"]) == {"p1:heuristic", "p2:random"}


def test_simulate_is_reproducible_from_the_seed() -> None:
    args = ["simulate", "--games", "5", "--seed", "3", "--bots", "random", "--json"]
    a, b = runner.invoke(app, args), runner.invoke(app, args)
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    for d in (da, db):
        d.pop("games_per_second")
    assert da == db


def test_bad_options_are_one_line_errors() -> None:
    r = runner.invoke(app, ["simulate", "--scenario", "nope"])
    assert r.exit_code == 2 and "unknown Devil's Run mission 'nope'" in r.stderr
    r = runner.invoke(app, ["simulate", "--bots", "genius"])
    assert r.exit_code == 2 and "unknown bot 'genius'" in r.stderr
    r = runner.invoke(app, ["simulate", "--bots", "random,random,random"])
    assert r.exit_code == 2 and "2 players" in r.stderr


def test_scenarios_lists_both_missions() -> None:
    r = runner.invoke(app, ["scenarios", "--json"])
    doc = json.loads(r.stdout)
    assert doc["ruleset"] == "devils-run"
    assert [s["id"] for s in doc["scenarios"]] == ["devils-run", "hell-on-wheels"]


def test_play_bots_records_and_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(app, ["play", "--bots", "heuristic,random", "--seed", "4", "--record",
                            str(rec), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    r2 = runner.invoke(app, ["replay", str(rec)])
    assert json.loads(r2.stdout) == out


def test_play_against_a_human_reads_numbered_choices() -> None:
    # the human (seat 1) always answers 1; the game still ends
    r = runner.invoke(app, ["play", "--bots", "human,random", "--seed", "2", "--json"],
                      input="1\n" * 3000)
    assert r.exit_code == 0, r.output
    assert "player 1:" in r.stdout


def test_replay_of_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "cannot replay" in r.stderr


def test_unwritable_record_is_a_clear_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["play", "--bots", "random", "--record",
                            str(tmp_path / "no" / "such" / "dir.json")])
    assert r.exit_code == 2 and "cannot write" in r.stderr


def test_cards_and_board_write_svg(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    cards, board = tmp_path / "cards.svg", tmp_path / "board.svg"
    assert runner.invoke(app, ["cards", "--svg", str(cards)]).exit_code == 0
    r = runner.invoke(app, ["board", "--svg", str(board), "--scenario", "hell-on-wheels",
                            "--choices", "30"])
    assert r.exit_code == 0, r.output
    for p in (cards, board):
        ET.fromstring(p.read_text())
