"""``carnage scenarios``: the scenarios (missions) every ruleset of the registry plays.

One row each: ruleset, id, name, rulebook page (Devil's Run's beta rulebook prints none; its
seed-text lines are given instead), how many players, and one line saying what it is about.
``--json`` prints ``{"rulesets": [...], "scenarios": [{"ruleset", "id", "name", "page",
"lines", "players", "min_players", "max_players", "description", ...}]}`` (``max_players``
null: no upper limit; what else a ruleset says of a scenario is added to its row, e.g.
Refuelled's ``table``: the random table of p.122 the scenario is on, null for none). The rows
come from each ruleset's own list (``Ruleset.scenario_infos``). Bad options: one line on
stderr, exit 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from carnage.kernel.ruleset import ScenarioInfo
from carnage.rulesets import RULESETS, get_ruleset


def _row(ruleset: str, info: ScenarioInfo) -> dict[str, Any]:
    return {"ruleset": ruleset, "id": info.id, "name": info.name, "page": info.page,
            "lines": info.lines, "players": info.players, "min_players": info.min_players,
            "max_players": info.max_players, "description": info.description,
            **dict(info.extra)}


def scenario_rows(ruleset: str) -> list[dict[str, Any]]:
    """The scenarios of ``ruleset`` as rows; ``ValueError`` naming the known rulesets."""
    try:
        r = get_ruleset(ruleset)
    except KeyError as e:
        raise ValueError(f"--ruleset: {e.args[0]}") from None
    return [_row(r.name, info) for info in r.scenario_infos()]


def scenarios_command(
    ruleset: Annotated[str | None, typer.Option(
        help=f"one of {', '.join(RULESETS)} (default: all)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print as JSON")] = False,
) -> None:
    """List the scenarios and missions each ruleset plays."""
    names = list(RULESETS) if ruleset is None else [ruleset.strip().lower()]
    try:
        rows = [r for name in names for r in scenario_rows(name)]
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps({"rulesets": names, "scenarios": rows}))
        return
    for r in rows:
        where = f"p.{r['page']}" if r["page"] is not None else f"lines {r['lines']}"
        typer.echo(f"{r['ruleset']:10s} {r['id']:16s} {r['name']} ({where}, "
                   f"{r['players']} players): {r['description']}")
