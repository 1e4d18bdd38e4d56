"""The campaign API: create a campaign (saved teams or team objects), join by a seat's link,
watch it, change a roster between games, play the next event on the table with bots or
humans, and every write refused with 409 when the version it carries is stale (nothing
changes). Bad payloads get a sentence naming the field; a seat's pending decision and its
game link are shown to that seat only. Campaigns made with the CLI's store show up too."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.campaign.conftest import db_url, pg_server  # noqa: F401  (fixtures)
from tests.web.test_api_support import new_client, racer_team

from carnage.ai import make_bot
from carnage.campaign.store import CampaignStore
from carnage.games.refuelled.campaign import seasons
from carnage.games.refuelled.campaign.events import finishing_order
from carnage.team import parse_team
from carnage.web import campaigndesk
from carnage.web.app import create_app

SEED = 3
"""Dice of the Televised test's table game: one team places, the other does not."""


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def create(client: TestClient, mode: str = "championship", n: int = 2,
           **options: Any) -> dict[str, Any]:
    body = {"mode": mode, "options": options,
            "teams": [{"team": racer_team(f"Team {i}", 30)} for i in range(n)]}
    r = client.post("/api/campaigns", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def view(client: TestClient, cid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/campaigns/{cid}", params={} if token is None else {"token": token})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def refused(r: Any, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    assert words in r.json()["detail"], r.json()["detail"]


def test_create_from_a_saved_team_and_a_team_object_and_join_by_link(
        client: TestClient) -> None:
    saved = client.post("/api/teams", json={"team": racer_team("Hogs", 30)}).json()
    r = client.post("/api/campaigns", json={
        "mode": "escalating", "options": {"start_cans": 30, "bonus": 5},
        "teams": [{"team_id": saved["id"]}, {"team": racer_team("Rats", 30)}]})
    assert r.status_code == 201, r.text
    made = r.json()
    assert [s["seat"] for s in made["seats"]] == [0, 1]
    assert made["seats"][0]["url"] == f"/campaigns/{made['id']}?token={made['seats'][0]['token']}"
    assert made["seats"][0]["token"] != made["seats"][1]["token"]
    # The page and the API both answer at the seat's link.
    assert client.get(made["seats"][1]["url"]).status_code == 200
    v = view(client, made["id"], made["seats"][1]["token"])
    assert v["you"] == 1 and v["mode"] == "escalating" and v["version"] == made["version"]
    assert [s["team"] for s in v["seats"]] == ["Hogs", "Rats"]
    assert all(s["claimed"] for s in v["seats"])
    teams = v["summary"]["teams"]
    assert [t["cans"] for t in teams] == [30, 30]
    assert teams[0]["vehicles"][0] == {"name": "Hogs Car", "type": "car",
                                       "weapons": ["machine_gun"], "upgrades": [],
                                       "perks": [], "career": None}
    assert v["summary"]["schedule"][0] == {"game": 1, "scenario": "death-race",
                                           "scenario_name": "Death Race", "played": False,
                                           "game_id": None}
    assert view(client, made["id"])["you"] is None  # a spectator
    refused(client.get(f"/api/campaigns/{made['id']}", params={"token": "nope"}), 403,
            "does not belong to this campaign")
    refused(client.get("/api/campaigns/000000000000"), 404, "no campaign")
    # A private campaign is listed only to whoever sends one of its tokens.
    assert client.get("/api/campaigns").json() == []
    for tok in (made["owner_token"], made["seats"][1]["token"]):
        listed = client.get("/api/campaigns", headers={"X-Owner-Token": f"other,{tok}"}).json()
        assert [(c["id"], c["teams"]) for c in listed] == [(made["id"], ["Hogs", "Rats"])]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"mode": "bogus", "teams": [{"team": racer_team("A", 30)}] * 2}, 422,
     "mode: unknown campaign mode 'bogus'"),
    ({"mode": "championship", "options": {"start_cans": "lots"},
      "teams": [{"team": racer_team("A", 30)}] * 2}, 422,
     "options.start_cans: 'lots' is not a whole number"),
    ({"mode": "championship", "options": {"colour": 1},
      "teams": [{"team": racer_team("A", 30)}] * 2}, 422,
     "options: championship: unknown option 'colour'"),
    ({"mode": "championship", "options": {"events": ["tea-party"]},
      "teams": [{"team": racer_team("A", 30)}] * 2}, 422, "options.events: unknown scenario"),
    ({"mode": "championship", "options": {"start_cans": 10},
      "teams": [{"team": racer_team("A", 30)}] * 2}, 422,
     "options.start_cans: 2 teams (A, A) cost more than the 10 Cans each team starts with "
     "(A costs 22): set Starting Cans to 22 or more"),
    ({"mode": "championship", "teams": [{"team": racer_team("A", 30)}]}, 422,
     "teams: a season needs at least two teams"),
    ({"mode": "championship", "teams": [{}, {"team": racer_team("A", 30)}]}, 422,
     "teams.0: give a saved team's id"),
    ({"mode": "championship", "teams": [{"team_id": "nope"}, {"team": racer_team("A", 30)}]},
     422, "teams.0.team_id: no saved team"),
    ({"mode": "championship", "teams": [{"team": {"name": "X"}}] * 2}, 422,
     "teams.0: cans: missing"),
    ({"mode": "championship", "teams": []}, 422, "teams"),
    ({"mode": "championship", "teams": [{"team": racer_team("A", 30)}] * 9}, 422, "teams"),
    ({"teams": [{"team": racer_team("A", 30)}] * 2}, 422, "mode: missing"),
    ({"mode": "championship", "teams": [{"team": racer_team("A", 30)}] * 2, "x": 1}, 422,
     "x: unknown field"),
])
def test_bad_campaigns_are_refused_naming_the_field(client: TestClient, body: dict[str, Any],
                                                    status: int, words: str) -> None:
    refused(client.post("/api/campaigns", json=body), status, words)
    assert client.get("/api/campaigns").json() == []


