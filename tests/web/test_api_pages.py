"""Pages, static files, the OpenAPI docs, and ``carnage serve`` on a real socket."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from tests.web.test_api_support import TestClient, new_client
from typer.testing import CliRunner

from carnage.cli import serve_cmd
from carnage.cli.main import app as cli
from carnage.web.routers import pages

PAGES = {
    "/": "index.html", "/teams": "teams.html", "/teams/print?id=abc": "print.html",
    "/games/g1?token=t": "table.html", "/games/g1": "table.html",
    "/games/g1/replay": "replay.html",
}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


@pytest.fixture
def static(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    for name in set(PAGES.values()):
        (folder / name).write_text(f"<!doctype html><title>{name}</title>", encoding="utf-8")
    (folder / "js").mkdir()
    (folder / "js" / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    monkeypatch.setattr(pages, "STATIC", folder)
    return folder


@pytest.mark.parametrize("url, name", sorted(PAGES.items()))
def test_pages_serve_their_files(client: TestClient, static: Path, url: str, name: str) -> None:
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert f"<title>{name}</title>" in r.text


def test_missing_page_is_a_clear_404(client: TestClient, static: Path) -> None:
    (static / "replay.html").unlink()
    r = client.get("/games/g1/replay")
    assert r.status_code == 404 and r.json() == {
        "detail": "page not available: static/replay.html is missing"}


def test_static_files_from_the_shipped_folder(client: TestClient) -> None:
    shipped = sorted(p for p in pages.STATIC.rglob("*") if p.is_file()) if pages.STATIC.is_dir() \
        else []
    for path in shipped[:5]:
        rel = path.relative_to(pages.STATIC).as_posix()
        r = client.get(f"/static/{rel}")
        assert r.status_code == 200 and r.content == path.read_bytes()
    assert client.get("/static/no-such-file.js").status_code == 404


def test_openapi_documents_every_route(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for route in ["/api/catalog/{kind}", "/api/teams/validate", "/api/teams",
                  "/api/teams/{tid}", "/api/teams/import", "/api/teams/{tid}/export",
                  "/api/scenarios", "/api/games", "/api/games/{gid}",
                  "/api/games/{gid}/decisions", "/api/games/{gid}/svg",
                  "/api/games/{gid}/events", "/api/games/{gid}/replay"]:
        assert route in paths, route
    ok = paths["/api/games/{gid}"]["get"]["responses"]["200"]["content"]["application/json"]
    # The tabletop's view, or the view of a ruleset with a board of its own (Devil's Run).
    refs = sorted(x["$ref"].rsplit("/", 1)[-1] for x in ok["schema"]["anyOf"])
    assert refs == ["GameView", "RulesetView"]
    assert "GameView" in spec["components"]["schemas"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_unknown_routes_are_404_json(client: TestClient) -> None:
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and isinstance(r.json()["detail"], str)
    r = client.delete("/api/scenarios")
    assert r.status_code == 405 and isinstance(r.json()["detail"], str)


# -- carnage serve -----------------------------------------------------------------------------
def test_default_database_lives_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / app))
    url = serve_cmd.default_db_url()
    assert url == f"sqlite:///{tmp_path / 'carnage' / 'carnage.db'}"
    assert (tmp_path / "carnage").is_dir()


def test_serve_with_a_bad_database_url_says_so() -> None:
    r = CliRunner().invoke(cli, ["serve", "--db", "nosuchdialect://x/y", "--port", "1"])
    assert r.exit_code == 2
    assert "cannot open database 'nosuchdialect://x/y'" in r.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_carnage_serve_prints_the_url_and_answers(tmp_path: Path) -> None:
    port = _free_port()
    exe = Path(sys.executable).with_name("carnage")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "carnage.cli.main"]
    proc = subprocess.Popen(
        [*cmd, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        body = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/scenarios",
                                            timeout=5) as resp:
                    body = json.loads(resp.read())
                break
            except OSError:
                time.sleep(0.2)
        assert body is not None and "street-race" in [r["id"] for r in body]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_an_unexpected_server_error_is_still_one_json_sentence(tmp_path: Path) -> None:
    from carnage.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'x.db'}")

    def broken() -> None:
        raise RuntimeError("disk on fire")

    app.state.store.teams = broken
    r = TestClient(app, raise_server_exceptions=False).get("/api/teams")
    assert r.status_code == 500
    assert r.json() == {"detail": "internal error (RuntimeError: disk on fire)"}
