"""The chat between a game's seats: stored with the game (a new server on the same database
reads it), written only with a seat token, limited in length and rate with sentences that say
what to change, read by spectators only while a seat has made it public, delivered over the
game's websocket, and deleted with its game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.campaign.conftest import db_url, pg_server  # noqa: F401  (fixtures)
from tests.web.test_api_support import TestClient, new_client
from tests.web.test_api_ws import recv

from carnage.web.app import create_app
from carnage.web.chat import MAX_CHARS, RATE_COUNT


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def two_humans(client: TestClient) -> tuple[str, str, str]:
    """A game of two human seats (a link each): its id and both seats' tokens."""
    r = client.post("/api/games", json={"scenario": "street-race", "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], g["seats"][0]["token"], g["seats"][1]["token"]


def say(client: TestClient, gid: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{gid}/chat", json={"token": token, "text": text})


def detail(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    out: str = r.json()["detail"]
    return out


def test_messages_are_stored_with_the_game(tmp_path: Path, client: TestClient) -> None:
    gid, red, blue = two_humans(client)
    r = say(client, gid, red, "  Nice move, Blue.  ")
    assert r.status_code == 201, r.text
    assert r.json()["text"] == "Nice move, Blue." and r.json()["name"].startswith("Red")
    assert say(client, gid, blue, "Thanks!").status_code == 201
    again = new_client(tmp_path)  # another server process on the same database
    got = again.get(f"/api/games/{gid}/chat", params={"token": blue}).json()
    assert [(m["seat"], m["text"]) for m in got["messages"]] == [
        (0, "Nice move, Blue."), (1, "Thanks!")]
    assert got["public"] is False and got["spectate"] == f"/games/{gid}"
    later = again.get(f"/api/games/{gid}/chat", params={
        "token": red, "since": got["messages"][0]["id"]}).json()
    assert [m["text"] for m in later["messages"]] == ["Thanks!"]


def test_chat_on_each_database_kind(db_url: str) -> None:  # noqa: F811
    """SQLite and PostgreSQL: stored, read back by a second server, rate counted in the
    database (a second server counts the first one's messages)."""
    one, two = TestClient(create_app(db_url)), TestClient(create_app(db_url))
    gid, red, blue = two_humans(one)
    for i in range(RATE_COUNT):
        assert say(one if i % 2 else two, gid, red, f"line {i}").status_code == 201
    assert detail(say(two, gid, red, "too many"), 429).startswith("too many messages")
    got = two.get(f"/api/games/{gid}/chat", params={"token": blue}).json()["messages"]
    assert [m["text"] for m in got] == [f"line {i}" for i in range(RATE_COUNT)]
    assert [m["id"] for m in got] == sorted(m["id"] for m in got)


def test_writing_needs_a_seat_token(client: TestClient) -> None:
    gid, red, _ = two_humans(client)
    other, _, _ = two_humans(client)
    assert "does not belong to this game" in detail(say(client, other, red, "hi"), 403)
    assert detail(client.post(f"/api/games/{gid}/chat", json={"text": "hi"}), 422) == (
        "token: missing (required)")
    assert detail(say(client, gid, "", "hi"), 422).startswith("token:")
    assert "does not belong" in detail(say(client, gid, "forged", "hi"), 403)
    assert client.get(f"/api/games/{gid}/chat", params={"token": red}).json()["messages"] == []
    assert "no game" in detail(say(client, "nope", red, "hi"), 404).lower()


def test_messages_are_limited_in_length_and_rate(client: TestClient) -> None:
    gid, red, blue = two_humans(client)
    assert detail(say(client, gid, red, "   "), 422) == "text: the message is empty"
    assert detail(say(client, gid, red, "x" * (MAX_CHARS + 1)), 422) == (
        f"text: the message has {MAX_CHARS + 1} characters; the limit is {MAX_CHARS}")
    assert "control character U+0007" in detail(say(client, gid, red, "ding\a"), 422)
    assert say(client, gid, red, "x" * MAX_CHARS).status_code == 201
    for i in range(RATE_COUNT - 1):
        assert say(client, gid, red, f"spam {i}").status_code == 201
    too_many = detail(say(client, gid, red, "one more"), 429)
    assert too_many.startswith(f"too many messages: at most {RATE_COUNT} in 10 seconds; wait")
    assert say(client, gid, blue, "my turn to talk").status_code == 201  # per seat
    texts = [m["text"] for m in client.get(f"/api/games/{gid}/chat",
                                          params={"token": blue}).json()["messages"]]
    assert "one more" not in texts and len(texts) == RATE_COUNT + 1


def test_spectators_read_the_chat_only_while_it_is_public(client: TestClient) -> None:
    gid, red, blue = two_humans(client)
    assert say(client, gid, red, "gg").status_code == 201
    private = detail(client.get(f"/api/games/{gid}/chat"), 403)
    assert private.startswith("this game's chat is private")
    assert "does not belong to this game" in detail(client.put(
        f"/api/games/{gid}/chat/public", json={"token": "forged", "public": True}), 403)
    r = client.put(f"/api/games/{gid}/chat/public", json={"token": blue, "public": True})
    assert r.status_code == 200, r.text
    assert r.json()["public"] is True and r.json()["set_by"].startswith("Blue")
    seen = client.get(f"/api/games/{gid}/chat")
    assert seen.status_code == 200 and [m["text"] for m in seen.json()["messages"]] == ["gg"]
    assert detail(client.post(f"/api/games/{gid}/chat", json={"token": " ", "text": "hi"}),
                  403) == "a seat token is needed to chat; spectators may only read"
    r = client.put(f"/api/games/{gid}/chat/public", json={"token": red, "public": False})
    assert r.status_code == 200 and r.json()["public"] is False
    detail(client.get(f"/api/games/{gid}/chat"), 403)
    assert detail(client.put(f"/api/games/{gid}/chat/public", json={"public": True}),
                  422) == "token: missing (required)"


def test_new_messages_arrive_over_the_websocket(client: TestClient) -> None:
    gid, red, blue = two_humans(client)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={blue}") as ws, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        assert recv(ws)["type"] == "view" and recv(watcher)["type"] == "view"
        assert say(client, gid, red, "over the wire").status_code == 201
        frame = recv(ws)
        assert frame["type"] == "chat" and frame["readable"] is True
        assert [m["text"] for m in frame["messages"]] == ["over the wire"]
        # The spectator is told nothing of a private chat until it is made public ...
        r = client.put(f"/api/games/{gid}/chat/public", json={"token": red, "public": True})
        assert r.status_code == 200
        shown = recv(watcher)
        assert shown["type"] == "chat" and shown["readable"] is True
        assert [m["text"] for m in shown["messages"]] == ["over the wire"]
        assert recv(ws)["public"] is True  # the seats see the setting change


def test_a_deleted_games_chat_goes_with_it(client: TestClient) -> None:
    gid, red, _ = two_humans(client)
    assert say(client, gid, red, "bye").status_code == 201
    assert client.delete(f"/api/games/{gid}", params={"token": red}).status_code == 200
    chat = client.app.state.chat[0]
    assert chat.messages(gid) == [] and chat.setting(gid).public is False


def test_a_message_stored_by_another_process_arrives_when_announced(
        pg_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """PostgreSQL: a message written through one server process reaches a websocket on another
    through the change listener (``NOTIFY carnage_chat``) at once, not at its next look at
    the database (both looks put off here past the test's patience)."""
    from carnage.web import chat

    if isinstance(pg_server, str):
        pytest.fail(f"no PostgreSQL server could be started: {pg_server}")
    url = pg_server.fresh_database("carnage_chat_notice")
    monkeypatch.setattr(chat, "POLL_SECONDS", 120.0)
    monkeypatch.setattr(chat, "FED_POLL_SECONDS", 120.0, raising=False)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        gid, red, blue = two_humans(one)
        with one.websocket_connect(f"/api/games/{gid}/ws?token={blue}") as ws:
            assert recv(ws)["type"] == "view"
            two.get(f"/api/games/{gid}/chat", params={"token": red})  # its chat opened too
            for text in ("from the other process", "and again"):
                assert say(two, gid, red, text).status_code == 201
                frame = recv(ws, timeout=10.0)
                while frame["type"] != "chat":  # a view pushed meanwhile
                    frame = recv(ws, timeout=10.0)
                assert [m["text"] for m in frame["messages"]] == [text]
            r = two.put(f"/api/games/{gid}/chat/public", json={"token": red, "public": True})
            assert r.status_code == 200
            frame = recv(ws, timeout=10.0)
            assert frame["type"] == "chat" and frame["public"] is True