def test_bots_play_the_next_event_and_standings_and_chart_follow(client: TestClient) -> None:
    made = create(client, "championship", 3, events=["street-race"])
    cid, tok = made["id"], made["seats"][0]["token"]
    v0 = view(client, cid, tok)
    r = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v0["version"], "token": tok, "controllers": ["heuristic"] * 3,
        "max_rounds": 3, "seed": 5})
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["event"] is None  # played by the bots and recorded at once
    results = v["summary"]["results"]
    assert len(results) == 1
    gid = results[0]["game"]
    game = client.app.state.games.get(gid).game
    assert game.state.finished and game.state.round <= 3
    want = [[p for p in g] for g in finishing_order(game)]
    assert results[0]["data"]["places"] == want
    cp = {row["seat"]: row["cp"] for row in v["summary"]["standings"]}
    place = seasons.ranked(want)
    assert cp == {s: seasons.points_for(place[s]) for s in range(3)}
    assert {s["seat"]: s["cp"] for s in v["chart"]["series"]} == {
        s: [0, cp[s]] for s in range(3)}
    assert v["summary"]["schedule"][0]["played"] is True
    assert v["summary"]["schedule"][0]["game_id"] == gid
    # The game is linked back to the campaign; anyone may watch it.
    assert client.get(f"/api/games/{gid}").status_code == 200


def test_a_stale_version_gets_409_and_nothing_changes(client: TestClient) -> None:
    made = create(client, "escalating", 2)
    cid, t0 = made["id"], made["seats"][0]["token"]
    seen = view(client, cid, t0)["version"]
    # Two browsers saw the same version; the first roster change wins ...
    cheaper = racer_team("Team 0", 30)
    cheaper["vehicles"] = cheaper["vehicles"][:1]
    r = client.post(f"/api/campaigns/{cid}/seats/0/team",
                    json={"version": seen, "token": t0, "team": cheaper})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == seen + 1
    after = view(client, cid, t0)
    # ... the second is refused whole, for every kind of write.
    for path, body in [
        ("seats/0/team", {"team": racer_team("Team 0", 30)}),
        ("next", {"controllers": ["heuristic", "heuristic"], "max_rounds": 2}),
        ("seats/0/team", {"team": racer_team("Team 0", 30), "dry_run": True}),
    ]:
        refused(client.post(f"/api/campaigns/{cid}/{path}",
                            json={"version": seen, "token": t0, **body}),
                409, f"it is at version {seen + 1}, you had {seen}")
    assert view(client, cid, t0) == after
    assert len(after["summary"]["teams"][0]["vehicles"]) == 1
    # Starting the same event twice: the second is refused.
    ok = client.post(f"/api/campaigns/{cid}/next", json={
        "version": after["version"], "token": t0, "controllers": ["human", "heuristic"]})
    assert ok.status_code == 200, ok.text
    refused(client.post(f"/api/campaigns/{cid}/next", json={
        "version": ok.json()["version"], "token": t0, "controllers": ["human", "heuristic"]}),
        409, "already been started")


