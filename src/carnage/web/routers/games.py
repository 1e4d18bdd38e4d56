"""Games: create, list, view, act, events, SVG, replay and the websocket (which carries the
game's chat too: routers/chat.py)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request, Response, WebSocket
from pydantic import ValidationError

from carnage.kernel.ruleset import Ruleset
from carnage.render.svg import seat_name
from carnage.render.table_schemas import GameView, LogLine
from carnage.rulesets import get_ruleset
from carnage.web.db import StoredGame
from carnage.web.deps import GamesDep
from carnage.web.redact import events_for
from carnage.web.routers.chat import forget_chat, socket_chat
from carnage.web.schemas import (
    DecisionRequest,
    Deleted,
    EventJson,
    GameCreated,
    GameSummary,
    Message,
    NewGameRequest,
    PreferenceRequest,
    Replay,
    RulesetSteps,
    RulesetView,
    SeatCreated,
    SeatInfo,
)
from carnage.web.sessions import (
    ApiError,
    Games,
    SeatedGame,
    seed_may_be_chosen,
)
from carnage.web.sockets import serve_session

router = APIRouter(prefix="/api/games", tags=["games"])

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 409: {"model": Message},
    422: {"model": Message},
}
TOKEN = Query(None, description="A seat token, or several joined by commas (hot-seat).")


def _seat_links() -> dict[str, Any]:
    """OpenAPI links from a created game to what its first seat may do with it next (clients
    and schemathesis's stateful phase follow them)."""
    game = {"gid": "$response.body#/id"}
    seat = {**game, "token": "$response.body#/seats/0/token"}
    ops = {"GetGame": ("get_game_api_games__gid__get", seat),
           "GameEvents": ("events_api_games__gid__events_get", seat),
           "GameLog": ("log_api_games__gid__log_get", game),
           "GameSvg": ("svg_api_games__gid__svg_get", game),
           "Decide": ("decide_api_games__gid__decisions_post", game),
           "DeleteGame": ("delete_game_api_games__gid__delete", seat)}
    return {name: {"operationId": op, "parameters": params}
            for name, (op, params) in ops.items()}


@router.post("", response_model=GameCreated, status_code=201,
             responses={**ERRORS, 201: {"description": "The game, its seats and their tokens",
                                        "links": _seat_links()}},
             summary="Start a game; bot seats play at once up to the first human decision")
def create_game(body: NewGameRequest, games: GamesDep) -> GameCreated:
    s = games.create(body)
    chosen = body.seed is not None and seed_may_be_chosen(body)
    page = "companion" if s.mode.physical or s.mode.table_dice else "games"  # a real table's
    return GameCreated(id=s.id, seed=s.seed if chosen else None, seats=[
        SeatCreated(seat=x.seat, controller=x.controller, token=x.token,
                    url=f"/{page}/{s.id}?token={x.token}" if x.token else None)
        for x in s.seats
    ])


@router.get("", response_model=list[GameSummary],
            summary="Games in progress and finished, with their scenario, seats, teams and "
            "status in words")
def list_games(games: GamesDep) -> list[GameSummary]:
    return [summary_of(g) for g in games.store.games()]


def summary_of(g: StoredGame) -> GameSummary:
    """A stored game as the lobby lists it: ids for links, and words for people (the
    scenario's name, each seat's colour and team, the round and who won)."""
    name = str(g.setup.get("ruleset") or get_ruleset().name)
    try:
        rs: Ruleset | None = get_ruleset(name)
    except KeyError:
        rs = None
    teams = g.setup.get("teams")
    team_names = [str(t.get("name", "")) if isinstance(t, dict) else ""
                  for t in (teams if isinstance(teams, list) else [])]
    names = rs.table.seat_names if rs is not None else ()

    def seat_words(seat: int) -> str:
        return names[seat] if seat < len(names) else seat_name(seat)

    seats = [SeatInfo(seat=int(x["seat"]), controller=x["controller"],
                      name=seat_words(int(x["seat"])),
                      team=team_names[int(x["seat"])] if int(x["seat"]) < len(team_names)
                      else "") for x in g.seats]
    scenario = rs.scenarios.get(g.scenario) if rs is not None else None
    if not g.finished:
        status = f"Round {g.round}, in progress" if g.round else "Setting up, in progress"
    else:
        won = next((s for s in seats if s.seat == g.winner), None)
        who = "a draw" if won is None else (
            f"{won.team} ({won.name}) won" if won.team else f"{won.name} won")
        status = f"Finished in round {g.round}: {who}" if g.round else f"Finished: {who}"
    return GameSummary(
        id=g.id, scenario=g.scenario, ruleset=name,
        status="finished" if g.finished else "in_progress",
        round=g.round, winner=g.winner, created=g.created.isoformat(), seats=seats,
        seed_chosen=g.seed_chosen,
        scenario_name=(str(getattr(scenario, "name", ""))
                       or g.scenario.replace("-", " ").capitalize()),
        ruleset_title=rs.title if rs is not None else name, status_text=status,
    )


@router.get("/{gid}", response_model=GameView | RulesetView, responses=ERRORS,
            summary="The game as one seat (or a spectator) sees it (`board_view` names the "
            "ruleset's board; a ruleset with its own view answers a RulesetView)")
def get_game(gid: str, games: GamesDep, token: str | None = TOKEN) -> Response:
    s = games.get(gid)
    return Response(s.view_json(s.seats_for(token)), media_type="application/json")


@router.delete("/{gid}", response_model=Deleted, responses=ERRORS,
               summary="Abandon or delete a game (a seat token of it, unless all seats are bots)")
def delete_game(gid: str, request: Request, games: GamesDep,
                token: str | None = TOKEN) -> Deleted:
    games.delete(gid, token)
    forget_chat(request, gid)
    return Deleted(id=gid)


@router.post("/{gid}/decisions", response_model=GameView | RulesetView, responses=ERRORS,
             summary="Answer the pending decision for your seat")
def decide(gid: str, body: DecisionRequest, games: GamesDep) -> Response:
    view = games.get(gid, sync=False).decide_json(body.token, body.version, body.choice,
                                      [(t.kind, t.choice) for t in body.then])
    return Response(view, media_type="application/json")


@router.get("/{gid}/preview", response_model=GameView | RulesetView, responses=ERRORS,
            summary="Your view as it would be after a choice, nothing applied (refused when "
            "the answer would roll dice or let another seat answer)")
def preview(gid: str, games: GamesDep, token: str = Query(description="Your seat's token."),
            version: int = Query(ge=0), choice: str = Query(max_length=200)) -> Response:
    return Response(games.get(gid).preview_json(token, version, choice),
                    media_type="application/json")


@router.put("/{gid}/preferences", response_model=GameView | RulesetView, responses=ERRORS,
            summary="How your seat wants an optional prompt asked (each time, only when it "
            "matters, never); the table answers by it at once if that prompt is pending")
def set_preference(gid: str, body: PreferenceRequest, games: GamesDep) -> Response:
    view = games.get(gid).set_preference(body.token, body.key, body.value)
    return Response(view, media_type="application/json")


@router.get("/{gid}/svg", response_class=Response, responses={
    **ERRORS, 200: {"content": {"image/svg+xml": {}}}}, summary="The table as SVG")
def svg(gid: str, games: GamesDep) -> Response:
    return Response(content=games.get(gid).svg(), media_type="image/svg+xml")


@router.get("/{gid}/events", response_model=list[EventJson], responses=ERRORS,
            summary="The engine's event log from sequence number `since` on")
def events(gid: str, games: GamesDep, since: int = Query(0, ge=0),
           token: str | None = TOKEN) -> list[EventJson]:
    s = games.get(gid)
    with s.lock:  # other seats' secrets redacted (web/redact.py)
        evs = events_for(s.game, s.game.log.events[since:], s.seats_for(token))
        return [EventJson.model_validate(e.to_json()) for e in evs]


@router.get("/{gid}/log", response_model=list[LogLine], responses={
    **ERRORS, 200: {"content": {"text/plain": {}}}},
    summary="Every line of the game's log as the table shows it (`format=text` to download)")
def log(gid: str, games: GamesDep, since: int = Query(0, ge=0),
        format: Literal["json", "text"] = "json", token: str | None = TOKEN) -> Response:
    s = games.get(gid)
    lines = s.log_lines(since, s.seats_for(token))
    if format == "json":
        body = "[" + ",".join(ln.model_dump_json() for ln in lines) + "]"
        return Response(body, media_type="application/json")
    text = "".join(f"{ln.seq + 1}\t{ln.rule}\t{'' if ln.page is None else f'p.{ln.page}'}\t"
                   f"{ln.text}\n" for ln in lines)
    return Response(text, media_type="text/plain; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="carnage-{gid}-log.txt"'})


@router.get("/{gid}/replay", response_model=Replay | GameView | RulesetSteps | RulesetView,
            responses=ERRORS,
            summary="Step through a game: every step, or the view after `step` choices")
def replay(gid: str, games: GamesDep, step: int | None = Query(None, ge=0, le=10**6),
           token: str | None = TOKEN) -> Any:
    s = games.get(gid)
    viewers = s.seats_for(token)  # what this seat may see (web/redact.py)
    return Response(s.replay_json(step, viewers), media_type="application/json")


# -- websocket ---------------------------------------------------------------------------------
@router.websocket("/{gid}/ws")
async def game_socket(websocket: WebSocket, gid: str, token: str | None = None) -> None:
    """Sends ``{"type": "view", "view": GameView}`` on connect and after every change; takes
    ``{"type": "decision", "version", "choice"}`` and answers errors with ``{"type": "error",
    "status", "detail"}``."""
    games: Games = websocket.app.state.games

    def view_text(session: SeatedGame, seats: list[int]) -> str:
        return '{"type":"view","view":' + session.view_json(seats).decode() + "}"

    await serve_session(websocket, lambda: games.get(gid), token, view_text,
                        _SocketDecision.parse, also=socket_chat(websocket, gid))


class _SocketDecision:
    def __init__(self, version: int, choice: Any) -> None:
        self.version, self.choice = version, choice

    @staticmethod
    def parse(raw: Any) -> tuple[int, Any]:
        """(version, choice) of a decision frame; ``ApiError`` 422 naming a bad field."""
        try:
            body = DecisionRequest.model_validate({"token": "-", **{
                k: raw[k] for k in ("version", "choice") if k in raw}})
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"] if p in ("version", "choice"))
            raise ApiError(422, f"{where}: {first['msg']}") from None
        return body.version, body.choice
