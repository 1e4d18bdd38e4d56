"""The whole log: ``GET /api/games/{id}/log`` returns every line as the table shows it (no cap),
from ``since`` on, and as a downloadable text file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_api_support import new_client


def finished_bot_game(tmp_path: Path) -> tuple[Any, str]:
    client = new_client(tmp_path)
    r = client.post("/api/games", json={"seed": 3, "seats": [
        {"controller": "heuristic"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    return client, r.json()["id"]


def test_every_line_is_returned_as_shown(tmp_path: Path) -> None:
    client, gid = finished_bot_game(tmp_path)
    view = client.get(f"/api/games/{gid}").json()
    lines = client.get(f"/api/games/{gid}/log").json()
    events = client.get(f"/api/games/{gid}/events").json()
    assert len(lines) == len(events) > len(view["log"])  # the view carries only the newest
    assert [ln["seq"] for ln in lines] == list(range(len(events)))
    assert set(lines[0]) >= {"seq", "rule", "page", "text", "kind", "dice"}
    shown = {ln["seq"]: ln for ln in view["log"]}
    assert all(lines[s] == ln for s, ln in shown.items())
    later = client.get(f"/api/games/{gid}/log", params={"since": 10}).json()
    assert later == lines[10:]


def test_the_log_downloads_as_text(tmp_path: Path) -> None:
    client, gid = finished_bot_game(tmp_path)
    lines = client.get(f"/api/games/{gid}/log").json()
    r = client.get(f"/api/games/{gid}/log", params={"format": "text"})
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment;")
    rows = r.text.splitlines()
    assert len(rows) == len(lines)
    assert rows[0].split("\t")[0] == "1" and rows[-1].endswith(lines[-1]["text"])


def test_unknown_game_and_bad_format(tmp_path: Path) -> None:
    client, gid = finished_bot_game(tmp_path)
    assert client.get("/api/games/nope/log").status_code == 404
    assert client.get(f"/api/games/{gid}/log",
                      params={"format": "pdf"}).status_code == 422
