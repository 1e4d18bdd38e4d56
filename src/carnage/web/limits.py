"""The web door: every JSON request body passes ``carnage.guard`` before a route sees it.

``BodyGuard`` is plain ASGI middleware. For requests with a body (POST, PUT, PATCH) it refuses
a declared or streamed size over ``guard.API_BODY.max_bytes`` with 413, then decodes the body
off the event loop, with a time limit, through the guarded JSON reader (depth, integer digits,
finite numbers, value count) and refuses a breach with 422 naming the field and the limit.
Only then is the body handed, unchanged, to the application.
"""

from __future__ import annotations

import json

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carnage import guard

METHODS = frozenset({"POST", "PUT", "PATCH"})
PARSE_SECONDS = 5.0
"""Longest a body may take to decode and check (it runs in a worker thread)."""
WS_TRANSPORT_BYTES = 1024 * 1024
"""Websocket messages larger than this are refused by the server's protocol layer (close code
1009, "message too big"); smaller ones over ``guard.WS_FRAME`` get an error message."""
SERVER_OPTIONS: dict[str, int] = {"ws_max_size": WS_TRANSPORT_BYTES}
"""uvicorn settings every Carnage server runs with (``carnage serve`` and the tests)."""


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


def _too_big(n: int, limit: int) -> str:
    return (f"the request body is {guard.human_bytes(n)}; the limit is "
            f"{guard.human_bytes(limit)}")


class BodyGuard:
    def __init__(self, app: ASGIApp, limits: guard.Limits = guard.API_BODY) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in METHODS:
            await self.app(scope, receive, send)
            return
        limit = self.limits.max_bytes
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                n = int(declared[:20])
            except ValueError:
                await _refuse(send, 400, "the Content-Length header is not a number")
                return
            if n > limit:
                await _refuse(send, 413, _too_big(n, limit))
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            part = msg.get("body", b"")
            size += len(part)
            if size > limit:
                await _refuse(send, 413, f"the request body is over the limit of "
                              f"{guard.human_bytes(limit)}")
                return
            chunks.append(part)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        ctype = headers.get(b"content-type", b"").lower()
        if body.strip() and (not ctype or b"json" in ctype):
            try:
                with anyio.fail_after(PARSE_SECONDS):
                    await anyio.to_thread.run_sync(
                        guard.load_json, body, self.limits, "", "the request body", "body",
                        abandon_on_cancel=True)
            except guard.InputRefused as e:
                detail = str(e)
                if e.problem.startswith("invalid JSON at "):
                    detail = f"the request body is not valid JSON ({e.problem[16:]})"
                await _refuse(send, e.status, detail)
                return
            except TimeoutError:
                await _refuse(send, 422, f"the request body took longer than "
                              f"{PARSE_SECONDS:g} s to read (time limit)")
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
