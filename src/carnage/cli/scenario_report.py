"""A scenario's progress for the terminal, from its own report (engine/scenario_view.py):
``carnage play`` prints the rows, ``carnage simulate`` counts the tallied ones across games."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game


def report_lines(game: Game) -> list[str]:
    """One line per row of the scenario's report: ``<label>: <text>``."""
    return [f"{r.label}: {r.text}" for r in game.scenario.report(game)]


def tally(game: Game, into: Counter[str], labels: dict[str, str]) -> None:
    """Count, by key, the tallied rows this finished game ends with a value set; ``labels``
    learns each key's label."""
    for r in game.scenario.report(game):
        if r.tally:
            labels.setdefault(r.key, r.label)
            into[r.key] += 1 if r.value not in (None, False, 0) else 0
