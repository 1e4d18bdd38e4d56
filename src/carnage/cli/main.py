"""The ``carnage`` console script: one Typer app; each command family lives in its own module."""

from __future__ import annotations

import typer

from carnage import __version__
from carnage.cli import (
    campaign_cmd,
    catalog_cmd,
    judge_cmd,
    odds_cmd,
    play_cmd,
    replay_cmd,
    scenarios_cmd,
    serve_cmd,
    simulate_cmd,
    team_cmd,
    tourney_cmd,
)
from carnage.rulesets import RULESETS

app = typer.Typer(
    name="carnage",
    help="Carnage: engine, virtual table and toolbox for Gaslands: Refuelled.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(team_cmd.app, name="team")
app.add_typer(odds_cmd.app, name="odds")
app.add_typer(campaign_cmd.app, name="campaign")
for _ruleset in RULESETS.values():  # a ruleset's own commands: carnage <ruleset> ...
    if _ruleset.cli is not None:
        app.add_typer(_ruleset.cli(), name=_ruleset.name)
app.command(name="catalog")(catalog_cmd.catalog)
app.command(name="judge")(judge_cmd.judge)
app.command(name="serve")(serve_cmd.serve)
app.command(name="play")(play_cmd.play_command)
app.command(name="simulate")(simulate_cmd.simulate_command)
app.command(name="replay")(replay_cmd.replay_command)
app.command(name="scenarios")(scenarios_cmd.scenarios_command)
app.command(name="tourney")(tourney_cmd.tourney_command)


@app.command()
def version() -> None:
    """Print the Carnage version."""
    typer.echo(__version__)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
