"""Teams: validate (exactly the CLI's ``team check --json``), save, load, import and export."""

from __future__ import annotations

import json
import re
import uuid
from typing import Annotated, Any, Literal

import yaml
from fastapi import APIRouter, Header, Query, Response
from starlette.concurrency import run_in_threadpool

from carnage import guard
from carnage.catalog import CatalogError
from carnage.team import TeamFileError, TeamSpec, check_team, parse_team
from carnage.web.deps import OwnersDep, StoreDep
from carnage.web.ownership import HEADER, NotOwner, Owners
from carnage.web.schemas import (
    Deleted,
    ImportRequest,
    ImportResult,
    Message,
    TeamBody,
    TeamRecord,
    TeamSummary,
    ValidateRequest,
)
from carnage.web.sessions import ApiError

router = APIRouter(prefix="/api/teams", tags=["teams"])

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 413: {"model": Message},
    422: {"model": Message},
}
KIND = "team"
"""The ownership kind of saved teams."""
OwnerToken = Annotated[str | None, Header(
    alias=HEADER, description="The team's owner token (several joined by commas to list "
    "your teams).")]
MAX_OPENED = 200


def spec_of(data: Any, source: str = "team") -> TeamSpec:
    """The team file object as a spec; 422 with the loader's messages joined if malformed."""
    try:
        return parse_team(data, source)
    except TeamFileError as e:
        raise ApiError(422, "; ".join(e.problems)) from None


def report_of(spec: TeamSpec, homebrew: bool = False) -> dict[str, Any]:
    try:
        out: dict[str, Any] = check_team(spec, homebrew=homebrew).to_json()
    except CatalogError as e:
        raise ApiError(422, f"catalogue: {e}") from None
    return out


def team_json(spec: TeamSpec) -> dict[str, Any]:
    """The team as it is saved and exported: the team file, normalised."""
    out: dict[str, Any] = spec.model_dump(mode="json", exclude_none=True)
    return out


def _record(tid: str, spec: TeamSpec) -> TeamRecord:
    return TeamRecord(id=tid, team=team_json(spec), report=report_of(spec))


@router.post("/validate", response_model=dict[str, Any], responses=ERRORS,
             summary="Check a team: the same JSON as `carnage team check --json`")
def validate(body: ValidateRequest) -> dict[str, Any]:
    return report_of(spec_of(body.team), body.homebrew)


@router.get("", response_model=list[TeamSummary], summary="Your saved teams",
            description="The teams whose owner tokens the request carries in X-Owner-Token "
            "(comma-separated), and those named in `opened` (teams opened by a share link).")
def list_teams(
    store: StoreDep, owners: OwnersDep, owner_token: OwnerToken = None,
    opened: str | None = Query(None, max_length=MAX_OPENED * 41,
                               description="Ids of teams opened by share links, "
                               "comma-separated."),
) -> list[TeamSummary]:
    mine = owners.owned(KIND, owner_token)
    shared = {t.strip() for t in (opened or "").split(",")[:MAX_OPENED] if t.strip()}
    out = []
    for t in store.teams():
        if t.id not in mine and t.id not in shared:
            continue
        try:
            spec = parse_team(t.data, t.id)
        except TeamFileError:
            continue
        rep = check_team(spec)
        out.append(TeamSummary(id=t.id, name=spec.name, sponsor=spec.sponsor, cans=spec.cans,
                               total_cans=rep.total_cans, valid=rep.valid,
                               owned=t.id in mine))
    return out


@router.post("", response_model=TeamRecord, status_code=201, responses=ERRORS,
             summary="Save a team (an invalid team is saved too; its report says so)",
             description="The answer carries `owner_token`: PUT and DELETE need it in the "
             "X-Owner-Token header.")
def create_team(body: TeamBody, store: StoreDep, owners: OwnersDep) -> TeamRecord:
    spec = spec_of(body.team)
    tid = uuid.uuid4().hex[:12]
    store.add_team(tid, team_json(spec))
    token = owners.claim(KIND, tid)
    return _record(tid, spec).model_copy(update={"owner_token": token})


