"""``carnage team ...``: check and show team files; import and export BattleScribe rosters.

Exit codes: 0 the team is valid, 1 it breaks rules (each listed), 2 the file (or the catalogue)
cannot be read.
"""

from __future__ import annotations

from pathlib import Path

import typer
import yaml
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from carnage.catalog import CatalogError
from carnage.team import TeamFileError, TeamReport, VehicleReport, check_team, load_team
from carnage.team.battlescribe import RosterError, load_roster, write_roster, write_rosz
from carnage.team.career import describe_career

app = typer.Typer(help="Build, validate and print teams.", no_args_is_help=True)

FILE_ARG = typer.Argument(..., help="team file (YAML or JSON)", show_default=False)
ROSTER_ARG = typer.Argument(..., help="BattleScribe roster (.ros or .rosz)", show_default=False)
ROSTER_OUT_ARG = typer.Argument(..., help="the roster to write: .ros (XML) or .rosz (zipped)",
                                show_default=False)
OUT_OPT = typer.Option(None, "--out", help="write the team file here (YAML)")
HOMEBREW_OPT = typer.Option(
    False, "--homebrew", help="relax sponsor, perk-class and restriction checks (never arithmetic)"
)


def _run(path: Path, homebrew: bool) -> TeamReport:
    """Load and check, or print one line per problem to stderr and exit 2."""
    try:
        spec = load_team(path)
        return check_team(spec, homebrew=homebrew)
    except TeamFileError as e:
        for line in e.problems:
            typer.echo(line, err=True)
    except CatalogError as e:
        typer.echo(f"catalogue: {e}", err=True)
    raise typer.Exit(2)


def _summary(r: TeamReport) -> str:
    n = len(r.vehicles)
    size = f"{r.total_cans} of {r.budget} cans, {n} vehicle{'s' if n != 1 else ''}"
    sponsor = f", sponsor {r.sponsor}" if r.sponsor else ", no sponsor"
    mode = ", homebrew" if r.homebrew else ""
    if r.valid:
        return f"{r.name}: valid ({size}{sponsor}{mode})"
    k = len(r.errors)
    return f"{r.name}: INVALID, {k} error{'s' if k != 1 else ''} ({size}{sponsor}{mode})"


@app.command()
def check(
    file: Path = FILE_ARG,
    json_out: bool = typer.Option(False, "--json", help="print the report as JSON"),
    homebrew: bool = HOMEBREW_OPT,
) -> None:
    """Validate a team file: one line per rule broken, then a summary."""
    report = _run(file, homebrew)
    if json_out:
        typer.echo(report.to_json_text())
    else:
        for v in report.errors:
            typer.echo(v.message)
        for v in report.relaxed:
            typer.echo(f"note (homebrew): {v.message}")
        for vr in report.vehicles:
            if vr.career is not None:
                typer.echo(f"{vr.name}: {describe_career(vr.career)}")
        typer.echo(_summary(report))
    raise typer.Exit(0 if report.valid else 1)


def _title(rule_id: str) -> str:
    return rule_id.replace("_", " ").title()


def _boxes(n: int) -> str:
    groups = ["□" * min(5, n - i) for i in range(0, n, 5)]
    return " ".join(groups)


def _ranges(line_ranges: tuple[str, ...]) -> str:
    return "/".join(_title(r) for r in line_ranges)


def dashboard(v: VehicleReport) -> Panel:
    """One vehicle as a player reads its dashboard card."""
    stats = Table.grid(padding=(0, 2))
    stats.add_row(
        Text(f"Hull {v.hull}", style="bold"), _boxes(v.hull),
    )
    stats.add_row(
        Text(f"Handling {v.handling}", style="bold"),
        Text(f"Max gear {v.max_gear}   Crew {v.crew}   Build slots {v.slots_used}/{v.slots}"),
    )
    parts: list[Table | Text] = [stats]

    if v.weapons:
        wt = Table(title=None, box=None, show_edge=False, pad_edge=False, header_style="bold")
        for col in ("Weapon", "Facing", "Range", "Dice", "Ammo", "Slots", "Cans"):
            wt.add_column(col)
        for w in v.weapons:
            facing = str(w.facing) if w.facing else "360 (crew)"
            if w.mount is not None:
                facing += f" / {w.mount}"
            ammo = "-" if w.ammo is None else "■" * w.ammo
            wt.add_row(w.name, facing, _ranges(w.ranges), w.dice, ammo, str(w.slots),
                       str(w.cans))
        parts.append(wt)
    else:
        parts.append(Text("No weapons (handguns only)", style="dim"))

    if v.upgrades:
        ups = []
        for u in v.upgrades:
            extra = f" ({u.facing})" if u.facing else ""
            price = "built in" if u.built_in else f"{u.cans} cans"
            ammo = f", ammo {'■' * u.ammo}" if u.ammo else ""
            ups.append(f"{u.name}{extra} [{price}{ammo}]")
        parts.append(Text("Upgrades: " + "; ".join(ups)))
    if v.perks:
        parts.append(Text("Perks: " + "; ".join(
            f"{p.name} ({p.perk_class}, {p.cans} cans)" for p in v.perks)))
    if v.special_rules:
        parts.append(Text("Special rules: " + ", ".join(_title(s) for s in v.special_rules)))
    if v.career is not None:
        parts.append(Text("Career: " + describe_career(v.career)))

    weight = str(v.weight) if v.weight else "unknown weight"
    title = f"[bold]{v.name}[/bold]  {v.type_name}, {weight}"
    return Panel(Group(*parts), title=title, title_align="left",
                 subtitle=f"{v.cans} cans", subtitle_align="right")


