"""Scenario options shared by ``carnage play`` and ``carnage simulate``: ``--sides`` (team
games, p.123), ``--option name=value`` (scenario variants), ``--table FILE`` (a table laid out
by hand, scenarios/common/table.py) and ``random:<table>`` scenarios (p.122). Any
problem is a ``SetupError`` naming the option."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    parse_scenario_options,
    parse_sides,
    read_table,
)

SIDES_HELP = "team game: seats of each side, e.g. 1,3/2,4 (seats count from 1)"
OPTION_HELP = "a scenario variant, name=value (repeatable), e.g. volatile_flags=true"
TABLE_HELP = "a table laid out by hand: a YAML or JSON layout file (see docs)"
SCENARIO_HELP = "scenario id, or random:televised, random:skirmish or random:special (p.122)"


def with_scenario_options(setup: GameSetup, *, sides: str | None = None,
                          options: list[str] | None = None,
                          table: Path | None = None) -> GameSetup:
    """``setup`` with the team-game sides, scenario options and hand-laid table given."""
    out = setup
    if sides is not None:
        out = replace(out, sides=parse_sides(sides, setup.players))
    if options:
        out = replace(out, scenario_options=parse_scenario_options(options))
    if table is not None:
        try:
            out = replace(out, table=read_table(table))
        except SetupError as e:
            raise SetupError(f"--table: {e}") from None
    return out


__all__ = ["OPTION_HELP", "SCENARIO_HELP", "SIDES_HELP", "TABLE_HELP", "with_scenario_options"]
