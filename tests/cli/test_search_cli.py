"""``--bots search:<level>`` on the command line, and the terminal shows the bot's reasons."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from carnage.ai import search
from carnage.cli.main import app
from carnage.cli.play_cmd import TerminalPlay
from carnage.games.refuelled.setup import GameSetup
from carnage.rulesets import build_game

runner = CliRunner()


@pytest.fixture(autouse=True)
def tiny_easy_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The easy level with a tiny budget, so a whole game is quick on a shared machine."""
    monkeypatch.setitem(search.LEVELS, "easy", search.Level("easy", iterations=2, seconds=None,
                                                            horizon=2, depth=1))


def test_simulate_takes_search_bots_by_level() -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--seed", "2", "--max-rounds", "2",
                            "--bots", "search:easy,heuristic", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 1 and out["errors"] == 0
    assert set(out["wins"]) == {"p1:search:easy", "p2:heuristic"}


def test_simulate_refuses_an_unknown_level() -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--bots", "search:brutal,heuristic"])
    assert r.exit_code == 2
    assert "unknown bot 'search:brutal'" in r.output


def test_terminal_play_prints_the_search_bots_reasons() -> None:
    game = build_game(GameSetup(max_rounds=1), 4)
    buf = io.StringIO()
    console = Console(file=buf, width=200, highlight=False)
    TerminalPlay(game, ["search:easy", "heuristic"], console, io.StringIO(), None, 4).run()
    text = buf.getvalue()
    assert "search (easy) weighed" in text
    assert " * " in text  # the choice taken is marked among the candidates


def test_devils_run_takes_the_search_bot_too() -> None:
    r = runner.invoke(app, ["simulate", "--ruleset", "devils-run", "--scenario", "devils-run",
                            "--games", "1", "--seed", "3", "--bots", "search:easy,heuristic",
                            "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["errors"] == 0 and "p1:search:easy" in out["wins"]
