"""Devil's Run's own commands (``carnage devils-run ...``, declared by its ruleset): printable
stat ``cards``, the ``board`` after some bot choices, and ``replay`` of a record or a log.

Playing, simulating, listing the missions and replaying go through the one path every ruleset
shares: ``carnage play|simulate|scenarios|replay --ruleset devils-run``. Bad options: one line
on stderr, exit 2.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer

from carnage.games.devilsrun.bots import bot
from carnage.games.devilsrun.game import Outcome
from carnage.games.devilsrun.missions import DEVILS_RUN, replay
from carnage.kernel.decisions import IllegalChoice

app = typer.Typer(
    help="Devil's Run: Route 666's own commands: stat cards, the board, replay (play, simulate "
         "and scenarios: carnage play|simulate|scenarios --ruleset devils-run).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def _check_scenario(scenario: str) -> None:
    try:
        DEVILS_RUN.scenario(scenario)
    except ValueError as e:
        raise _fail(str(e)) from None


@app.command("cards")
def cards_command(
    svg: Annotated[Path, typer.Option(help="write the printable stat cards here")],
) -> None:
    """Write printable stat cards for both gangs' vehicles as SVG."""
    from carnage.games.devilsrun.render import stat_cards

    try:
        svg.write_text(stat_cards(), encoding="utf-8")
    except OSError as e:
        raise _fail(f"--svg {svg}: cannot write: {e.strerror}") from None
    typer.echo(f"wrote {svg}")


@app.command("board")
def board_command(
    svg: Annotated[Path, typer.Option(help="write the board drawing here")],
    scenario: Annotated[str, typer.Option(help="mission id")] = "devils-run",
    seed: Annotated[int, typer.Option(help="dice seed")] = 0,
    choices: Annotated[int, typer.Option(help="let the heuristic bots make this many choices")] =
    40,
) -> None:
    """Draw the road (tiles, vehicles, the active vehicle's arcs) after some bot choices."""
    from carnage.games.devilsrun.render import render_board

    _check_scenario(scenario)
    g = DEVILS_RUN.new_game(scenario, seed=seed)
    rng = random.Random(f"devilsrun-bots:{seed}")
    h = bot("heuristic")
    for _ in range(max(choices, 0)):
        d = g.pending()
        if d is None:
            break
        g.apply(h(g, d, rng))
    act = g.state.act
    try:
        svg.write_text(render_board(g, arcs_for=act.vid if act else None), encoding="utf-8")
    except OSError as e:
        raise _fail(f"--svg {svg}: cannot write: {e.strerror}") from None
    typer.echo(f"wrote {svg} (turn {g.state.turn}, {len(g.choices)} choices)")


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(
        help="a record written by play --record, or a log (JSON lines) written by "
             "carnage play/simulate --ruleset devils-run")],
) -> None:
    """Replay a recorded game and print its outcome; a log of JSON lines is checked event by
    event, as ``carnage replay`` does."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise _fail(f"{path}: cannot replay: {e.strerror or e}") from None
    if len(text.strip().splitlines()) > 1:  # a log: one header line, then the events
        from carnage.games.devilsrun.session import replay_log
        from carnage.kernel.session import SetupRefused

        try:
            report = replay_log(text, str(path))
        except SetupRefused as e:
            raise _fail(str(e)) from None
        if report.difference is not None or report.crash is not None:
            raise _fail(f"{path}: the log does not replay identically (event "
                        f"{report.difference[0] if report.difference else '?'})")
        g = report.game
    else:
        try:
            doc = json.loads(text)
            g = replay(doc["setup"], doc["choices"])
        except (ValueError, KeyError, TypeError, IllegalChoice) as e:
            raise _fail(f"{path}: cannot replay: {e}") from None
    out = g.outcome()
    typer.echo(json.dumps(out.to_json() if isinstance(out, Outcome) else None))


if __name__ == "__main__":
    app()