def test_roster_changes_are_checked_and_need_the_seats_token(client: TestClient) -> None:
    made = create(client, "escalating", 2)
    cid, t0, t1 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    v = view(client, cid, t0)["version"]
    big = racer_team("Team 0", 30)
    big["vehicles"].append({"name": "Tank", "type": "tank"})
    r = client.post(f"/api/campaigns/{cid}/seats/0/team",
                    json={"version": v, "token": t0, "team": big, "dry_run": True})
    assert r.status_code == 200, r.text
    assert r.json()["ok"] is False and "over its budget of 30" in r.json()["problems"][0]
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team",
                        json={"version": v, "token": t0, "team": big}), 422, "team: ")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team",
                        json={"version": v, "token": t1, "team": racer_team("X", 30)}),
            403, "only seat 0's player")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team",
                        json={"version": v, "team": racer_team("X", 30)}), 403, "seat token")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team",
                        json={"version": v, "token": t0, "team": {"cans": 3}}), 422, "name")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team",
                        json={"version": "one", "token": t0, "team": big}), 422, "version")
    assert view(client, cid)["version"] == v


def test_bad_next_event_payloads_name_the_field(client: TestClient) -> None:
    made = create(client, "championship", 2)
    cid, t0 = made["id"], made["seats"][0]["token"]
    v = view(client, cid)["version"]
    for body, words in [
        ({"controllers": ["heuristic"]}, "controllers: one per seat (2), not 1"),
        ({"controllers": ["pilot", "heuristic"]}, "controllers.0"),
        ({"controllers": ["heuristic"] * 2, "max_rounds": 1000}, "max_rounds"),
        ({"controllers": ["human", "human"], "seed": 3}, "seed: a seed may be chosen"),
        ({"controllers": ["heuristic"] * 2, "seed": -1}, "seed"),
    ]:
        refused(client.post(f"/api/campaigns/{cid}/next",
                            json={"version": v, "token": t0, **body}), 422, words)
    refused(client.post(f"/api/campaigns/{cid}/next",
                        json={"version": v, "controllers": ["heuristic"] * 2}), 403,
            "only a player")
    assert view(client, cid)["version"] == v


def test_a_human_seats_game_link_is_its_own_and_the_result_is_recorded_when_it_ends(
        client: TestClient) -> None:
    made = create(client, "championship", 2, events=["street-race"])
    cid, t0, t1 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    v = view(client, cid, t0)["version"]
    r = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v, "token": t0, "controllers": ["human", "heuristic"], "max_rounds": 2})
    assert r.status_code == 200, r.text
    ev = r.json()["event"]
    assert ev["phase"] == "playing" and ev["finished"] is False
    gid = ev["game"]
    session = client.app.state.games.get(gid)
    token = session.seats[0].token
    assert ev["url"] == f"/games/{gid}?token={token}&campaign={cid}"
    # Rosters change between games only (ruling WEB-C4).
    refused(client.post(f"/api/campaigns/{cid}/seats/0/team", json={
        "version": r.json()["version"], "token": t0, "team": racer_team("Team 0", 30)}),
        409, "rosters change between games")
    # Others see the game, not seat 0's game token.
    for other in (view(client, cid, t1), view(client, cid)):
        assert other["event"]["url"] == f"/games/{gid}?campaign={cid}"
        assert token not in str(other)
    # Seat 0 plays its game on the table (a bot picks its moves through the game API).
    bot, rng = make_bot("heuristic"), random.Random(1)
    while not session.finished:
        d = session.game.pending()
        choice = bot.choose(session.game, d, rng)
        r = client.post(f"/api/games/{gid}/decisions",
                        json={"token": token, "version": session.version, "choice": choice})
        assert r.status_code == 200, r.text
    after = view(client, cid)  # the first look records the post-game sequence
    assert after["event"] is None
    assert [x["game"] for x in after["summary"]["results"]] == [gid]
    assert after["summary"]["results"][0]["data"]["places"] == finishing_order(session.game)
    assert view(client, cid)["version"] == after["version"]  # recorded once


