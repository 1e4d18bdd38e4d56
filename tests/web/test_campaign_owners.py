"""Who may act on a campaign: every campaign has an owner from the start (from the page or
``carnage campaign new``), each seat its token; a stranger (no token, or another campaign's
tokens) cannot play its next event, claim a seat, change a roster or answer a seat's decision,
and the list shows only public campaigns and the caller's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.test_api_support import racer_team
from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.web.app import create_app

INTRO = str(Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml")
BOTS = ["heuristic", "random"]


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'carnage.db'}"


@pytest.fixture
def client(url: str) -> TestClient:
    return TestClient(create_app(url))


def made_on_the_page(client: TestClient, public: bool = False) -> dict[str, Any]:
    r = client.post("/api/campaigns", json={
        "mode": "championship", "public": public,
        "options": {"events": ["street-race"]},
        "teams": [{"team": racer_team("Hogs", 30)}, {"team": racer_team("Rats", 30)}]})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def made_in_the_terminal(url: str, *extra: str) -> dict[str, Any]:
    r = CliRunner().invoke(app, ["campaign", "new", "--mode", "championship", "--team", INTRO,
                                 "--team", INTRO, "--events", "street-race", "--db", url,
                                 "--json", *extra])
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def version(client: TestClient, cid: str) -> int:
    return int(client.get(f"/api/campaigns/{cid}").json()["version"])


def writes(cid: str, v: int) -> list[tuple[str, dict[str, Any]]]:
    """Every write a campaign takes, as a body without any token."""
    return [
        (f"/api/campaigns/{cid}/next",
         {"version": v, "controllers": BOTS, "max_rounds": 2, "seed": 1}),
        (f"/api/campaigns/{cid}/seats/0/claim", {"version": v}),
        (f"/api/campaigns/{cid}/seats/0/team", {"version": v, "team": racer_team("Mine", 30)}),
        (f"/api/campaigns/{cid}/steps", {"version": v, "value": "yes"}),
    ]


@pytest.mark.parametrize("origin", ["page", "terminal"])
def test_a_stranger_cannot_play_claim_edit_or_decide(client: TestClient, url: str,
                                                     origin: str) -> None:
    made = made_on_the_page(client) if origin == "page" else made_in_the_terminal(url)
    other = made_on_the_page(client)
    cid = made["id"]
    v = version(client, cid)
    before = client.get(f"/api/campaigns/{cid}").json()
    strangers: list[tuple[dict[str, str], str | None]] = [
        ({}, None),  # no token at all
        ({"X-Owner-Token": other["owner_token"]}, other["seats"][0]["token"]),  # another's
        ({"X-Owner-Token": made["seats"][0]["token"]}, None),  # a seat token is not the owner's
    ]
    for headers, seat_token in strangers:
        for path, body in writes(cid, v):
            if seat_token is not None and not path.endswith("/claim"):
                body = {**body, "token": seat_token}
            r = client.post(path, json=body, headers=headers)
            assert r.status_code == 403, (path, headers, r.text)
    assert client.get(f"/api/campaigns/{cid}").json() == before  # nothing changed


@pytest.mark.parametrize("origin", ["page", "terminal"])
def test_the_owner_and_the_seats_act_with_their_tokens(client: TestClient, url: str,
                                                       origin: str) -> None:
    made = made_on_the_page(client) if origin == "page" else made_in_the_terminal(url)
    cid, owner = made["id"], {"X-Owner-Token": made["owner_token"]}
    assert made["owner_url"] == f"/campaigns/{cid}?owner={made['owner_token']}"
    seen = client.get(f"/api/campaigns/{cid}", headers=owner).json()
    assert seen["owner"] is True and seen["you"] is None
    assert all(s["claimed"] for s in seen["seats"])  # every seat has its token from the start
    for s in made["seats"]:
        assert client.get(f"/api/campaigns/{cid}", params={"token": s["token"]}).json()[
            "you"] == s["seat"]
    # Seat 1's player changes seat 1's roster, not seat 0's.
    t1 = made["seats"][1]["token"]
    r = client.post(f"/api/campaigns/{cid}/seats/0/team",
                    json={"version": seen["version"], "token": t1,
                          "team": racer_team("Mine", 30), "dry_run": True})
    assert r.status_code == 403 and "only seat 0's player" in r.json()["detail"]
    r = client.post(f"/api/campaigns/{cid}/seats/1/team",
                    json={"version": seen["version"], "token": t1,
                          "team": racer_team("Rats", 30), "dry_run": True})
    assert r.status_code == 200, r.text
    # The owner (no seat) has bots play the next event.
    r = client.post(f"/api/campaigns/{cid}/next", headers=owner, json={
        "version": seen["version"], "controllers": BOTS, "max_rounds": 2, "seed": 1})
    assert r.status_code == 200, r.text
    assert len(r.json()["summary"]["results"]) == 1


def test_the_list_shows_public_campaigns_and_the_callers_own(client: TestClient,
                                                             url: str) -> None:
    mine = made_on_the_page(client)
    theirs = made_on_the_page(client)
    public = made_on_the_page(client, public=True)
    cli = made_in_the_terminal(url)
    cli_public = made_in_the_terminal(url, "--public")

    def listed(*tokens: str) -> set[str]:
        headers = {"X-Owner-Token": ",".join(tokens)} if tokens else {}
        r = client.get("/api/campaigns", headers=headers)
        assert r.status_code == 200, r.text
        return {c["id"] for c in r.json()}

    everyone = {public["id"], cli_public["id"]}
    assert listed() == everyone
    assert listed("not-a-token") == everyone
    assert listed(mine["owner_token"]) == everyone | {mine["id"]}
    assert listed(mine["seats"][1]["token"], cli["owner_token"]) == \
        everyone | {mine["id"], cli["id"]}
    assert theirs["id"] not in listed(mine["owner_token"], cli["seats"][0]["token"])


def test_the_terminal_prints_the_owner_and_each_seats_token(url: str) -> None:
    r = CliRunner().invoke(app, ["campaign", "new", "--mode", "escalating", "--team", INTRO,
                                 "--team", INTRO, "--db", url])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    cid = lines[0]
    assert lines[1].startswith("owner token: ")
    owner = lines[1].split()[2]
    assert f"/campaigns/{cid}?owner={owner}" in lines[1]
    assert [ln.split(":")[0] for ln in lines[2:]] == ["seat 0 (Street Race starters)",
                                                      "seat 1 (Street Race starters)"]
    tokens = [ln.split("token ")[1].split()[0] for ln in lines[2:]]
    assert len({*tokens, owner}) == 3
    client = TestClient(create_app(url))
    assert client.get(f"/api/campaigns/{cid}", headers={"X-Owner-Token": owner}).json()[
        "owner"] is True
    assert client.get(f"/api/campaigns/{cid}", params={"token": tokens[1]}).json()["you"] == 1


def test_an_owner_with_no_seat_hands_a_seat_out_only_once(client: TestClient, url: str) -> None:
    # A campaign whose seats were never given tokens (started before owners existed) gets
    # an owner from the terminal; the owner then gives each seat its token, once.
    from carnage.campaign.store import CampaignStore
    from carnage.games.refuelled.campaign import seasons
    from carnage.team import parse_team

    store = CampaignStore(url)
    opts = seasons.season_options("championship", events=["street-race"])
    records = []
    for seat, name in enumerate(["Hogs", "Rats"]):
        records += seasons.join_records(opts, seat, parse_team(racer_team(name, 30), name), 0)
    cid = store.create("championship", opts, records)
    r = CliRunner().invoke(app, ["campaign", "show", cid, "--owner-token", "--db", url,
                                 "--json"])
    assert r.exit_code == 0, r.output
    owner = {"X-Owner-Token": json.loads(r.stdout)["owner_token"]}
    v = version(client, cid)
    got = client.post(f"/api/campaigns/{cid}/seats/0/claim", headers=owner,
                      json={"version": v})
    assert got.status_code == 200, got.text
    again = client.post(f"/api/campaigns/{cid}/seats/0/claim", headers=owner,
                        json={"version": got.json()["version"]})
    assert again.status_code == 409 and "already taken" in again.json()["detail"]
    store.close()
