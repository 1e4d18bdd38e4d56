"""The chat between a game's seats (web/chat.py): read it, write to it with a seat token, and
make it public (readable by spectators) or private again. New messages also reach the game's
websockets as ``{"type": "chat", ...}`` frames (routers/games.py passes ``socket_chat``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field, StrictBool

from carnage.render.svg import seat_name
from carnage.web.chat import MAX_CHARS, Chat, ChatHub, ChatRefused, Message, may_read
from carnage.web.deps import GamesDep
from carnage.web.schemas import Message as ErrorMessage
from carnage.web.schemas import _In
from carnage.web.sessions import ApiError, SeatedGame

router = APIRouter(prefix="/api/games", tags=["chat"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorMessage}, 404: {"model": ErrorMessage}, 422: {"model": ErrorMessage},
    429: {"model": ErrorMessage},
}
_opening = threading.Lock()


class ChatLine(BaseModel):
    id: int
    seat: int
    name: str = Field(description="The seat in words: its colour (or name) and its team.")
    text: str
    at: str = Field(description="When it was sent (ISO 8601, UTC).")


class ChatView(BaseModel):
    public: bool = Field(description="Spectators may read the chat (a seat made it public).")
    set_by: str | None = Field(description="The seat that last set it, in words (none: never "
                               "set, so private).")
    spectate: str = Field(description="The game's read-only link for spectators.")
    messages: list[ChatLine]


class ChatPost(_In):
    token: str = Field(min_length=1, max_length=400, description="Your seat's token.")
    text: str = Field(max_length=MAX_CHARS * 4, description=(
        f"The message: 1 to {MAX_CHARS} characters once trimmed."))
    seat: int | None = Field(default=None, ge=0, le=64, description=(
        "Which of the token's seats writes (hot-seat); none: its first."))


class ChatPublic(_In):
    token: str = Field(min_length=1, max_length=400, description="Your seat's token.")
    public: StrictBool = Field(description="True: spectators may read the chat; false: only "
                               "the game's seats.")


def chat_of(request: Any) -> tuple[Chat, ChatHub]:
    """The app's chat and its websocket hub, opened on the app's database when first needed."""
    state = request.app.state
    got: tuple[Chat, ChatHub] | None = getattr(state, "chat", None)
    if got is not None:
        return got
    with _opening:
        got = getattr(state, "chat", None)
        if got is None:
            got = (Chat(state.store.engine), ChatHub(fed=lambda: _fed(state)))
            state.chat = got
    return got


def _fed(state: Any) -> bool:
    """The app's change listener is connected (web/fanout.py): chat changes are announced."""
    feed = getattr(state, "feed", None)
    return feed is not None and bool(feed.connected)


def seat_names(session: SeatedGame) -> Callable[[int], str]:
    """Each seat in words: its colour (or the name its ruleset gives it) and its team."""
    named = session.ruleset.table.seat_names
    teams = {s.seat: s.team for s in session.seat_controls()}

    def name(seat: int) -> str:
        who = named[seat] if seat < len(named) else seat_name(seat)
        team = teams.get(seat) or ""
        return f"{who} ({team})" if team else who

    return name


def _refused(e: ChatRefused) -> ApiError:
    return ApiError(e.status, e.detail)


def _lines(messages: Sequence[Message], names: Callable[[int], str]) -> list[ChatLine]:
    return [ChatLine.model_validate(m.to_json(names)) for m in messages]


@router.get("/{gid}/chat", response_model=ChatView, responses=ERRORS,
            summary="The game's chat: its seats always read it, spectators only while it is "
            "public")
def read_chat(gid: str, request: Request, games: GamesDep,
              token: str | None = Query(None, max_length=400, description="A seat token "
                                        "(none: a spectator)."),
              since: int = Query(0, ge=0, description="Only messages after this id.")
              ) -> ChatView:
    session = games.get(gid)
    seats = session.seats_for(token)
    chat, _ = chat_of(request)
    setting = chat.setting(gid)
    if not may_read(setting, seats):
        raise ApiError(403, "this game's chat is private: only its seats may read it (a seat "
                            "may make it public)")
    names = seat_names(session)
    return ChatView(public=setting.public,
                    set_by=None if setting.seat is None else names(setting.seat),
                    spectate=f"/games/{gid}", messages=_lines(chat.messages(gid, since), names))


@router.post("/{gid}/chat", response_model=ChatLine, status_code=201, responses=ERRORS,
             summary="Write to the game's chat as one of its seats (a seat token; "
             f"{MAX_CHARS} characters at most; a few messages every few seconds)")
def write_chat(gid: str, body: ChatPost, request: Request, games: GamesDep) -> ChatLine:
    session = games.get(gid)
    seats = session.seats_for(body.token)
    if not seats:
        raise ApiError(403, "a seat token is needed to chat; spectators may only read")
    seat = seats[0] if body.seat is None else body.seat
    if seat not in seats:
        raise ApiError(403, f"seat: the token is not seat {seat}'s")
    chat, hub = chat_of(request)
    try:
        message = chat.post(gid, seat, body.text)
    except ChatRefused as e:
        raise _refused(e) from None
    hub.changed(gid)
    return ChatLine.model_validate(message.to_json(seat_names(session)))


@router.put("/{gid}/chat/public", response_model=ChatView, responses=ERRORS,
            summary="Make the game's chat public (spectators read it) or private (a seat token)")
def set_public(gid: str, body: ChatPublic, request: Request, games: GamesDep) -> ChatView:
    session = games.get(gid)
    seats = session.seats_for(body.token)
    if not seats:
        raise ApiError(403, "a seat token is needed to change who reads the chat")
    chat, hub = chat_of(request)
    setting = chat.set_public(gid, seats[0], body.public)
    hub.changed(gid)
    names = seat_names(session)
    return ChatView(public=setting.public, set_by=names(seats[0]), spectate=f"/games/{gid}",
                    messages=_lines(chat.messages(gid), names))


def socket_chat(request: Any, gid: str) -> Callable[
        [Any, list[int], Callable[[dict[str, Any]], Coroutine[Any, Any, None]]],
        Coroutine[Any, Any, None]]:
    """What a game's websocket runs beside its views: the chat's frames (web/sockets.py)."""
    chat, hub = chat_of(request)

    async def run(session: Any, seats: list[int],
                  send: Callable[[dict[str, Any]], Coroutine[Any, Any, None]]) -> None:
        await hub.pump(chat, gid, seats, seat_names(session), send)

    return run


def forget_chat(request: Any, gid: str) -> None:
    """A deleted game's chat goes with it."""
    chat, hub = chat_of(request)
    chat.forget(gid)
    hub.changed(gid)