@router.post("/import", response_model=ImportResult, responses=ERRORS,
             summary="Read a team file's text (YAML or JSON); nothing is saved")
async def import_team(body: ImportRequest) -> ImportResult:
    # Parsing runs off the event loop; the guarded loader bounds its size, aliases, depth and
    # time, so a hostile text is refused quickly and never stalls other requests.
    return await run_in_threadpool(_import, body.text, body.format)


def _import(text: str, fmt: str) -> ImportResult:
    data = parse_text(text, fmt)
    spec = spec_of(data, f"{fmt} text")
    return ImportResult(team=team_json(spec), report=report_of(spec))


@router.get("/{tid}", response_model=TeamRecord, responses=ERRORS, summary="A saved team")
def get_team(tid: str, store: StoreDep) -> TeamRecord:
    return _record(tid, _stored_spec(store, tid))


@router.put("/{tid}", response_model=TeamRecord, responses=ERRORS, summary="Replace a team")
def put_team(tid: str, body: TeamBody, store: StoreDep, owners: OwnersDep,
             owner_token: OwnerToken = None) -> TeamRecord:
    _require_owner(store, owners, tid, owner_token)
    spec = spec_of(body.team)
    if not store.put_team(tid, team_json(spec)):
        raise ApiError(404, f"no saved team with id {tid!r}")
    return _record(tid, spec)


@router.delete("/{tid}", response_model=Deleted, responses=ERRORS, summary="Delete a team")
def delete_team(tid: str, store: StoreDep, owners: OwnersDep,
                owner_token: OwnerToken = None) -> Deleted:
    _require_owner(store, owners, tid, owner_token)
    if not store.delete_team(tid):
        raise ApiError(404, f"no saved team with id {tid!r}")
    owners.release(KIND, tid)
    return Deleted(id=tid)


def _require_owner(store: StoreDep, owners: Owners, tid: str, header: str | None) -> None:
    if store.team(tid) is None:
        raise ApiError(404, f"no saved team with id {tid!r}")
    try:
        owners.require(KIND, tid, header, f"team {tid!r}")
    except NotOwner as e:
        raise ApiError(403, e.detail) from None


@router.get(
    "/{tid}/export", responses={**ERRORS, 200: {"content": {"text/yaml": {},
                                                            "application/json": {}}}},
    response_class=Response, summary="Download a saved team as a YAML or JSON file",
)
def export_team(
    tid: str, store: StoreDep,
    format: Literal["yaml", "json"] = Query("yaml", description="yaml or json"),
) -> Response:
    spec = _stored_spec(store, tid)
    data = team_json(spec)
    name = re.sub(r"[^a-z0-9]+", "-", spec.name.lower()).strip("-") or "team"
    if format == "json":
        text, media = json.dumps(data, indent=2, ensure_ascii=False) + "\n", "application/json"
    else:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        media = "text/yaml"
    return Response(
        content=text.encode("utf-8"), media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{name}.{format}"'},
    )


@router.get(
    "/{tid}/templates.svg", responses={**ERRORS, 200: {"content": {"image/svg+xml": {}}}},
    response_class=Response, summary="A saved team's movement templates as they now are",
)
def team_templates_svg(tid: str, store: StoreDep) -> Response:
    from carnage.geometry.team_templates import standard_set
    from carnage.render.team_templates import template_set_svg

    spec = _stored_spec(store, tid)
    tset = spec.templates if spec.templates is not None else standard_set()
    return Response(content=template_set_svg(tset).encode("utf-8"), media_type="image/svg+xml")


def _stored_spec(store: StoreDep, tid: str) -> TeamSpec:
    t = store.team(tid)
    if t is None:
        raise ApiError(404, f"no saved team with id {tid!r}")
    return spec_of(t.data, f"saved team {tid}")


def parse_text(text: str, fmt: str) -> Any:
    """A team file's text as data, through the guarded loader: 422 naming the line of a syntax
    error or the field and limit broken, 413 for a text over the size limit."""
    try:
        return guard.team_text(text, fmt)
    except guard.InputRefused as e:
        raise ApiError(e.status, str(e)) from None
