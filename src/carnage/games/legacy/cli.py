"""``carnage legacy ...``: our Gaslands: Legacy vehicle generator, mutations, names, teams and
handicaps (carnage/games/legacy/; ours, not the official web app).

``generate`` and ``mutate`` print a vehicle (``--json``: its team-file form, with ``legacy``
holding the generated bonuses, rating, mutations and corrosion; ``mutate --json`` wraps it as
``{"vehicle", "gains"}``). ``team`` writes a Legacy team file two generated vehicles make, to
play with ``carnage play --ruleset legacy --team FILE``. ``handicap`` runs the Team Handicap
loop over team files. Bad input: one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.table import Table

from carnage.games.legacy import bounds as legacy_bounds
from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import generate_vehicle, legacy_team, vehicle_json
from carnage.games.legacy.mutations import Gain, gain_mutations
from carnage.games.legacy.names import vehicle_name
from carnage.games.legacy.ratings import team_handicaps, team_rating
from carnage.games.legacy.team import legacy_of
from carnage.team import TeamFileError, TeamSpec, VehicleReport, VehicleSpec, check_team
from carnage.team.io import load_team

app = typer.Typer(help="Gaslands: Legacy: our own vehicle generator, mutations and names.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

TypeOpt = Annotated[str, typer.Option("--type", help="buggy, car, performance_car or truck")]
NameOpt = Annotated[str, typer.Option("--name", help="the name on the bottom of the toy")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def _text(value: str, what: str) -> str:
    """A name or seed from the command line: text that is valid UTF-8 (a name is hashed and
    written to a UTF-8 team file; bytes that are no text cannot be)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(f"{what}: {value.encode('utf-8', 'surrogateescape')!r} is not UTF-8 "
                    "text") from None
    if len(value) > 200:
        raise _fail(f"{what}: longer than 200 characters")
    return value


def vehicle_report(spec: VehicleSpec) -> VehicleReport:
    """The vehicle's derived stats and prices by the Legacy build rules."""
    return check_team(legacy_team("generated", [spec])).vehicles[0]


def _print_vehicle(spec: VehicleSpec) -> None:
    r = vehicle_report(spec)
    lg = legacy_of(spec)
    assert lg is not None
    console = Console(highlight=False)
    console.print(f"{spec.name}: {r.type_name} (ours, not the official Legacy app)",
                  markup=False)
    console.print(f"Hull {r.hull}  Handling {r.handling}  Max Gear {r.max_gear}  Crew {r.crew}"
                  f"  Weight {r.weight}  Vehicle Rating {lg.rating}", markup=False)
    t = Table("item", "facing", "cans")
    for w in r.weapons:
        t.add_row(w.name, str(w.facing or "-"), str(w.cans))
    for u in r.upgrades:
        t.add_row(u.name, str(u.facing or "-"), str(u.cans))
    for p in r.perks:
        t.add_row(f"{p.name} ({p.perk_class})", "-", str(p.cans))
    console.print(t)
    if lg.mutations:
        console.print("mutations: " + ", ".join(lg.mutations), markup=False)
    if lg.corroded or lg.filled:
        console.print(f"corroded boxes {lg.corroded}, filled boxes {lg.filled}", markup=False)


def _generate(vtype: str, name: str) -> VehicleSpec:
    try:
        return generate_vehicle(_text(vtype, "--type"), _text(name, "--name"))
    except LegacyError as e:
        raise _fail(str(e)) from None


@app.command("generate")
def generate(vtype: TypeOpt, name: NameOpt, as_json: JsonOpt = False) -> None:
    """Generate the Legacy vehicle of this type and name (always the same one)."""
    spec = _generate(vtype, name)
    if as_json:
        typer.echo(json.dumps(vehicle_json(spec), indent=2))
    else:
        _print_vehicle(spec)


def _gain_line(g: Gain) -> str:
    return f"{g.index + 1}. {g.name} (d100 {g.roll}): {'; '.join(g.changes)} [+{g.rating}]"


@app.command("mutate")
def mutate(vtype: TypeOpt, name: NameOpt,
           count: Annotated[int, typer.Option("--count", help="how many mutations")] = 1,
           as_json: JsonOpt = False) -> None:
    """The vehicle after its first COUNT mutations, and what each one did."""
    if count < 0 or count > legacy_bounds.LEGACY_MUTATIONS:
        raise _fail(f"--count must be 0 to {legacy_bounds.LEGACY_MUTATIONS}, not {count} "
                    "(ruling IN-1)")
    spec, gains = gain_mutations(_generate(vtype, name), count)
    if as_json:
        typer.echo(json.dumps({"vehicle": vehicle_json(spec),
                               "gains": [g.to_json() for g in gains]}, indent=2))
        return
    for g in gains:
        typer.echo(_gain_line(g))
    _print_vehicle(spec)


@app.command("name")
def name(seed: Annotated[str | None, typer.Option(help="the same seed, the same name")] = None
         ) -> None:
    """A vehicle name from our word lists (a new one each time unless --seed is given)."""
    typer.echo(vehicle_name(None if seed is None else _text(seed, "--seed")))


def _parse_pick(text: str) -> tuple[str, str]:
    vtype, sep, vname = text.partition(":")
    if not sep or not vtype.strip() or not vname.strip():
        raise _fail(f"{text!r}: give a vehicle as TYPE:NAME, e.g. car:'Rust Bucket'")
    return vtype.strip(), vname


@app.command("team")
def team(team_name: Annotated[str, typer.Argument(help="the team's name")],
         vehicles: Annotated[list[str], typer.Argument(help="two vehicles, each TYPE:NAME")],
         out: Annotated[Path | None, typer.Option("--out", help="write the team here")] = None,
         ) -> None:
    """A Legacy team file of two generated vehicles (YAML), checked by the Legacy rules."""
    specs = [_generate(*_parse_pick(v)) for v in vehicles]
    spec = legacy_team(_text(team_name, "the team's name"), specs)
    report = check_team(spec)
    if not report.valid:
        raise _fail(report.errors[0].message)
    doc: dict[str, Any] = {"name": spec.name, "cans": spec.cans,
                           "vehicles": [vehicle_json(v) for v in spec.vehicles]}
    text = yaml.safe_dump(doc, sort_keys=False)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as e:
            raise _fail(f"{out}: cannot write ({e.strerror or e})") from None
        typer.echo(f"wrote {out} (Team Rating {team_rating(spec)})")


@app.command("handicap")
def handicap(files: Annotated[list[Path], typer.Argument(help="Legacy team files, by seat")],
             as_json: JsonOpt = False) -> None:
    """The Team Handicaps before a game: votes by rating gap, mutations at 21 or more."""
    teams: list[TeamSpec] = []
    for f in files:
        try:
            teams.append(load_team(f))
        except TeamFileError as e:
            raise _fail(e.problems[0]) from None
    try:
        _, handicaps = team_handicaps(teams)
    except LegacyError as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps([h.to_json() for h in handicaps], indent=2))
        return
    for t, h in zip(teams, handicaps, strict=True):
        typer.echo(f"seat {h.seat + 1} {t.name}: rating {h.rating_before} -> {h.rating_after} "
                   f"(top {h.top}), {h.votes} vote(s), {len(h.mutations)} mutation(s)")
        for vname, g in h.mutations:
            typer.echo(f"  {vname}: {_gain_line(g)}")
