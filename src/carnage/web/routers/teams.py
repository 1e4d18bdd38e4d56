"""Teams: validate (exactly the CLI's ``team check --json``), save, load, import and export."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any, Literal

import yaml
from fastapi import APIRouter, Query, Response

from carnage.catalog import CatalogError
from carnage.team import TeamFileError, TeamSpec, check_team, parse_team
from carnage.web.deps import StoreDep
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
    404: {"model": Message}, 422: {"model": Message},
}


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


@router.get("", response_model=list[TeamSummary], summary="Saved teams")
def list_teams(store: StoreDep) -> list[TeamSummary]:
    out = []
    for t in store.teams():
        try:
            spec = parse_team(t.data, t.id)
        except TeamFileError:
            continue
        rep = check_team(spec)
        out.append(TeamSummary(id=t.id, name=spec.name, sponsor=spec.sponsor, cans=spec.cans,
                               total_cans=rep.total_cans, valid=rep.valid))
    return out


@router.post("", response_model=TeamRecord, status_code=201, responses=ERRORS,
             summary="Save a team (an invalid team is saved too; its report says so)")
def create_team(body: TeamBody, store: StoreDep) -> TeamRecord:
    spec = spec_of(body.team)
    tid = uuid.uuid4().hex[:12]
    store.add_team(tid, team_json(spec))
    return _record(tid, spec)


@router.post("/import", response_model=ImportResult, responses=ERRORS,
             summary="Read a team file's text (YAML or JSON); nothing is saved")
def import_team(body: ImportRequest) -> ImportResult:
    data = parse_text(body.text, body.format)
    spec = spec_of(data, f"{body.format} text")
    return ImportResult(team=team_json(spec), report=report_of(spec))


@router.get("/{tid}", response_model=TeamRecord, responses=ERRORS, summary="A saved team")
def get_team(tid: str, store: StoreDep) -> TeamRecord:
    return _record(tid, _stored_spec(store, tid))


@router.put("/{tid}", response_model=TeamRecord, responses=ERRORS, summary="Replace a team")
def put_team(tid: str, body: TeamBody, store: StoreDep) -> TeamRecord:
    spec = spec_of(body.team)
    if not store.put_team(tid, team_json(spec)):
        raise ApiError(404, f"no saved team with id {tid!r}")
    return _record(tid, spec)


@router.delete("/{tid}", response_model=Deleted, responses=ERRORS, summary="Delete a team")
def delete_team(tid: str, store: StoreDep) -> Deleted:
    if not store.delete_team(tid):
        raise ApiError(404, f"no saved team with id {tid!r}")
    return Deleted(id=tid)


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


def _stored_spec(store: StoreDep, tid: str) -> TeamSpec:
    t = store.team(tid)
    if t is None:
        raise ApiError(404, f"no saved team with id {tid!r}")
    return spec_of(t.data, f"saved team {tid}")


def parse_text(text: str, fmt: str) -> Any:
    """A team file's text as data; 422 naming the line of a syntax error."""
    if fmt == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise ApiError(422, f"invalid JSON at line {e.lineno}: {e.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "malformed"
        raise ApiError(422, f"invalid YAML{where}: {problem}") from None
