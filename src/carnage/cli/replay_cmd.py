"""``carnage replay LOG``: rebuild a saved game of any ruleset and check it plays out
identically.

The log's header names its ruleset (``setup.ruleset``; a log without one is Refuelled's); that
ruleset rebuilds the game from the header (scenario, setup, seed), re-applies the logged
choices and compares every regenerated event with the logged one (``Ruleset.replay_log``).
Exit 0 and a summary when they are identical; exit 1 with the first differing event when not;
exit 2 (one line on stderr) when the log cannot be read or its choices no longer apply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from carnage import guard
from carnage.kernel.session import ReplayReport, SetupRefused
from carnage.rulesets import DEFAULT_RULESET, get_ruleset

DEFAULT = DEFAULT_RULESET
"""The ruleset of a log that names none (logs written before rulesets were named)."""


def log_ruleset(text: str, source: str) -> str:
    """The ruleset a log's header names; ``DEFAULT`` when it names none or the header cannot
    be read (that ruleset's reader then says what is wrong with it)."""
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = guard.log_lines(first, source)
    except guard.InputRefused:
        return DEFAULT
    raw = head[0][1] if head else None
    setup = raw.get("setup") if isinstance(raw, dict) else None
    name = setup.get("ruleset", DEFAULT) if isinstance(setup, dict) else DEFAULT
    if not isinstance(name, str):
        raise SetupRefused(f"{source}:1: setup.ruleset must be text")
    return name


def replay_file(log: Path) -> ReplayReport:
    """The log at ``log`` replayed by its ruleset (``SetupRefused`` naming the problem)."""
    try:
        text = guard.read_log_text(log)
    except guard.InputRefused as e:
        raise SetupRefused(str(e)) from None
    name = log_ruleset(text, str(log))
    try:
        ruleset = get_ruleset(name)
    except KeyError as e:
        raise SetupRefused(f"{log}: {e.args[0]}") from None
    if ruleset.replay_log is None:
        raise SetupRefused(f"{log}: {ruleset.title} has no replay")
    return ruleset.replay_log(text, str(log))


def replay_command(
    log: Annotated[Path, typer.Argument(help="game log (JSON lines) written by play/simulate")],
) -> None:
    """Replay a game log and check every event is reproduced exactly."""
    try:
        result = replay_file(log)
    except SetupRefused as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    if result.difference is not None:
        i, old, new = result.difference
        typer.echo(f"{log}: replay differs at event {i}")
        typer.echo(f"  logged:     {json.dumps(old, sort_keys=True)}")
        typer.echo(f"  replayed:   {json.dumps(new, sort_keys=True)}")
        raise typer.Exit(1)
    out = result.game.outcome()
    if result.crash is not None:
        ending = f"the game raised an error again, as when it was played ({result.crash})"
    elif out is None:
        ending = "the game was not finished"
    elif out.draw or out.winner is None:
        ending = f"draw after {out.rounds} rounds ({out.reason})"
    else:
        ending = f"player {out.winner + 1} won in round {out.rounds} ({out.reason})"
    typer.echo(
        f"{log}: {result.scenario}, seed {result.seed}: {result.choices} choices, "
        f"{result.events} events replayed identically; {ending}"
    )
