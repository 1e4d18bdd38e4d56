"""Devil's Run on the command line: the one path every ruleset shares (``carnage simulate|
scenarios|play|replay --ruleset devils-run``) and its own commands (``carnage devils-run
cards|board|replay``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app as main_app
from carnage.games.devilsrun.cli import app

runner = CliRunner()
DR = ["--ruleset", "devils-run"]


def test_simulate_json_reports_games_wins_draws_errors_and_end_reasons() -> None:
    for mission in ("devils-run", "hell-on-wheels"):
        r = runner.invoke(main_app, ["simulate", *DR, "--scenario", mission, "--games", "12",
                                     "--seed", "7", "--bots", "heuristic,random", "--json"])
        assert r.exit_code == 0, r.output
        s = json.loads(r.stdout)
        assert s["games"] == 12 and s["errors"] == 0
        assert sum(s["wins"].values()) + s["draws"] == 12
        assert sum(s["end_reasons"].values()) == 12
        assert set(s["wins"]) == {"p1:heuristic", "p2:random"}


def test_simulate_is_reproducible_from_the_seed() -> None:
    args = ["simulate", *DR, "--games", "5", "--seed", "3", "--bots", "random", "--json"]
    a, b = runner.invoke(main_app, args), runner.invoke(main_app, args)
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    for d in (da, db):
        d.pop("games_per_second")
    assert da == db


def test_bad_options_are_one_line_errors() -> None:
    r = runner.invoke(main_app, ["simulate", *DR, "--scenario", "nope"])
    assert r.exit_code == 2 and "unknown Devil's Run mission 'nope'" in r.stderr
    r = runner.invoke(main_app, ["simulate", *DR, "--bots", "genius"])
    assert r.exit_code == 2 and "unknown bot 'genius'" in r.stderr
    r = runner.invoke(main_app, ["simulate", *DR, "--bots", "random,random,random"])
    assert r.exit_code == 2 and "2 players need 2 bots" in r.stderr


def test_scenarios_lists_both_missions() -> None:
    r = runner.invoke(main_app, ["scenarios", *DR, "--json"])
    doc = json.loads(r.stdout)
    assert doc["rulesets"] == ["devils-run"]
    assert [s["id"] for s in doc["scenarios"]] == ["devils-run", "hell-on-wheels"]


def test_play_bots_log_and_replay_with_both_commands(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    r = runner.invoke(main_app, ["play", *DR, "--p1", "heuristic", "--p2", "random", "--seed",
                                 "4", "--log", str(log)])
    assert r.exit_code == 0, r.output
    assert runner.invoke(main_app, ["replay", str(log)]).exit_code == 0
    r2 = runner.invoke(app, ["replay", str(log)])
    assert r2.exit_code == 0, r2.output
    out = json.loads(r2.stdout)
    assert f"in round {out['rounds']}" in r.stdout.strip().splitlines()[-1]


def test_play_against_a_human_reads_numbered_choices() -> None:
    # the human (seat 1) always answers 1; the game still ends
    r = runner.invoke(main_app, ["play", *DR, "--p1", "human", "--p2", "random", "--seed", "2"],
                      input="1\n" * 3000)
    assert r.exit_code == 0, r.output
    assert "Red (DR-" in r.stdout and "game abandoned" not in r.stdout


def test_replay_of_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "cannot replay" in r.stderr


def test_replay_of_an_old_record_still_works(tmp_path: Path) -> None:
    from carnage.games.devilsrun.bots import bot, play_out
    from carnage.games.devilsrun.missions import DEVILS_RUN

    g = DEVILS_RUN.new_game("hell-on-wheels", seed=4)
    play_out(g, [bot("heuristic"), bot("random")], random.Random(1))
    out = g.outcome()
    assert out is not None
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps({"setup": g.setup, "choices": g.choices,
                               "outcome": out.to_json()}))
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == out.to_json()


def test_unwritable_log_is_a_clear_error(tmp_path: Path) -> None:
    r = runner.invoke(main_app, ["play", *DR, "--p1", "random", "--log",
                                 str(tmp_path / "no" / "such" / "dir.jsonl")])
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_cards_and_board_write_svg(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    cards, board = tmp_path / "cards.svg", tmp_path / "board.svg"
    assert runner.invoke(app, ["cards", "--svg", str(cards)]).exit_code == 0
    r = runner.invoke(app, ["board", "--svg", str(board), "--scenario", "hell-on-wheels",
                            "--choices", "30"])
    assert r.exit_code == 0, r.output
    for p in (cards, board):
        ET.fromstring(p.read_text())