def test_a_campaign_from_before_owners_is_shown_and_its_owner_token_comes_from_the_cli(
        db_url: str) -> None:  # noqa: F811
    from typer.testing import CliRunner

    from carnage.cli.main import app

    store = CampaignStore(db_url)
    opts = seasons.season_options("championship", events=["street-race"])
    records = []
    for seat, name in enumerate(["Hogs", "Rats"]):
        records += seasons.join_records(opts, seat, parse_team(racer_team(name, 30), name), 0)
    cid = store.create("championship", opts, records)  # no owner, no seats: an old campaign
    client = TestClient(create_app(db_url))
    v = view(client, cid)
    assert [s["claimed"] for s in v["seats"]] == [False, False] and v["owner"] is False
    # Nobody may play it, claim a seat or list it: it has no owner yet.
    bots = {"version": v["version"], "controllers": ["heuristic", "random"],
            "max_rounds": 2, "seed": 1}
    refused(client.post(f"/api/campaigns/{cid}/next", json=bots), 403, "owner")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/claim", json={"version": v["version"]}),
            403, "owner token")
    assert client.get("/api/campaigns").json() == []
    # Whoever can open the database gives it an owner from the command line.
    r = CliRunner().invoke(app, ["campaign", "show", cid, "--owner-token", "--db", db_url,
                                 "--json"])
    assert r.exit_code == 0, r.output
    owner = json.loads(r.stdout)["owner_token"]
    assert json.loads(r.stdout)["owner_url"] == f"/campaigns/{cid}?owner={owner}"
    head = {"X-Owner-Token": owner}
    assert view_as(client, cid, head)["owner"] is True
    # A seat nobody holds cannot be played by a human (ruling WEB-C6) ...
    refused(client.post(f"/api/campaigns/{cid}/next", headers=head, json={
        "version": v["version"], "controllers": ["human", "random"]}), 422,
        "controllers.0: seat 0 has no player yet")
    # ... and the owner may have bots play it.
    r = client.post(f"/api/campaigns/{cid}/next", headers=head, json=bots)
    assert r.status_code == 200, r.text
    assert len(r.json()["summary"]["results"]) == 1
    # The CLI's store reads what the page wrote: the standings agree.
    c = store.get(cid)
    assert [s.to_json() for s in seasons.standings(seasons_view(c))] == \
        r.json()["summary"]["standings"]
    version = r.json()["version"]
    refused(client.post(f"/api/campaigns/{cid}/seats/1/claim", json={"version": version}),
            403, "owner token")
    claim = client.post(f"/api/campaigns/{cid}/seats/1/claim", headers=head,
                        json={"version": version})
    assert claim.status_code == 200, claim.text
    assert view(client, cid, claim.json()["token"])["you"] == 1
    refused(client.post(f"/api/campaigns/{cid}/seats/1/claim", headers=head,
                        json={"version": claim.json()["version"]}), 409, "already taken")
    refused(client.post(f"/api/campaigns/{cid}/seats/5/claim", headers=head,
                        json={"version": claim.json()["version"]}), 422, "no seat 5")
    refused(client.post(f"/api/campaigns/{cid}/seats/0/claim", headers=head,
                        json={"version": version}), 409, "you had")
    # A fresh owner token replaces the old one.
    r = CliRunner().invoke(app, ["campaign", "show", cid, "--owner-token", "--db", db_url])
    assert r.exit_code == 0 and "owner token: " in r.stdout and owner not in r.stdout
    assert view_as(client, cid, head)["owner"] is False
    store.close()


