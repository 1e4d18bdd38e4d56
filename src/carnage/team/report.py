"""Typed results of checking a team: violations, per-vehicle derived stats, and the JSON form.

These are plain frozen values: the engine and the web table read a :class:`VehicleReport`'s
derived stats (hull, handling, max gear, crew, weight, ammo) as the vehicle's starting values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from carnage.catalog.models import Facing, RangeBand, Weight
from carnage.team.model import CareerSpec, Mount


class Category(StrEnum):
    """What kind of rule a violation breaks; ``--homebrew`` relaxes the relaxable kinds."""

    FILE = "file"
    """Unknown ids, duplicate names: the file does not describe a team we can build."""
    ARITHMETIC = "arithmetic"
    """Budget and build slots: never relaxed."""
    BUILD = "build"
    """Facings and per-item limits: rules of the game, never relaxed."""
    SPONSOR = "sponsor"
    """Sponsor-only items and sponsor team-building rules."""
    PERK_CLASS = "perk_class"
    """Perks from classes the sponsor does not offer (or perks with no sponsor at all)."""
    RESTRICTED = "restricted"
    """Restricted vehicle types and restricted upgrades (trailers)."""

    @property
    def relaxable(self) -> bool:
        return self in {Category.SPONSOR, Category.PERK_CLASS, Category.RESTRICTED}


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``message`` is a complete line naming vehicle, item, rule and page."""

    vehicle: str | None
    item: str | None
    text: str
    page: int | None
    category: Category
    rule: str = ""
    """Short rule id (e.g. ``might_is_right``) for tools; empty for generic checks."""
    title: str = ""
    """The rule's book name when it has one (e.g. ``Might Is Right``)."""

    @property
    def message(self) -> str:
        who = self.vehicle if self.vehicle is not None else "Team"
        parts = [p for p in (self.title, None if self.page is None else f"p.{self.page}") if p]
        cite = f" ({', '.join(parts)})" if parts else ""
        return f"{who}: {self.text}{cite}"

    def to_json(self) -> dict[str, Any]:
        return {
            "vehicle": self.vehicle,
            "item": self.item,
            "message": self.message,
            "rule": self.rule,
            "page": self.page,
            "category": str(self.category),
        }


@dataclass(frozen=True)
class WeaponLine:
    id: str
    name: str
    facing: Facing | None
    mount: Mount | None
    ammo: int | None
    cans: int
    slots: int
    ranges: tuple[RangeBand, ...]
    attack_dice: int | None
    special_dice: bool
    special_rules: tuple[str, ...]

    @property
    def dice(self) -> str:
        if self.attack_dice is None:
            return "*" if self.special_dice else "-"
        d = f"{self.attack_dice}D6"
        return f"({d})" if self.special_dice else d

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "facing": None if self.facing is None else str(self.facing),
            "ammo": self.ammo,
            "mount": None if self.mount is None else str(self.mount),
            "cans": self.cans,
            "slots": self.slots,
        }


@dataclass(frozen=True)
class UpgradeLine:
    id: str
    name: str
    facing: Facing | None
    ammo: int | None
    cans: int
    slots: int
    built_in: bool = False
    """Comes with the vehicle type (the Buggy's Roll Cage): no cans, no slots."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "facing": None if self.facing is None else str(self.facing),
            "ammo": self.ammo,
            "cans": self.cans,
            "slots": self.slots,
            "built_in": self.built_in,
        }


@dataclass(frozen=True)
class PerkLine:
    id: str
    name: str
    perk_class: str
    cans: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "class": self.perk_class, "cans": self.cans}


@dataclass(frozen=True)
class VehicleReport:
    """One vehicle as built: its price and its starting stats after every build-time modifier
    (upgrades such as Armour Plating, Tank Tracks, Nuclear Engine, Prison Car, MicroPlate, and
    the Expertise perk). Stats of a vehicle whose type is unknown are all zero."""

    name: str
    type: str
    type_name: str
    weight: Weight | None
    cans: int
    slots_used: int
    slots: int
    hull: int
    handling: int
    max_gear: int
    crew: int
    weapons: tuple[WeaponLine, ...] = ()
    upgrades: tuple[UpgradeLine, ...] = ()
    perks: tuple[PerkLine, ...] = ()
    special_rules: tuple[str, ...] = ()
    articulated: bool = False
    career: CareerSpec | None = None
    """Campaign wear (dents, injuries, losses; team/career.py); None outside a campaign."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "cans": self.cans,
            "slots_used": self.slots_used,
            "slots": self.slots,
            "hull": self.hull,
            "handling": self.handling,
            "max_gear": self.max_gear,
            "crew": self.crew,
            "weight": None if self.weight is None else str(self.weight),
            "weapons": [w.to_json() for w in self.weapons],
            "upgrades": [u.to_json() for u in self.upgrades],
            "perks": [p.to_json() for p in self.perks],
            "special_rules": list(self.special_rules),
            **({} if self.career is None
               else {"career": self.career.model_dump(mode="json")}),
        }


@dataclass(frozen=True)
class TeamReport:
    name: str
    sponsor: str | None
    """The sponsor's catalogue id, or None when sponsor rules are not in use."""
    budget: int
    total_cans: int
    vehicles: tuple[VehicleReport, ...]
    errors: tuple[Violation, ...]
    relaxed: tuple[Violation, ...] = ()
    """Violations that ``homebrew`` set aside (shown as notes, never counted as errors)."""
    homebrew: bool = False
    sponsor_rules: tuple[str, ...] = field(default=())
    """Ids of the sponsor's team-building rules in force."""

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "name": self.name,
            "sponsor": self.sponsor,
            "homebrew": self.homebrew,
            "total_cans": self.total_cans,
            "budget": self.budget,
            "errors": [v.to_json() for v in self.errors],
            "relaxed": [v.to_json() for v in self.relaxed],
            "vehicles": [v.to_json() for v in self.vehicles],
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2)
