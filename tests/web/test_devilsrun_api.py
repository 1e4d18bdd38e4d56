"""Devil's Run games through the one web API every ruleset uses (``/api/games``): create,
per-seat views, decisions and their refusals (stale 409, wrong seat 403, illegal 422, hostile
bodies 413/422), bots, the websocket, the SVG and stat cards, resuming after a restart from the
saved snapshot, and the old ``/api/devils-run`` addresses redirecting to the new ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from tests.web.test_api_support import TestClient, new_client

from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.kernel.decisions import Decision, Option
from carnage.web import sessions
from carnage.web.db import GameRow, GameSnapshotRow

API = "/api/games"
RULESET = "devils-run"


def _create(client: TestClient, seats: list[str], mission: str = "devils-run",
            seed: int | None = 7, **extra: Any) -> dict[str, Any]:
    r = client.post(API, json={"ruleset": RULESET, "scenario": mission, "seed": seed,
                               "seats": [{"controller": c} for c in seats], **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _view(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"{API}/{gid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _decide(client: TestClient, gid: str, token: str, version: int, choice: Any) -> Any:
    return client.post(f"{API}/{gid}/decisions",
                       json={"token": token, "version": version, "choice": choice})


def _play(client: TestClient, gid: str, token: str, moves: int) -> dict[str, Any]:
    v = _view(client, gid, token)
    for _ in range(moves):
        if v["pending"] is None:
            break
        r = _decide(client, gid, token, v["version"], v["pending"]["options"][0]["value"])
        assert r.status_code == 200, r.text
        v = r.json()
    return v


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def test_missions_are_listed(client: TestClient) -> None:
    r = client.get("/api/devils-run/missions")  # the old address redirects
    assert r.history[0].status_code == 308 and r.status_code == 200
    assert sorted(m["id"] for m in r.json()) == sorted(s.id for s in DEVILS_RUN.scenarios)
    by_id = {m["id"]: m for m in r.json()}
    assert by_id["hell-on-wheels"]["name"] == "Mission 2 - Hell on Wheels"
    assert by_id["hell-on-wheels"]["min_players"] == by_id["hell-on-wheels"]["max_players"] == 2
    listed = {r["name"]: r for r in client.get("/api/rulesets").json()}
    dr = listed[RULESET]
    assert dr["board_view"] == "devilsrun" and dr["seats"] == [2, 2] and dr["own_teams"]
    assert [x["id"] for x in dr["scenarios"]] == [m["id"] for m in r.json()]
    assert dr["seat_names"] == ["The Law", "The Haul's Angels"]


def test_create_gives_tokens_to_human_seats_and_a_table_link(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"])
    assert g["seed"] == 7
    human, bot = g["seats"]
    assert human["controller"] == "human" and len(human["token"]) > 16
    assert human["url"] == f"/games/{g['id']}?token={human['token']}"
    assert bot["token"] is None and bot["url"] is None
    page = client.get(human["url"])
    assert page.status_code == 200 and "table.js" in page.text  # the one table shell
    # Two humans on two browsers: the server draws the seed (a chosen one could be foreseen).
    assert _create(client, ["human", "human"])["seed"] is None
    # Hot-seat too: each human seat still has its own link, which could change hands.
    assert _create(client, ["human", "human"], hot_seat=True)["seed"] is None
    # One list of games, every ruleset's.
    listed = client.get(API).json()
    assert len(listed) == 3 and {x["scenario"] for x in listed} == {"devils-run"}
    assert {x["ruleset"] for x in listed} == {RULESET}
    assert client.get("/api/devils-run/games").json() == listed  # the old address redirects


def test_views_per_seat_say_whose_turn_in_plain_words(client: TestClient) -> None:
    g = _create(client, ["human", "human"], hot_seat=True)
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    v0, v1, watcher = _view(client, g["id"], t0), _view(client, g["id"], t1), \
        _view(client, g["id"])
    p = v0["pending"]
    assert p is not None and v0["format"] == "carnage.devilsrun.view/1"
    mover = p["player"]
    assert (v0 if mover == 0 else v1)["your_turn"] is True
    assert (v1 if mover == 0 else v0)["your_turn"] is False
    assert watcher["your_seat"] is None and watcher["your_turn"] is False
    assert p["text"].startswith(("The Law", "The Haul's Angels"))
    assert all(o["text"] and "-" not in o["text"].split()[0] for o in p["options"])
    assert p["why"].split(" (")[1].startswith(("Devil's Run rules)", "our ruling)"))
    assert [s["name"] for s in v0["seats"]] == ["The Law", "The Haul's Angels"]
    assert v0["ruleset"] == RULESET and v0["board_view"] == "devilsrun"
    assert len(v0["board"]["tiles"]) == 3 and v0["board"]["width"] == 8
    line = v0["log"][0]
    assert line["source"] == "DR-006" and line["rule"] == "The road"
    assert line["why"].startswith("The road (Devil's Run rules): ")
    assert all(not ln["rule"].startswith("DR") for ln in v0["log"])
    assert {v["name"] for v in v0["vehicles"]} >= {"Law Bike", "Haul's Angels Bike"}
    r = client.get(f"{API}/{g['id']}", params={"token": "not-a-seat"})
    assert r.status_code == 403 and "does not belong" in r.json()["detail"]


def test_decisions_refuse_stale_wrong_seat_spectator_and_illegal_choices(
        client: TestClient) -> None:
    g = _create(client, ["human", "human"], hot_seat=True)
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    v = _view(client, gid, tokens[0])
    mover = v["pending"]["player"]
    other = tokens[1 - mover]
    legal = v["pending"]["options"][0]["value"]

    r = _decide(client, gid, other, v["version"], legal)
    assert r.status_code == 403
    assert r.json()["detail"] == f"seat {1 - mover} cannot act for seat {mover}"
    r = _decide(client, gid, "", v["version"], legal)
    assert r.status_code == 403 and "spectators" in r.json()["detail"]
    r = _decide(client, gid, tokens[mover], v["version"] + 5, legal)
    assert r.status_code == 409
    assert r.json()["detail"] == f"stale state: version {v['version']} is current"
    r = _decide(client, gid, tokens[mover], v["version"], "fly")
    assert r.status_code == 422
    assert r.json()["detail"].startswith("'fly' is not one of the options (legal: ")
    assert _view(client, gid, tokens[0])["version"] == v["version"]  # nothing applied

    r = _decide(client, gid, tokens[mover], v["version"], legal)
    assert r.status_code == 200 and r.json()["version"] == v["version"] + 1
    # ... and that version is now stale for another answer; the same answer sent again
    # (a resend after a lost reply) is answered with the game as it stands, applied once.
    others = [o["value"] for o in v["pending"]["options"] if o["value"] != legal]
    assert others, "the first decision offers a choice"
    r = _decide(client, gid, ",".join(tokens), v["version"], others[0])
    assert r.status_code == 409
    r = _decide(client, gid, ",".join(tokens), v["version"], legal)
    assert r.status_code == 200 and r.json()["version"] == v["version"] + 1


def _decision(*options: Option) -> Decision:
    return Decision(player=0, kind="test", prompt="?", options=list(options), source="T")


def test_a_number_sent_as_text_is_taken_for_the_option() -> None:
    assert sessions.option_named(_decision(Option(0, "a"), Option(1, "b")), "1") == 1
    assert sessions.option_named(_decision(Option("3,4", "x")), "3,4") == "3,4"
    with pytest.raises(sessions.ApiError) as e:
        sessions.option_named(_decision(Option(0, "a")), 1.5)
    assert e.value.status == 422


@pytest.mark.parametrize(("body", "status", "detail"), [
    ({"scenario": "moon", "seats": [{"controller": "human"}] * 2}, 422,
     "scenario: unknown Devil's Run: Route 666 scenario 'moon' (known: devils-run, "
     "hell-on-wheels)"),
    ({"seats": [{"controller": "human"}] * 3}, 422,
     "seats: Devil's Run: Route 666 has 2 seats, not 3"),
    ({"seats": [{"controller": "human"}]}, 422, "seats: "),
    ({"seats": [{"controller": "wizard"}] * 2}, 422, "seats.0.controller: "),
    ({"seats": [{"controller": "human", "team_id": "abc"}] * 2}, 422,
     "seat 0: Devil's Run: Route 666 plays its own teams (team_id must be null)"),
    ({"seats": [{"controller": "human"}] * 2, "sides": [[0], [1]]}, 422, "sides: "),
    ({"seats": [{"controller": "human"}] * 2, "colour": "red"}, 422, "colour: unknown field"),
    ({"seats": [{"controller": "human"}] * 2, "seed": 10**40}, 422,
     "body.seed: integer with more than 30 digits"),  # the guard, before any schema
    ({"seats": [{"controller": "human"}] * 2, "seed": 10**20}, 422, "seed: "),
    ({"seats": [{"controller": "human"}] * 2, "seed": "7"}, 422, "seed: "),
])
def test_bad_new_game_bodies_get_one_clear_sentence(client: TestClient, body: dict[str, Any],
                                                    status: int, detail: str) -> None:
    r = client.post(API, json={"ruleset": RULESET, **body})
    assert r.status_code == status, r.text
    assert r.json()["detail"].startswith(detail)


def test_hostile_bodies_are_stopped_by_the_guard(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"])
    url = f"{API}/{g['id']}/decisions"
    big = json.dumps({"token": "x", "version": 0, "choice": "a" * (2 * 1024 * 1024)})
    r = client.post(url, content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["detail"]
    deep = '{"token": "x", "version": 0, "choice": ' + "[" * 500 + "]" * 500 + "}"
    r = client.post(url, content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "deep" in r.json()["detail"].lower()
    r = client.post(url, content="{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "not valid JSON" in r.json()["detail"]
    tok = g["seats"][0]["token"]
    r = client.post(url, json={"token": tok, "version": 0, "choice": True})
    assert r.status_code == 422 and "boolean" in r.json()["detail"]
    r = client.post(url, json={"token": tok, "version": 0, "choice": {"x": 1}})
    assert r.status_code == 422 and r.json()["detail"].startswith("choice")
    assert client.get(f"{API}/nope").status_code == 404


def test_bots_answer_their_seats(client: TestClient) -> None:
    g = _create(client, ["heuristic", "random"], mission="hell-on-wheels")
    v = _view(client, g["id"])
    assert v["status"] == "finished" and v["pending"] is None and v["outcome"] is not None
    assert v["seed"] == 7
    g = _create(client, ["human", "heuristic"], mission="hell-on-wheels", seed=3)
    tok = g["seats"][0]["token"]
    v = _view(client, g["id"], tok)
    for _ in range(2000):
        if v["pending"] is None:
            break
        assert v["pending"]["player"] == 0 and v["your_turn"]  # the bot has answered its own
        r = _decide(client, g["id"], tok, v["version"], v["pending"]["options"][-1]["value"])
        assert r.status_code == 200, r.text
        v = r.json()
    assert v["status"] == "finished" and v["outcome"] is not None
    r = _decide(client, g["id"], tok, v["version"], "pass")
    assert r.status_code == 409 and "game is over" in r.json()["detail"]
    assert client.get(API).json()[0]["status"] == "finished"


def test_a_restarted_table_resumes_from_the_snapshot(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    g = _create(client, ["human", "heuristic"], seed=5)
    gid, tok = g["id"], g["seats"][0]["token"]
    before = _play(client, gid, tok, 15)
    client.app.state.games.forget()  # a restart: sessions rebuilt from the store

    def no_replay(*a: Any, **k: Any) -> Any:
        raise AssertionError("rebuilt by replaying its choices, not from the snapshot")

    monkeypatch.setattr(sessions.GameSession, "rebuild", no_replay)
    after = _view(client, gid, tok)
    assert after == before
    r = _decide(client, gid, tok, after["version"], after["pending"]["options"][0]["value"])
    assert r.status_code == 200, r.text


def test_a_stale_snapshot_falls_back_to_replaying_the_choices(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"], seed=5)
    gid, tok = g["id"], g["seats"][0]["token"]
    before = _play(client, gid, tok, 12)
    games = client.app.state.games
    for change in ({"version": 2}, {"doc": {"carnage_snapshot": 1, "ruleset": RULESET}}):
        with games.store.engine.begin() as conn:
            conn.execute(update(GameSnapshotRow).where(GameSnapshotRow.game_id == gid)
                         .values(**change))
        games.forget()
        assert _view(client, gid, tok) == before


def test_svg_stat_cards_and_websocket(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"])
    gid, tok = g["id"], g["seats"][0]["token"]
    r = client.get(f"{API}/{gid}/svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "devilsrun-board" in r.text
    cards = client.get(f"/api/rulesets/{RULESET}/cards.svg")
    assert cards.status_code == 200 and cards.text.count('class="stat-card"') == 6
    assert client.get("/api/devils-run/cards.svg").text == cards.text  # the old address
    assert client.get("/api/rulesets/refuelled/cards.svg").status_code == 404
    with client.websocket_connect(f"{API}/{gid}/ws?token={tok}") as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["your_turn"]
        v = first["view"]
        ws.send_text(json.dumps({"type": "decision", "version": v["version"] + 3,
                                 "choice": v["pending"]["options"][0]["value"]}))
        err = ws.receive_json()
        assert err == {"type": "error", "status": 409,
                       "detail": f"stale state: version {v['version']} is current"}
        ws.send_text("[1, 2")
        assert ws.receive_json()["status"] == 422
        ws.send_text(json.dumps({"type": "decision", "version": v["version"],
                                 "choice": v["pending"]["options"][0]["value"]}))
        pushed = ws.receive_json()
        assert pushed["type"] == "view" and pushed["view"]["version"] > v["version"]
    with client.websocket_connect(f"{API}/nope/ws") as ws:
        assert ws.receive_json() == {"type": "error", "status": 404,
                                     "detail": "no game with id 'nope'"}


def test_replay_shows_the_game_after_each_step(client: TestClient) -> None:
    g = _create(client, ["heuristic", "random"], seed=9)
    end = _view(client, g["id"])
    n = end["version"]
    r = client.get(f"{API}/{g['id']}/replay", params={"step": 0})
    assert r.status_code == 200
    start = r.json()
    assert start["replay"] == {"step": 0, "steps": n} and start["version"] == 0
    assert start["pending"] is not None and start["outcome"] is None
    assert all(not v["squares"] for v in start["vehicles"])
    last = client.get(f"{API}/{g['id']}/replay", params={"step": n}).json()
    assert last["outcome"] == end["outcome"] and last["log"] == end["log"]
    r = client.get(f"{API}/{g['id']}/replay", params={"step": n + 1})
    assert r.status_code == 422
    assert r.json()["detail"] == f"step must be between 0 and {n}, not {n + 1}"
    assert client.get(f"{API}/{g['id']}/replay", params={"step": -1}).status_code == 422


def test_a_damaged_saved_game_is_a_409_not_a_crash(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"])
    games = client.app.state.games
    with games.store.engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == g["id"]).values(
            seats=[{"seat": 0, "controller": "wizard", "token": "t"}]))
    games.forget()
    r = client.get(f"{API}/{g['id']}")
    assert r.status_code == 409
    assert r.json()["detail"].startswith(f"the saved game {g['id']!r} is damaged: ")


def test_options_that_roll_dice_carry_their_exact_odds(client: TestClient) -> None:
    # Both gangs seated here; answer "shoot" and the first target whenever offered, until a
    # shot's target is to be chosen: each target carries the odds of the shot at it.
    from carnage.games.devilsrun.odds import shoot_odds

    g = _create(client, ["human", "human"], hot_seat=True, seed=3)
    tokens = f"{g['seats'][0]['token']},{g['seats'][1]['token']}"
    v = _view(client, g["id"], tokens)
    seen: set[str] = set()
    for _ in range(400):
        p = v["pending"]
        assert p is not None, "the game ended before a shot"
        seen.add(p["kind"])
        values = [o["value"] for o in p["options"]]
        if p["kind"] == "shoot_target" and len(values) > 1:
            break
        assert not any("odds" in o for o in p["options"]) or p["kind"] in (
            "evade", "second_action", "action")
        choice = next((c for c in ("shoot", "stay", "peddle") if c in values), values[0])
        r = _decide(client, g["id"], tokens, v["version"], choice)
        assert r.status_code == 200, r.text
        v = r.json()
    else:
        raise AssertionError(f"no shot to aim within 400 choices (saw {sorted(seen)})")
    targets = [o for o in p["options"] if o["value"] != "hold"]
    assert targets and all(o["odds"]["what"] == "shot" for o in targets)
    hold = next(o for o in p["options"] if o["value"] == "hold")
    assert "odds" not in hold
    shooter = next(x for x in v["vehicles"] if x["id"] == p["vehicle"])
    for o in targets:
        t = next(x for x in v["vehicles"] if x["id"] == o["value"])
        mount = next(w for w in shooter["weapons"] if w["mount"] == p["weapon"])
        odds = o["odds"]
        assert odds["dice"] <= mount["rof"] and sum(odds["distribution"].values()) == \
            pytest.approx(1)
        assert odds == {"what": "shot", "range": odds["range"], **shoot_odds(
            mount["rof"], odds["bs"], t["a"], flamer=mount["name"] == "Flamer",
            range_=odds["range"], cp=max(1, t["cp"])).to_json()}


def test_old_addresses_redirect_keeping_method_and_body(client: TestClient) -> None:
    g = _create(client, ["human", "heuristic"])
    gid, tok = g["id"], g["seats"][0]["token"]
    r = client.get(f"/api/devils-run/games/{gid}?token={tok}", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == f"/api/games/{gid}?token={tok}"
    r = client.get(f"/devils-run/{gid}?token={tok}", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == f"/games/{gid}?token={tok}"
    r = client.get(f"/api/devils-run/games/{gid}/replay?step=0", follow_redirects=False)
    assert r.headers["location"] == f"/api/games/{gid}/replay?step=0"
    v = _view(client, gid, tok)
    r = client.post(f"/api/devils-run/games/{gid}/decisions", json={
        "token": tok, "version": v["version"], "choice": v["pending"]["options"][0]["value"]})
    assert r.history[0].status_code == 308 and r.status_code == 200, r.text
    assert r.json()["version"] > v["version"]
