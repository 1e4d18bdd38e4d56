"""Gaslands: Legacy in the browser: our vehicle generator, its mutations and names.

``GET /api/legacy/vehicle?type=car&name=Rust%20Bucket&mutations=2``: the generated vehicle
(team-file JSON), its derived stats and prices by the Legacy build rules, and the gains of its
first ``mutations`` mutations; ``GET /api/legacy/name``: a name from our word lists;
the page is the Legacy ruleset's own (games/legacy/web, served from its declaration). Ours, not
the official Legacy web app.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from carnage.games.legacy import bounds as legacy_bounds
from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import generate_vehicle, legacy_team, tables, vehicle_json
from carnage.games.legacy.mutations import gain_mutations
from carnage.games.legacy.names import vehicle_name
from carnage.team import check_team
from carnage.web.schemas import Message
from carnage.web.sessions import ApiError

router = APIRouter(tags=["legacy"])
MAX_MUTATIONS = legacy_bounds.LEGACY_MUTATIONS


@router.get("/api/legacy/vehicle", response_model=dict[str, Any],
            responses={422: {"model": Message}},
            summary="A generated Gaslands: Legacy vehicle (ours, not the official app)")
def legacy_vehicle(
    type: str = Query(..., max_length=40, description="buggy, car, performance_car or truck "
                      "(an id, alias or book name of a Legacy type, GL-008)"),
    name: str = Query(..., max_length=120, pattern=r"\S",
                      description="the name on the bottom of the toy (not blank)"),
    mutations: int = Query(0, ge=0, le=MAX_MUTATIONS, description="mutations gained so far"),
) -> dict[str, Any]:
    try:
        spec = generate_vehicle(type, name)
        spec, gains = gain_mutations(spec, mutations)
    except LegacyError as e:
        raise ApiError(422, str(e)) from None
    report = check_team(legacy_team("generated", [spec])).vehicles[0].to_json()
    return {"vehicle": vehicle_json(spec), "report": report,
            "gains": [g.to_json() for g in gains], "source": tables()["source"]}


@router.get("/api/legacy/name", response_model=dict[str, str], summary="A generated name")
def legacy_name(seed: str | None = Query(None, max_length=60)) -> dict[str, str]:
    return {"name": vehicle_name(seed)}
