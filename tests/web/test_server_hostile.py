"""Hostile input against a real server (uvicorn on 127.0.0.1, started and stopped here): a
64 MB body is refused before it is read, a hostile import never stalls other requests, and
websocket frames never drop the socket silently."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from tests.guard.test_guard import ALIAS_BOMB
from tests.web.test_e2e_support import api, serve
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from carnage.web.limits import WS_TRANSPORT_BYTES


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("hostile") / "carnage.db") as url:
        yield url


def test_a_64_mb_body_is_refused_before_it_is_sent(base: str) -> None:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /api/teams/import HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 67108864\r\n\r\n{")
        answer = s.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 413")
    assert "the request body is 64 MB; the limit is 1 MB" in answer


def test_a_hostile_import_never_stalls_the_server(base: str) -> None:
    bombs = [ALIAS_BOMB, "a: " + "[" * 5000 + "]" * 5000,
             "cans: 0x" + "f" * 30_000]
    statuses: list[int] = []

    def attack() -> None:
        for _ in range(4):
            for text in bombs:
                statuses.append(api(base, "POST", "/api/teams/import",
                                    {"text": text, "format": "yaml"})[0])

    t = threading.Thread(target=attack)
    t.start()
    worst = 0.0
    while t.is_alive():
        t0 = time.monotonic()
        with urllib.request.urlopen(f"{base}/api/scenarios", timeout=10) as r:
            assert r.status == 200
        worst = max(worst, time.monotonic() - t0)
    t.join()
    assert statuses == [422] * 12
    # A stall is the server not answering at all while it chews a bomb; 5 s is far above an
    # ordinary answer even on a loaded two-core machine, far below an unguarded bomb's minutes.
    assert worst < 5.0


def _ws(base: str) -> tuple[str, str]:
    status, g = api(base, "POST", "/api/games", {"seed": 3, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201
    tok = g["seats"][0]["token"]
    return base.replace("http://", "ws://") + f"/api/games/{g['id']}/ws?token={tok}", tok


def recv(ws: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return out


def test_websocket_fuzz_frames_on_a_real_socket(base: str) -> None:
    url, _ = _ws(base)
    with connect(url, max_size=None) as ws:
        assert recv(ws)["type"] == "view"
        for frame, needle in [
            (b"\x00\xff binary", "binary messages are not accepted"),
            ('{"type": "decision", "version": 1, "choice": ' + "9" * 5000 + "}",
             "integer with more than 30 digits"),
            ("[" * 20000 + "]" * 20000, "nested deeper"),
            ("x" * 200_000, "the limit is 64 KB"),
            ("\u0000 not json", "messages must be JSON objects"),
        ]:
            ws.send(frame)
            err = recv(ws)
            assert err["type"] == "error" and needle in err["detail"], err
        ws.send(json.dumps({"type": "hello"}))
        assert recv(ws)["status"] == 422


def test_an_oversize_websocket_frame_closes_with_a_reason(base: str) -> None:
    url, _ = _ws(base)
    with connect(url, max_size=None) as ws:
        recv(ws)
        ws.send("x" * (WS_TRANSPORT_BYTES + 1))
        with pytest.raises(ConnectionClosed) as e:
            recv(ws)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1009  # message too big


def test_the_server_still_answers_after_all_of_it(base: str) -> None:
    url, _ = _ws(base)
    with connect(url) as ws:
        v = recv(ws)["view"]
        assert v["your_seat"] == 0 and v["pending"] is not None
    assert api(base, "GET", "/api/scenarios")[0] == 200
