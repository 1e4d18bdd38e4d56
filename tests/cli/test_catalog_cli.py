"""``carnage catalog KIND [--json]``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from carnage.catalog import load_catalog
from carnage.cli.main import app

runner = CliRunner(env={"COLUMNS": "240", "NO_COLOR": "1"})


def test_vehicles_json_lists_every_record_as_dumped() -> None:
    result = runner.invoke(app, ["catalog", "vehicles", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data) == 16
    expected = [v.model_dump(mode="json") for v in load_catalog().vehicles]
    assert data == expected
    buggy = next(d for d in data if d["id"] == "buggy")
    assert buggy["built_in_upgrades"] == ["roll_cage"]
    assert buggy["weight"] == "lightweight"


@pytest.mark.parametrize(
    ("kind", "count"),
    [("weapons", 38), ("upgrades", 22), ("perks", 72), ("sponsors", 13), ("templates", 9)],
)
def test_json_counts(kind: str, count: int) -> None:
    result = runner.invoke(app, ["catalog", kind, "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == count


def test_weapons_json_uses_plain_values() -> None:
    data = json.loads(runner.invoke(app, ["catalog", "weapons", "--json"]).stdout)
    bfg = next(d for d in data if d["id"] == "bfg")
    assert bfg["allowed_facings"] == ["front"]
    assert bfg["ranges"] == ["double"]
    lobber = next(d for d in data if d["id"] == "wreck_lobber")
    assert lobber["ranges"] == ["double", "dropped"]


def test_weapons_table_shows_key_stats() -> None:
    result = runner.invoke(app, ["catalog", "weapons"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "weapons (38)" in out
    # one row per weapon, with the dice printed as the book does
    row = next(line for line in out.splitlines() if "heavy_machine_gun" in line)
    assert "3D6" in row and "double" in row
    grav = next(line for line in out.splitlines() if "grav_gun" in line)
    assert "(3D6)" in grav and "mishkin" in grav and "2**" in grav
    shotgun = next(line for line in out.splitlines() if "shotgun" in line)
    assert "*" in shotgun and "none (360)" in shotgun


def test_vehicles_table_rows() -> None:
    out = runner.invoke(app, ["catalog", "vehicles"]).stdout
    tank = next(line for line in out.splitlines() if "│ tank " in line)
    cells = [c.strip() for c in tank.split("│")]
    # id, name, weight, hull, handling, gear, crew, slots, cans
    assert cells[1:10] == ["tank", "Tank", "heavyweight", "20", "4", "3", "3", "4", "40"]
    assert "[restricted]" in tank


def test_upgrades_table_summarises_effects_and_limits() -> None:
    out = runner.invoke(app, ["catalog", "upgrades"]).stdout
    tracks = next(line for line in out.splitlines() if "tank_tracks" in line)
    assert "handling +1" in tracks and "max gear -1" in tracks and "max 1/vehicle" in tracks
    turret = next(line for line in out.splitlines() if "turret_mounting" in line)
    assert "x3 weapon cost" in turret
    prison = next(line for line in out.splitlines() if "prison_car" in line)
    assert "base cost -4" in prison and "warden" in prison


@pytest.mark.parametrize("kind", ["perks", "sponsors", "perk_classes", "templates"])
def test_other_sections_print_a_table(kind: str) -> None:
    result = runner.invoke(app, ["catalog", kind])
    assert result.exit_code == 0, result.output
    section = load_catalog().sections()[kind]
    first = next(iter(section))
    assert first.id in result.stdout
    assert f"({len(section)})" in result.stdout


def test_templates_table_shows_gear_use() -> None:
    out = runner.invoke(app, ["catalog", "templates"]).stdout
    row = next(line for line in out.splitlines() if "long_straight" in line)
    cells = [c.strip() for c in row.split("│")]
    assert cells[3:9] == ["-", "-", "-", "-", "P", "P"]


@pytest.mark.parametrize("spelling", ["vehicle", "Vehicles", "perk-classes", "perk class"])
def test_kind_accepts_singular_and_loose_spelling(spelling: str) -> None:
    result = runner.invoke(app, ["catalog", spelling, "--json"])
    assert result.exit_code == 0, result.output
    assert isinstance(json.loads(result.stdout), list)


def test_unknown_kind_is_one_line_with_did_you_mean_and_exit_2() -> None:
    result = runner.invoke(app, ["catalog", "wepons"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "unknown catalogue kind 'wepons'" in lines[0]
    assert "did you mean 'weapons'?" in lines[0]
    assert "Traceback" not in result.output


def test_unknown_kind_without_a_near_match_lists_the_choices() -> None:
    result = runner.invoke(app, ["catalog", "dice"])
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr
    assert "vehicles, weapons, upgrades" in result.stderr