def view_as(client: TestClient, cid: str, headers: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/api/campaigns/{cid}", headers=headers)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def seasons_view(c: Any) -> Any:
    from carnage.web.campaigns import mode_view

    return mode_view(c)


def play_seat(client: TestClient, gid: str, token: str) -> None:
    """Play a human seat's table game to its end through the game API (a bot picks)."""
    session = client.app.state.games.get(gid)
    bot, rng = make_bot("heuristic"), random.Random(1)
    while not session.finished:
        choice = bot.choose(session.game, session.game.pending(), rng)
        r = client.post(f"/api/games/{gid}/decisions",
                        json={"token": token, "version": session.version, "choice": choice})
        assert r.status_code == 200, r.text


def test_post_game_steps_are_offered_to_their_seat_only(client: TestClient) -> None:
    """An Escalating Season asks each team after the game whether to spend its new Cans
    (p.154): the human seat's question is shown to it alone, refused for anyone else, and
    the event is recorded once it is answered."""
    made = create(client, "escalating", 2, events=["street-race"])
    cid, t0, t1 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    v = view(client, cid, t0)["version"]
    ev = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v, "token": t0, "controllers": ["human", "heuristic"],
        "max_rounds": 2}).json()["event"]
    session = client.app.state.games.get(ev["game"])
    play_seat(client, ev["game"], session.seats[0].token)
    mine = view(client, cid, t0)
    assert mine["event"]["phase"] == "post"
    ask = mine["event"]["ask"]
    assert ask["seat"] == 0 and ask["kind"] == "roster" and ask["page"] == 154
    assert mine["summary"]["results"] == []  # nothing recorded until it is answered
    for other in (view(client, cid, t1), view(client, cid)):
        assert other["event"]["ask"] is None
        assert other["event"]["waiting"] == {"seat": 0, "team": "Team 0"}
        assert ask["prompt"] not in str(other)
    at = mine["version"]
    refused(client.post(f"/api/campaigns/{cid}/steps",
                        json={"version": at, "token": t1, "value": "keep"}), 403,
            "seat 1's, not yours")
    refused(client.post(f"/api/campaigns/{cid}/steps",
                        json={"version": at, "value": "keep"}), 403, "spectators")
    refused(client.post(f"/api/campaigns/{cid}/steps",
                        json={"version": at, "token": t0, "value": 7}), 422, "value: ")
    big = racer_team("Team 0", 30)
    big["vehicles"].append({"name": "Tank", "type": "tank"})
    refused(client.post(f"/api/campaigns/{cid}/steps",
                        json={"version": at, "token": t0, "value": big}), 422,
            "value: Team 0 (Team 0): Team: the team costs")
    refused(client.post(f"/api/campaigns/{cid}/steps",
                        json={"version": at - 1, "token": t0, "value": "keep"}), 409,
            "you had")
    assert view(client, cid, t0) == mine  # every refusal left it as it was
    r = client.post(f"/api/campaigns/{cid}/steps",
                    json={"version": at, "token": t0, "value": "keep"})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["event"] is None
    assert [x["game"] for x in done["summary"]["results"]] == [ev["game"]]
    assert [t["cans"] for t in done["summary"]["teams"]] == [40, 40]  # 30 + the 10 bonus


def test_a_roster_check_shows_the_workshops_bill(client: TestClient) -> None:
    from carnage.team.workshop import price_change

    made = create(client, "escalating", 2)
    cid, t0 = made["id"], made["seats"][0]["token"]
    v = view(client, cid, t0)["version"]
    smaller = racer_team("Team 0", 30)
    smaller["vehicles"] = smaller["vehicles"][:1]
    r = client.post(f"/api/campaigns/{cid}/seats/0/team",
                    json={"version": v, "token": t0, "team": smaller, "dry_run": True})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["ok"] is True and out["problems"] == [] and out["version"] == v
    want = price_change(parse_team(racer_team("Team 0", 30), "old"),
                        parse_team(smaller, "new"), 30 - 22).to_json()
    assert out["workshop"] == want
    assert {(x["vehicle"], x["kind"], x["action"]) for x in out["workshop"]["lines"]} == {
        ("Team 0 Buggy", "vehicle", "scrap"), ("Team 0 Buggy", "weapon", "scrap")}
    assert view(client, cid)["version"] == v  # a check saves nothing


