"""Typed, validated catalogue records (Refuelled pp.66-119, 183-185).

Data only: behaviour is registered elsewhere by id. Every record carries the page it comes from.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

_ID_RE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")


class Weight(StrEnum):
    LIGHTWEIGHT = "lightweight"
    MIDDLEWEIGHT = "middleweight"
    HEAVYWEIGHT = "heavyweight"


class Facing(StrEnum):
    """Where a weapon or upgrade is mounted (team files). ``side`` means both sides."""

    FRONT = "front"
    REAR = "rear"
    SIDE = "side"
    TURRET = "turret"


class RangeBand(StrEnum):
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    DOUBLE = "double"
    SMALL_BURST = "small_burst"
    LARGE_BURST = "large_burst"
    DROPPED = "dropped"


class WeaponKind(StrEnum):
    BASIC = "basic"
    ADVANCED = "advanced"
    CREW_FIRED = "crew_fired"
    DROPPED = "dropped"


class UpgradeKind(StrEnum):
    UPGRADE = "upgrade"
    TRAILER = "trailer"
    CARGO = "cargo"
    SPONSOR = "sponsor"


class TemplateUse(StrEnum):
    """How a movement template may be used in a gear (Refuelled p.18, FAQ v1.2)."""

    NOT_PERMITTED = "-"
    PERMITTED = "P"
    TRIVIAL = "T"
    HAZARDOUS = "H"


Id = Annotated[str, Field(min_length=1)]


class Record(BaseModel):
    """Common fields: a snake_case id, the book name, the page, optional aliases."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: str
    page: int = Field(ge=1, le=200)
    aliases: tuple[str, ...] = ()

    @field_validator("id")
    @classmethod
    def _snake_case(cls, v: str) -> str:
        if not _ID_RE.match(v):
            raise ValueError(f"id {v!r} is not lowercase snake_case")
        return v


class Vehicle(Record):
    weight: Weight
    hull: int = Field(ge=1)
    handling: int = Field(ge=1)
    max_gear: int = Field(ge=1, le=6)
    crew: int = Field(ge=1)
    build_slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    special_rules: tuple[Id, ...] = ()
    advanced: bool = False
    restricted: bool = False
    """Restricted vehicles may not be taken by sponsored teams (p.68)."""
    built_in_upgrades: tuple[Id, ...] = ()
    """Upgrades the vehicle comes with at no cost or slot (e.g. the Buggy's Roll Cage)."""
    has_trailer: bool = False
    """The vehicle tows its own trailer (War Rig, p.116): weapons go on the cab or the trailer,
    it counts as trailer-equipped for cargo, and it may not buy a trailer upgrade (p.102)."""


class Weapon(Record):
    kind: WeaponKind
    ranges: tuple[RangeBand, ...] = Field(min_length=1)
    attack_dice: int | None = Field(default=None, ge=1)
    """Number of D6 rolled; ``None`` when the weapon has no attack dice or they are special."""
    special_dice: bool = False
    """Dice printed in brackets or with an asterisk: resolved by the weapon's own rule."""
    ammo: int | None = Field(default=None, ge=1)
    build_slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    special_rules: tuple[Id, ...] = ()
    allowed_facings: tuple[Facing, ...] = (Facing.FRONT, Facing.REAR, Facing.SIDE, Facing.TURRET)
    """Facings the weapon may be mounted in; crew-fired weapons use an empty tuple."""
    sponsor: Id | None = None
    """Sponsor restriction (``**`` in the book), e.g. ``mishkin``."""
    electrical: bool = False
    standard_issue: bool = False
    """Every vehicle carries unlimited copies for free without buying it (Handgun, p.31)."""
    dropped_template: RangeBand | None = None
    """Burst template a dropped weapon leaves on the table (p.77; FAQ v1.2 for three of them)."""


class Upgrade(Record):
    kind: UpgradeKind
    build_slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    """Cost in cans; for the turret mounting see ``cost_multiplier``."""
    cost_multiplier: int | None = None
    """Turret Mounting costs this multiple of the mounted weapon's cost (p.85)."""
    special_rules: tuple[Id, ...] = ()
    ammo: int | None = Field(default=None, ge=1)
    sponsor: Id | None = None
    electrical: bool = False
    needs_facing: bool = False
    """True for upgrades fitted to a facing (e.g. Ram)."""
    allowed_facings: tuple[Facing, ...] = ()
    max_per_vehicle: int | None = Field(default=None, ge=1)
    forbidden_weights: tuple[Weight, ...] = ()
    forbidden_vehicles: tuple[Id, ...] = ()
    hull_bonus: int = 0
    handling_bonus: int = 0
    max_gear_bonus: int = 0
    crew_bonus: int = 0
    slot_bonus: int = 0
    """Build slots this item adds to the vehicle (e.g. a trailer's Stowage)."""
    requires: tuple[Id, ...] = ()
    """Upgrade kinds or ids this item needs on the same vehicle (cargo needs a trailer);
    a vehicle with ``has_trailer`` (War Rig) satisfies a ``trailer`` requirement."""
    max_per_facing: int | None = Field(default=None, ge=1)
    """At most this many on any one facing (Ram: one per facing, p.85)."""
    limit_by_base_crew: bool = False
    """At most as many copies as the vehicle type's base Crew (Extra Crewmember, p.84)."""
    base_cost_change: int = 0
    """Added to the vehicle type's base cost when fitted (Prison Car: -4, p.96)."""
    base_cost_floor: int | None = Field(default=None, ge=0)
    """The changed base cost never drops below this (Prison Car: 5 cans, p.96)."""


class PerkClass(Record):
    pass


class Perk(Record):
    perk_class: Id
    cost: int = Field(ge=0)
    allowed_weights: tuple[Weight, ...] = ()
    """Weight classes that may take this perk; empty means any (Stunt Driver, p.107)."""
    min_base_handling: int | None = Field(default=None, ge=1)
    """Lowest base Handling of a vehicle type that may take this perk (Stunt Driver, p.107)."""


class Sponsor(Record):
    perk_classes: tuple[Id, ...] = Field(min_length=1)
    sponsored_perks: tuple[Id, ...] = ()
    """Ids of the sponsor's own named rules, granted to the whole team (p.91)."""
    team_rules: tuple[Id, ...] = ()
    """The subset of rules that constrain team building (what may be bought, and at what cost);
    may also name a sponsor-only upgrade the team gains access to (e.g. ``louder_siren``)."""

    @field_validator("perk_classes", "sponsored_perks", "team_rules")
    @classmethod
    def _ids_unique_snake_case(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for item in v:
            if not _ID_RE.match(item):
                raise ValueError(f"id {item!r} is not lowercase snake_case")
        if len(set(v)) != len(v):
            raise ValueError("ids must not repeat")
        return v


class MovementTemplate(Record):
    gears: tuple[TemplateUse, TemplateUse, TemplateUse, TemplateUse, TemplateUse, TemplateUse]
    """Use in gears 1..6."""

    def use_in(self, gear: int) -> TemplateUse:
        if not 1 <= gear <= 6:
            raise ValueError(f"gear {gear} is outside 1..6")
        return self.gears[gear - 1]
