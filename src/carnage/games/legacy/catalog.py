"""The Legacy catalogue: Refuelled's, plus the upgrades only Gaslands: Legacy has.

The Nano-Cloaking Device (Legacy, Chapter 5 rules change; GL-099) is an upgrade; its price
and slots are ours (ruling GL-R20: 5 cans, as its rating step of GL-101 suggests, 0 slots).
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from typing import Any

import yaml

from carnage.catalog.loader import Catalog, Section, load_catalog, normalise_id
from carnage.catalog.models import Upgrade

NANO_CLOAK = "nano_cloaking_device"


def legacy_data(name: str) -> Any:
    """A data file of ours in ``carnage/games/legacy/data`` (parsed YAML)."""
    text = resources.files("carnage.games.legacy").joinpath(f"data/{name}").read_text("utf-8")
    return yaml.safe_load(text)


def _with_upgrades(cat: Catalog, extra: list[Upgrade]) -> Catalog:
    records = dict(cat.upgrades.records)
    aliases = dict(cat.upgrades.aliases)
    for u in extra:
        records[u.id] = u
        for a in (*u.aliases, u.name):
            if normalise_id(a) != u.id:
                aliases[normalise_id(a)] = u.id
    return replace(cat, upgrades=Section(cat.upgrades.kind, records, aliases))


_CACHE: dict[int, tuple[Catalog, Catalog]] = {}


def legacy_catalog(base: Catalog | None = None) -> Catalog:
    """``base`` (default: Refuelled's) with the Legacy-only upgrades; the same object for
    the same base, and ``base`` itself if it already has them."""
    cat = base if base is not None else load_catalog()
    if NANO_CLOAK in cat.upgrades.records:
        return cat
    hit = _CACHE.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    extra = [Upgrade.model_validate(u) for u in legacy_data("upgrades.yaml")]
    out = _with_upgrades(cat, extra)
    _CACHE[id(cat)] = (cat, out)
    return out
