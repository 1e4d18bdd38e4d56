"""The websocket: a view on connect and after every change (any seat, bots, HTTP or socket
actions), decisions over the socket, and errors as messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.websockets import WebSocketDisconnect
from tests.web.test_api_support import TestClient, first_choice, new_client


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def recv(ws: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The next message, or a failure after ``timeout`` seconds (never a hung test)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    msg = ws.portal.call(get)
    ws._raise_on_close(msg)
    out: dict[str, Any] = json.loads(msg["text"])
    return out


def game(client: TestClient, *controllers: str, seed: int = 7) -> dict[str, Any]:
    r = client.post("/api/games", json={"seed": seed, "seats": [
        {"controller": c} for c in controllers], "hot_seat": controllers.count("human") > 1})
    assert r.status_code == 201
    out: dict[str, Any] = r.json()
    return out


def test_view_on_connect_and_after_an_http_action(client: TestClient) -> None:
    g = game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws, \
            client.websocket_connect(f"/api/games/{g['id']}/ws") as watcher:
        first = recv(ws)
        assert first["type"] == "view" and first["view"]["your_seat"] == 0
        seen = recv(watcher)["view"]
        assert seen["your_seat"] is None and seen["version"] == first["view"]["version"]
        v = first["view"]
        r = client.post(f"/api/games/{g['id']}/decisions", json={
            "token": tok, "version": v["version"], "choice": first_choice(v["pending"])})
        assert r.status_code == 200
        pushed = recv(ws)
        assert pushed["type"] == "view" and pushed["view"] == r.json()
        assert recv(watcher)["view"]["version"] == r.json()["version"]


def test_decisions_over_the_socket(client: TestClient) -> None:
    g = game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws:
        v = recv(ws)["view"]
        for _ in range(5):
            ws.send_json({"type": "decision", "version": v["version"],
                          "choice": first_choice(v["pending"])})
            msg = recv(ws)
            assert msg["type"] == "view" and msg["view"]["version"] > v["version"]
            v = msg["view"]
        assert client.get(f"/api/games/{g['id']}").json()["version"] == v["version"]


@pytest.mark.parametrize("message, status, needle", [
    ({"type": "decision", "version": -5, "choice": 1}, 409, "stale state"),
    ({"type": "decision", "version": "CURRENT", "choice": "nonsense"}, 422, "not a legal"),
    ({"type": "hello"}, 422, "expected"),
    ({"type": "decision", "choice": 1}, 422, "version"),
    ("not json", 422, "JSON"),
])
def test_socket_errors_are_messages_and_the_socket_stays_open(
    client: TestClient, message: Any, status: int, needle: str
) -> None:
    g = game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws:
        v = recv(ws)["view"]
        if isinstance(message, str):
            ws.send_text(message)
        else:
            if message.get("version") == "CURRENT":
                message = {**message, "version": v["version"]}
            ws.send_json(message)
        err = recv(ws)
        assert err["type"] == "error" and err["status"] == status and needle in err["detail"]
        ws.send_json({"type": "decision", "version": v["version"],
                      "choice": first_choice(v["pending"])})
        assert recv(ws)["type"] == "view"


def test_spectators_and_other_seats_cannot_act_over_the_socket(client: TestClient) -> None:
    g = game(client, "human", "human", seed=11)
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as watcher:
        v = recv(watcher)["view"]
        watcher.send_json({"type": "decision", "version": v["version"],
                           "choice": first_choice(v["pending"])})
        assert recv(watcher)["status"] == 403
        other = 1 - v["pending"]["seat"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tokens[other]}") as ws:
        v = recv(ws)["view"]
        ws.send_json({"type": "decision", "version": v["version"],
                      "choice": first_choice(v["pending"])})
        err = recv(ws)
        assert err == {"type": "error", "status": 403,
                       "detail": f"{['Red', 'Blue'][other]} cannot act for "
                       f"{['Red', 'Blue'][v['pending']['seat']]}"}


def test_unknown_game_or_token_gets_an_error_then_a_close(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nope/ws") as ws:
        err = recv(ws)
        assert err["type"] == "error" and err["status"] == 404
        with pytest.raises(WebSocketDisconnect):
            recv(ws)
    g = game(client, "human", "heuristic")
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token=forged") as ws:
        assert recv(ws)["status"] == 403
