"""Hostile requests against the web API and the websocket: each gets 413 or 422 with one
sentence naming the field and the limit (an error frame on the socket, which stays open);
never a 500, a dropped socket or a stalled server."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tests.guard.test_guard import ALIAS_BOMB
from tests.web.test_api_support import TestClient, first_choice, new_client, racer_team
from tests.web.test_api_ws import game, recv

from carnage import guard


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def detail(r: Any, status: int, *needles: str) -> str:
    assert r.status_code == status, r.text
    d = r.json()["detail"]
    assert isinstance(d, str) and d and "\n" not in d and len(d) < 400
    for n in needles:
        assert n in d, d
    return d


def post_raw(client: TestClient, url: str, body: str | bytes) -> Any:
    return client.post(url, content=body, headers={"content-type": "application/json"})


# -- bodies ------------------------------------------------------------------------------------
def test_oversize_bodies_are_413(client: TestClient) -> None:
    big = json.dumps({"text": "x" * (2 * 1024 * 1024), "format": "yaml"})
    detail(post_raw(client, "/api/teams/import", big), 413, "the request body is", "1 MB")

    def chunks() -> Any:  # streamed without a Content-Length
        for _ in range(40):
            yield b" " * 65536

    r = client.post("/api/teams/validate", content=chunks(),
                    headers={"content-type": "application/json"})
    detail(r, 413, "over the limit of 1 MB")


@pytest.mark.parametrize("body, needles", [
    ('{"team": ' + "[" * 1000 + "]" * 1000 + "}", ("body", "nested deeper than 32")),
    ('{"team": {"cans": ' + "9" * 5000 + "}}", ("body.team.cans", "30 digits")),
    ('{"team": {"cans": 1e999}}', ("body.team.cans", "not a finite number")),
    ('{"team": {"cans": NaN}}', ("body.team.cans", "not a finite number")),
    ('{"team": ', ("not valid JSON",)),
    (b'{"team": "\xff"}', ("not UTF-8",)),
])
def test_hostile_json_bodies_are_422_naming_the_field(
    client: TestClient, body: str | bytes, needles: tuple[str, ...]
) -> None:
    for url in ("/api/teams/validate", "/api/teams"):
        detail(post_raw(client, url, body), 422, *needles)


@pytest.mark.parametrize("text, fmt, needles", [
    (ALIAS_BOMB, "yaml", ("YAML aliases", "limit 50")),
    ("name: X\ncans: 0x" + "f" * 4000 + "\nvehicles: []\n", "yaml", ("cans", "30 digits")),
    ("cans: " + ":".join(["59"] * 2000), "yaml", ("cans", "30 digits")),
    ("name: " + "[" * 600 + "]" * 600, "yaml", ("nested deeper",)),
    ('{"cans": ' + "9" * 5000 + "}", "json", ("cans", "30 digits")),
    ("[" * 5000 + "]" * 5000, "json", ("nested deeper",)),
    ("name: X\ncans: 1\nvehicles: [" + ", ".join(["{}"] * 5_001) + "]", "yaml",
     ("values in all",)),
])
def test_hostile_imports_are_422_and_quick(client: TestClient, text: str, fmt: str,
                                          needles: tuple[str, ...]) -> None:
    t0 = time.monotonic()
    r = client.post("/api/teams/import", json={"text": text, "format": fmt})
    assert time.monotonic() - t0 < 5.0
    detail(r, 422, *needles)


def test_an_import_does_not_stall_other_requests(tmp_path: Path) -> None:
    """A hostile import in flight never holds up the rest of the server."""
    client = new_client(tmp_path)
    slow = "name: X\ncans: 5\nvehicles: [" + ", ".join(["{name: a, type: car}"] * 1500) + "]\n"
    results: list[int] = []

    def hammer() -> None:
        for _ in range(5):
            results.append(client.post("/api/teams/import",
                                       json={"text": slow, "format": "yaml"}).status_code)

    t = threading.Thread(target=hammer)
    t.start()
    worst = 0.0
    while t.is_alive():
        t0 = time.monotonic()
        assert client.get("/api/scenarios").status_code == 200
        worst = max(worst, time.monotonic() - t0)
    t.join()
    assert results and all(s in (200, 422) for s in results)
    assert worst < 2.0


# -- decisions ---------------------------------------------------------------------------------
def _started(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    g = game(client, "human", "heuristic")
    gid, tok = g["id"], g["seats"][0]["token"]
    v = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    return gid, tok, v


@pytest.mark.parametrize("choice, status, needles", [
    (True, 422, ("choice", "a boolean is never a choice")),
    (False, 422, ("choice", "boolean")),
    (10**400, 422, ("body.choice", "30 digits")),
    (10**25, 422, ("not a legal choice",)),
    ([1], 422, ("choice",)),
    ({"a": 1}, 422, ("choice",)),
])
def test_hostile_choices_are_4xx_and_change_nothing(
    client: TestClient, choice: Any, status: int, needles: tuple[str, ...]
) -> None:
    gid, tok, v = _started(client)
    r = post_raw(client, f"/api/games/{gid}/decisions", json.dumps(
        {"token": tok, "version": v["version"], "choice": choice}))
    detail(r, status, *needles)
    assert client.get(f"/api/games/{gid}").json()["version"] == v["version"]


def test_json_true_is_not_the_version_one(client: TestClient) -> None:
    """Strict types everywhere a number is expected: a boolean is never a version."""
    gid, tok, _ = _started(client)
    r = post_raw(client, f"/api/games/{gid}/decisions",
                 f'{{"token": "{tok}", "version": true, "choice": 1}}')
    detail(r, 422, "version")


def test_hostile_game_creation(client: TestClient) -> None:
    seats = [{"controller": "human"}, {"controller": "heuristic"}]
    detail(client.post("/api/games", json={"seed": True, "seats": seats}), 422, "seed")
    detail(client.post("/api/games", json={"seats": seats * 5}), 422, "seats")
    detail(post_raw(client, "/api/games", '{"seed": ' + "9" * 400 + ', "seats": []}'), 422,
           "body.seed", "30 digits")


# -- websocket fuzz frames ---------------------------------------------------------------------
@pytest.mark.parametrize("send, status, needle", [
    (lambda ws: ws.send_bytes(b"\x00\x01binary"), 422, "binary messages are not accepted"),
    (lambda ws: ws.send_text('{"type": "decision", "version": 1, "choice": '
                             + "9" * 5000 + "}"), 422, "message.choice: integer with more"),
    (lambda ws: ws.send_text("[" * 10000 + "]" * 10000), 422, "nested deeper than 16"),
    (lambda ws: ws.send_text('{"type": "decision", "version": 0, "choice": NaN}'), 422,
     "not a finite number"),
    (lambda ws: ws.send_text("x" * (guard.WS_FRAME.max_bytes + 1)), 413, "the limit is 64 KB"),
    (lambda ws: ws.send_text("\x00garbage\ud7ff"), 422, "messages must be JSON objects"),
    (lambda ws: ws.send_text('{"type": "decision", "version": true, "choice": 1}'), 422,
     "version"),
    (lambda ws: ws.send_text('{"type": "decision", "version": 0, "choice": true}'), 422,
     "boolean"),
    (lambda ws: ws.send_text("[]"), 422, "expected"),
])
def test_websocket_fuzz_frames_get_an_error_frame_and_the_socket_lives(
    client: TestClient, send: Any, status: int, needle: str
) -> None:
    g = game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws:
        v = recv(ws)["view"]
        send(ws)
        err = recv(ws)
        assert err["type"] == "error" and err["status"] == status, err
        assert needle in err["detail"] and "\n" not in err["detail"]
        ws.send_json({"type": "decision", "version": v["version"],
                      "choice": first_choice(v["pending"])})
        assert recv(ws)["type"] == "view"


def test_many_garbage_frames_in_a_row(client: TestClient) -> None:
    g = game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws:
        recv(ws)
        for i in range(30):
            if i % 3 == 0:
                ws.send_bytes(bytes([i]) * i)
            else:
                ws.send_text("{" * i)
            assert recv(ws)["type"] == "error"


# -- saved teams stay bounded too -------------------------------------------------------------
def test_saved_team_round_trip_still_works(client: TestClient) -> None:
    r = client.post("/api/teams", json={"team": racer_team()})
    assert r.status_code == 201 and r.json()["report"]["valid"] is True


# -- methods -----------------------------------------------------------------------------------
@pytest.mark.parametrize("method, url, allow", [
    ("PATCH", "/api/teams/abc123", "GET, PUT, DELETE"),
    ("OPTIONS", "/api/teams/abc123", "GET, PUT, DELETE"),
    ("GET", "/api/teams/import", "POST"),
    ("OPTIONS", "/api/teams/import/battlescribe", "POST"),
    ("DELETE", "/api/odds/attack", "GET"),
    ("PUT", "/api/games", "GET, POST"),
])
def test_a_method_a_path_does_not_take_is_405_with_its_methods(
        client: TestClient, method: str, url: str, allow: str) -> None:
    r = client.request(method, url)
    assert r.headers.get("allow") == allow
    detail(r, 405, f"{method} is not allowed", allow)
    schema = client.get("/openapi.json").json()["paths"]
    template = next(t for t in (url, url.replace("abc123", "{tid}")) if t in schema)
    assert sorted(m.upper() for m in schema[template]) == sorted(allow.split(", "))
