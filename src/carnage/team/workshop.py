"""The workshop between games of a Televised Season: what a roster change costs (p.164).

``price_change(old, new, stash)`` compares two rosters of the same team and prices the change
by the book:

* Scrapping (p.164): a vehicle, weapon or upgrade that goes sells for half its cost, rounded
  down, each item on its own (ruling WR-6); a perk sells for nothing.
* Spending (p.164): whatever is new is bought at its price in the new roster, with anything
  the team could buy when it was built (the team builder's checks and the sponsor's limits).
* Perks stay with their vehicle (p.164): they never move to another vehicle (a perk dropped
  here and listed there is sold for nothing and bought again) and a newly bought vehicle
  starts with none (it may buy new ones).
* A team never has more than 8 vehicles (p.159); the sponsor is kept for the season (A-71).
* Vehicles are told apart by name: a vehicle renamed is one sold and another bought. A kept
  vehicle keeps its type and its career (dents, injuries, wear: those change in the post-game
  sequence, so apply them to ``old`` before pricing); a new one has no career.

The new roster is checked like any team, except for its budget in cans: in a campaign the
stash pays (``stash + refund - cost`` must not go below 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from carnage.catalog.loader import Catalog, load_catalog
from carnage.team.check import check_team
from carnage.team.model import CareerSpec, TeamSpec, VehicleSpec
from carnage.team.report import TeamReport, VehicleReport

MAX_VEHICLES = 8
"""A team may never have more than 8 vehicles (p.159)."""
PAGE = 164


@dataclass(frozen=True)
class BillLine:
    """One item bought or scrapped: ``cans`` paid (buy) or received (scrap, sell)."""

    vehicle: str
    item: str
    """``vehicle`` for the vehicle itself, else the weapon, upgrade or perk id."""
    kind: str
    """``vehicle``, ``weapon``, ``upgrade`` or ``perk``."""
    action: str
    """``buy`` or ``scrap`` (a perk scrapped sells for nothing)."""
    cans: int
    page: int = PAGE

    def to_json(self) -> dict[str, Any]:
        return {"vehicle": self.vehicle, "item": self.item, "kind": self.kind,
                "action": self.action, "cans": self.cans, "page": self.page}


@dataclass(frozen=True)
class WorkshopBill:
    cost: int
    """Cans spent on what is new."""
    refund: int
    """Cans from scrapping."""
    stash: int
    """The stash before the change."""
    problems: tuple[str, ...]
    """Every reason the change may not be made (empty: it may)."""
    lines: tuple[BillLine, ...]

    @property
    def net(self) -> int:
        """What the change takes from the stash (negative: it adds to it)."""
        return self.cost - self.refund

    @property
    def stash_after(self) -> int:
        return self.stash - self.net

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "cost": self.cost, "refund": self.refund,
                "net": self.net, "stash": self.stash, "stash_after": self.stash_after,
                "problems": list(self.problems), "lines": [x.to_json() for x in self.lines]}


def half(cans: int) -> int:
    """Scrap value: half the cost, rounded down (p.164)."""
    return cans // 2


def _base_cans(r: VehicleReport) -> int:
    """The vehicle itself: its total less its weapons, upgrades and perks."""
    return (r.cans - sum(w.cans for w in r.weapons) - sum(u.cans for u in r.upgrades)
            - sum(p.cans for p in r.perks))


def _items(r: VehicleReport) -> list[tuple[str, tuple[object, ...], int]]:
    """(kind, identity, cans) of each bought item of a vehicle; built-in upgrades left out."""
    out: list[tuple[str, tuple[object, ...], int]] = []
    out += [("weapon", (w.id, w.facing, w.mount), w.cans) for w in r.weapons]
    out += [("upgrade", (u.id, u.facing), u.cans) for u in r.upgrades if not u.built_in]
    out += [("perk", (p.id,), p.cans) for p in r.perks]
    return out


def _label(ident: tuple[object, ...]) -> str:
    return " ".join(str(x) for x in ident if x is not None)


def _diff(old: Iterable[tuple[str, tuple[object, ...], int]],
          new: Iterable[tuple[str, tuple[object, ...], int]]
          ) -> tuple[list[tuple[str, tuple[object, ...], int]],
                     list[tuple[str, tuple[object, ...], int]]]:
    """(gone, added) as multisets of (kind, identity), keeping each one's price."""
    old_l, new_l = list(old), list(new)
    keep = Counter((k, i) for k, i, _ in old_l) & Counter((k, i) for k, i, _ in new_l)
    gone, added = [], []
    left = Counter(keep)
    for k, i, c in old_l:
        if left[(k, i)]:
            left[(k, i)] -= 1
        else:
            gone.append((k, i, c))
    left = Counter(keep)
    for k, i, c in new_l:
        if left[(k, i)]:
            left[(k, i)] -= 1
        else:
            added.append((k, i, c))
    return gone, added


