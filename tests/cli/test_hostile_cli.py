"""Hostile files against the command line: `team check`, `judge` and `replay` answer each with
one clear line on stderr and exit 2, quickly; never a traceback or a hang."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from tests.guard.test_guard import ALIAS_BOMB
from typer.testing import CliRunner

from carnage.cli.main import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "examples" / "scenes" / "example.json"


def clean_exit_2(args: list[str], *needles: str) -> str:
    t0 = time.monotonic()
    r = runner.invoke(app, args)
    assert time.monotonic() - t0 < 5.0
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


# -- team check --------------------------------------------------------------------------------
VEHICLE = "vehicles:\n  - {name: A, type: car}\n"


@pytest.mark.parametrize("name, text, needles", [
    ("bomb.yaml", ALIAS_BOMB, ("YAML aliases", "limit 50")),
    ("int.yaml", "name: X\ncans: " + "9" * 5000 + "\n" + VEHICLE, ("cans", "30 digits")),
    ("hex.yaml", "name: X\ncans: 0x" + "f" * 4000 + "\n" + VEHICLE, ("cans", "30 digits")),
    ("sexa.yaml", "name: X\ncans: " + ":".join(["59"] * 2000) + "\n" + VEHICLE,
     ("cans", "30 digits")),
    ("mid.yaml", "name: X\ncans: 0x" + "f" * 30 + "\n" + VEHICLE, ("cans", "30 digits")),
    ("deep.yaml", "name: " + "[" * 600 + "]" * 600 + "\ncans: 5\n" + VEHICLE,
     ("nested deeper than 32",)),
    ("deep.json", '{"name": ' + "[" * 1000 + "]" * 1000 + "}", ("nested deeper than 32",)),
    ("int.json", '{"name": "X", "cans": ' + "9" * 5000 + ', "vehicles": []}',
     ("cans", "30 digits")),
    ("nan.json", '{"name": "X", "cans": NaN, "vehicles": []}', ("cans", "not a finite")),
    ("keys.yaml", "name: X\ncans: 5\n1: 2\n" + VEHICLE, ("keys must be text",)),
])
def test_hostile_team_files_are_one_line_exit_2(
    tmp_path: Path, name: str, text: str, needles: tuple[str, ...]
) -> None:
    p = tmp_path / name
    p.write_text(text)
    line = clean_exit_2(["team", "check", str(p)], str(p), *needles)
    assert len(line) < 300


def test_fifo_and_devices_as_team_paths(tmp_path: Path) -> None:
    fifo = tmp_path / "team.yaml"
    os.mkfifo(fifo)
    clean_exit_2(["team", "check", str(fifo)], "FIFO")
    clean_exit_2(["team", "show", "/dev/zero"], "/dev/zero", "device")


def test_huge_team_file_is_refused_by_size(tmp_path: Path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text("name: " + "x" * (300 * 1024) + "\n")
    clean_exit_2(["team", "check", str(p)], "at most 64 KB")


def test_long_value_in_an_error_is_shortened(tmp_path: Path) -> None:
    p = tmp_path / "t.yaml"
    p.write_text("name: X\ncans: [" + ", ".join(["1"] * 3000) + "]\n" + VEHICLE)
    line = clean_exit_2(["team", "check", str(p)], "cans", "a list of 3000 items")
    assert len(line) < 300


# -- judge -------------------------------------------------------------------------------------
def scene(**edits: Any) -> dict[str, Any]:
    s: dict[str, Any] = json.loads(SCENE.read_text())
    for k, v in edits.items():
        s[k] = v
    return s


def write(tmp_path: Path, data: Any) -> Path:
    p = tmp_path / "scene.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


def _obstacle(**kw: Any) -> dict[str, Any]:
    return {"id": "tiny", "x": 800, "y": 800, "length": 40, "width": 40, "heading": 0, **kw}


@pytest.mark.parametrize("make, needles", [
    (lambda: scene(obstacles=[_obstacle(length=1e-9, width=1e-9)]),
     ("obstacles[0].length", "greater than or equal to 0.1")),
    (lambda: scene(vehicles=[{"id": "far", "type": "car", "x": 1e18, "y": 0, "heading": 0}],
                   queries=[]), ("vehicles[0].x", "less than or equal to 1000000")),
    (lambda: scene(table={"width": 1e300, "height": 900}), ("table.width",)),
    (lambda: scene(vehicles=[{"id": "v", "type": "car", "x": 1, "y": 1, "heading": 1e308}],
                   queries=[]), ("vehicles[0].heading",)),
    (lambda: scene(obstacles=[_obstacle(tall=1)]), ("obstacles[0].tall", "boolean")),
    (lambda: scene(vehicles=[{"id": "v", "type": "car", "x": True, "y": 1, "heading": 0}],
                   queries=[]), ("vehicles[0].x",)),
    (lambda: '{"table": ' + "[" * 5000 + "]" * 5000 + "}", ("nested deeper",)),
    (lambda: '{"table": {"width": ' + "9" * 5000 + ', "height": 1}}', ("table.width",
                                                                      "30 digits")),
    (lambda: '{"table": {"width": 1e999, "height": 1}}', ("table.width", "not a finite")),
    (lambda: scene(queries=[{"range_band": {"a": "x", "b": "y"}}] * 501), ("queries",)),
])
def test_hostile_scenes_are_one_line_exit_2(tmp_path: Path, make: Any,
                                            needles: tuple[str, ...]) -> None:
    clean_exit_2(["judge", str(write(tmp_path, make()))], *needles)


def test_judge_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    clean_exit_2(["judge", str(fifo)], "FIFO")


# -- replay ------------------------------------------------------------------------------------
def _log(tmp_path: Path) -> list[str]:
    assert runner.invoke(app, ["simulate", "--games", "1", "--bots", "random", "--max-rounds",
                               "2", "--log", str(tmp_path / "logs")]).exit_code == 0
    return (tmp_path / "logs" / "game-0.jsonl").read_text().splitlines()


def _tamper_header(lines: list[str], **changes: Any) -> list[str]:
    head = json.loads(lines[0])
    for k, v in changes.items():
        if k.startswith("setup_"):
            head["setup"][k[6:]] = v
        else:
            head[k] = v
    return [json.dumps(head), *lines[1:]]


@pytest.mark.parametrize("tamper, needles", [
    (lambda ls: _tamper_header(ls, setup_players=10**9), ("setup.players", "outside 2..8")),
    (lambda ls: _tamper_header(ls, setup_players=True), ("setup.players", "whole number")),
    (lambda ls: _tamper_header(ls, setup_max_rounds=-1), ("setup.max_rounds",)),
    (lambda ls: _tamper_header(ls, setup_scenario=["x"]), ("setup.scenario", "text")),
    (lambda ls: _tamper_header(ls, setup_teams="abc"), ("setup.teams",)),
    (lambda ls: _tamper_header(ls, choices=[{"a": 1}]), ("choices[0]",)),
    (lambda ls: _tamper_header(ls, seed=[1]), ("seed must be an integer or a string",)),
    (lambda ls: [ls[0].replace('"choices": [', '"choices": [' + "9" * 5000 + ", ", 1),
                 *ls[1:]], ("choices[0]", "30 digits")),
    (lambda ls: [ls[0], '{"kind": ' + "[" * 3000 + "]" * 3000 + "}"], (":2:", "nested")),
    (lambda ls: [ls[0], "[1, NaN]"], (":2:", "not a finite")),
    (lambda ls: [ls[0], "{oops"], (":2:", "not JSON")),
])
def test_tampered_logs_are_one_line_exit_2(tmp_path: Path, tamper: Any,
                                           needles: tuple[str, ...]) -> None:
    lines = tamper(_log(tmp_path))
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + "\n")
    clean_exit_2(["replay", str(p)], *needles)


def test_replay_refuses_a_fifo_and_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "g.jsonl"
    os.mkfifo(fifo)
    clean_exit_2(["replay", str(fifo)], "FIFO")
    clean_exit_2(["replay", "/dev/zero"], "device")


# -- simulate --log ----------------------------------------------------------------------------
def test_simulate_log_refuses_a_planted_link(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (logs / "game-0.jsonl").symlink_to(victim)
    r = runner.invoke(app, ["simulate", "--games", "1", "--bots", "random", "--max-rounds",
                            "2", "--log", str(logs)])
    assert victim.read_text() == "keep me"
    assert r.exit_code == 2 and "cannot write the log (a link is in its place" in r.stderr


def test_play_log_never_creates_folders_above_its_own(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "g.jsonl"
    clean_exit_2(["play", "--p1", "random", "--p2", "random", "--log", str(deep)],
                 "does not exist", "not its parents")
    assert not (tmp_path / "a").exists()
    clean_exit_2(["play", "--p1", "random", "--p2", "random", "--log", str(tmp_path)],
                 "is a folder")
    one = tmp_path / "logs" / "g.jsonl"
    r = runner.invoke(app, ["play", "--p1", "random", "--p2", "random", "--max-rounds", "1",
                            "--log", str(one)])
    assert r.exit_code == 0 and one.exists()


# -- text and paths typed on the command line --------------------------------------------------
NOT_UTF8 = b"\xff\xfe".decode("utf-8", "surrogateescape")
"""What Python makes of the bytes ff fe typed as an argument (they are no UTF-8 text)."""


@pytest.mark.parametrize("args, needles", [
    (["legacy", "generate", "--type", "car", "--name", NOT_UTF8], ("--name", "not UTF-8")),
    (["legacy", "generate", "--type", NOT_UTF8, "--name", "x"], ("--type", "not UTF-8")),
    (["legacy", "mutate", "--type", "car", "--name", NOT_UTF8], ("--name", "not UTF-8")),
    (["legacy", "name", "--seed", NOT_UTF8], ("--seed", "not UTF-8")),
    (["legacy", "team", NOT_UTF8, "car:a", "truck:b"], ("team's name", "not UTF-8")),
    (["legacy", "team", "T", f"car:{NOT_UTF8}", "truck:b"], ("--name", "not UTF-8")),
    (["legacy", "team", "T", "car:a", "truck:b", "--out", "/nonexistent/dir/t.yaml"],
     ("/nonexistent/dir/t.yaml", "cannot write")),
    (["team", "templates", str(ROOT / "examples" / "teams" / "intro.yaml"), "--svg",
      "/nonexistent/dir/t.svg"], ("/nonexistent/dir/t.svg", "cannot write")),
])
def test_bad_text_and_unwritable_paths_are_one_line_exit_2(args: list[str],
                                                            needles: tuple[str, ...]) -> None:
    t0 = time.monotonic()
    r = runner.invoke(app, args)
    assert time.monotonic() - t0 < 5.0
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for n in needles:
        assert n in lines[0], lines[0]
    assert not Path("/nonexistent").exists()


def test_a_huge_number_at_the_play_prompt_is_not_legal(tmp_path: Path) -> None:
    stdin = "9" * 5000 + "\n" + "x" * 20_000 + "\n²\nquit\n"
    t0 = time.monotonic()
    r = runner.invoke(app, ["play", "--p2", "random", "--seed", "2"], input=stdin)
    assert time.monotonic() - t0 < 10.0
    assert r.exit_code == 0 and r.exception is None, (r.output, r.exception)
    assert r.stdout.count("that line is longer than 4,096 characters") == 2, r.stdout
    assert r.stdout.count("not legal: type an option number") == 1, r.stdout
    assert "game abandoned" in r.stdout


@pytest.mark.parametrize("text", ["9" * 5000, "1e999", "nan", "-inf", "9" * 39])
def test_a_continuous_answer_is_a_finite_short_number(text: str) -> None:
    from carnage.cli.play_cmd import parse_answer
    from carnage.kernel.decisions import Decision, IllegalChoice, Interval

    d = Decision(0, "spin", "angle", domain=Interval(-90, 90))
    if text == "9" * 39:
        assert parse_answer(d, text) == float(text)  # refused later, by the domain
        return
    with pytest.raises(IllegalChoice, match="number from -90 to 90"):
        parse_answer(d, text)


def test_a_huge_number_at_the_devils_run_prompt_is_asked_again() -> None:
    stdin = "9" * 5000 + "\n" + "9" * 4000 + "\n²\n"
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--scenario", "devils-run",
                            "--p1", "human", "--p2", "heuristic"], input=stdin)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 0  # the input ended before the game did: abandoned, no traceback
    assert "that line is longer than 4,096 characters" in r.stdout
    assert r.stdout.count("not legal: type an option number") == 2, r.stdout[-500:]
    assert "game abandoned" in r.stdout
