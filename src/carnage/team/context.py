"""A team file resolved against the catalogue: the values every check and effect reads."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from carnage.catalog.loader import Catalog
from carnage.catalog.models import (
    Facing,
    Perk,
    Sponsor,
    Upgrade,
    UpgradeKind,
    Vehicle,
    Weapon,
    WeaponKind,
    Weight,
)
from carnage.team.model import TeamSpec, UpgradeSpec, VehicleSpec, WeaponSpec

TRAILER = "trailer"
"""The requirement name a towed trailer satisfies (trailer cargo, p.102)."""


@dataclass(frozen=True)
class FittedWeapon:
    index: int
    """Position in the vehicle's weapon list (0-based)."""
    spec: WeaponSpec
    weapon: Weapon

    @property
    def facing(self) -> Facing | None:
        return self.spec.facing

    @property
    def turret(self) -> bool:
        """Turret-mounted: a turret facing on a weapon that takes a facing at all (p.85)."""
        return self.spec.facing is Facing.TURRET and bool(self.weapon.allowed_facings)

    @property
    def dropped(self) -> bool:
        return self.weapon.kind is WeaponKind.DROPPED


@dataclass(frozen=True)
class FittedUpgrade:
    index: int | None
    """Position in the vehicle's upgrade list; None for an upgrade built into the type."""
    spec: UpgradeSpec | None
    upgrade: Upgrade
    built_in: bool = False

    @property
    def facing(self) -> Facing | None:
        return None if self.spec is None else self.spec.facing


@dataclass(frozen=True)
class FittedPerk:
    index: int
    perk: Perk


@dataclass(frozen=True)
class Stats:
    """Derived starting values of one vehicle."""

    hull: int
    handling: int
    max_gear: int
    crew: int
    slots: int

    def plus(
        self, hull: int = 0, handling: int = 0, max_gear: int = 0, crew: int = 0, slots: int = 0
    ) -> Stats:
        return replace(
            self,
            hull=self.hull + hull,
            handling=self.handling + handling,
            max_gear=self.max_gear + max_gear,
            crew=self.crew + crew,
            slots=self.slots + slots,
        )


@dataclass(frozen=True)
class VehicleBuild:
    """One vehicle of the file with every id it names resolved (unknown ids are left out)."""

    spec: VehicleSpec
    vehicle: Vehicle | None
    weapons: tuple[FittedWeapon, ...] = ()
    upgrades: tuple[FittedUpgrade, ...] = ()
    perks: tuple[FittedPerk, ...] = ()

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def weight(self) -> Weight | None:
        return None if self.vehicle is None else self.vehicle.weight

    def bought(self) -> Iterator[FittedUpgrade]:
        """Upgrades paid for in this file (built-in ones excluded)."""
        return (u for u in self.upgrades if not u.built_in)

    def count(self, upgrade_id: str) -> int:
        return sum(1 for u in self.bought() if u.upgrade.id == upgrade_id)

    def of_kind(self, kind: UpgradeKind) -> list[FittedUpgrade]:
        return [u for u in self.bought() if u.upgrade.kind is kind]

    @property
    def tows_trailer(self) -> bool:
        """Has a trailer upgrade, or is a type with its own trailer (War Rig, p.116)."""
        own = self.vehicle is not None and self.vehicle.has_trailer
        return own or bool(self.of_kind(UpgradeKind.TRAILER))

    def has(self, requirement: str) -> bool:
        """True when an upgrade id or upgrade kind named by ``requires`` is on this vehicle."""
        if requirement == TRAILER and self.tows_trailer:
            return True
        return any(u.upgrade.id == requirement or u.upgrade.kind == requirement
                   for u in self.upgrades)


@dataclass(frozen=True)
class TeamBuild:
    spec: TeamSpec
    catalog: Catalog
    sponsor: Sponsor | None
    """The resolved sponsor; None when there is none or its id is unknown."""
    vehicles: tuple[VehicleBuild, ...]
    grants: frozenset[str] = field(default_factory=frozenset)
    """Permissions given by the sponsor's rules (e.g. ``electrical``, ``vehicle:tank``)."""

    @property
    def sponsors_in_use(self) -> bool:
        """Sponsor rules are in use when the file names a sponsor (p.63, p.68)."""
        return self.spec.sponsor is not None
