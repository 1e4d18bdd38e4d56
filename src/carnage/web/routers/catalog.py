"""``GET /api/catalog/{kind}``: the Refuelled catalogue records; the rulesets of the registry
and their scenarios."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response

from carnage.ai import strength
from carnage.ai.registry import bots_of
from carnage.catalog import load_catalog
from carnage.kernel.ruleset import Ruleset
from carnage.render.table_schemas import ScenarioBriefView
from carnage.rulesets import DEFAULT_RULESET, RULESETS, get_ruleset
from carnage.web.routers.rulesetfiles import board_files, page_links
from carnage.web.schemas import (
    PLAYERS,
    BotStrength,
    Message,
    RandomTable,
    RulesetInfo,
    RulesetScenario,
    ScenarioInfo,
)
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


RULESET = Query(DEFAULT_RULESET, max_length=40, json_schema_extra={"enum": list(RULESETS)},
                description="A ruleset of the registry.")


def _ruleset(name: str) -> Ruleset:
    try:
        return get_ruleset(name)
    except KeyError as e:
        raise ApiError(404, str(e.args[0])) from None


def _players(r: Ruleset, cls: Any) -> tuple[int, int | None]:
    low = int(getattr(cls, "min_players", getattr(cls, "players", r.table.seats[0])))
    high = getattr(cls, "max_players", getattr(cls, "players", r.table.seats[1]))
    return low, None if high is None else int(high)


@router.get("/scenarios", response_model=list[ScenarioInfo], responses={404: {"model": Message}},
            summary="Playable scenarios of a ruleset")
def scenarios(ruleset: str = RULESET) -> list[ScenarioInfo]:
    """The scenarios of ``ruleset`` (the Kart variant plays the races)."""
    r = _ruleset(ruleset)
    out = []
    for sid, cls in sorted(r.scenarios.items()):
        low, high = _players(r, cls)
        out.append(ScenarioInfo(
            id=sid, name=cls.name, page=cls.page, players=max(PLAYERS[0], low),
            min_players=low, max_players=high,
            summary=str(getattr(cls, "summary", getattr(cls, "description", ""))),
            table=getattr(cls, "table", None)))
    return out


def ruleset_info(r: Ruleset) -> RulesetInfo:
    offer = r.table
    return RulesetInfo(
        name=r.name, title=r.title, parent=r.parent, board_view=offer.board_view,
        seats=offer.seats, own_teams=offer.own_teams, seat_names=list(offer.seat_names),
        cards=f"/api/rulesets/{r.name}/cards.svg" if offer.cards_svg is not None else None,
        board=board_files(offer), pages=page_links(r), replay=offer.view is None,
        random_tables=[RandomTable(value=t.value, name=t.name, page=t.page)
                       for t in offer.random_tables],
        scenarios=[RulesetScenario(id=x.id, name=x.name, page=x.page,
                                   min_players=x.min_players, max_players=x.max_players,
                                   summary=x.summary, brief=_brief(r, x.id))
                   for x in scenarios(r.name)],
        bots=bot_strengths(r))


def bot_strengths(r: Ruleset) -> list[BotStrength]:
    """Each bot of ``r`` (its own, then the search levels; ``search`` is the normal level's
    other name, not listed), with its measured strength or "not yet rated"."""
    runs = strength.load()
    out = []
    for name in bots_of(r):
        if name in strength.ALIASES:
            continue
        s = strength.strength(runs, r.name, name)
        rating = s.rating
        out.append(BotStrength(
            name=name, rated=s.rated, words=s.words, detail=s.detail,
            elo=None if rating is None else rating.elo,
            low=None if rating is None else rating.low,
            high=None if rating is None else rating.high,
            games=None if rating is None else rating.games,
            think_seconds=None if rating is None else rating.think_cpu_seconds,
            think_wall_seconds=None if rating is None else rating.think_seconds,
            scenario=s.scenario, date=s.date))
    return out


def _brief(r: Ruleset, scenario: str) -> ScenarioBriefView | None:
    """The scenario described by its ruleset (None: the ruleset describes none)."""
    if r.table.brief is None:
        return None
    return ScenarioBriefView.model_validate(r.table.brief(scenario).to_json())


@router.get("/rulesets", response_model=list[RulesetInfo],
            summary="The rulesets of the registry: their scenarios, seats, board and pages")
def rulesets() -> list[RulesetInfo]:
    return [ruleset_info(r) for r in RULESETS.values()]


@router.get("/rulesets/{name}/cards.svg", response_class=Response, responses={
    404: {"model": Message}, 200: {"content": {"image/svg+xml": {}}}},
    summary="Printable stat cards of a ruleset's vehicles")
def cards(name: str) -> Response:
    r = _ruleset(name)
    if r.table.cards_svg is None:
        raise ApiError(404, f"{r.title} has no printable stat cards")
    return Response(r.table.cards_svg(), media_type="image/svg+xml")
