"""``carnage team check FILE [--json] [--homebrew]``, ``team show FILE``, ``team import``/``export``
(BattleScribe rosters)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.team import load_team

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
INTRO = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"

BAD_TEAM = """\
name: Broken
sponsor: rutherford
cans: 20
vehicles:
  - name: Big Mama
    type: buggy
    upgrades: [{id: exploding_ram, facing: front}]
  - name: Gunner
    type: car
    weapons: [machine_gun]
"""
# Big Mama: buggy 6 + exploding ram 3 = 9; Gunner: car 12 + MG 2 = 14; team 23 > 20


def _file(tmp_path: Path, text: str, name: str = "team.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_check_valid_team_exits_0() -> None:
    result = runner.invoke(app, ["team", "check", str(INTRO)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "Street Race starters: valid (22 of 25 cans, 2 vehicles, no sponsor)")


def test_check_invalid_team_lists_each_error_then_summary(tmp_path: Path) -> None:
    result = runner.invoke(app, ["team", "check", str(_file(tmp_path, BAD_TEAM))])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "Big Mama: Exploding Ram cannot be fitted to a lightweight vehicle (p.84)",
        "Big Mama: a Rutherford team may not buy a lightweight vehicle (Buggy) "
        "(Might Is Right, p.91)",
        "Gunner: Machine Gun needs a facing: front, rear, side or turret (p.65)",
        "Team: the team costs 23 cans, over its budget of 20 by 3 (p.64)",
        "Broken: INVALID, 4 errors (23 of 20 cans, 2 vehicles, sponsor rutherford)",
    ]


def test_check_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["team", "check", str(_file(tmp_path, BAD_TEAM)), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["valid"], data["total_cans"], data["budget"]) == (False, 23, 20)
    assert [(e["vehicle"], e["item"]) for e in data["errors"]] == [
        ("Big Mama", "exploding_ram"), ("Big Mama", "buggy"), ("Gunner", "machine_gun"),
        (None, "cans")]
    mama = data["vehicles"][0]
    assert (mama["name"], mama["type"], mama["cans"], mama["hull"], mama["weight"]) == (
        "Big Mama", "buggy", 9, 6, "lightweight")
    assert [u["id"] for u in mama["upgrades"]] == ["exploding_ram", "roll_cage"]


def test_check_homebrew_relaxes_sponsor_rules_only(tmp_path: Path) -> None:
    result = runner.invoke(app, ["team", "check", str(_file(tmp_path, BAD_TEAM)), "--homebrew"])
    assert result.exit_code == 1  # the ram, the facing and the budget still count
    lines = result.stdout.splitlines()
    assert sum(1 for x in lines if x.startswith("note (homebrew):")) == 1
    assert "INVALID, 3 errors" in lines[-1]


def test_check_homebrew_can_make_a_team_valid(tmp_path: Path) -> None:
    text = "name: H\nsponsor: slime\ncans: 40\nvehicles:\n  - {name: T, type: tank}\n"
    p = _file(tmp_path, text)
    assert runner.invoke(app, ["team", "check", str(p)]).exit_code == 1
    result = runner.invoke(app, ["team", "check", str(p), "--homebrew", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["valid"] and data["relaxed"][0]["item"] == "tank"


def test_unreadable_and_malformed_files_exit_2(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["team", "check", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2
    assert missing.stderr.strip() == f"{tmp_path / 'nope.yaml'}: no such file"
    bad = _file(tmp_path, "name: X\ncans: many\nvehicles: 3\n")
    result = runner.invoke(app, ["team", "check", str(bad), "--json"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{bad}: cans: input should be a valid integer (got 'many')",
        f"{bad}: vehicles: expected a list, got 3",
    ]
    assert "Traceback" not in result.output


def test_unknown_ids_exit_1_with_suggestion(tmp_path: Path) -> None:
    p = _file(tmp_path, "name: X\ncans: 50\nvehicles:\n  - {name: A, type: buggi}\n")
    result = runner.invoke(app, ["team", "check", str(p)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "A: unknown vehicle 'buggi' (did you mean 'buggy'?)"


def test_show_prints_a_dashboard_per_vehicle() -> None:
    result = runner.invoke(app, ["team", "show", str(INTRO)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Red Car", "Red Buggy", "Car, middleweight", "Buggy, lightweight",
                 "Hull 10", "□□□□□ □□□□□", "Handling 3", "Max gear 5", "Crew 2",
                 "Machine Gun", "front", "Double", "2D6", "Roll Cage [built in]", "14 cans",
                 "8 cans", "valid (22 of 25 cans"):
        assert text in out, text


def test_show_lists_errors_and_exits_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["team", "show", str(_file(tmp_path, BAD_TEAM))])
    assert result.exit_code == 1
    assert "Exploding Ram cannot be fitted to a lightweight vehicle (p.84)" in result.stdout
    assert "Big Mama" in result.stdout and "Gunner" in result.stdout


def test_show_sponsored_example_with_ammo_and_perks() -> None:
    path = INTRO.parent / "rutherford_armour.yaml"
    result = runner.invoke(app, ["team", "show", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "■■■■" in out  # Well Stocked rockets: 4 ammo
    assert "Dead-Eye (military, 2 cans)" in out
    assert "turret" in out and "Special rules:" in out


def test_show_unreadable_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["team", "show", str(_file(tmp_path, "[1, 2", "t.json"))])
    assert result.exit_code == 2
    assert "invalid JSON" in result.stderr


# -- BattleScribe rosters ----------------------------------------------------------------------
def test_export_then_import_a_roster_round_trips(tmp_path: Path) -> None:
    for name in ("team.ros", "team.rosz"):
        out = tmp_path / name
        r = runner.invoke(app, ["team", "export", str(INTRO), str(out)])
        assert r.exit_code == 0, r.output
        assert "roster written" in r.stdout
        back = tmp_path / f"{name}.yaml"
        r = runner.invoke(app, ["team", "import", str(out), "--out", str(back)])
        assert r.exit_code == 0, r.output
        assert "not mapped" not in r.stdout and "valid" in r.stdout
        assert load_team(back) == load_team(INTRO)


def test_import_reports_what_it_cannot_map_and_exits_1(tmp_path: Path) -> None:
    ns = "http://www.battlescribe.net/schema/rosterSchema"
    p = tmp_path / "hogs.ros"
    p.write_text(
        f'<roster xmlns="{ns}" name="Hogs" gameSystemName="Gaslands">'
        '<costLimits><costLimit name="Cans" typeId="c" value="30"/></costLimits>'
        '<forces><force name="Team"><selections>'
        '<selection name="Car" type="model" customName="Big Mama"><selections>'
        '<selection name="Machine Gun" type="upgrade"><selections>'
        '<selection name="Front" type="upgrade"/></selections></selection>'
        '<selection name="Laser Unicorn" type="upgrade"/>'
        '</selections></selection></selections></force></forces></roster>')
    r = runner.invoke(app, ["team", "import", str(p)])
    assert r.exit_code == 1, r.output
    assert "name: Hogs" in r.stdout and "id: machine_gun" in r.stdout
    assert "not mapped: Laser Unicorn (on Big Mama)" in r.stdout


def test_import_and_export_errors_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "x.ros"
    bad.write_text("<army/>")
    r = runner.invoke(app, ["team", "import", str(bad)])
    assert r.exit_code == 2 and "not <roster>" in r.stderr
    r = runner.invoke(app, ["team", "export", str(INTRO), str(tmp_path / "x.txt")])
    assert r.exit_code == 2 and "must end in .ros or .rosz" in r.stderr