@app.command()
def show(file: Path = FILE_ARG, homebrew: bool = HOMEBREW_OPT) -> None:
    """Print each vehicle as a dashboard, then any rule broken and the team's total."""
    report = _run(file, homebrew)
    console = Console()
    sponsor = report.sponsor or "no sponsor"
    console.print(Text(f"{report.name}  ({sponsor})", style="bold underline"))
    if report.sponsor_rules:
        rules = ", ".join(_title(r) for r in report.sponsor_rules)
        console.print(Text(f"Sponsor team rules: {rules}", style="dim"))
    for v in report.vehicles:
        console.print(dashboard(v))
    for e in report.errors:
        console.print(Text(e.message, style="red"))
    for e in report.relaxed:
        console.print(Text(f"note (homebrew): {e.message}", style="yellow"))
    console.print(Text(_summary(report), style="green" if report.valid else "bold red"))
    raise typer.Exit(0 if report.valid else 1)


SVG_OPT = typer.Option(None, "--svg", help="also draw the set to this SVG file")


@app.command("templates")
def templates(
    file: Path = FILE_ARG,
    svg: Path | None = SVG_OPT,
) -> None:
    """Print the team's movement templates as they now are (Gaslands: Legacy, "Legacy
    Templates"): each one's gear icons and slide exit points; the standard set when the file
    has none."""
    from carnage.geometry.team_templates import describe, standard_set
    from carnage.render.team_templates import template_set_svg

    try:
        spec = load_team(file)
    except TeamFileError as e:
        for line in e.problems:
            typer.echo(line, err=True)
        raise typer.Exit(2) from None
    tset = spec.templates if spec.templates is not None else standard_set()
    table = Table(title=f"{spec.name}: movement templates"
                  + ("" if spec.templates is not None else " (standard)"))
    for col in ("template", "gears (H hazard, T shift icons)", "slide exit points"):
        table.add_column(col)
    for row in describe(tset):
        table.add_row(row["name"], "\n".join(row["icons"]), "\n".join(row["exits"]))
    Console().print(table)
    if svg is not None:
        try:
            svg.write_text(template_set_svg(tset), encoding="utf-8")
        except OSError as e:
            typer.echo(f"{svg}: cannot write ({e.strerror or e})", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"wrote {svg}")


@app.command("import")
def import_roster(
    file: Path = ROSTER_ARG,
    out: Path | None = OUT_OPT,
) -> None:
    """Read a BattleScribe roster (BSData Gaslands catalogue) into a team file: prints it (or
    writes --out), then every entry it could not map and every assumption, then the check.
    Exit 0 all mapped and valid, 1 something unmapped or a rule broken, 2 not a roster."""
    try:
        got = load_roster(file)
        spec = got.spec(str(file))
        report = check_team(spec)
    except (RosterError, TeamFileError) as e:
        for line in str(e).splitlines():
            typer.echo(line, err=True)
        raise typer.Exit(2) from None
    text = yaml.safe_dump(spec.model_dump(mode="json", exclude_none=True,
                                          exclude_defaults=True), sort_keys=False)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as e:
            typer.echo(f"{out}: cannot write ({e.strerror or e})", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"team written to {out}")
    for u in got.unmapped:
        typer.echo(f"not mapped: {u}")
    for n in got.notes:
        typer.echo(f"assumed: {n}")
    for v in report.errors:
        typer.echo(v.message)
    typer.echo(_summary(report))
    raise typer.Exit(0 if report.valid and not got.unmapped else 1)


@app.command("export")
def export_roster(
    file: Path = FILE_ARG,
    out: Path = ROSTER_OUT_ARG,
) -> None:
    """Write a team file as a BattleScribe roster (.ros or .rosz)."""
    try:
        spec = load_team(file)
    except TeamFileError as e:
        for line in e.problems:
            typer.echo(line, err=True)
        raise typer.Exit(2) from None
    suffix = out.suffix.lower()
    if suffix not in (".ros", ".rosz"):
        typer.echo(f"{out}: the roster must end in .ros or .rosz, not {suffix or 'nothing'}",
                   err=True)
        raise typer.Exit(2)
    try:
        if suffix == ".ros":
            out.write_text(write_roster(spec), encoding="utf-8")
        else:
            out.write_bytes(write_rosz(spec))
    except OSError as e:
        typer.echo(f"{out}: cannot write ({e.strerror or e})", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{spec.name}: roster written to {out}")
