"""`carnage play` shows the log as the human seats at the terminal see it (ruling SC-43):
their own delivery slip, the other seat's face down."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from carnage.cli.play_cmd import TerminalPlay
from carnage.games.refuelled.setup import GameSetup, build_game


def _printed(seats: list[str]) -> str:
    g = build_game(GameSetup(scenario="express-delivery", players=2), 3)
    out = io.StringIO()
    play = TerminalPlay(g, seats, Console(file=out, width=200), io.StringIO(""), Path("."), 3)
    play.flush_events()
    return out.getvalue()


def test_the_terminal_shows_the_human_seats_slip_and_hides_the_others() -> None:
    text = _printed(["human", "heuristic"])
    lines = [ln for ln in text.splitlines() if "delivery slip" in ln and "dealt" not in ln]
    assert len(lines) == 2
    assert lines[0].startswith("Red's delivery slip: ") and lines[0].count("'s name") == 1
    assert lines[1] == "Blue now holds a delivery slip, face down (p.137)"
    assert "Dice rolled face down (delivery slips dealt) (p.137)" in text


def test_a_game_of_bots_prints_as_a_spectator_sees_it() -> None:
    text = _printed(["heuristic", "random"])
    assert "'s name" not in text
    assert text.count("now holds a delivery slip, face down") == 2
