"""``check_team``: resolve, price and check a team; report every violation, not just the first."""

from __future__ import annotations

from carnage.catalog.loader import Catalog, load_catalog
from carnage.team import career, specials, sponsors  # noqa: F401  (registers the build effects)
from carnage.team.build import price_vehicle, resolve_team
from carnage.team.effects import sponsor_effects, vehicle_effects
from carnage.team.model import TeamSpec
from carnage.team.report import TeamReport, Violation
from carnage.team.rules import TEAM_CHECKS, VEHICLE_CHECKS, split
from carnage.team.sections import build_mode_for


def check_team(
    spec: TeamSpec, catalog: Catalog | None = None, homebrew: bool = False
) -> TeamReport:
    """Build every vehicle of ``spec`` and check it against the rules.

    Strict by default. ``homebrew`` turns sponsor, perk-class and restriction violations into
    notes (``TeamReport.relaxed``); budget, slots, facings and item limits are always enforced.
    """
    cat = catalog if catalog is not None else load_catalog()
    mode = build_mode_for(spec)  # a game's own build rules (team/sections.py)
    if mode is not None:
        return mode(spec, cat, homebrew)
    res = resolve_team(spec, cat)
    team = res.team
    reports = tuple(price_vehicle(team, v) for v in team.vehicles)

    found: list[Violation] = list(res.team_problems)
    for v, report, problems in zip(team.vehicles, reports, res.vehicle_problems, strict=True):
        found += problems
        for check in VEHICLE_CHECKS:
            found += check(team, v, report)
        for eff in vehicle_effects(team, v):
            found += eff.check_vehicle(team, v)
    for team_check in TEAM_CHECKS:
        found += team_check(team, reports)
    for eff in sponsor_effects(team):
        found += eff.check_team(team)

    errors, relaxed = split(found, homebrew)
    return TeamReport(
        name=spec.name,
        sponsor=team.sponsor.id if team.sponsor is not None else None,
        budget=spec.cans,
        total_cans=sum(r.cans for r in reports),
        vehicles=reports,
        errors=tuple(errors),
        relaxed=tuple(relaxed),
        homebrew=homebrew,
        sponsor_rules=tuple(e.id for e in sponsor_effects(team)),
    )
