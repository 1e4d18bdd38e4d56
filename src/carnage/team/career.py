"""A vehicle's campaign career at the team builder (Refuelled pp.162-164, 167).

``VehicleSpec.career`` carries what a Televised Season (or Savage Highways) leaves on a
vehicle: dents, injuries bought with them, perks gained free through Badass, and wear kept for
good (Crew lost to Upholstery ruined, Hull Value lost to Ride Eternal). Here that career is
checked and changes the build:

* injuries must be known ids (``catalog/data/injuries.yaml``), each at most once (p.163);
* free perks are perks of the vehicle gained through the Badass injury: Badass-class perks,
  one at most, and only with Badass (ruling WR-1); they cost nothing and ignore the sponsor's
  perk classes (p.163);
* Crew drops by ``crew_loss`` and Hull by ``hull_loss``, neither below 1 (pp.162, 167).

The career is a ``BuildEffect`` that ``team.effects.vehicle_effects`` adds last for any vehicle
with a career, so the generic checker and pricer never name it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

import yaml

from carnage.catalog.loader import UnknownId
from carnage.team.context import FittedPerk, Stats, TeamBuild, VehicleBuild
from carnage.team.effects import CAREER_RULES, BuildEffect
from carnage.team.model import CareerSpec
from carnage.team.report import Category, Violation

BADASS = "badass"
"""The injury that grants a free perk, and the perk class it comes from (p.163, p.105)."""
FREE_PERKS_PER_BADASS = 1


@dataclass(frozen=True)
class Injury:
    id: str
    name: str
    dents: int
    """Dents removed to buy it (p.163)."""
    page: int
    when: str
    """``play`` (acts in a game), ``post_game`` (the wreck roll) or ``build`` (the builder)."""
    summary: str


@lru_cache(maxsize=1)
def injuries() -> Mapping[str, Injury]:
    """The ten injuries of p.163 by id, from ``catalog/data/injuries.yaml``."""
    text = (resources.files("carnage.catalog") / "data" / "injuries.yaml").read_text("utf-8")
    rows = yaml.safe_load(text)
    out = {str(r["id"]): Injury(str(r["id"]), str(r["name"]), int(r["dents"]), int(r["page"]),
                                str(r["when"]), str(r["summary"])) for r in rows}
    return MappingProxyType(out)


def injury(injury_id: str) -> Injury:
    """One injury by id; ``KeyError`` naming the known ones."""
    known = injuries()
    if injury_id not in known:
        raise KeyError(f"unknown injury {injury_id!r} (known: {', '.join(known)})")
    return known[injury_id]


def free_perk_ids(team: TeamBuild, v: VehicleBuild) -> set[str]:
    """The catalogue ids of the perks the career lists as free (unknown ids left out)."""
    c = v.spec.career
    out: set[str] = set()
    for pid in () if c is None else c.free_perks:
        try:
            out.add(team.catalog.perks.get(pid).id)
        except UnknownId:
            continue
    return out


def is_free_perk(team: TeamBuild, v: VehicleBuild, p: FittedPerk) -> bool:
    """Is this perk one the vehicle gained free (Badass, p.163)? Only the first copy of a
    listed perk is free."""
    if p.perk.id not in free_perk_ids(team, v):
        return False
    first = next(fp for fp in v.perks if fp.perk.id == p.perk.id)
    return first is p


class Career(BuildEffect):
    """Campaign wear on one vehicle (pp.162-164, 167)."""

    id = "career"
    title = "Campaign career"
    page = 162
    category = Category.BUILD

    def stats(self, team: TeamBuild, v: VehicleBuild, s: Stats) -> Stats:
        c = v.spec.career
        if c is None:
            return s
        # Upholstery ruined (p.162) and Ride Eternal (p.167): never below 1.
        crew = max(s.crew - c.crew_loss, min(s.crew, 1))
        hull = max(s.hull - c.hull_loss, min(s.hull, 1))
        return Stats(hull, s.handling, s.max_gear, crew, s.slots)

    def perk_cost(self, team: TeamBuild, v: VehicleBuild, p: FittedPerk, cost: int) -> int:
        return 0 if is_free_perk(team, v, p) else cost

    def perk_class_exempt(self, team: TeamBuild, v: VehicleBuild, p: FittedPerk) -> bool:
        return is_free_perk(team, v, p)

    def check_vehicle(self, team: TeamBuild, v: VehicleBuild) -> Iterator[Violation]:
        c = v.spec.career
        if c is None:
            return
        known = injuries()
        for iid, n in Counter(c.injuries).items():
            if iid not in known:
                yield Violation(v.name, iid, f"unknown injury {iid!r} (known: "
                                f"{', '.join(known)})", 163, Category.FILE, "unknown_injury",
                                "Injuries")
            elif n > 1:
                yield Violation(v.name, iid, f"{known[iid].name} is taken {n} times; a vehicle "
                                "may never have the same injury twice", 163, Category.BUILD,
                                "injury_twice", "Injuries")
        allowed = FREE_PERKS_PER_BADASS if BADASS in c.injuries else 0
        if len(c.free_perks) > allowed:
            why = ("only the Badass injury grants a free perk" if not allowed
                   else f"Badass grants {FREE_PERKS_PER_BADASS} free perk")
            yield Violation(v.name, "free_perks", f"{len(c.free_perks)} free perks: {why}",
                            163, Category.BUILD, "free_perks", "Badass")
        have = {fp.perk.id for fp in v.perks}
        for pid in c.free_perks:
            try:
                perk = team.catalog.perks.get(pid)
            except UnknownId:
                perk = None
            if perk is None or perk.id not in have:
                yield Violation(v.name, pid, f"free perk {pid!r} is not one of the vehicle's "
                                "perks (list it under perks too)", 163, Category.FILE,
                                "free_perk_missing", "Badass")
            elif perk.perk_class != BADASS:
                yield Violation(v.name, perk.id, f"{perk.name} is a {perk.perk_class} perk; "
                                "Badass grants a Badass perk", 163, Category.BUILD,
                                "free_perk_class", "Badass")


CAREER = Career()
CAREER_RULES.append(CAREER)


def describe_career(c: CareerSpec) -> str:
    """The career in one line: dents, injuries by name, and wear kept for good."""
    known = injuries()
    parts = [f"{c.dents} dent{'s' if c.dents != 1 else ''}"]
    if c.injuries:
        parts.append("injuries: " + ", ".join(known[i].name if i in known else i
                                               for i in c.injuries))
    if c.free_perks:
        parts.append("free perks: " + ", ".join(c.free_perks))
    if c.crew_loss:
        parts.append(f"Crew -{c.crew_loss} for good")
    if c.hull_loss:
        parts.append(f"Hull -{c.hull_loss} for good")
    if c.weakened_chassis:
        parts.append(f"Weakened chassis x{c.weakened_chassis}")
    if c.audience_favourite:
        parts.append(f"Audience Favourite x{c.audience_favourite}")
    if c.lost:
        parts.append("lost: " + ", ".join(c.lost))
    return "; ".join(parts)
