"""The Refuelled catalogue: vehicles, weapons, upgrades, perks, sponsors, templates."""

from carnage.catalog.loader import (
    Catalog,
    CatalogError,
    Section,
    UnknownId,
    load_catalog,
    load_catalog_from,
    normalise_id,
)
from carnage.catalog.models import (
    Facing,
    MovementTemplate,
    Perk,
    PerkClass,
    RangeBand,
    Sponsor,
    TemplateUse,
    Upgrade,
    UpgradeKind,
    Vehicle,
    Weapon,
    WeaponKind,
    Weight,
)

__all__ = [
    "Catalog",
    "CatalogError",
    "Facing",
    "MovementTemplate",
    "Perk",
    "PerkClass",
    "RangeBand",
    "Section",
    "Sponsor",
    "TemplateUse",
    "UnknownId",
    "Upgrade",
    "UpgradeKind",
    "Vehicle",
    "Weapon",
    "WeaponKind",
    "Weight",
    "load_catalog",
    "load_catalog_from",
    "normalise_id",
]
