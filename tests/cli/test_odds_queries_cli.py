"""``carnage odds`` is built from the rulesets' declared queries: every query of every
ruleset is a command, a test-only ruleset's query becomes one too, and a bad option is one
line naming it (exit 2). The odds commands import no game package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.dice_queries import reach, with_dice
from typer.testing import CliRunner

import carnage.cli.odds_cmd
from carnage.cli.odds_cmd import odds_app
from carnage.kernel.queries import offered
from carnage.rulesets import RULESETS

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})


@pytest.mark.parametrize("path", [q.path for q, _ in offered(RULESETS)])
def test_every_declared_query_is_a_command_with_its_options(path: str) -> None:
    q = next(q for q, _ in offered(RULESETS) if q.path == path)
    r = runner.invoke(odds_app(), [*q.words, "--help"])
    assert r.exit_code == 0, r.output
    for p in q.params:
        assert p.option in r.stdout


def test_a_test_rulesets_query_is_a_command() -> None:
    app = odds_app(with_dice())
    r = runner.invoke(app, ["dicetest", "sum", "--dice", "3", "--at-least", "10", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == reach(3, 10, False, "d6")
    dropped = runner.invoke(app, ["dicetest", "sum", "--dice", "2", "--drop-lowest",
                                  "--faces", "d3", "--at-least", "3", "--json"])
    # the higher of 2D3 is 3 unless both are 1 or 2: 1 - 4/9
    assert json.loads(dropped.stdout)["exact"] == "5/9"
    table = runner.invoke(app, ["dicetest", "sum", "--dice", "2"])
    assert table.exit_code == 0 and "P(2 dice total 7+) 58.33% (7/12)" in table.stdout
    group = runner.invoke(app, ["dicetest", "--help"])
    assert "Test Dice: exact odds of its dice." in group.stdout
    # the registry's own commands are still there, and the test query is not in them
    assert runner.invoke(odds_app(), ["dicetest", "sum", "--dice", "1"]).exit_code == 2


@pytest.mark.parametrize(("args", "message"), [
    (["--dice", "5"], "odds: --dice must be between 1 and 4, not 5\n"),
    (["--dice", "2", "--faces", "d8"], "odds: --faces must be d6 or d3, not 'd8'\n"),
    (["--dice", "2", "--at-least", "-1"], "odds: --at-least must be between 0 and 24, not -1\n"),
])
def test_a_bad_option_of_a_declared_query_is_one_line_naming_it(args: list[str],
                                                                  message: str) -> None:
    r = runner.invoke(odds_app(with_dice()), ["dicetest", "sum", *args, "--json"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == message


def test_a_choices_shorthand_flags_must_agree() -> None:
    app = odds_app()
    same = runner.invoke(app, ["skid", "--dice", "1", "--trivial", "--manoeuvre", "trivial",
                               "--json"])
    assert same.exit_code == 0
    assert same.stdout == runner.invoke(app, ["skid", "--dice", "1", "--manoeuvre", "trivial",
                                              "--json"]).stdout
    r = runner.invoke(app, ["skid", "--dice", "1", "--hazardous", "--manoeuvre", "trivial"])
    assert r.exit_code == 2
    assert r.stderr == ("odds: --manoeuvre and --hazardous disagree: the manoeuvre is either "
                        "trivial or hazardous, not both\n")


def test_the_odds_commands_import_no_game_package() -> None:
    text = Path(carnage.cli.odds_cmd.__file__).read_text(encoding="utf-8")
    assert "carnage.games" not in text
    assert not (Path(carnage.cli.odds_cmd.__file__).parent / "odds_variants_cmd.py").exists()
