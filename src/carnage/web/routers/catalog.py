"""``GET /api/catalog/{kind}``: the Refuelled catalogue records, and the scenarios."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter

from carnage.catalog import load_catalog
from carnage.rulesets import get_ruleset
from carnage.web.schemas import PLAYERS, Message, ScenarioInfo
from carnage.web.sessions import ApiError

router = APIRouter(prefix="/api", tags=["catalogue"])

KINDS = ("vehicles", "weapons", "upgrades", "perks", "perk_classes", "sponsors", "templates")


@router.get(
    "/catalog/{kind}", response_model=list[dict[str, Any]],
    responses={404: {"model": Message}},
    summary="Every record of one catalogue section",
)
def catalog(kind: str) -> list[dict[str, Any]]:
    sections = load_catalog().sections()
    if kind not in sections:
        raise ApiError(404, f"unknown catalogue kind {kind!r} (known: {', '.join(KINDS)})")
    return [r.model_dump(mode="json") for r in sections[kind]]


@router.get("/scenarios", response_model=list[ScenarioInfo], summary="Playable scenarios")
def scenarios(ruleset: Literal["refuelled", "kart", "legacy"] = "refuelled"
              ) -> list[ScenarioInfo]:
    """The scenarios of ``ruleset`` (the Kart variant plays the races)."""
    return [
        ScenarioInfo(id=sid, name=cls.name, page=cls.page,
                     players=max(PLAYERS[0], cls.min_players), min_players=cls.min_players,
                     max_players=cls.max_players, summary=cls.summary, table=cls.table)
        for sid, cls in sorted(get_ruleset(ruleset).scenarios.items())
    ]
