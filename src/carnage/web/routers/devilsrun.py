"""The old Devil's Run addresses, kept as permanent redirects to the one path every ruleset's
games take (``/api/games/...``, ``/games/<id>``, ``/api/rulesets/...``). A redirect keeps the
method and the body (308), so an old client's decisions still reach the game."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

router = APIRouter(tags=["devils-run (moved)"], include_in_schema=False)
RULESET = "devils-run"
MOVED = "Moved permanently: every ruleset's games are at /api/games (a 308 keeps the method)."


def _to(request: Request, path: str) -> RedirectResponse:
    query = request.url.query
    return RedirectResponse(path + (f"?{query}" if query else ""), status_code=308)


@router.get("/api/devils-run/missions", status_code=308, description=MOVED,
            summary="Moved to /api/scenarios?ruleset=devils-run")
def missions(request: Request) -> RedirectResponse:
    return RedirectResponse(f"/api/scenarios?ruleset={RULESET}", status_code=308)


@router.get("/api/devils-run/cards.svg", status_code=308, description=MOVED,
            summary="Moved to /api/rulesets/devils-run/cards.svg")
def cards(request: Request) -> RedirectResponse:
    return _to(request, f"/api/rulesets/{RULESET}/cards.svg")


@router.get("/api/devils-run/games", status_code=308, description=MOVED,
            summary="Moved to /api/games")
def list_games(request: Request) -> RedirectResponse:
    return _to(request, "/api/games")


@router.get("/api/devils-run/games/{gid}", status_code=308, description=MOVED,
            summary="Moved to /api/games/{gid}")
def view(gid: str, request: Request) -> RedirectResponse:
    return _to(request, f"/api/games/{gid}")


@router.post("/api/devils-run/games/{gid}/decisions", status_code=308, description=MOVED,
             summary="Moved to /api/games/{gid}/decisions")
def decide(gid: str, request: Request) -> RedirectResponse:
    return _to(request, f"/api/games/{gid}/decisions")


@router.get("/api/devils-run/games/{gid}/{what}", status_code=308, description=MOVED,
            summary="Moved to /api/games/{gid}/{what} (replay, svg, log, events)")
def part(gid: str, what: str, request: Request) -> RedirectResponse:
    return _to(request, f"/api/games/{gid}/{what}")


@router.get("/devils-run/{gid}", status_code=308, description=MOVED,
            summary="Moved to the table of every ruleset, /games/{gid}")
def table(gid: str, request: Request) -> RedirectResponse:
    return _to(request, f"/games/{gid}")
