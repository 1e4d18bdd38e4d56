"""Devil's Run games on the web table: missions, create, list, per-seat view, decisions, the
board and stat cards as SVG, the websocket, and the table page.

Bodies are read through the project's guard first (``web/limits.BodyGuard``: size 413, depth
and numbers 422) and then checked by strict pydantic models (unknown fields, wrong types:
422 naming the field). Every error is ``{"detail": sentence}``.
"""

from __future__ import annotations

import json
import threading
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Response, WebSocket
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import HTTPConnection

from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.render import render_board, stat_cards
from carnage.web.drsessions import DrGames, DrSession, replay_game
from carnage.web.routers.pages import MISSING, page
from carnage.web.schemas import Choice, Message, Seed, Whole
from carnage.web.sessions import ApiError
from carnage.web.sockets import serve_session

router = APIRouter(tags=["devils-run"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 409: {"model": Message},
    413: {"model": Message}, 422: {"model": Message},
}
TOKEN = Query(None, description="A seat token, or several joined by commas (hot-seat).")
_make = threading.Lock()


def get_dr_games(request: HTTPConnection) -> DrGames:
    """The app's Devil's Run games, made on first use on the table's own database."""
    state = request.app.state
    with _make:
        games: DrGames | None = getattr(state, "devilsrun_games", None)
        if games is None:
            games = DrGames(state.store.engine)
            state.devilsrun_games = games
    return games


DrGamesDep = Annotated[DrGames, Depends(get_dr_games)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DrSeatRequest(_In):
    controller: Literal["human", "random", "heuristic", "search:easy", "search:normal",
                        "search:hard"]


class DrNewGame(_In):
    mission: Literal["devils-run", "hell-on-wheels"] = Field(
        default="devils-run", description="devils-run or hell-on-wheels")
    seats: list[DrSeatRequest] = Field(min_length=2, max_length=2,
                                       description="Seat 1 plays the Law, seat 2 the Haul's "
                                       "Angels.")
    seed: Seed | None = Field(default=None,
                              description="Dice seed (used only when at most one human "
                              "plays, hot-seat or not).")
    hot_seat: bool = False


class DrSeatCreated(BaseModel):
    seat: int
    controller: str
    token: str | None
    url: str | None


class DrCreated(BaseModel):
    id: str
    seats: list[DrSeatCreated]
    seed: int | None


class DrDecision(_In):
    token: str = Field(max_length=400)
    version: Whole
    choice: Choice


class DrMission(BaseModel):
    id: str
    name: str
    page: int | None
    lines: str
    players: int
    description: str


class DrSummary(BaseModel):
    id: str
    mission: str
    status: Literal["in_progress", "finished"]
    turn: int
    winner: int | None
    created: str
    seats: list[dict[str, Any]]


def _json(view: dict[str, Any]) -> Response:
    return Response(json.dumps(view), media_type="application/json")


@router.get("/api/devils-run/missions", response_model=list[DrMission],
            summary="The Devil's Run missions")
def missions() -> list[DrMission]:
    return [DrMission(id=s.id, name=s.name, page=s.page, lines=s.lines, players=s.players,
                      description=s.description) for s in DEVILS_RUN.scenarios]


@router.post("/api/devils-run/games", response_model=DrCreated, status_code=201,
             responses=ERRORS, summary="Start a Devil's Run game; bots play up to a human")
def create(body: DrNewGame, games: DrGamesDep) -> DrCreated:
    s = games.create(body.mission, [x.controller for x in body.seats], body.seed,
                     body.hot_seat)
    return DrCreated(id=s.id, seed=s.seed if s.seed_chosen else None, seats=[
        DrSeatCreated(seat=x.seat, controller=x.controller, token=x.token,
                      url=f"/devils-run/{s.id}?token={x.token}" if x.token else None)
        for x in s.seats])


@router.get("/api/devils-run/games", response_model=list[DrSummary],
            summary="Devil's Run games in progress and finished")
def list_games(games: DrGamesDep) -> list[DrSummary]:
    return [DrSummary(id=r.id, mission=r.mission,
                      status="finished" if r.finished else "in_progress", turn=r.turn,
                      winner=r.winner, created=r.created.isoformat(),
                      seats=[{"seat": x["seat"], "controller": x["controller"]}
                             for x in r.seats])
            for r in games.store.all()]


@router.get("/api/devils-run/games/{gid}", responses=ERRORS,
            summary="The game as one seat (or a spectator) sees it")
def view(gid: str, games: DrGamesDep, token: str | None = TOKEN) -> Response:
    s = games.get(gid)
    return _json(s.view(s.seats_for(token)))


@router.post("/api/devils-run/games/{gid}/decisions", responses=ERRORS,
             summary="Answer the pending decision for your seat")
def decide(gid: str, body: DrDecision, games: DrGamesDep) -> Response:
    return _json(games.get(gid).decide(body.token, body.version, body.choice))


@router.get("/api/devils-run/games/{gid}/replay", responses=ERRORS,
            summary="The game as a spectator saw it after `step` choices")
def replay_step(gid: str, games: DrGamesDep, step: int = Query(ge=0, le=10**6)) -> Response:
    s = games.get(gid)
    with s.lock:
        choices = list(s.game.choices)
        setup = dict(s.game.setup)
    if step > len(choices):
        raise ApiError(422, f"step must be between 0 and {len(choices)}, not {step}")
    then = DrSession(s.id, replay_game(setup, choices[:step]), s.seed, s.seats, s.created,
                     s.seed_chosen)
    view = then.view([])
    view["replay"] = {"step": step, "steps": len(choices)}
    return _json(view)


@router.get("/api/devils-run/games/{gid}/svg", response_class=Response, responses={
    **ERRORS, 200: {"content": {"image/svg+xml": {}}}}, summary="The road as SVG")
def svg(gid: str, games: DrGamesDep) -> Response:
    s = games.get(gid)
    with s.lock:
        act = s.game.state.act
        text = render_board(s.game, arcs_for=act.vid if act else None)
    return Response(text, media_type="image/svg+xml")


@router.get("/api/devils-run/cards.svg", response_class=Response, responses={
    200: {"content": {"image/svg+xml": {}}}}, summary="Printable stat cards of both gangs")
def cards() -> Response:
    return Response(stat_cards(), media_type="image/svg+xml")


@router.get("/devils-run/{gid}", response_class=FileResponse, responses=MISSING,
            summary="The Devil's Run table (?token=... for a seat; none to watch)")
def table(gid: str) -> FileResponse:
    return page("devilsrun.html")


@router.websocket("/api/devils-run/games/{gid}/ws")
async def socket(websocket: WebSocket, gid: str, token: str | None = None) -> None:
    """Sends ``{"type": "view", "view": ...}`` on connect and after every change; takes
    ``{"type": "decision", "version", "choice"}``; errors are ``{"type": "error", "status",
    "detail"}``."""
    games = get_dr_games(websocket)

    def view_text(session: Any, seats: list[int]) -> str:
        return json.dumps({"type": "view", "view": session.view(seats)})

    def parse(raw: dict[str, Any]) -> tuple[int, Any]:
        try:
            body = DrDecision.model_validate({"token": token or "-", **{
                k: raw[k] for k in ("version", "choice") if k in raw}})
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ApiError(422, f"{where}: {first['msg']}") from None
        return body.version, body.choice

    await serve_session(websocket, lambda: games.get(gid), token, view_text, parse)
