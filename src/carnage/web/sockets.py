"""One websocket loop for any ruleset's game session: the seat's view on connect and after
every change, decisions taken from guarded JSON frames, every failure answered as an error
frame (the socket is never dropped silently)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, MutableMapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from carnage import guard
from carnage.web.seated import SeatedSession
from carnage.web.sessions import ApiError, Listener

DECISION_SHAPE = '{"type": "decision", "version": N, "choice": ...}'


async def frame_json(frame: MutableMapping[str, Any]) -> Any:
    """A websocket message decoded through the guarded reader (size, depth, integer digits,
    finite numbers), off the event loop; ``ApiError`` 413/422 naming what is wrong."""
    text = frame.get("text")
    if text is None:
        raise ApiError(422, "binary messages are not accepted: send JSON text")
    if len(text) > guard.WS_FRAME.max_bytes:
        raise ApiError(413, f"the message is {guard.human_bytes(len(text))}; the limit is "
                       f"{guard.human_bytes(guard.WS_FRAME.max_bytes)}")
    try:
        return await run_in_threadpool(guard.ws_frame, text)
    except guard.InputRefused as e:
        if e.problem.startswith("invalid JSON"):
            raise ApiError(422, f"messages must be JSON objects ({e.problem})") from None
        raise ApiError(e.status, str(e)) from None


async def serve_session(
    websocket: WebSocket, load: Callable[[], SeatedSession], token: str | None,
    view_text: Callable[[Any, list[int]], str], parse: Callable[[Any], tuple[int, Any]],
    also: Callable[[Any, list[int], Callable[[dict[str, Any]], Coroutine[Any, Any, None]]],
                   Coroutine[Any, Any, None]] | None = None,
) -> None:
    """Serve one seat (``token``; none: a spectator) of the session ``load`` finds: frames
    ``{"type": "view", ...}`` (``view_text``), decisions ``parse``d to (version, choice), and
    ``{"type": "error", "status", "detail"}`` for anything refused. ``also(session, seats,
    send)`` runs beside them for the socket's life, sending frames of its own (the chat)."""
    await websocket.accept()
    try:
        session = await run_in_threadpool(load)
        seats = session.seats_for(token)
    except ApiError as e:
        await websocket.send_json({"type": "error", "status": e.status, "detail": e.detail})
        await websocket.close(code=4000 + e.status)
        return
    listener = Listener(asyncio.get_running_loop())
    session.subscribe(listener)
    send_lock = asyncio.Lock()

    async def send(msg: dict[str, Any]) -> None:
        async with send_lock:
            await websocket.send_json(msg)

    async def send_view() -> None:
        text = await run_in_threadpool(view_text, session, seats)
        async with send_lock:
            await websocket.send_text(text)

    async def pusher() -> None:
        while True:
            await listener.queue.get()
            while not listener.queue.empty():
                listener.queue.get_nowait()
            await send_view()

    async def receiver() -> None:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000))
            try:
                raw = await frame_json(frame)
                if not isinstance(raw, dict) or raw.get("type") != "decision":
                    raise ApiError(422, f"expected {DECISION_SHAPE}")
                version, choice = parse(raw)
                applied = await run_in_threadpool(session.act, token or "", version, choice)
                if not applied:  # a resend of a choice already taken: no change to push
                    await send_view()
            except ApiError as e:
                await send({"type": "error", "status": e.status, "detail": e.detail})
            except Exception as e:  # never drop the socket silently: say what went wrong
                first = str(e).splitlines()[0][:200] if str(e) else ""
                await send({"type": "error", "status": 500, "detail":
                            f"internal error ({type(e).__name__}{': ' + first if first else ''})"})

    try:
        await send_view()
        push = asyncio.create_task(pusher())
        side: asyncio.Task[None] | None = (
            None if also is None else asyncio.create_task(also(session, seats, send)))
        try:
            await receiver()
        finally:
            for task in (push, side):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task  # a failed side task (the chat) never fails the socket
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        session.unsubscribe(listener)
