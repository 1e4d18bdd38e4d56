"""Campaigns in the browser: create, join by a seat's link, view (standings, schedule,
rosters, the standings chart), change a roster between games, play the next event on the table
and answer the decisions before and after it.

Every write carries ``version``, the campaign version the client saw: a stale one is refused
with 409 and nothing changes. A seat acts with its token (``token``); without one the campaign
is watched, and pending decisions and their secrets are shown only to their own seat. Every
campaign has an owner token from the start (``X-Owner-Token``): it gives unclaimed seats their
tokens and may start the next event; the list shows public campaigns and those whose owner or
seat tokens the caller sends.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import FileResponse
from pydantic import BeforeValidator, Field, StrictBool, StrictInt

from carnage import bounds
from carnage.campaign.store import CampaignError
from carnage.team import TeamFileError, TeamSpec, parse_team
from carnage.web import campaigns as modes
from carnage.web.campaigndesk import MAX_ROUNDS, Desk
from carnage.web.deps import StoreDep
from carnage.web.ownership import HEADER, campaign_links
from carnage.web.routers.pages import MISSING, page
from carnage.web.schemas import Choice, Controller, Count, Message, _In, whole_number
from carnage.web.sessions import ApiError

router = APIRouter(tags=["campaigns"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 409: {"model": Message},
    422: {"model": Message},
}
MAX_TEAMS = 8
TOKEN = Query(None, max_length=100, description="A campaign seat's token; none to watch.")
Version = Count
Rounds = Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS), BeforeValidator(whole_number)]
PositiveSeed = Annotated[StrictInt, Field(ge=0, le=bounds.MAX_SEED),
                         BeforeValidator(whole_number)]
OwnerToken = Annotated[str | None, Header(alias=HEADER, description=(
    "The campaign's owner token (to take a seat or start an event); for the list, any of "
    "this browser's campaign owner and seat tokens, joined by commas."))]


_opening = threading.Lock()


def desk(request: Request) -> Desk:
    """The app's campaign desk, opened on the app's database the first time it is needed."""
    d: Desk | None = getattr(request.app.state, "campaign_desk", None)
    if d is not None:
        return d
    with _opening:
        d = getattr(request.app.state, "campaign_desk", None)
        if d is None:
            from carnage.campaign.store import CampaignStore

            try:
                cs = CampaignStore(request.app.state.db_url)
            except CampaignError as e:
                raise ApiError(500, str(e)) from None
            d = Desk(cs, request.app.state.games, request.app.state.owners)
            request.app.state.campaign_desk = d
    return d


# -- schemas -----------------------------------------------------------------------------------
class CampaignTeam(_In):
    team_id: str | None = Field(default=None, max_length=64, description="A saved team's id.")
    team: dict[str, Any] | None = Field(
        default=None, description="A team file as a JSON object (the team builder's JSON).")


class NewCampaign(_In):
    mode: str = Field(max_length=40, description="A campaign mode's id (`GET /api/campaign-"
                      "modes`).")
    options: dict[str, Any] = Field(default_factory=dict, description="The mode's options.")
    teams: list[CampaignTeam] = Field(min_length=1, max_length=MAX_TEAMS)
    public: StrictBool = Field(default=False, description=(
        "List it to everyone; otherwise only to whoever holds one of its tokens."))


class Write(_In):
    version: Version = Field(description="The campaign version the client saw.")
    token: str | None = Field(default=None, max_length=100, description="Your seat token.")


class TeamChange(Write):
    team: dict[str, Any] = Field(description="The team's new roster (a team file object).")
    dry_run: StrictBool = Field(default=False, description="Only check it: nothing is saved.")


class NextEvent(Write):
    controllers: list[Controller] = Field(min_length=1, max_length=MAX_TEAMS, description=(
        "Who plays each seat (in seat order): human (its player, on the table) or a bot."))
    max_rounds: Rounds | None = Field(default=None, description=(
        "Rounds before the game is called (none: the scenario's own)."))
    seed: PositiveSeed | None = Field(default=None, description=(
        "Dice seed (only when at most one human plays); none: drawn by the server."))
    request: dict[str, Any] | None = Field(default=None, description=(
        "What the meeting decides for the next event, if the mode asks (a Televised "
        "Season: `present` seats, `skirmish`)."))


class StepChoice(Write):
    value: Choice | dict[str, Any] = Field(description=(
        "One of the step's options, a number in its range, or (a roster) a team file "
        "object."))


class Claim(_In):
    version: Version


# -- pages -------------------------------------------------------------------------------------
@router.get("/campaigns", response_class=FileResponse, responses=MISSING,
            summary="The campaigns page: start a campaign, open one")
def campaigns_page() -> FileResponse:
    return page("campaign.html")


@router.get("/campaigns/{cid}", response_class=FileResponse, responses=MISSING,
            summary="A campaign (?token=... for a seat; none to watch)")
def campaign_page(cid: str) -> FileResponse:
    return page("campaign.html")


# -- API ---------------------------------------------------------------------------------------
@router.get("/api/campaign-modes", summary="The campaign modes and their options")
def list_modes() -> list[dict[str, Any]]:
    return [m.to_json() for m in modes.modes()]


@router.get("/api/campaigns", summary=(
    "The public campaigns and those whose owner or seat tokens X-Owner-Token carries"))
def list_campaigns(request: Request, x_owner_token: OwnerToken = None
                   ) -> list[dict[str, Any]]:
    d = desk(request)
    out = []
    for cid in d.store.listed(d.mine(x_owner_token)):
        c = d.get(cid)
        s = modes.summary(c)
        out.append({"id": c.id, "mode": c.mode, "mode_name": modes.mode_name(c),
                    "version": c.version, "created": c.created.isoformat(),
                    "public": c.public,
                    "teams": [t["team"] for t in s["teams"]],
                    "games": sum(1 for x in s["schedule"] if x["played"]),
                    "finished": s["finished"]})
    return out


def _spec(i: int, t: CampaignTeam, store: StoreDep) -> TeamSpec:
    if (t.team_id is None) == (t.team is None):
        raise ApiError(422, f"teams.{i}: give a saved team's id (team_id) or a team, one of "
                            "them")
    try:
        if t.team is not None:
            return parse_team(t.team, f"teams.{i}")
        assert t.team_id is not None
        stored = store.team(t.team_id)
        if stored is None:
            raise ApiError(422, f"teams.{i}.team_id: no saved team with id {t.team_id!r}")
        return parse_team(stored.data, f"teams.{i}")
    except TeamFileError as e:
        raise ApiError(422, e.problems[0]) from None


@router.post("/api/campaigns", status_code=201, responses=ERRORS,
             summary="Start a campaign; its owner's and every seat's link (keep them: they "
                     "are not shown again)")
def create_campaign(body: NewCampaign, request: Request, store: StoreDep) -> dict[str, Any]:
    teams = [_spec(i, t, store) for i, t in enumerate(body.teams)]
    c, owner, tokens = desk(request).create(body.mode, body.options, teams, body.public)
    return {**campaign_links(c.id, owner, tokens), "version": c.version}


@router.get("/api/campaigns/{cid}", responses=ERRORS,
            summary="The campaign as one seat (or a spectator) sees it")
def get_campaign(cid: str, request: Request, token: str | None = TOKEN,
                 x_owner_token: OwnerToken = None) -> dict[str, Any]:
    return desk(request).view(cid, token, x_owner_token)


@router.get("/api/campaigns/{cid}/export", responses=ERRORS,
            summary="The campaign's results, as everyone may see them")
def export_campaign(cid: str, request: Request) -> dict[str, Any]:
    c = desk(request).get(cid)
    return {"id": c.id, "mode": c.mode, "options": c.options, "version": c.version,
            "results": modes.summary(c)["results"]}


@router.post("/api/campaigns/{cid}/seats/{seat}/claim", responses=ERRORS,
             summary="The owner gives a seat nobody holds yet its token")
def claim_seat(cid: str, seat: int, body: Claim, request: Request,
               x_owner_token: OwnerToken = None) -> dict[str, Any]:
    d = desk(request)
    c, tok = d.claim(cid, seat, body.version, x_owner_token)
    return {"seat": seat, "token": tok, "url": f"/campaigns/{cid}?token={tok}",
            "version": c.version}


@router.post("/api/campaigns/{cid}/seats/{seat}/team", responses=ERRORS,
             summary="Between games: a seat's new roster, checked by the team builder")
def change_team(cid: str, seat: int, body: TeamChange, request: Request) -> dict[str, Any]:
    try:
        spec = parse_team(body.team, "team")
    except TeamFileError as e:
        raise ApiError(422, e.problems[0]) from None
    d = desk(request)
    c, check = d.change_team(cid, body.version, body.token, seat, spec, body.dry_run)
    if not check.problems or body.dry_run:
        return {**check.to_json(), "version": c.version}
    raise ApiError(422, "team: " + "; ".join(check.problems))


@router.post("/api/campaigns/{cid}/next", responses=ERRORS,
             summary="Start the next event: its decisions, then its game on the table")
def next_event(cid: str, body: NextEvent, request: Request,
               x_owner_token: OwnerToken = None) -> dict[str, Any]:
    d = desk(request)
    d.start_event(cid, body.version, body.token, body.controllers, body.max_rounds,
                  body.seed, body.request, x_owner_token)
    return d.view(cid, body.token, x_owner_token)


@router.post("/api/campaigns/{cid}/steps", responses=ERRORS,
             summary="Answer the campaign decision waiting for your seat")
def choose(cid: str, body: StepChoice, request: Request) -> dict[str, Any]:
    d = desk(request)
    d.choose(cid, body.version, body.token, body.value)
    return d.view(cid, body.token)
