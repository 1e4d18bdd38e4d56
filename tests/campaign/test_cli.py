"""``carnage campaign`` end to end, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app

INTRO = str(Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml")
runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_a_season_from_new_to_export(db_url: str) -> None:
    code, out, err = _run("campaign", "new", "--mode", "championship", "--team", INTRO,
                          "--team", INTRO, "--events", "street-race,flag-tag", "--db", db_url,
                          "--json")
    assert code == 0, err
    cid = json.loads(out)["id"]
    code, out, _ = _run("campaign", "next", cid, "--db", db_url, "--json")
    assert json.loads(out)["game"] == 1 and json.loads(out)["scenario"] == "street-race"
    code, out, err = _run("campaign", "auto", cid, "--bots", "heuristic", "--events", "2",
                          "--seed", "5", "--max-rounds", "8", "--db", db_url, "--json")
    assert code == 0, err
    played = json.loads(out)["played"]
    assert [p["scenario"] for p in played] == ["street-race", "flag-tag"]
    code, out, _ = _run("campaign", "show", cid, "--db", db_url, "--json")
    shown = json.loads(out)
    assert shown["games"] == 2 and shown["next"]["scenario"] == "street-race"
    assert sum(r["cp"] for r in shown["standings"]) == sum(
        5 + (3 if len(p["places"]) > 1 else 5) for p in played)
    assert [v["name"] for v in shown["teams"][0]["vehicles"]] == ["Red Car", "Red Buggy"]
    code, out, _ = _run("campaign", "show", cid, "--db", db_url)
    assert code == 0 and "Championship Season" in out and "next: game 3" in out
    assert "Red Buggy (buggy: machine_gun)" in out
    code, out, _ = _run("campaign", "export", cid, "--db", db_url)
    history = json.loads(out)
    kinds = [r["kind"] for r in history["records"]]
    assert kinds == ["join", "allowance"] * 2 + ["game", "points", "points"] * 2
    assert [r["seq"] for r in history["records"]] == list(range(len(kinds)))


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    code, _, err = _run("campaign", "show", "nope", "--db", db)
    assert code == 2 and "no campaign with id 'nope'" in err
    code, _, err = _run("campaign", "new", "--mode", "escalating", "--team", "missing.yaml",
                        "--team", INTRO, "--db", db)
    assert code == 2 and "missing.yaml" in err
    code, _, err = _run("campaign", "new", "--mode", "televised-ish", "--team", INTRO,
                        "--team", INTRO, "--db", db)
    assert code == 2 and "unknown campaign mode" in err
    code, _, err = _run("campaign", "new", "--mode", "escalating", "--team", INTRO,
                        "--team", INTRO, "--events", "street-race,nowhere", "--db", db)
    assert code == 2 and "unknown scenario 'nowhere'" in err
    code, _, err = _run("campaign", "show", "x", "--db", "bogus://nowhere")
    assert code == 2 and "cannot open database 'bogus://nowhere'" in err
    code, out, _ = _run("campaign", "new", "--mode", "escalating", "--team", INTRO,
                        "--team", INTRO, "--db", db)
    code, _, err = _run("campaign", "auto", out.splitlines()[0], "--bots", "genius", "--db", db)
    assert code == 2 and "unknown bot 'genius'" in err


def test_a_team_changes_its_roster_between_games(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    bigger = tmp_path / "bigger.yaml"
    bigger.write_text(Path(INTRO).read_text() + (
        "  - name: Blue Buggy\n    type: buggy\n    weapons:\n"
        "      - {id: machine_gun, facing: front}\n"
        "  - name: Green Buggy\n    type: buggy\n    weapons:\n"
        "      - {id: machine_gun, facing: front}\n"))
    _, out, _ = _run("campaign", "new", "--mode", "escalating", "--team", INTRO, "--team",
                     INTRO, "--events", "street-race", "--db", db)
    cid = out.splitlines()[0]
    code, _, err = _run("campaign", "team", cid, "--seat", "0", "--team", str(bigger),
                        "--db", db)
    assert code == 2 and "over its budget of 30" in err  # 38 Cans before any bonus
    code, _, err = _run("campaign", "auto", cid, "--events", "1", "--seed", "2",
                        "--max-rounds", "6", "--db", db)
    assert code == 0, err
    code, out, err = _run("campaign", "team", cid, "--seat", "0", "--team", str(bigger),
                          "--db", db)
    assert code == 0, err
    assert "38 of 40 Cans" in out
    _, out, _ = _run("campaign", "show", cid, "--db", db, "--json")
    row = next(r for r in json.loads(out)["standings"] if r["seat"] == 0)
    assert (row["spent"], row["cans"], row["unspent"]) == (38, 40, 2)
    code, _, err = _run("campaign", "team", cid, "--seat", "7", "--team", INTRO, "--db", db)
    assert code == 2 and "no team in seat 7" in err