def test_televised_secret_steps_never_reach_the_other_seat_or_spectators(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Televised Season with two human seats: every decision before and after the game is
    shown to its own seat only; a secret one (Contacting the Resistance, p.162, and the
    like) leaves no trace in what the other seat or a spectator is sent, and the Resistance
    Points it gives stay hidden from them."""
    # Two humans: the server draws the table's dice; here a draw with a winner and a loser.
    monkeypatch.setattr(campaigndesk, "draw_seed", lambda: SEED)
    made = create(client, "televised", 2, events=2, schedule="flag-tag,flag-tag", seed=4)
    cid = made["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    v = view(client, cid, tokens[0])
    r = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v["version"], "token": tokens[0], "controllers": ["human", "human"],
        "max_rounds": 2})
    assert r.status_code == 200, r.text
    secrets_seen: list[dict[str, Any]] = []
    played = False
    for _ in range(200):  # the first event, start to end
        spectator = view(client, cid)
        ev = spectator["event"]
        if ev is None:
            break
        assert ev["ask"] is None
        if ev["phase"] == "playing":
            session = client.app.state.games.get(ev["game"])
            play_seat(client, ev["game"], ",".join(s.token for s in session.seats))
            played = True
            continue
        seat = ev["waiting"]["seat"]
        mine = view(client, cid, tokens[seat])
        other = view(client, cid, tokens[1 - seat])
        ask = mine["event"]["ask"]
        assert ask is not None and ask["seat"] == seat
        assert other["event"]["ask"] is None
        assert other["event"]["waiting"] == {"seat": seat, "team": ev["waiting"]["team"]}
        for shown in (other, spectator):
            assert ask["prompt"] not in str(shown)
        value = "keep" if ask["kind"] == "workshop" or ask["options"] is None else \
            ask["options"][0]["value"]
        if ask["secret"]:
            secrets_seen.append({"seat": seat, "kind": ask["kind"], "value": value})
        r = client.post(f"/api/campaigns/{cid}/steps", json={
            "version": mine["version"], "token": tokens[seat], "value": value})
        assert r.status_code == 200, r.text
    else:
        pytest.fail("the event did not come to an end")
    assert played
    assert any(x["kind"] == "contact" for x in secrets_seen), secrets_seen
    final = view(client, cid)
    assert final["summary"]["finished"] is False and len(final["summary"]["results"]) == 1
    # Who contacted the Resistance sees its Resistance Points; nobody else does.
    contacted = next(x["seat"] for x in secrets_seen if x["kind"] == "contact")
    own = view(client, cid, tokens[contacted])["summary"]
    assert [(x["kind"], x["data"]["rp"]) for x in own["secrets"]
            if x["data"]["seat"] == contacted] == [("rp", 3)]
    assert next(r["rp"] for r in own["standings"] if r["seat"] == contacted) == 3
    for shown in (view(client, cid, tokens[1 - contacted])["summary"], final["summary"]):
        assert all(x["data"]["seat"] != contacted for x in shown["secrets"])
        assert next(r["rp"] for r in shown["standings"] if r["seat"] == contacted) is None
        assert "Contacting the Resistance" not in str(shown)


def test_the_chart_counts_a_modes_own_score() -> None:
    """Championship Points where the mode keeps them; a mode whose standings count the games
    its side won (Savage Highways) is charted in wins (ruling WEB-C5)."""
    from carnage.web.campaigns import score_key

    assert score_key([{"seat": 0, "cp": 3, "games": 1}]) == "cp"
    assert score_key([{"seat": 0, "wins": 1, "role": "riggers"},
                      {"seat": 1, "wins": 0, "role": "gangers"}]) == "wins"
    assert score_key([]) == "cp"


def test_a_televised_meeting_may_call_a_wasteland_skirmish(client: TestClient) -> None:
    """The meeting's choice (p.157) travels with the next event: a Wasteland Skirmish instead
    of the next Televised Event; a request the mode refuses is a 422 naming it."""
    made = create(client, "televised", 2, events=1, schedule="flag-tag", seed=2)
    cid, t0 = made["id"], made["seats"][0]["token"]
    v = view(client, cid, t0)
    refused(client.post(f"/api/campaigns/{cid}/next", json={
        "version": v["version"], "token": t0, "controllers": ["heuristic"] * 2,
        "request": {"skirmish": "tea-party"}}), 422, "request: ")
    r = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v["version"], "token": t0, "controllers": ["heuristic"] * 2,
        "max_rounds": 2, "seed": 8, "request": {"present": [0, 1], "skirmish": "roll"}})
    assert r.status_code == 200, r.text
    after = r.json()["summary"]
    assert [x["data"]["kind"] for x in after["results"]] == ["skirmish"]
    assert after["finished"] is False  # the one Televised Event is still to come
    assert after["schedule"][0]["played"] is False


def at_once(base: str, path: str, bodies: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """POST each body from its own thread, released together; the answers."""
    import threading

    from tests.web.test_e2e_support import api

    answers: list[tuple[int, Any]] = []
    go = threading.Barrier(len(bodies))

    def send(body: dict[str, Any]) -> None:
        go.wait()
        answers.append(api(base, "POST", path, body))

    threads = [threading.Thread(target=send, args=(b,)) for b in bodies]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return answers


def test_two_browsers_writing_at_once_are_served_one_at_a_time(tmp_path: Path) -> None:
    """Two browsers send a roster change on the same version at the same moment, over a real
    server: one is applied, the other refused with 409, never both and never a blend."""
    from tests.web.test_e2e_support import api, serve

    with serve(tmp_path / "race.db") as base:
        for attempt in range(4):
            status, made = api(base, "POST", "/api/campaigns", {
                "mode": "escalating",
                "teams": [{"team": racer_team("Hogs", 30)}, {"team": racer_team("Rats", 30)}]})
            assert status == 201, made
            cid, tok = made["id"], made["seats"][0]["token"]
            rosters = []
            for keep in ("Car", "Buggy"):
                t = racer_team("Hogs", 30)
                t["vehicles"] = [x for x in t["vehicles"] if x["name"].endswith(keep)]
                rosters.append(t)
            answers = at_once(base, f"/api/campaigns/{cid}/seats/0/team", [
                {"version": made["version"], "token": tok, "team": t} for t in rosters])
            assert sorted(s for s, _ in answers) == [200, 409], (attempt, answers)
            assert "reload it and try again" in next(b for s, b in answers if s == 409)["detail"]
            status, v = api(base, "GET", f"/api/campaigns/{cid}")
            assert v["version"] == made["version"] + 1
            names = [x["name"] for x in v["summary"]["teams"][0]["vehicles"]]
            assert names in (["Hogs Car"], ["Hogs Buggy"])
        # Two browsers start the next event at once: it is played once.
        answers = at_once(base, f"/api/campaigns/{cid}/next", [
            {"version": v["version"], "token": tok, "controllers": ["heuristic"] * 2,
             "max_rounds": 2, "seed": 3}] * 2)
        assert sorted(s for s, _ in answers) == [200, 409], answers
        status, v = api(base, "GET", f"/api/campaigns/{cid}")
        assert len(v["summary"]["results"]) == 1 and v["event"] is None
        status, listed = api(base, "GET", "/api/games")
        assert len([g for g in listed if g["status"] == "finished"]) == 1


def test_an_event_whose_table_game_is_deleted_can_be_started_again(
        client: TestClient) -> None:
    """A seat abandons the event's table game: the campaign stays readable, says so, records
    nothing for it, and its next event can be started again (ruling WEB-C7)."""
    made = create(client, "championship", 2, events=["street-race"])
    cid, t0 = made["id"], made["seats"][0]["token"]
    v = view(client, cid, t0)
    ev = client.post(f"/api/campaigns/{cid}/next", json={
        "version": v["version"], "token": t0, "controllers": ["human", "heuristic"],
        "max_rounds": 2}).json()["event"]
    game_token = ev["url"].split("token=")[1].split("&")[0]
    assert client.delete(f"/api/games/{ev['game']}",
                         params={"token": game_token}).status_code == 200
    after = view(client, cid, t0)
    assert after["event"]["phase"] == "gone" and after["event"]["gone"] is True
    assert after["summary"]["results"] == []
    again = client.post(f"/api/campaigns/{cid}/next", json={
        "version": after["version"], "token": t0, "controllers": ["heuristic"] * 2,
        "max_rounds": 2, "seed": 2})
    assert again.status_code == 200, again.text
    out = again.json()
    assert out["event"] is None and len(out["summary"]["results"]) == 1
    assert out["summary"]["results"][0]["game"] != ev["game"]


# -- the create form's words -----------------------------------------------------------------
def fifty_can_team(name: str) -> dict[str, Any]:
    """A standard team built to 50 Cans that costs 43: more than the 30 Cans a season's teams
    start with by default."""
    return {"name": name, "cans": 50, "vehicles": [
        {"name": f"{name} Truck", "type": "truck", "weapons": [
            {"id": "heavy_machine_gun", "facing": "front"}, {"id": "machine_gun",
                                                              "facing": "rear"}]},
        {"name": f"{name} Car", "type": "car",
         "weapons": [{"id": "heavy_machine_gun", "facing": "front"}]},
        {"name": f"{name} Buggy", "type": "buggy",
         "weapons": [{"id": "machine_gun", "facing": "front"}]}]}


@pytest.mark.parametrize("mode", ["escalating", "championship", "televised"])
def test_starting_cans_too_few_for_a_team_say_which_team_and_what_to_change(
        client: TestClient, mode: str) -> None:
    r = client.post("/api/campaigns", json={
        "mode": mode, "options": {"start_cans": 30},
        "teams": [{"team": fifty_can_team("Road Hogs")}, {"team": racer_team("Rats", 30)}]})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail == ("options.start_cans: Road Hogs costs more than the 30 Cans each team "
                      "starts with (Road Hogs costs 43): set Starting Cans to 43 or more, or "
                      "choose cheaper teams")


@pytest.mark.parametrize("mode", ["escalating", "televised"])
def test_starting_cans_left_out_fit_the_costliest_team(client: TestClient, mode: str) -> None:
    r = client.post("/api/campaigns", json={
        "mode": mode, "options": {},
        "teams": [{"team": fifty_can_team("Road Hogs")}, {"team": racer_team("Rats", 30)}]})
    assert r.status_code == 201, r.text
    assert view(client, r.json()["id"])["options"]["start_cans"] == 43
    cheap = create(client, "escalating")  # cheap teams: the mode's own default
    assert view(client, cheap["id"])["options"]["start_cans"] == 30


def test_a_team_the_mode_refuses_is_named_as_the_form_names_it(client: TestClient) -> None:
    from carnage.web.campaigns import team_words

    garbled = ("seat 0 (Road Hogs) (Road Hogs): Team: the team costs 43 cans, over its "
               "budget of 30 by 13 (p.64)")
    assert team_words(garbled) == ("team 1 (Road Hogs): the team costs 43 cans, over its "
                                   "budget of 30 by 13 (p.64)")
    r = client.post("/api/campaigns", json={
        "mode": "televised", "options": {"start_cans": 50},
        "teams": [{"team": {**fifty_can_team("Swarm"), "vehicles": [
            {"name": f"B{i}", "type": "bike"} for i in range(9)]}},
            {"team": racer_team("Rats", 30)}]})
    assert r.status_code == 422, r.text
    assert r.json()["detail"].startswith("teams: team 1 (Swarm): 9 vehicles"), r.text


def test_the_modes_offer_their_events_to_pick_by_name(client: TestClient) -> None:
    modes = {m["id"]: m for m in client.get("/api/campaign-modes").json()}
    events = modes["escalating"]["choices"]["events"]
    names = {c["value"]: c["name"] for c in events}
    assert names["death-race"] == "Death Race" and names["capture-the-flag"]
    assert set(modes["escalating"]["options"]["events"]) <= set(names)
    assert modes["escalating"]["labels"]["start_cans"] == "Starting Cans"
    assert modes["televised"]["choices"] == {}  # its events are a number


def test_a_seats_decision_names_the_teams_not_seat_numbers() -> None:
    from carnage.campaign.steps import StepAsk, choices
    from carnage.web.campaigns import ask_json

    ask = StepAsk(0, "sabotage", "seat 0: take how many Sabotage Tokens against seat 1?",
                  choices([0, 1], lambda v: f"{v} against seat 1"))
    shown = ask_json(ask, {0: "Road Hogs", 1: "Rats"})
    assert shown["prompt"] == "Road Hogs: take how many Sabotage Tokens against Rats?"
    assert [o["label"] for o in shown["options"]] == ["0 against Rats", "1 against Rats"]


def test_the_schedule_names_its_scenarios(client: TestClient) -> None:
    made = create(client, "escalating", events=["death-race", "capture-the-flag"], games=2)
    summary = view(client, made["id"])["summary"]
    assert [row["scenario_name"] for row in summary["schedule"]] == [
        "Death Race", "Capture the Flag"]
    assert summary["next"]["scenario_name"] == "Death Race"
