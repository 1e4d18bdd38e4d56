"""The game API: creating games, views per seat, decisions with tokens and versions, bots,
events, SVG, replay, listing, and restoring a game from the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import FastAPI
from tests.web.test_api_support import TestClient, first_choice, new_client, play_to_end, racer_team


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def _detail(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail
    return detail


def new_game(client: TestClient, *controllers: str, seed: int | None = 7,
             teams: list[str | None] | None = None) -> dict[str, Any]:
    teams = teams or [None] * len(controllers)
    # one test client holds every human seat: a hot-seat game, so the given seed is used
    r = client.post("/api/games", json={"scenario": "street-race", "seed": seed, "seats": [
        {"controller": c, "team_id": t} for c, t in zip(controllers, teams, strict=True)],
        "hot_seat": controllers.count("human") > 1})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def view(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", params={} if token is None else {"token": token})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(client: TestClient, gid: str, token: str, version: int, choice: Any) -> Any:
    return client.post(f"/api/games/{gid}/decisions",
                       json={"token": token, "version": version, "choice": choice})


def advance_until(client: TestClient, gid: str, token: str, kind: str,
                  limit: int = 400) -> dict[str, Any]:
    """Answer with the first option until a decision of ``kind`` is pending."""
    v = view(client, gid, token)
    for _ in range(limit):
        assert v["pending"] is not None, "the game ended first"
        if v["pending"]["kind"] == kind:
            return v
        r = act(client, gid, token, v["version"], first_choice(v["pending"]))
        assert r.status_code == 200, r.text
        v = r.json()
    raise AssertionError(f"no {kind} decision")


# -- creating ----------------------------------------------------------------------------------
def test_create_human_vs_bot_gives_the_human_a_token_and_a_link(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    s0, s1 = g["seats"]
    assert s0["seat"] == 0 and s0["controller"] == "human" and len(s0["token"]) >= 20
    assert s0["url"] == f"/games/{g['id']}?token={s0['token']}"
    assert s1 == {"seat": 1, "controller": "heuristic", "token": None, "url": None}
    v = view(client, g["id"], s0["token"])
    assert v["your_seat"] == 0 and v["status"] == "in_progress"
    # The bot has answered everything up to the human's first decision.
    assert v["pending"]["seat"] == 0
    assert v["players"] == [
        {"seat": 0, "controller": "human", "votes": 0, "colour": v["players"][0]["colour"],
         "name": "Red", "team": "Red Racers"},
        {"seat": 1, "controller": "heuristic", "votes": 0, "colour": v["players"][1]["colour"],
         "name": "Blue", "team": "Blue Racers"},
    ]
    assert v["players"][0]["colour"] != v["players"][1]["colour"]


def test_every_token_is_secret_and_distinct(client: TestClient) -> None:
    g = new_game(client, "human", "human")
    a, b = (s["token"] for s in g["seats"])
    assert a != b
    g2 = new_game(client, "human", "human")
    assert {a, b}.isdisjoint(s["token"] for s in g2["seats"])


def test_saved_teams_play_in_their_seats(client: TestClient) -> None:
    tid = client.post("/api/teams", json={"team": racer_team("Hogs")}).json()["id"]
    g = new_game(client, "human", "random", teams=[tid, None])
    names = {v["name"] for v in view(client, g["id"])["vehicles"]}
    assert {"Hogs Car", "Hogs Buggy"} <= names
    assert any(n.startswith("Blue") for n in names)


def test_illegal_team_is_refused_naming_the_seat(client: TestClient) -> None:
    tid = client.post("/api/teams", json={"team": racer_team("Broke", cans=10)}).json()["id"]
    r = client.post("/api/games", json={"seats": [
        {"controller": "human"}, {"controller": "heuristic", "team_id": tid}]})
    detail = _detail(r, 422)
    assert detail.startswith("seat 1: team 'Broke' is not legal:") and "10" in detail
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize("body, needle", [
    ({"scenario": "moon-race", "seats": [{"controller": "human"}] * 2}, "unknown scenario"),
    ({"seats": [{"controller": "human"}]}, "at least 2 items after validation, not 1"),
    ({"seats": [{"controller": "human"}] * 5}, "at most 4 items after validation, not 5"),
    ({"seats": [{"controller": "wizard"}] * 2}, "seats.0.controller"),
    ({"seats": []}, "seats"),
    ({"seats": [{"controller": "human", "team_id": "nope"}] * 2}, "seat 0: no saved team"),
    ({"seed": "abc", "seats": [{"controller": "human"}] * 2}, "seed"),
    ({"seed": 10**20, "seats": [{"controller": "human"}] * 2}, "seed: input should be less"),
    ({"seats": "two"}, "seats"),
    ({}, "seats: missing"),
])
def test_bad_new_games_are_422(client: TestClient, body: dict[str, Any], needle: str) -> None:
    assert needle in _detail(client.post("/api/games", json=body), 422)


def test_three_seats_play_street_race(client: TestClient) -> None:
    g = new_game(client, "human", "random", "heuristic")
    v = view(client, g["id"])
    assert len(v["players"]) == 3 and {x["player"] for x in v["vehicles"]} == {0, 1, 2}


# -- the view ----------------------------------------------------------------------------------
def test_view_describes_the_table(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    v = view(client, g["id"])
    assert v["your_seat"] is None and v["scenario"] == "street-race"
    assert v["table"] == {"width": 900.0, "height": 1200.0}
    assert v["svg_url"] == f"/api/games/{g['id']}/svg"
    lines = {d["id"]: d for d in v["drawables"] if d["kind"] == "line"}
    assert {d["style"] for d in lines.values()} == {"start", "finish"}
    assert lines["finish-line"]["direction"] == [0.0, 1.0]
    assert lines["finish-line"]["points"] == [[360.0, 1050.0], [540.0, 1050.0]]
    assert v["report"][0] == {"key": "finish_crossed", "label": "Finish line crossed by",
                              "value": None, "text": "nobody yet", "tally": True}
    assert {o["id"] for o in v["obstacles"]} >= {"rock-1", "crate-1"}
    crate = next(o for o in v["obstacles"] if o["id"] == "crate-1")
    assert crate["destructible"] is True and crate["wreck_of"] is None
    car = next(x for x in v["vehicles"] if x["type"] == "car")
    assert car["hull"] == car["hull_points"] == 10 and car["max_gear"] == 5
    assert car["gear"] == 1 and car["hazards"] == 0 and car["status"] == "active"
    assert car["weapons"][0] == {"key": "machine_gun#0", "id": "machine_gun",
                                 "name": "Machine Gun", "facing": "front", "range": "double",
                                 "dice": "2D6", "ammo": None, "arc": "front",
                                 "special_rules": []}
    assert car["upgrades"] == [] and car["perks"] == []
    assert v["log"] and all(line["text"] for line in v["log"])
    seqs = [line["seq"] for line in v["log"]]
    assert seqs == sorted(seqs)
    p = v["pending"]
    assert p["seat"] == 0 and p["options"] and p["domain"] is None and p["page"] == 62


def test_unknown_game_and_token(client: TestClient) -> None:
    assert "nope" in _detail(client.get("/api/games/nope"), 404)
    g = new_game(client, "human", "heuristic")
    _detail(client.get(f"/api/games/{g['id']}", params={"token": "forged"}), 403)
    _detail(act(client, "nope", "x", 0, 1), 404)
    _detail(client.get("/api/games/nope/svg"), 404)
    _detail(client.get("/api/games/nope/events"), 404)
    _detail(client.get("/api/games/nope/replay"), 404)


def test_template_preview_lays_each_option(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    v = advance_until(client, g["id"], tok, "template")
    p = v["pending"]
    assert p["vehicle"] and p["preview"]["vehicle"] == p["vehicle"]
    laid = p["preview"]["templates"]
    assert set(laid) == {o["value"] for o in p["options"]}
    me = next(x for x in v["vehicles"] if x["id"] == p["vehicle"])
    # The medium straight runs 120 mm from the front edge along the heading (90°: +y).
    pieces = laid["medium_straight"]
    ys = [pt[1] for piece in pieces for pt in piece]
    assert min(ys) == pytest.approx(me["y"] + me["length"] / 2, abs=0.1)
    assert max(ys) == pytest.approx(me["y"] + me["length"] / 2 + 120.0, abs=0.1)


def test_grid_preview_offers_a_pose_per_slot(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    v = advance_until(client, g["id"], tok, "grid")
    p = v["pending"]
    poses = p["preview"]["poses"]
    assert set(poses) == {o["value"] for o in p["options"]}
    assert all(pose["heading"] == 90.0 for pose in poses.values())


def test_attack_preview_lists_targets_and_reach(client: TestClient) -> None:
    for seed in range(3, 13):  # the first seed whose game reaches an attack with a target
        g = new_game(client, "human", "human", seed=seed)
        both = ",".join(s["token"] for s in g["seats"])
        try:
            v = advance_until(client, g["id"], both, "attack")
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("no attack decision in ten games")
    p = v["pending"]
    weapons = p["preview"]["weapons"]
    offered = {str(o["value"]) for o in p["options"]} - {"stop"}
    assert {f"{w['key']}>{t}" for w in weapons for t in w["targets"]} == offered
    for w in weapons:
        assert w["polygons"] and all(len(poly) >= 3 for poly in w["polygons"])
    shooter = next(x for x in v["vehicles"] if x["id"] == p["vehicle"])
    hg = next(w for w in weapons if w["key"] == "handgun")
    assert hg["arc"] == "360"
    xs = [pt[0] for pt in hg["polygons"][0]]
    assert min(xs) < shooter["x"] < max(xs)


# -- acting ------------------------------------------------------------------------------------
def test_stale_version_is_409_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    v = view(client, g["id"], tok)
    choice = first_choice(v["pending"])
    detail = _detail(act(client, g["id"], tok, v["version"] - 1, choice), 409)
    assert detail == f"stale state: version {v['version']} is current"
    assert view(client, g["id"], tok)["version"] == v["version"]
    r = act(client, g["id"], tok, v["version"], choice)
    assert r.status_code == 200 and r.json()["version"] > v["version"]
    # the same choice sent again (its answer lost) is answered as the game stands, once;
    # another answer at that version is stale
    again = act(client, g["id"], tok, v["version"], choice)
    assert again.status_code == 200 and again.json() == r.json()
    other = v["pending"]["options"][-1]["value"]
    assert other != choice
    _detail(act(client, g["id"], tok, v["version"], other), 409)
    assert view(client, g["id"], tok)["version"] == r.json()["version"]


def test_wrong_seat_is_403(client: TestClient) -> None:
    g = new_game(client, "human", "human", seed=11)
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    v = view(client, g["id"])
    seat = v["pending"]["seat"]
    other = 1 - seat
    detail = _detail(act(client, g["id"], tokens[other], v["version"],
                         first_choice(v["pending"])), 403)
    names = ["Red", "Blue"]
    assert detail == f"{names[other]} cannot act for {names[seat]}"
    _detail(act(client, g["id"], "forged", v["version"], first_choice(v["pending"])), 403)
    _detail(act(client, g["id"], "", v["version"], first_choice(v["pending"])), 403)
    assert view(client, g["id"])["version"] == v["version"]


def test_illegal_choice_is_422_naming_the_choices_in_words(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    v = view(client, g["id"], tok)
    detail = _detail(act(client, g["id"], tok, v["version"], "flying_leap"), 422)
    assert "'flying_leap' is not a legal choice" in detail
    labels = [o["label"] for o in v["pending"]["options"]]
    assert all(label in detail for label in labels)
    assert not any(str(o["value"]) in detail for o in v["pending"]["options"]
                   if str(o["value"]) not in labels)
    assert view(client, g["id"], tok)["version"] == v["version"]


def test_form_strings_are_taken_for_numbers(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    v = advance_until(client, g["id"], tok, "skid_dice")
    values = [o["value"] for o in v["pending"]["options"]]
    assert all(isinstance(x, int) for x in values)
    r = act(client, g["id"], tok, v["version"], str(values[-1]))
    assert r.status_code == 200, r.text
    skid = [e for e in client.get(f"/api/games/{g['id']}/events").json()
            if e["kind"] == "decision" and e["data"]["decision"] == "skid_dice"]
    assert skid[-1]["data"]["choice"] == values[-1]


@pytest.mark.parametrize("body", [
    {}, {"token": "t"}, {"token": "t", "version": "x", "choice": 1},
    {"token": "t", "version": 0, "choice": [1, 2]}, {"token": "t", "version": 0, "choice": None},
    {"token": 5, "version": 0, "choice": 1}, {"token": "t", "version": 0, "choice": {"a": 1}},
    {"token": "t", "version": 0, "choice": 1, "extra": True}, [1, 2], "text",
])
def test_malformed_decisions_are_422(client: TestClient, body: Any) -> None:
    g = new_game(client, "human", "heuristic")
    _detail(client.post(f"/api/games/{g['id']}/decisions", json=body), 422)


def test_hot_seat_tokens_act_for_whichever_seat_is_asked(client: TestClient) -> None:
    g = new_game(client, "human", "human", seed=5)
    both = ",".join(s["token"] for s in g["seats"])
    seats_seen = set()
    v = view(client, g["id"], both)
    for _ in range(30):
        assert v["your_seat"] == v["pending"]["seat"]
        seats_seen.add(v["your_seat"])
        r = act(client, g["id"], both, v["version"], first_choice(v["pending"]))
        assert r.status_code == 200, r.text
        v = r.json()
    assert seats_seen == {0, 1}


def test_bot_vs_bot_game_plays_to_the_end(client: TestClient) -> None:
    g = new_game(client, "heuristic", "random", seed=2)
    assert all(s["token"] is None for s in g["seats"])
    v = view(client, g["id"])
    assert v["status"] == "finished" and v["pending"] is None
    assert v["outcome_reason"] and v["log"][-1]["kind"] in ("game_over", "activation_end",
                                                              "round_end")
    assert v["version"] == len([
        e for e in client.get(f"/api/games/{g['id']}/events").json() if e["kind"] == "decision"])
    listed = client.get("/api/games").json()
    assert listed == [{
        "id": g["id"], "scenario": "street-race", "ruleset": "refuelled", "status": "finished",
        "round": v["round"],
        "winner": v["winner"], "created": listed[0]["created"],
        "seats": [{"seat": 0, "controller": "heuristic", "name": "Red", "team": "Red Racers"},
                  {"seat": 1, "controller": "random", "name": "Blue", "team": "Blue Racers"}],
        "seed_chosen": True, "scenario_name": "Street Race", "ruleset_title": "Gaslands: Refuelled",
        "status_text": f"Finished in round {v['round']}: "
                       + ("a draw" if v["winner"] is None
                          else f"{['Red Racers (Red)', 'Blue Racers (Blue)'][v['winner']]} won"),
    }]
    _detail(act(client, g["id"], "any", v["version"], 1), 409)


def test_human_plays_the_heuristic_bot_to_the_end(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic", seed=4)
    tok = g["seats"][0]["token"]
    end = play_to_end(client, g["id"], tok)
    assert end["status"] == "finished" and end["pending"] is None
    assert end["winner"] in (0, 1, None) and end["outcome_reason"]
    assert end["version"] == len([
        e for e in client.get(f"/api/games/{g['id']}/events").json() if e["kind"] == "decision"])
    assert client.get("/api/games").json()[0]["status"] == "finished"
    detail = _detail(act(client, g["id"], tok, end["version"], 0), 409)
    assert "over" in detail


# -- events, svg, replay, restore --------------------------------------------------------------
def test_events_since(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    evs = client.get(f"/api/games/{g['id']}/events").json()
    assert [e["seq"] for e in evs] == list(range(len(evs)))
    tail = client.get(f"/api/games/{g['id']}/events", params={"since": 3}).json()
    assert tail == evs[3:]
    assert client.get(f"/api/games/{g['id']}/events", params={"since": 10**6}).json() == []
    _detail(client.get(f"/api/games/{g['id']}/events", params={"since": -1}), 422)
    _detail(client.get(f"/api/games/{g['id']}/events", params={"since": "x"}), 422)


def test_svg_shows_the_table(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    v = advance_until(client, g["id"], g["seats"][0]["token"], "template")
    r = client.get(f"/api/games/{g['id']}/svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and 'data-id="rock-1"' in r.text
    deployed = [x for x in v["vehicles"] if x["y"] > 0]
    assert deployed and all(f'data-id="{x["id"]}"' in r.text for x in deployed)


def test_replay_steps_through_every_choice(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic")
    tok = g["seats"][0]["token"]
    now = advance_until(client, g["id"], tok, "skid_dice")
    rep = client.get(f"/api/games/{g['id']}/replay").json()
    steps = rep["steps"]
    assert [s["version"] for s in steps] == list(range(now["version"] + 1))
    assert all(s["your_seat"] is None for s in steps)
    logged = [line["seq"] for s in steps for line in s["log"]]
    assert logged == list(range(len(logged)))
    last = steps[-1]
    assert last["vehicles"] == now["vehicles"] and last["pending"]["kind"] == "skid_dice"
    one = client.get(f"/api/games/{g['id']}/replay", params={"step": now["version"]}).json()
    assert one["vehicles"] == now["vehicles"] and one["pending"] == now["pending"]
    assert one["log"] == now["log"]
    zero = client.get(f"/api/games/{g['id']}/replay", params={"step": 0}).json()
    assert zero["version"] == 0 and zero["vehicles"] == steps[0]["vehicles"]
    detail = _detail(client.get(f"/api/games/{g['id']}/replay",
                                params={"step": now["version"] + 1}), 422)
    assert f"between 0 and {now['version']}" in detail


def test_a_game_restored_from_the_database_gives_the_same_view(tmp_path: Path) -> None:
    first = new_client(tmp_path, "shared.db")
    g = new_game(first, "human", "heuristic", seed=9)
    tok = g["seats"][0]["token"]
    advance_until(first, g["id"], tok, "template")
    before = view(first, g["id"], tok)
    second = new_client(tmp_path, "shared.db")  # a fresh app: nothing in memory
    assert view(second, g["id"], tok) == before
    # Play on in the restored game: both views agree with a straight replay of the choices.
    r = act(second, g["id"], tok, before["version"], first_choice(before["pending"]))
    assert r.status_code == 200
    third = new_client(tmp_path, "shared.db")
    assert view(third, g["id"], tok) == r.json()
    assert [x["id"] for x in third.get("/api/games").json()] == [g["id"]]


def test_games_list_newest_first(client: TestClient) -> None:
    a = new_game(client, "human", "heuristic")["id"]
    b = new_game(client, "human", "human")["id"]
    listed = client.get("/api/games").json()
    assert [x["id"] for x in listed] == [b, a]
    assert all(x["status"] == "in_progress" and x["round"] == 0 for x in listed)


def test_an_engine_failure_rolls_the_choice_back(client: TestClient) -> None:
    g = new_game(client, "human", "heuristic", seed=4)
    tok = g["seats"][0]["token"]
    session = client.app.state.games.get(g["id"])
    real = session.bots[1]

    class Broken:
        name = "broken"

        def choose(self, *args: Any) -> Any:
            raise RuntimeError("boom")

    v = view(client, g["id"], tok)
    failed = 0
    for _ in range(60):
        session.bots[1] = Broken()
        r = act(client, g["id"], tok, v["version"], first_choice(v["pending"]))
        session.bots[1] = real
        if r.status_code == 500:
            # The bot had to answer next: the human's choice was rolled back with it.
            assert _detail(r, 500) == (
                "the engine failed (RuntimeError: boom); the choice was not applied")
            assert view(client, g["id"], tok) == v
            failed += 1
            r = act(client, g["id"], tok, v["version"], first_choice(v["pending"]))
            assert r.status_code == 200 and r.json()["version"] > v["version"] + 1
        else:
            assert r.status_code == 200 and r.json()["version"] == v["version"] + 1
        v = r.json()
        if failed >= 2 or v["pending"] is None:
            break
    assert failed >= 1


def test_idle_games_leave_memory_and_reload_unchanged(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from carnage.web import sessions

    monkeypatch.setattr(sessions, "MAX_CACHED", 2)
    games = client.app.state.games
    ids = [new_game(client, "human", "heuristic", seed=i)["id"] for i in range(3)]
    assert set(games._sessions) == set(ids[1:])
    before = view(client, ids[2])
    view(client, ids[1])  # the most recently used
    again = view(client, ids[0])  # reloaded from the database, evicting the least recent
    assert again["id"] == ids[0] and again["pending"]["seat"] == 0
    assert set(games._sessions) == {ids[0], ids[1]}
    assert view(client, ids[2]) == before


def test_racing_clients_one_choice_wins_the_rest_are_stale(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    g = new_game(client, "human", "heuristic", seed=6)
    tok = g["seats"][0]["token"]
    v = view(client, g["id"], tok)
    first, last = first_choice(v["pending"]), v["pending"]["options"][-1]["value"]
    assert first != last
    sent = [first, last] * 3  # one of the two answers wins; the same answer sent again is
    with ThreadPoolExecutor(max_workers=6) as pool:  # answered as it stands (a resend)
        codes = list(pool.map(lambda c: act(client, g["id"], tok, v["version"],
                                            c).status_code, sent))
    s = cast(FastAPI, client.app).state.games.get(g["id"])
    won = s.game.choices[v["version"]]
    assert won in (first, last)
    assert codes == [200 if c == won else 409 for c in sent]
    events = client.get(f"/api/games/{g['id']}/events").json()
    assert view(client, g["id"], tok)["version"] == len(
        [e for e in events if e["kind"] == "decision"])


def test_games_list_says_scenario_teams_and_status_in_words(client: TestClient) -> None:
    r = client.post("/api/teams", json={"team": racer_team("Road Hogs")})
    assert r.status_code == 201, r.text
    hogs = r.json()["id"]
    live = new_game(client, "human", "heuristic", teams=[hogs, None])["id"]
    bots = client.post("/api/games", json={"scenario": "street-race", "seed": 3, "seats": [
        {"controller": "heuristic"}, {"controller": "heuristic"}]})
    assert bots.status_code == 201, bots.text
    listed = {x["id"]: x for x in client.get("/api/games").json()}
    mine = listed[live]
    assert mine["scenario_name"] == "Street Race" and mine["ruleset_title"]
    assert (mine["seats"][0]["name"], mine["seats"][0]["team"]) == ("Red", "Road Hogs")
    assert mine["seats"][1]["name"] == "Blue" and mine["seats"][1]["team"]
    assert mine["status_text"].endswith("in progress")
    done = listed[bots.json()["id"]]
    assert done["status"] == "finished"
    assert done["status_text"].startswith(f"Finished in round {done['round']}: ")
    winner = done["winner"]
    if winner is None:
        assert done["status_text"].endswith("a draw")
    else:
        seat = done["seats"][winner]
        assert done["status_text"].endswith(f"{seat['team']} ({seat['name']}) won")
    for g in listed.values():  # no id in the words
        assert g["id"] not in g["status_text"] + g["scenario_name"]
