"""The HTML pages (served from ``web/static``; the front end has no build step)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from carnage.web.schemas import Message
from carnage.web.sessions import ApiError

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"], include_in_schema=True)
MISSING: dict[int | str, dict[str, Any]] = {404: {"model": Message}}


def page(name: str) -> FileResponse:
    path = STATIC / name
    if not path.is_file():
        raise ApiError(404, f"page not available: static/{name} is missing")
    return FileResponse(path, media_type="text/html; charset=utf-8")


@router.get("/", response_class=FileResponse, responses=MISSING, summary="The lobby")
def lobby() -> FileResponse:
    return page("index.html")


@router.get("/teams", response_class=FileResponse, responses=MISSING,
            summary="The team builder")
def teams() -> FileResponse:
    return page("teams.html")


@router.get("/teams/print", response_class=FileResponse, responses=MISSING,
            summary="Printable dashboards of a saved team (?id=ID)")
def print_team() -> FileResponse:
    return page("print.html")


@router.get("/games/{gid}", response_class=FileResponse, responses=MISSING,
            summary="The table (?token=... for a seat; none to watch)")
def table(gid: str) -> FileResponse:
    return page("table.html")


@router.get("/games/{gid}/replay", response_class=FileResponse, responses=MISSING,
            summary="Step through a game")
def replay(gid: str) -> FileResponse:
    return page("replay.html")
