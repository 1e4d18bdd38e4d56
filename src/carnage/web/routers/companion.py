"""Companion play at a real table: the phone-first page (``/companion/{gid}?token=...``), its
service worker (the page and its scripts kept for a dropped connection), and undo of the last
human answer (``POST /api/games/{gid}/undo``, web/companion.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse

from carnage.web.deps import GamesDep
from carnage.web.routers.pages import MISSING, STATIC, page
from carnage.web.schemas import Message, Undone, UndoRequest
from carnage.web.sessions import ApiError

router = APIRouter(tags=["companion"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 409: {"model": Message}}


@router.post("/api/games/{gid}/undo", response_model=Undone, responses=ERRORS,
             summary="Take back the last human answer (companion and hot-seat games only; "
             "with one phone per player, the other seats agree when dice fell or the answer "
             "was another's: ruling CP-20); the bots' answers after it go with it")
def undo_last(gid: str, body: UndoRequest, games: GamesDep) -> Undone:
    from carnage.web.companion import undo

    s = games.get(gid)
    out = undo(s, body.token, body.version)
    return Undone(id=gid, version=out.version, undone=out.undone,
                  waits_for=list(out.waits_for), message=out.message)


@router.get("/companion/{gid}", response_class=FileResponse, responses=MISSING,
            summary="The companion page for a game at a real table (?token=... for a seat)")
def companion_page(gid: str) -> FileResponse:
    return page("companion.html")


@router.get("/companion-sw.js", response_class=Response, responses={
    **MISSING, 200: {"content": {"text/javascript": {}}}},
            summary="The companion page's service worker (keeps the page for offline use)")
def service_worker() -> Response:
    path = STATIC / "js" / "companion-sw.js"
    if not path.is_file():
        raise ApiError(404, "the service worker is missing")
    return Response(path.read_bytes(), media_type="text/javascript",
                    headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"})
