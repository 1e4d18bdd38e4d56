"""``carnage replay LOG``: rebuild a saved game and check it plays out identically.

Rebuilds the game from the log's header (scenario, setup, seed), re-applies the logged choices
and compares every regenerated event with the logged one. Exit 0 and a summary when they are
identical; exit 1 with the first differing event when not; exit 2 (one line on stderr) when the
log cannot be read or its choices no longer apply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from carnage.games.refuelled.setup import SetupError, read_log
from carnage.rulesets import replay


def replay_command(
    log: Annotated[Path, typer.Argument(help="game log (JSON lines) written by play/simulate")],
) -> None:
    """Replay a game log and check every event is reproduced exactly."""
    try:
        record = read_log(log)
        result = replay(record)
    except SetupError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    except (ValueError, TypeError, RuntimeError, ArithmeticError) as e:  # a tampered header
        first = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        typer.echo(f"{log}: the log's game cannot be set up ({first})", err=True)
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
        f"{log}: {record.setup.scenario}, seed {record.seed}: {len(record.choices)} choices, "
        f"{result.events} events replayed identically; {ending}"
    )
