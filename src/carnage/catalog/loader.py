"""Load and validate the catalogue YAML files shipped in ``carnage/catalog/data``."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Generic, TypeVar

import yaml
from pydantic import ValidationError

from carnage.catalog.models import (
    MovementTemplate,
    Perk,
    PerkClass,
    Record,
    Sponsor,
    Upgrade,
    Vehicle,
    Weapon,
)

R = TypeVar("R", bound=Record)


class CatalogError(ValueError):
    """The shipped or user-supplied catalogue data is invalid."""


class UnknownId(KeyError):
    """An id that names nothing in a catalogue section; carries a did-you-mean suggestion."""

    def __init__(self, kind: str, given: str, suggestion: str | None) -> None:
        self.kind = kind
        self.given = given
        self.suggestion = suggestion
        super().__init__(given)

    def __str__(self) -> str:
        hint = f" (did you mean {self.suggestion!r}?)" if self.suggestion else ""
        return f"unknown {self.kind} {self.given!r}{hint}"


@lru_cache(maxsize=8192)
def normalise_id(text: str) -> str:
    """Book name -> catalogue id: lowercase snake_case, apostrophes and '!' dropped,
    a leading 'The' removed (``"Rusty's Bootleggers"`` -> ``rustys_bootleggers``)."""
    s = text.strip().lower().replace("\u2019", "'")
    s = re.sub(r"['!]", "", s)
    s = re.sub(r"^the\s+", "", s)
    s = re.sub(r"[^a-z0-9]+", "_", s).strip("_")
    return s


@dataclass(frozen=True)
class Section(Generic[R]):
    """One kind of record, keyed by id, with aliases and did-you-mean lookups."""

    kind: str
    records: dict[str, R]
    aliases: dict[str, str] = field(default_factory=dict)
    _found: dict[str, R] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Each key looked up before, with its record: the rules look the same ids up hundreds of
    times a game, and a section's records and aliases never change once it is built."""

    def __iter__(self) -> Iterator[R]:
        return iter(self.records.values())

    def __len__(self) -> int:
        return len(self.records)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.resolve(key) is not None

    def resolve(self, key: str) -> str | None:
        """The canonical id for ``key`` (an id, an alias or a book name), or None."""
        k = normalise_id(key)
        if k in self.records:
            return k
        return self.aliases.get(k)

    def get(self, key: str) -> R:
        found = self._found.get(key)
        if found is not None:
            return found
        rid = self.resolve(key)
        if rid is None:
            raise UnknownId(self.kind, key, self.suggest(key))
        rec = self._found[key] = self.records[rid]
        return rec

    def suggest(self, key: str) -> str | None:
        names = list(self.records) + list(self.aliases)
        hits = difflib.get_close_matches(normalise_id(key), names, n=1, cutoff=0.6)
        if not hits:
            return None
        return self.aliases.get(hits[0], hits[0])


@dataclass(frozen=True)
class Catalog:
    vehicles: Section[Vehicle]
    weapons: Section[Weapon]
    upgrades: Section[Upgrade]
    perk_classes: Section[PerkClass]
    perks: Section[Perk]
    sponsors: Section[Sponsor]
    templates: Section[MovementTemplate]

    def sections(self) -> dict[str, Section[Any]]:
        return {
            "vehicles": self.vehicles,
            "weapons": self.weapons,
            "upgrades": self.upgrades,
            "perk_classes": self.perk_classes,
            "perks": self.perks,
            "sponsors": self.sponsors,
            "templates": self.templates,
        }


_FILES: dict[str, tuple[str, type[Record]]] = {
    "vehicles": ("vehicles.yaml", Vehicle),
    "weapons": ("weapons.yaml", Weapon),
    "upgrades": ("upgrades.yaml", Upgrade),
    "perk_classes": ("perk_classes.yaml", PerkClass),
    "perks": ("perks.yaml", Perk),
    "sponsors": ("sponsors.yaml", Sponsor),
    "templates": ("templates.yaml", MovementTemplate),
}


def _section(kind: str, model: type[R], raw: Any, source: str) -> Section[R]:
    if not isinstance(raw, list):
        raise CatalogError(f"{source}: expected a list of records")
    records: dict[str, R] = {}
    aliases: dict[str, str] = {}
    for i, item in enumerate(raw):
        try:
            rec = model.model_validate(item)
        except ValidationError as e:
            first = e.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise CatalogError(f"{source} item {i}: {loc}: {first['msg']}") from e
        if rec.id in records:
            raise CatalogError(f"{source}: duplicate id {rec.id!r}")
        records[rec.id] = rec
        for alias in (*rec.aliases, rec.name):
            a = normalise_id(alias)
            if a != rec.id:
                if a in aliases and aliases[a] != rec.id:
                    raise CatalogError(f"{source}: alias {a!r} names two records")
                aliases[a] = rec.id
    return Section(kind=kind.rstrip("s").replace("_", " "), records=records, aliases=aliases)


def _check_references(cat: Catalog) -> None:
    """Cross-record references must name real records."""
    for perk in cat.perks:
        if perk.perk_class not in cat.perk_classes.records:
            raise CatalogError(f"perk {perk.id!r}: unknown perk class {perk.perk_class!r}")
    for sp in cat.sponsors:
        for pc in sp.perk_classes:
            if pc not in cat.perk_classes.records:
                raise CatalogError(f"sponsor {sp.id!r}: unknown perk class {pc!r}")
    for w in cat.weapons:
        if w.sponsor is not None and w.sponsor not in cat.sponsors.records:
            raise CatalogError(f"weapon {w.id!r}: unknown sponsor {w.sponsor!r}")
    for u in cat.upgrades:
        if u.sponsor is not None and u.sponsor not in cat.sponsors.records:
            raise CatalogError(f"upgrade {u.id!r}: unknown sponsor {u.sponsor!r}")
    for v in cat.vehicles:
        for b in v.built_in_upgrades:
            if b not in cat.upgrades.records:
                raise CatalogError(f"vehicle {v.id!r}: unknown built-in upgrade {b!r}")


def load_catalog_from(raw_sections: dict[str, Any]) -> Catalog:
    """Build and validate a catalogue from parsed YAML (one list per section)."""
    built: dict[str, Section[Any]] = {}
    for key, (fname, model) in _FILES.items():
        built[key] = _section(key, model, raw_sections.get(key), fname)
    cat = Catalog(**built)
    _check_references(cat)
    return cat


@cache
def load_catalog() -> Catalog:
    """The shipped Refuelled catalogue, validated once and cached."""
    base = resources.files("carnage.catalog") / "data"
    raw: dict[str, Any] = {}
    for key, (fname, _model) in _FILES.items():
        raw[key] = yaml.safe_load((base / fname).read_text(encoding="utf-8"))
    return load_catalog_from(raw)
