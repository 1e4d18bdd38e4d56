"""BattleScribe rosters in the team builder: read an uploaded ``.ros``/``.rosz`` into a team
(nothing is saved; what cannot be mapped is listed) and download a saved team as one."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from carnage.team import TeamFileError
from carnage.team.battlescribe import MAX_BYTES, RosterError, read_roster, write_roster, write_rosz
from carnage.web.deps import StoreDep
from carnage.web.routers.teams import ERRORS, _stored_spec, report_of, team_json
from carnage.web.sessions import ApiError

router = APIRouter(prefix="/api/teams", tags=["teams"])


class RosterImported(BaseModel):
    team: dict[str, Any]
    report: dict[str, Any] = Field(description="Exactly `carnage team check --json`.")
    unmapped: list[str] = Field(description="Roster entries with no counterpart, with where.")
    notes: list[str] = Field(description="Assumptions made (a facing, the team size ...).")


@router.post("/import/battlescribe", response_model=RosterImported, responses={
    **ERRORS, 413: {"description": "The upload is larger than a roster can be."}},
    summary="Read a BattleScribe roster (.ros or .rosz, the file's bytes as the body)")
async def import_battlescribe(request: Request) -> RosterImported:
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BYTES:
            raise ApiError(413, f"a roster is at most {MAX_BYTES // 1000} kB")
    if not data:
        raise ApiError(422, "the request body is empty: send the roster file's bytes")
    # Read off the event loop: a roster is bounded (size, nesting, copies, zip methods) but a
    # large one still takes a moment, and other requests must not wait for it.
    return await run_in_threadpool(_import_roster, data)


def _import_roster(data: bytes) -> RosterImported:
    try:
        got = read_roster(data, "the roster")
        spec = got.spec("the roster")
    except (RosterError, TeamFileError) as e:
        raise ApiError(422, "; ".join(str(e).splitlines())) from None
    return RosterImported(team=team_json(spec), report=report_of(spec),
                          unmapped=list(got.unmapped), notes=list(got.notes))


@router.get("/{tid}/battlescribe", response_class=Response, responses={
    **ERRORS, 200: {"content": {"application/xml": {}, "application/zip": {}}}},
    summary="Download a saved team as a BattleScribe roster (.rosz zipped, or .ros)")
def export_battlescribe(tid: str, store: StoreDep,
                        zipped: bool = Query(True, description="a .rosz (else a .ros)")
                        ) -> Response:
    spec = _stored_spec(store, tid)
    name = re.sub(r"[^a-z0-9]+", "-", spec.name.lower()).strip("-") or "team"
    if zipped:
        body, media, ext = write_rosz(spec), "application/zip", "rosz"
    else:
        body, media, ext = write_roster(spec).encode("utf-8"), "application/xml", "ros"
    return Response(content=body, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{name}.{ext}"'})
