"""Options shared by ``carnage play``, ``carnage simulate`` and ``carnage scenarios``: their
help texts, and ``--ruleset`` checked against the registry (never a hand-kept list). The
scenario options themselves (``--sides``, ``--option``, ``--table``, ``random:<table>``) are
read by the ruleset that offers them (``Ruleset.games``)."""

from __future__ import annotations

import typer

from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS, get_ruleset

SIDES_HELP = "team game: seats of each side, e.g. 1,3/2,4 (seats count from 1)"
OPTION_HELP = "a scenario variant, name=value (repeatable), e.g. volatile_flags=true"
TABLE_HELP = "a table laid out by hand: a YAML or JSON layout file (see docs)"
PHYSICAL_HELP = ("companion mode: play with real cars and templates on a real table; every "
                 "fact the rules measure (what a move touched, collision edges, targets in "
                 "range and arc, cover ...) is asked of the players")
SCENARIO_HELP = "scenario id, or random:televised, random:skirmish or random:special (p.122)"


def ruleset_help() -> str:
    """``--ruleset``'s help: the rulesets of the registry."""
    return "the ruleset: " + ", ".join(RULESETS)


def ruleset_or_exit(name: str) -> Ruleset:
    """The ruleset called ``name``; else one line on stderr naming the known ones, exit 2."""
    try:
        return get_ruleset(name.strip().lower())
    except KeyError as e:
        typer.echo(f"--ruleset: {e.args[0]}", err=True)
        raise typer.Exit(2) from None


__all__ = ["OPTION_HELP", "SCENARIO_HELP", "SIDES_HELP", "TABLE_HELP", "ruleset_help",
           "ruleset_or_exit"]


def physical_or_refuse(ruleset: Ruleset, physical: bool) -> bool:
    """``--physical`` for ``ruleset``: ``SetupRefused`` if its games cannot be played at a
    real table (``Ruleset.physical``)."""
    from carnage.kernel.session import SetupRefused

    if physical and not ruleset.physical:
        raise SetupRefused(f"--physical: {ruleset.title} offers no companion mode (its games "
                           "are played on the virtual table only)")
    return physical