def _scrap(name: str, kind: str, ident: tuple[object, ...], cans: int) -> BillLine:
    return BillLine(name, _label(ident), kind, "scrap", 0 if kind == "perk" else half(cans))


def _buy(name: str, kind: str, ident: tuple[object, ...], cans: int) -> BillLine:
    return BillLine(name, _label(ident), kind, "buy", cans)


def _career(vs: VehicleSpec) -> CareerSpec | None:
    """The vehicle's career, a blank one counting as none."""
    c = vs.career
    return None if c is None or c == CareerSpec() else c


def _by_name(spec: TeamSpec, report: TeamReport) -> dict[str, tuple[VehicleSpec, VehicleReport]]:
    return {vs.name: (vs, vr) for vs, vr in zip(spec.vehicles, report.vehicles, strict=True)}


def price_change(old: TeamSpec, new: TeamSpec, stash: int,
                 catalog: Catalog | None = None) -> WorkshopBill:
    """The bill for changing roster ``old`` into ``new`` with ``stash`` cans saved (p.164)."""
    cat = catalog if catalog is not None else load_catalog()
    old_r, new_r = check_team(old, cat), check_team(new, cat)
    problems: list[str] = []
    if stash < 0:
        problems.append(f"the stash cannot be negative ({stash})")
    # The new roster is checked like any team; the stash stands in for its budget.
    problems += [e.message for e in new_r.errors if e.rule != "budget"]
    if (old.sponsor or None) != (new.sponsor or None):
        problems.append(f"Team: the sponsor stays {old.sponsor or 'none'} for the season "
                        f"(not {new.sponsor or 'none'}) (A-71)")
    if len(new.vehicles) > MAX_VEHICLES:
        problems.append(f"Team: {len(new.vehicles)} vehicles; a team may never have more "
                        f"than {MAX_VEHICLES} (p.159)")
    lines: list[BillLine] = []
    olds, news = _by_name(old, old_r), _by_name(new, new_r)
    for name, (vs, vr) in olds.items():
        if name in news:
            continue
        # Sold: the vehicle, its weapons and upgrades at half; its perks for nothing.
        lines.append(BillLine(name, vs.type, "vehicle", "scrap", half(_base_cans(vr))))
        lines += [_scrap(name, k, i, c) for k, i, c in _items(vr)]
    for name, (vs, vr) in news.items():
        if name not in olds:
            if _career(vs) is not None:
                problems.append(f"{name}: a newly bought vehicle has no career (dents, "
                                "injuries, wear) (p.164)")
            lines.append(BillLine(name, vs.type, "vehicle", "buy", _base_cans(vr)))
            lines += [_buy(name, k, i, c) for k, i, c in _items(vr)]
            continue
        ovs, ovr = olds[name]
        if ovr.type != vr.type:
            problems.append(f"{name}: a {ovr.type_name} cannot become a {vr.type_name}; scrap "
                            "it and buy a new vehicle under another name (p.164)")
        if _career(ovs) != _career(vs):
            problems.append(f"{name}: the workshop keeps a vehicle's career as it is (dents, "
                            "injuries and wear change around the game, not here) (p.164)")
        gone, added = _diff(_items(ovr), _items(vr))
        lines += [_scrap(name, k, i, c) for k, i, c in gone]
        lines += [_buy(name, k, i, c) for k, i, c in added]
    cost = sum(x.cans for x in lines if x.action == "buy")
    refund = sum(x.cans for x in lines if x.action == "scrap")
    if stash >= 0 and cost - refund > stash:
        problems.append(f"Team: the change costs {cost} cans and scrapping brings {refund}; "
                        f"the stash has {stash}, {cost - refund - stash} short (p.164)")
    return WorkshopBill(cost, refund, stash, tuple(problems), tuple(lines))
