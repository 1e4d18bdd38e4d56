"""``carnage tourney A.yaml B.yaml``: team A against team B over many seeded bot games
(``carnage.analysis.tourney``), on local processes or on Ray.

Prints win/draw/loss for team A with 95% Wilson intervals, the same split by A's seat, mean
rounds, and each vehicle's survival and damage; ``--json`` prints the summary as one JSON
object (the result, then ``run``: backend, workers, seconds, games/s). A progress bar goes to
stderr (not with ``--json``). The result depends only on the teams, the options and
``--seed``: not on ``--workers`` nor ``--backend``. Bad options or team files: one line on
stderr, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from carnage.analysis.tourney import (
    RESULTS,
    Tourney,
    TourneyError,
    check_backend,
    check_tourney,
    run_tourney,
)
from carnage.rulesets import DEFAULT_RULESET
from carnage.team import TeamFileError, TeamSpec, load_team


def _team(path: Path, label: str) -> TeamSpec:
    try:
        return load_team(path)
    except TeamFileError as e:
        raise TourneyError(f"team {label}: {e.problems[0]}") from None


def _bots(spec: str) -> tuple[str, str]:
    names = [b.strip() for b in spec.split(",") if b.strip()]
    if len(names) == 1:
        return (names[0], names[0])
    if len(names) == 2:
        return (names[0], names[1])
    raise TourneyError(f"--bots: give one bot for both teams or two (A's,B's), not {spec!r}")


def _pct(p: dict[str, Any]) -> str:
    lo, hi = p["ci95"]
    return f"{p['rate']:.1%} [{lo:.1%}, {hi:.1%}]"


def print_summary(s: dict[str, Any], run: dict[str, Any]) -> None:
    out = Console()
    a, b = s["teams"]["A"], s["teams"]["B"]
    t = Table(title=f"{a['name']} (A) vs {b['name']} (B): {s['scenario']}, {s['games']} games "
                    f"from seed {s['seed']}")
    t.add_column("team A", justify="left")
    t.add_column("games", justify="right")
    t.add_column("rate [95% Wilson interval]", justify="right")
    for k in RESULTS:
        t.add_row(f"{k}s" if k != "loss" else "losses", str(s["a"][k]["count"]), _pct(s["a"][k]))
    out.print(t)
    seats = ", ".join(f"{where}: {v['win']}W {v['draw']}D {v['loss']}L"
                      for where, v in s["by_seat"].items())
    out.print(f"by seat: {seats}", highlight=False)
    v = Table(title="vehicles (damage: hull points per game)")
    for col in ("team", "vehicle", "type"):
        v.add_column(col, overflow="ellipsis", no_wrap=True)
    for col in ("survived [95%]", "dealt", "taken"):
        v.add_column(col, justify="right", no_wrap=True)
    for row in s["vehicles"]:
        p = row["survived"]
        v.add_row(row["team"], row["name"], row["type"],
                  f"{p['rate']:.0%} [{p['ci95'][0]:.0%}, {p['ci95'][1]:.0%}]",
                  f"{row['damage_dealt']:.2f}", f"{row['damage_taken']:.2f}")
    out.print(v)
    out.print(f"mean rounds {s['mean_rounds']}; {run['games_per_second']} games/s on "
              f"{run['backend']} with {run['workers']} worker(s)", highlight=False)
    if s["errors"]:
        out.print(f"{len(s['errors'])} game(s) raised: first game {s['errors'][0]['game']} "
                  f"(seed {s['errors'][0]['seed']}): {s['errors'][0]['error']}",
                  markup=False, highlight=False)


def tourney_command(
    team_a: Annotated[Path, typer.Argument(help="team A's file (YAML or JSON)")],
    team_b: Annotated[Path, typer.Argument(help="team B's file (YAML or JSON)")],
    games: Annotated[int, typer.Option(help="how many games (seats alternate game by game)")]
    = 100,
    scenario: Annotated[str | None, typer.Option(
        help="scenario id (default: the ruleset's, e.g. street-race)")] = None,
    ruleset: Annotated[str, typer.Option(help="ruleset that plays the games")] = DEFAULT_RULESET,
    workers: Annotated[int, typer.Option(help="games played at once")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    address: Annotated[str | None, typer.Option(
        help="with --backend ray: HOST:PORT of a running Ray cluster's head (none: start a "
             "local Ray for this tourney)")] = None,
    seed: Annotated[int, typer.Option(help="master seed: every game's dice derive from it")]
    = 0,
    bots: Annotated[str, typer.Option(
        help="the bot both teams use, or A's,B's (random, heuristic)")] = "heuristic",
    max_rounds: Annotated[int | None, typer.Option(
        help="a game still running after this many rounds is a draw (default: the "
             "ruleset's)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Team A against team B over many seeded bot games: who wins, how often, how surely."""
    try:
        check_backend(backend, workers, address)
        t = Tourney(a=_team(team_a, "A"), b=_team(team_b, "B"), games=games, seed=seed,
                    scenario=scenario, ruleset=ruleset, bots=_bots(bots),
                    max_rounds=max_rounds, a_source=str(team_a), b_source=str(team_b))
        check_tourney(t)  # before the progress bar: a bad option is one line on stderr
        if as_json:
            summary, run = run_tourney(t, workers=workers, backend=backend, address=address)
        else:
            with Progress(TextColumn("tourney"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=Console(stderr=True),
                          transient=True) as progress:
                task = progress.add_task("games", total=games)
                summary, run = run_tourney(
                    t, workers=workers, backend=backend, address=address,
                    on_games=lambda n: progress.advance(task, n))
    except TourneyError as e:
        typer.echo(f"tourney: {e}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("tourney: interrupted", err=True)
        raise typer.Exit(130) from None
    ran = run.to_json(summary["games"])
    if as_json:
        typer.echo(json.dumps({**summary, "run": ran}, sort_keys=True))
        return
    print_summary(summary, ran)
