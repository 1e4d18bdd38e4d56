"""``carnage scenarios``: the scenarios (Refuelled) and missions (Devil's Run) Carnage plays.

One row each: ruleset, id, name, rulebook page (Devil's Run's beta rulebook prints none; its
seed-text lines are given instead), how many players, and one line saying what it is about.
``--json`` prints ``{"rulesets": [...], "scenarios": [{"ruleset", "id", "name", "page",
"lines", "players", "min_players", "max_players", "description"}]}`` (``max_players`` null:
no upper limit; Refuelled rows add ``table``: the random table of p.122 the scenario is on,
null for none). Each Refuelled row comes from the scenario class's own attributes.
Bad options: one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from carnage.kernel.ruleset import ScenarioInfo

RULESET_NAMES = ("refuelled", "kart", "devils-run")

def _players(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def scenario_rows(ruleset: str) -> list[dict[str, Any]]:
    """The scenarios of ``ruleset`` as rows; ``ValueError`` for an unknown ruleset."""
    rows: list[dict[str, Any]] = []
    if ruleset in ("refuelled", "kart"):  # Refuelled and its overlay: TableScenario classes
        from carnage.rulesets import get_ruleset

        for _sid, cls in sorted(get_ruleset(ruleset).scenarios.items()):
            doc = (cls.__doc__ or "").strip().splitlines()
            low, high = int(cls.min_players), cls.max_players
            text = cls.summary or (doc[0] if doc else "")
            info = ScenarioInfo(id=str(cls.id), name=str(cls.name), page=cls.page,
                                players=_players(low, high), description=text)
            rows.append({**_row(ruleset, info, None, low, high), "table": cls.table})
        return rows
    if ruleset == "devils-run":
        from carnage.games.devilsrun.missions import DEVILS_RUN

        for s in DEVILS_RUN.scenarios:
            info = ScenarioInfo(id=s.id, name=s.name, page=s.page,
                                players=_players(s.players, s.players),
                                description=s.description)
            rows.append(_row(ruleset, info, s.lines, s.players, s.players))
        return rows
    raise ValueError(f"--ruleset: unknown ruleset {ruleset!r} (known: {', '.join(RULESET_NAMES)})")


def _row(ruleset: str, info: ScenarioInfo, lines: str | None, low: int,
         high: int | None) -> dict[str, Any]:
    return {"ruleset": ruleset, "id": info.id, "name": info.name, "page": info.page,
            "lines": lines, "players": info.players, "min_players": low, "max_players": high,
            "description": info.description}


def scenarios_command(
    ruleset: Annotated[str | None, typer.Option(
        help="refuelled or devils-run (default: both)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print as JSON")] = False,
) -> None:
    """List the scenarios and missions each ruleset plays."""
    names = list(RULESET_NAMES) if ruleset is None else [ruleset.strip().lower()]
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
