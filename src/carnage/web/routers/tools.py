"""The rulesets' tools outside a game other than odds (``Ruleset.queries`` of any tool but
``odds``, ``kernel/queries.py``): a route per query at ``/api/<tool>/<path>`` (e.g. Legacy's
vehicle generator, ``/api/legacy/vehicle``), built from the declarations as the odds routes
are, with the same published bounds and the same 422 naming the parameter. No game package is
imported here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter

from carnage.kernel.queries import offered
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS
from carnage.web.routers.odds import ERRORS, endpoint


def tools(rulesets: Mapping[str, Ruleset]) -> list[str]:
    """Every tool the ``rulesets`` declare queries of, but odds, in the order first
    declared."""
    seen: dict[str, None] = {}
    for r in rulesets.values():
        for q in r.queries:
            if q.tool != "odds":
                seen.setdefault(q.tool)
    return list(seen)


def tools_router(rulesets: Mapping[str, Ruleset] = RULESETS) -> APIRouter:
    """The routes of every tool's queries the ``rulesets`` declare."""
    router = APIRouter()
    for tool in tools(rulesets):
        for q, _ in offered(rulesets, tool):
            router.add_api_route(f"/api/{tool}/{q.path}", endpoint(q), methods=["GET"],
                                 summary=q.summary, tags=[tool],
                                 responses=ERRORS if q.params else None,
                                 response_model=dict[str, Any])
    return router
