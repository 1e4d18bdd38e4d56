"""Exact odds over HTTP: a route per odds query the rulesets declare (``Ruleset.queries``,
``kernel/queries.py``) at ``/api/odds/<path>`` (the same answers as ``carnage odds ... --json``),
the listing of them all (``GET /api/odds``), the odds of a game's pending decision (through
its ruleset's ``TableOffer.pending_odds``), and the odds page (``/odds``). No game package is
imported here.

Each parameter's bounds and words are published in the schema (``ge``/``le``, ``enum``) and
are the ones the query checks, so a query the schema allows is answered, one it does not is
refused with a 422 naming the parameter before any odds are worked out.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from carnage.kernel.queries import Param, QueryError, offered
from carnage.kernel.queries import Query as OddsQuery
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS
from carnage.web.deps import GamesDep
from carnage.web.routers.pages import MISSING, page
from carnage.web.schemas import Message
from carnage.web.sessions import ApiError, SeatedGame

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 422: {"model": Message}}
PREFIX = "/api/odds"


class ListedParam(BaseModel):
    """One parameter of a query: its name (the query string's), type, help, bounds, words."""

    name: str
    type: Literal["int", "bool", "choice", "text"]
    help: str
    required: bool
    default: int | bool | str | None = None
    min: int | None = None
    max: int | None = None
    choices: list[str] | None = None
    max_length: int | None = None


class ListedQuery(BaseModel):
    """One odds query: where it is asked, what it answers, which games offer it."""

    path: str = Field(description="Its path under /api/odds/ (and its `carnage odds` words).")
    url: str
    summary: str
    description: str
    games: list[str] = Field(description="The titles of the games that offer it.")
    params: list[ListedParam]


class OddsListing(BaseModel):
    queries: list[ListedQuery]


def _annotation(p: Param) -> Any:
    """``p`` as FastAPI reads a query parameter: its type, bounds or words, and help."""
    if p.kind == "text":
        meta = Query(description=p.help, max_length=p.max_length,
                     pattern=r"\S" if p.required else None)
    else:
        meta = Query(description=p.help, ge=p.low, le=p.high)
    base: Any = {"int": int, "bool": bool, "text": str}.get(p.kind) \
        or cast(Any, Literal)[p.words]
    if not p.required and p.default is None:
        base = base | None
    return Annotated[base, meta]


def endpoint(q: OddsQuery) -> Callable[..., dict[str, Any]]:
    """The route function of ``q``: its parameters as FastAPI's signature, its answer."""

    def answer(**given: Any) -> dict[str, Any]:
        try:
            return q.json(given)
        except QueryError as e:
            raise ApiError(422, str(e)) from None

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter(p.name, kw, annotation=_annotation(p),
                                **({} if p.required else {"default": p.default}))
              for p in q.params]
    answer.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        params, return_annotation=dict[str, Any])
    answer.__name__ = q.path.replace("/", "_")
    answer.__doc__ = q.description or None
    return answer


def _listing(rulesets: Mapping[str, Ruleset]) -> OddsListing:
    out = []
    for q, names in offered(rulesets):
        titles = [rulesets[n].title for n in names]
        out.append(ListedQuery(
            path=q.path, url=f"{PREFIX}/{q.path}", summary=q.summary,
            description=q.description, games=titles,
            params=[ListedParam(**p.to_json()) for p in q.params]))
    return OddsListing(queries=out)


def odds_router(rulesets: Mapping[str, Ruleset] = RULESETS
                ) -> APIRouter:
    """The odds routes of ``rulesets``' queries, their listing, the pending odds and the
    page."""
    router = APIRouter(tags=["odds"])
    listing = _listing(rulesets)

    @router.get("/odds", response_class=FileResponse, responses=MISSING,
                summary="The odds page: distributions drawn as bar charts")
    def odds_page() -> FileResponse:
        return page("odds.html")

    @router.get(PREFIX, summary="Every odds query the games offer, with its parameters")
    def odds_listing() -> OddsListing:
        return listing

    for q, _ in offered(rulesets):
        router.add_api_route(f"{PREFIX}/{q.path}", endpoint(q), methods=["GET"],
                             summary=q.summary, responses=ERRORS if q.params else None,
                             response_model=dict[str, Any])

    router.add_api_route(f"{PREFIX}/games/{{gid}}/pending", pending, methods=["GET"],
                         responses=ERRORS,
                         summary="Odds of each option of the pending decision of your seat")
    return router


def _ruleset_of(s: SeatedGame) -> Ruleset:
    """The ruleset a live game plays (a game on the Refuelled engine carries its own)."""
    found = getattr(s, "ruleset", None)
    return found if isinstance(found, Ruleset) else cast(Ruleset, s.game.ruleset)


def pending(gid: str, games: GamesDep,
            token: Annotated[str | None, Query(description="Your seat token.")] = None
            ) -> dict[str, Any]:
    """The odds of each option of your seat's pending decision that rolls dice, as its
    ruleset works them out (Refuelled: for an ``attack`` decision the hit and damage
    distribution of each weapon at each target, for ``skid_dice`` the skid odds of each dice
    count, for ``collision_reaction`` the damage both parties take for each reaction; Devil's
    Run: each shot, the evade and pick-up tests, the Repair roll). Other decisions: no
    options."""
    s = games.get(gid)
    seats = s.seats_for(token)
    if not seats:
        raise ApiError(403, "a seat token is needed to see the odds of a decision")
    offer = _ruleset_of(s).table.pending_odds
    basis = offer.basis if offer is not None else "no odds are shown for this game"
    with s.lock:
        g = s.game
        d = g.pending()
        if d is None:
            return {"game": gid, "version": s.version, "kind": None, "vehicle": None,
                    "options": [], "basis": basis}
        mine = offer is not None and d.player in seats
        opts = [dict(o) for o in offer.odds(g, d)] if offer is not None and mine else []
        return {"game": gid, "version": s.version, "kind": d.kind, "seat": d.player,
                "vehicle": d.vehicle, "options": opts, "basis": basis}


router = odds_router()
"""The odds routes of the registry's rulesets."""
