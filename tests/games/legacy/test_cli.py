"""``carnage legacy ...`` and ``--ruleset legacy`` on the command line: generate, mutate,
name, team, handicap; clear one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.games.legacy.generator import generate_vehicle, vehicle_json
from carnage.games.legacy.mutations import gain_mutations
from carnage.games.legacy.names import vehicle_name
from carnage.games.legacy.ratings import team_rating
from carnage.games.refuelled.setup import read_log
from carnage.team import check_team, load_team

runner = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})


def test_generate_prints_the_vehicle_and_its_json() -> None:
    r = runner.invoke(app, ["legacy", "generate", "--type", "car", "--name", "Rust Bucket",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == vehicle_json(generate_vehicle("car", "Rust Bucket"))
    r = runner.invoke(app, ["legacy", "generate", "--type", "car", "--name", "Rust Bucket"])
    assert r.exit_code == 0
    assert "Rust Bucket: Car (ours, not the official Legacy app)" in r.stdout
    assert "Vehicle Rating 20" in r.stdout and "Combat Laser" in r.stdout


def test_mutate_prints_each_gain_in_order() -> None:
    r = runner.invoke(app, ["legacy", "mutate", "--type", "truck", "--name", "Big Bertha",
                            "--count", "3", "--json"])
    assert r.exit_code == 0, r.output
    spec, gains = gain_mutations(generate_vehicle("truck", "Big Bertha"), 3)
    assert json.loads(r.stdout) == {"vehicle": vehicle_json(spec),
                                    "gains": [g.to_json() for g in gains]}
    r = runner.invoke(app, ["legacy", "mutate", "--type", "truck", "--name", "Big Bertha",
                            "--count", "2"])
    assert r.stdout.startswith(f"1. {gains[0].name} (d100 {gains[0].roll})")
    assert f"2. {gains[1].name}" in r.stdout


def test_name_is_ours_and_seeded() -> None:
    r = runner.invoke(app, ["legacy", "name", "--seed", "4"])
    assert r.exit_code == 0 and r.stdout.strip() == vehicle_name("4")
    r = runner.invoke(app, ["legacy", "name"])
    assert r.exit_code == 0 and len(r.stdout.split()) == 2


def test_bad_input_is_one_line_and_exit_2() -> None:
    r = runner.invoke(app, ["legacy", "generate", "--type", "tank", "--name", "X"])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("error: unknown Legacy vehicle type 'tank' (known: buggy, car, "
                                "performance_car, truck)")
    r = runner.invoke(app, ["legacy", "generate", "--type", "car", "--name", "  "])
    assert r.exit_code == 2 and "needs a name" in r.stderr
    r = runner.invoke(app, ["legacy", "mutate", "--type", "car", "--name", "X", "--count", "-1"])
    assert r.exit_code == 2 and "--count must be 0 to 100" in r.stderr
    r = runner.invoke(app, ["legacy", "team", "T", "car-Rust"])
    assert r.exit_code == 2 and "give a vehicle as TYPE:NAME" in r.stderr
    r = runner.invoke(app, ["legacy", "team", "T", "car:A"])
    assert r.exit_code == 2 and "exactly 2 Legacy vehicles, not 1" in r.stderr


def test_team_files_play_in_the_legacy_ruleset(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path, picks in ((a, ["car:Rust Bucket", "buggy:Zip"]),
                        (b, ["truck:Big Bertha", "performance_car:Twin Mill"])):
        r = runner.invoke(app, ["legacy", "team", path.stem, *picks, "--out", str(path)])
        assert r.exit_code == 0, r.output
        assert check_team(load_team(path)).valid
    r = runner.invoke(app, ["legacy", "handicap", str(a), str(b), "--json"])
    assert r.exit_code == 0, r.output
    low = json.loads(r.stdout)[0]
    assert low["rating_before"] == team_rating(load_team(a)) == 49
    assert low["top"] == team_rating(load_team(b)) == 85 and low["mutations"]
    logs = tmp_path / "logs"
    r = runner.invoke(app, ["simulate", "--ruleset", "legacy", "--scenario", "arena-of-death",
                            "--team", str(a), "--team", str(b), "--games", "2", "--json",
                            "--max-rounds", "4", "--log", str(logs)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["errors"] == 0
    assert read_log(logs / "game-0.jsonl").setup.ruleset == "legacy"
    intro = Path(__file__).parents[3] / "examples" / "teams" / "intro.yaml"
    r = runner.invoke(app, ["simulate", "--ruleset", "legacy", "--team", str(intro),
                            "--team", str(b), "--games", "1"])
    assert r.exit_code == 2 and "the Legacy ruleset plays Legacy teams" in r.stderr
