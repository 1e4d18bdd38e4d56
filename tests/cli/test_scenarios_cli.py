"""``carnage scenarios`` (both rulesets) and ``carnage play --ruleset devils-run``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.games.devilsrun.missions import replay
from carnage.games.refuelled.scenarios import SCENARIOS

runner = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})


def _json(args: list[str]) -> dict[str, object]:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert isinstance(doc, dict)
    return doc


def test_scenarios_json_lists_both_devils_run_missions() -> None:
    doc = _json(["scenarios", "--ruleset", "devils-run", "--json"])
    assert doc["rulesets"] == ["devils-run"]
    rows = doc["scenarios"]
    assert isinstance(rows, list)
    assert [r["id"] for r in rows] == ["devils-run", "hell-on-wheels"]
    first = rows[0]
    assert first["ruleset"] == "devils-run" and first["name"] == "Mission 1 - The Devil's Run"
    assert first["page"] is None and first["lines"] == "231-245"  # no pages in the beta book
    assert first["players"] == "2" and first["min_players"] == first["max_players"] == 2
    assert "stash" in first["description"]


def test_scenarios_json_lists_refuelleds_scenario_dict() -> None:
    doc = _json(["scenarios", "--ruleset", "refuelled", "--json"])
    rows = doc["scenarios"]
    assert isinstance(rows, list)
    assert [r["id"] for r in rows] == sorted(SCENARIOS)
    street = next(r for r in rows if r["id"] == "street-race")
    assert street == {
        "ruleset": "refuelled", "id": "street-race", "name": "Street Race", "page": 62,
        "lines": None, "players": "2+", "min_players": 2, "max_players": None,
        "description": street["description"], "table": None,
    }
    assert "finish line" in street["description"]


def test_scenarios_without_ruleset_lists_every_ruleset_in_a_table() -> None:
    r = runner.invoke(app, ["scenarios"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == len(SCENARIOS) + 2 + 2  # the Kart variant's 2 races, Devil's Run's 2
    street = next(ln for ln in lines if " street-race " in ln)
    assert street.startswith("refuelled") and "p.62" in street
    assert "hell-on-wheels" in lines[-1] and "lines 246-266" in lines[-1]
    assert _json(["scenarios", "--json"])["rulesets"] == ["refuelled", "kart", "devils-run"]


def test_scenarios_refuses_an_unknown_ruleset_in_one_line() -> None:
    r = runner.invoke(app, ["scenarios", "--ruleset", "croquet", "--json"])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.strip() == (
        "error: --ruleset: unknown ruleset 'croquet' (known: refuelled, kart, devils-run)")


def test_play_devils_run_bots_write_a_record_that_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--scenario", "hell-on-wheels",
                            "--p1", "random", "--p2", "heuristic", "--seed", "4",
                            "--log", str(rec)])
    assert r.exit_code == 0, r.output
    doc = json.loads(rec.read_text())
    assert doc["setup"]["scenario"] == "hell-on-wheels" and doc["setup"]["seed"] == 4
    g = replay(doc["setup"], doc["choices"])
    out = g.outcome()
    assert out is not None and out.to_json() == doc["outcome"]
    last = r.stdout.strip().splitlines()[-1]
    assert f"(turn {out.rounds})" in last


def test_play_devils_run_human_answers_numbered_choices() -> None:
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--scenario", "devils-run",
                            "--p1", "human", "--p2", "heuristic", "--seed", "1"],
                      input="1\n" * 3000)
    assert r.exit_code == 0, r.output
    assert "player 1: " in r.stdout and "  1. " in r.stdout
    assert "wins" in r.stdout.splitlines()[-1] or "draw" in r.stdout.splitlines()[-1]


def test_play_devils_run_refuses_bad_seats_and_missions() -> None:
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--p1", "clever"])
    assert r.exit_code == 2
    assert "--p1: unknown bot 'clever'" in r.stderr
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--scenario", "street-race",
                            "--p1", "random"])
    assert r.exit_code == 2
    assert "unknown Devil's Run mission 'street-race'" in r.stderr
    r = runner.invoke(app, ["play", "--ruleset", "devils-run", "--team", "x.yaml"])
    assert r.exit_code == 2 and "--team: Devil's Run plays the mission's own gangs" in r.stderr
    r = runner.invoke(app, ["play", "--ruleset", "gaslands-kart"])
    assert r.exit_code == 2 and "unknown ruleset 'gaslands-kart'" in r.stderr


def test_scenarios_of_the_kart_variant_are_its_two_races() -> None:
    doc = _json(["scenarios", "--ruleset", "kart", "--json"])
    assert doc["rulesets"] == ["kart"]
    assert [(r["ruleset"], r["id"]) for r in doc["scenarios"]] == [
        ("kart", "death-race"), ("kart", "street-race")]
