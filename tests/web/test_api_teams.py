"""Catalogue, scenarios and the team API: validate (exactly the CLI's JSON), save, load,
update, delete, import and export, and clear 4xx answers to bad payloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.web.test_api_support import EXAMPLES, TestClient, new_client, racer_team
from typer.testing import CliRunner

from carnage.catalog import load_catalog
from carnage.cli.main import app as cli


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def _one_line(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail
    return detail


# -- catalogue and scenarios -------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["vehicles", "weapons", "upgrades", "perks", "perk_classes",
                                  "sponsors", "templates"])
def test_catalog_lists_every_record(client: TestClient, kind: str) -> None:
    r = client.get(f"/api/catalog/{kind}")
    assert r.status_code == 200
    got = r.json()
    section = load_catalog().sections()[kind]
    assert [x["id"] for x in got] == [rec.id for rec in section]
    assert got[0] == next(iter(section)).model_dump(mode="json")


def test_unknown_catalog_kind_is_404_naming_the_known_ones(client: TestClient) -> None:
    detail = _one_line(client.get("/api/catalog/spaceships"), 404)
    assert "spaceships" in detail and "vehicles" in detail


def test_scenarios(client: TestClient) -> None:
    rows = client.get("/api/scenarios").json()
    assert [r["id"] for r in rows] == sorted(r["id"] for r in rows)
    street = next(r for r in rows if r["id"] == "street-race")
    assert street == {"id": "street-race", "name": "Street Race", "page": 62, "players": 2,
                      "min_players": 2, "max_players": None, "table": None,
                      "summary": street["summary"]}
    assert "finish line" in street["summary"]


# -- validate ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.*")), ids=lambda p: p.name)
@pytest.mark.parametrize("homebrew", [False, True])
def test_validate_equals_the_cli_json(client: TestClient, path: Path, homebrew: bool) -> None:
    args = ["team", "check", str(path), "--json"] + (["--homebrew"] if homebrew else [])
    cli_out = CliRunner().invoke(cli, args)
    expected = json.loads(cli_out.stdout)
    data = json.loads(path.read_text()) if path.suffix == ".json" else yaml.safe_load(
        path.read_text())
    r = client.post("/api/teams/validate", json={"team": data, "homebrew": homebrew})
    assert r.status_code == 200
    assert r.json() == expected


def test_validate_reports_rule_breaks_with_200(client: TestClient) -> None:
    team = racer_team(cans=20)
    r = client.post("/api/teams/validate", json={"team": team})
    assert r.status_code == 200
    rep = r.json()
    assert rep["valid"] is False and rep["total_cans"] == 22 and rep["budget"] == 20
    assert any("20" in e["message"] for e in rep["errors"])


@pytest.mark.parametrize("team, needle", [
    ([1, 2, 3], "expected a mapping"),
    ({"name": "X"}, "cans: missing"),
    ({"name": "X", "cans": "lots", "vehicles": []}, "cans"),
    ({"name": "X", "cans": 10, "vehicles": [{"name": "A"}]}, "vehicles[0].type: missing"),
    ({"name": "X", "cans": 10, "colour": "red"}, "colour: unknown key"),
    (None, "got nothing"),
])
def test_malformed_team_is_422_with_the_loaders_messages(
    client: TestClient, team: Any, needle: str
) -> None:
    detail = _one_line(client.post("/api/teams/validate", json={"team": team}), 422)
    assert needle in detail


def test_validate_joins_several_loader_messages(client: TestClient) -> None:
    detail = _one_line(client.post("/api/teams/validate", json={"team": {"sponsor": 3}}), 422)
    assert "name: missing" in detail and "cans: missing" in detail and "; " in detail


@pytest.mark.parametrize("body", [
    "not json", "[]", '{"homebrew": false}', '{"team": {}, "homebrew": "maybe"}',
    '{"team": {}, "extra": 1}', "",
])
def test_bad_validate_bodies_are_4xx_never_500(client: TestClient, body: str) -> None:
    r = client.post("/api/teams/validate", content=body,
                    headers={"content-type": "application/json"})
    _one_line(r, 422)


# -- saved teams -------------------------------------------------------------------------------
def test_team_lifecycle(client: TestClient) -> None:
    assert client.get("/api/teams").json() == []
    r = client.post("/api/teams", json={"team": racer_team()})
    assert r.status_code == 201
    rec = r.json()
    tid, token = rec["id"], rec["owner_token"]
    assert isinstance(token, str) and len(token) >= 24
    mine = {"X-Owner-Token": token}
    assert rec["team"]["name"] == "Road Hogs" and rec["report"]["valid"] is True
    assert client.get(f"/api/teams/{tid}").json() == {**rec, "owner_token": None}
    assert client.get("/api/teams", headers=mine).json() == [
        {"id": tid, "name": "Road Hogs", "sponsor": None, "cans": 25, "total_cans": 22,
         "valid": True, "owned": True}]

    over = racer_team(cans=20)
    r = client.put(f"/api/teams/{tid}", json={"team": over}, headers=mine)
    assert r.status_code == 200 and r.json()["report"]["valid"] is False
    assert client.get("/api/teams", headers=mine).json()[0]["valid"] is False

    r = client.delete(f"/api/teams/{tid}", headers=mine)
    assert r.status_code == 200 and r.json() == {"id": tid, "deleted": True}
    assert client.get("/api/teams", headers=mine).json() == []
    _one_line(client.get(f"/api/teams/{tid}"), 404)


def test_invalid_team_may_be_saved(client: TestClient) -> None:
    r = client.post("/api/teams", json={"team": racer_team(cans=5)})
    assert r.status_code == 201 and r.json()["report"]["valid"] is False


def test_unknown_team_ids_are_404(client: TestClient) -> None:
    assert "nope" in _one_line(client.get("/api/teams/nope"), 404)
    _one_line(client.put("/api/teams/nope", json={"team": racer_team()}), 404)
    _one_line(client.delete("/api/teams/nope"), 404)
    _one_line(client.get("/api/teams/nope/export"), 404)


def test_malformed_saves_are_422(client: TestClient) -> None:
    _one_line(client.post("/api/teams", json={"team": {"name": ""}}), 422)
    _one_line(client.post("/api/teams", json={}), 422)
    rec = client.post("/api/teams", json={"team": racer_team()}).json()
    tid = rec["id"]
    _one_line(client.put(f"/api/teams/{tid}", json={"team": "a string"},
                         headers={"X-Owner-Token": rec["owner_token"]}), 422)
    assert client.get(f"/api/teams/{tid}").json()["team"]["name"] == "Road Hogs"


# -- import and export -------------------------------------------------------------------------
def test_import_yaml_and_json_without_saving(client: TestClient) -> None:
    text = (EXAMPLES / "intro.yaml").read_text()
    r = client.post("/api/teams/import", json={"text": text, "format": "yaml"})
    assert r.status_code == 200
    body = r.json()
    assert body["report"]["valid"] is True and body["team"]["name"] == body["report"]["name"]
    r2 = client.post("/api/teams/import",
                     json={"text": json.dumps(body["team"]), "format": "json"})
    assert r2.json() == body
    assert client.get("/api/teams").json() == []


@pytest.mark.parametrize("text, fmt, needle", [
    ("name: [unclosed", "yaml", "invalid YAML at line"),
    ("{nope", "json", "invalid JSON at line 1"),
    ("- a\n- b\n", "yaml", "expected a mapping"),
    ("", "yaml", "got nothing"),
])
def test_import_errors_are_one_line_422(
    client: TestClient, text: str, fmt: str, needle: str
) -> None:
    r = client.post("/api/teams/import", json={"text": text, "format": fmt})
    assert needle in _one_line(r, 422)


def test_import_rejects_unknown_format(client: TestClient) -> None:
    r = client.post("/api/teams/import", json={"text": "a: 1", "format": "xml"})
    assert "format" in _one_line(r, 422)


@pytest.mark.parametrize("fmt, media", [("yaml", "text/yaml"), ("json", "application/json")])
def test_export_round_trips_through_import(client: TestClient, fmt: str, media: str) -> None:
    rec = client.post("/api/teams", json={"team": racer_team("Mad Max's")}).json()
    r = client.get(f"/api/teams/{rec['id']}/export", params={"format": fmt})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith(media)
    assert r.headers["content-disposition"] == f'attachment; filename="mad-max-s.{fmt}"'
    back = client.post("/api/teams/import", json={"text": r.text, "format": fmt}).json()
    assert back["team"] == rec["team"] and back["report"] == rec["report"]


def test_export_bad_format_is_422(client: TestClient) -> None:
    tid = client.post("/api/teams", json={"team": racer_team()}).json()["id"]
    _one_line(client.get(f"/api/teams/{tid}/export", params={"format": "pdf"}), 422)
