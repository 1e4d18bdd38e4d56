"""Team composition set by a scenario (M-32): Desert Strike (p.145) and Tank Commander (p.150).

A scenario that sets its own teams lifts some of the builder's rules (every sponsor may buy
Helicopters; a team has two Tanks, though Rutherford's Military Hardware allows one) and adds
its own (only aircraft; exactly two Tanks with a front-mounted 125mm Cannon). ``scenario_team``
checks a brought team that way: the builder's report with the lifted violations set aside, then
the scenario's own checks, each a one-line ``SetupError`` naming the team and what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from carnage.team import TeamReport, TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset

Check = Callable[[TeamSpec, TeamReport], Iterable[str]]


def scenario_team(spec: TeamSpec, who: str, ruleset: RefuelledRuleset | None, *,
                  lifted: Callable[[str, str | None], bool], check: Check,
                  scenario: str) -> TeamReport:
    """The team's report for a scenario: the builder's violations that ``lifted(rule, item)``
    sets aside are dropped; ``check`` adds the scenario's own problems. ``SetupError`` with the
    first problem if the team is not legal here."""
    from carnage.catalog import load_catalog
    from carnage.games.refuelled.setup import SetupError
    from carnage.team import check_team

    catalog = ruleset.catalog if ruleset is not None else load_catalog()
    report = check_team(spec, catalog)
    errors = tuple(e for e in report.errors if not lifted(e.rule, e.item))
    report = replace(report, errors=errors)
    own = list(check(spec, report))
    problems = [e.message for e in errors] + [f"{scenario}: {p}" for p in own]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SetupError(f"{who} ({spec.name}): {problems[0]}{more}")
    if not report.vehicles:
        raise SetupError(f"{who} ({spec.name}): the team has no vehicles")
    return report
