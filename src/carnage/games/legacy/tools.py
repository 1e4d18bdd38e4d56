"""Legacy's tools outside a game, declared as queries (``kernel/queries.py``, tool ``legacy``)
and served by the web at ``/api/legacy/<path>``: our vehicle generator (a generated vehicle as
team-file JSON, its derived stats and price by the Legacy build rules, and the gains of its
first mutations) and a name from our word lists. The page that uses them is the Legacy
ruleset's own (``games/legacy/web``). Ours, not the official Legacy web app.
"""

from __future__ import annotations

from typing import Any

from carnage.games.legacy.bounds import LEGACY_MUTATIONS
from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import generate_vehicle, legacy_team, tables, vehicle_json
from carnage.games.legacy.mutations import gain_mutations
from carnage.games.legacy.names import vehicle_name
from carnage.kernel.queries import Query, QueryError, as_is, int_param, text_param
from carnage.team import check_team

TOOL = "legacy"


def generated_vehicle(type: str, name: str, mutations: int = 0) -> dict[str, Any]:
    """A vehicle of Legacy ``type`` called ``name`` from the generator (Legacy "Creating a
    Legacy Team", GL-008), with its first ``mutations`` mutations gained, its build report
    and what each mutation gave; ``QueryError`` naming what the generator refuses."""
    try:
        spec = generate_vehicle(type, name)
        spec, gains = gain_mutations(spec, mutations)
    except LegacyError as e:
        raise QueryError(str(e)) from None
    report = check_team(legacy_team("generated", [spec])).vehicles[0].to_json()
    return {"vehicle": vehicle_json(spec), "report": report,
            "gains": [g.to_json() for g in gains], "source": tables()["source"]}


def generated_name(seed: str | None = None) -> dict[str, str]:
    """A vehicle name from our word lists (the same for the same ``seed``)."""
    return {"name": vehicle_name(seed)}


LEGACY_TOOLS: tuple[Query, ...] = (
    Query("vehicle", "A generated Gaslands: Legacy vehicle (ours, not the official app)", (
        text_param("type", "buggy, car, performance_car or truck (an id, alias or book name "
                   "of a Legacy type, GL-008)", max_length=40, required=True),
        text_param("name", "the name on the bottom of the toy (not blank)", max_length=120,
                   required=True),
        int_param("mutations", "mutations gained so far", low=0, high=LEGACY_MUTATIONS,
                  default=0),
    ), generated_vehicle, as_is, tool=TOOL),
    Query("name", "A generated name", (
        text_param("seed", "the same seed gives the same name (none: a random one)",
                   max_length=60),
    ), generated_name, as_is, tool=TOOL),
)
"""What the Legacy generator page asks (``Ruleset.queries``)."""
