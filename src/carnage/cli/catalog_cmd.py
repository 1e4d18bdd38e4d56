"""``carnage catalog KIND [--json]``: list a section of the Refuelled catalogue."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from carnage.catalog import (
    CatalogError,
    Upgrade,
    Weapon,
    load_catalog,
    normalise_id,
)

KINDS: tuple[str, ...] = (
    "vehicles",
    "weapons",
    "upgrades",
    "perks",
    "sponsors",
    "perk_classes",
    "templates",
)

Column = tuple[str, Callable[[Any], str]]


def _ids(items: tuple[str, ...]) -> str:
    return ", ".join(items) if items else "-"


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)


def dice_text(w: Weapon) -> str:
    """Attack dice as the book prints them: ``3D6``, ``(3D6)`` for special dice, ``*``, ``-``."""
    if w.attack_dice is None:
        return "*" if w.special_dice else "-"
    text = f"{w.attack_dice}D6"
    return f"({text})" if w.special_dice else text


def weapon_facings(w: Weapon) -> str:
    return "none (360)" if not w.allowed_facings else ", ".join(f.value for f in w.allowed_facings)


def upgrade_effects(u: Upgrade) -> str:
    """A compact summary of an upgrade's stat changes and limits."""
    parts: list[str] = []
    for label, value in (
        ("hull", u.hull_bonus),
        ("handling", u.handling_bonus),
        ("max gear", u.max_gear_bonus),
        ("crew", u.crew_bonus),
        ("slots", u.slot_bonus),
        ("base cost", u.base_cost_change),
    ):
        if value:
            parts.append(f"{label} {value:+d}")
    if u.base_cost_floor is not None:
        parts.append(f"base cost min {u.base_cost_floor}")
    if u.cost_multiplier is not None:
        parts.append(f"x{u.cost_multiplier} weapon cost")
    if u.ammo is not None:
        parts.append(f"ammo {u.ammo}")
    if u.max_per_vehicle is not None:
        parts.append(f"max {u.max_per_vehicle}/vehicle")
    if u.max_per_facing is not None:
        parts.append(f"max {u.max_per_facing}/facing")
    if u.limit_by_base_crew:
        parts.append("max = base crew")
    if u.needs_facing:
        parts.append("facing: " + ", ".join(f.value for f in u.allowed_facings))
    if u.forbidden_weights:
        parts.append("not " + "/".join(w.value for w in u.forbidden_weights))
    if u.forbidden_vehicles:
        parts.append("not " + "/".join(u.forbidden_vehicles))
    if u.requires:
        parts.append("needs " + "/".join(u.requires))
    return "; ".join(parts) if parts else "-"


_COLUMNS: dict[str, list[Column]] = {
    "vehicles": [
        ("id", lambda v: v.id),
        ("name", lambda v: v.name),
        ("weight", lambda v: v.weight.value),
        ("hull", lambda v: str(v.hull)),
        ("hand", lambda v: str(v.handling)),
        ("gear", lambda v: str(v.max_gear)),
        ("crew", lambda v: str(v.crew)),
        ("slots", lambda v: str(v.build_slots)),
        ("cans", lambda v: str(v.cost)),
        ("rules", lambda v: _ids(v.special_rules) + (" [restricted]" if v.restricted else "")),
        ("p.", lambda v: str(v.page)),
    ],
    "weapons": [
        ("id", lambda w: w.id),
        ("name", lambda w: w.name),
        ("kind", lambda w: w.kind.value),
        ("range", lambda w: "/".join(r.value for r in w.ranges)),
        ("dice", dice_text),
        ("ammo", lambda w: _opt(w.ammo)),
        ("slots", lambda w: str(w.build_slots)),
        ("cans", lambda w: str(w.cost) + ("**" if w.sponsor else "")),
        ("rules", lambda w: _ids(w.special_rules)),
        ("facings", weapon_facings),
        ("sponsor", lambda w: w.sponsor or "-"),
        ("p.", lambda w: str(w.page)),
    ],
    "upgrades": [
        ("id", lambda u: u.id),
        ("name", lambda u: u.name),
        ("kind", lambda u: u.kind.value),
        ("slots", lambda u: str(u.build_slots)),
        ("cans", lambda u: str(u.cost) + ("**" if u.sponsor else "")),
        ("effects and limits", upgrade_effects),
        ("sponsor", lambda u: u.sponsor or "-"),
        ("p.", lambda u: str(u.page)),
    ],
    "perks": [
        ("id", lambda p: p.id),
        ("name", lambda p: p.name),
        ("class", lambda p: p.perk_class),
        ("cans", lambda p: str(p.cost)),
        ("p.", lambda p: str(p.page)),
    ],
    "sponsors": [
        ("id", lambda s: s.id),
        ("name", lambda s: s.name),
        ("perk classes", lambda s: _ids(s.perk_classes)),
        ("sponsored perks", lambda s: _ids(s.sponsored_perks)),
        ("p.", lambda s: str(s.page)),
    ],
    "perk_classes": [
        ("id", lambda c: c.id),
        ("name", lambda c: c.name),
        ("p.", lambda c: str(c.page)),
    ],
    "templates": [
        ("id", lambda t: t.id),
        ("name", lambda t: t.name),
        *[(f"G{g}", (lambda t, g=g: t.use_in(g).value)) for g in range(1, 7)],
    ],
}


def resolve_kind(text: str) -> str | None:
    """The section name for ``text`` (plural or singular, any case/spacing), or None."""
    key = normalise_id(text)
    if key in KINDS:
        return key
    if key + "s" in KINDS:
        return key + "s"
    if key + "es" in KINDS:
        return key + "es"
    return None


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def catalog(
    kind: str = typer.Argument(
        ..., help="vehicles, weapons, upgrades, perks, sponsors, perk_classes or templates"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the records as a JSON list"),
) -> None:
    """List a section of the catalogue."""
    section_name = resolve_kind(kind)
    if section_name is None:
        hits = difflib.get_close_matches(normalise_id(kind), KINDS, n=1, cutoff=0.6)
        hint = f" (did you mean {hits[0]!r}?)" if hits else ""
        raise _fail(f"unknown catalogue kind {kind!r}{hint}; choose from {', '.join(KINDS)}")
    try:
        section = load_catalog().sections()[section_name]
    except (CatalogError, OSError) as e:
        raise _fail(f"the catalogue data could not be loaded: {e}") from None
    records = list(section)
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in records], indent=2))
        return
    columns = _COLUMNS[section_name]
    table = Table(title=f"{section_name.replace('_', ' ')} ({len(records)})")
    for header, _fn in columns:
        table.add_column(header, overflow="fold")
    for rec in records:
        table.add_row(*(Text(fn(rec)) for _h, fn in columns))
    Console().print(table)
