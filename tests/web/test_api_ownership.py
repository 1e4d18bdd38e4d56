"""Saved teams belong to someone (owner tokens), and dice nobody at the table can foresee."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, first_choice, new_client, racer_team

from carnage.web import sessions
from carnage.web.ownership import Owners, split_tokens


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def save(client: TestClient, name: str = "Road Hogs") -> tuple[str, str]:
    r = client.post("/api/teams", json={"team": racer_team(name)})
    assert r.status_code == 201
    return r.json()["id"], r.json()["owner_token"]


def detail(r: Any, status: int, *needles: str) -> None:
    assert r.status_code == status, r.text
    for n in needles:
        assert n in r.json()["detail"], r.json()["detail"]


# -- ownership ---------------------------------------------------------------------------------
def test_put_and_delete_need_the_owner_token(client: TestClient) -> None:
    tid, token = save(client)
    body = {"team": racer_team("Stolen")}
    detail(client.put(f"/api/teams/{tid}", json=body), 403, "needs its owner token",
           "X-Owner-Token")
    detail(client.delete(f"/api/teams/{tid}"), 403, "X-Owner-Token")
    _, other = save(client, "Mine")
    detail(client.put(f"/api/teams/{tid}", json=body, headers={"X-Owner-Token": other}), 403,
           "belongs to someone else")
    detail(client.delete(f"/api/teams/{tid}", headers={"X-Owner-Token": "forged"}), 403)
    assert client.get(f"/api/teams/{tid}").json()["team"]["name"] == "Road Hogs"
    ok = client.put(f"/api/teams/{tid}", json=body, headers={"X-Owner-Token": token})
    assert ok.status_code == 200 and ok.json()["team"]["name"] == "Stolen"
    assert client.delete(f"/api/teams/{tid}", headers={"X-Owner-Token": token}).status_code \
        == 200
    detail(client.delete(f"/api/teams/{tid}", headers={"X-Owner-Token": token}), 404)


def test_the_list_shows_only_your_teams_and_opened_ones(client: TestClient) -> None:
    a, ta = save(client, "Alpha")
    b, tb = save(client, "Beta")
    c, _ = save(client, "Gamma")
    assert client.get("/api/teams").json() == []  # no tokens: nobody's teams
    mine = client.get("/api/teams", headers={"X-Owner-Token": f"{ta}, {tb}"}).json()
    assert [(t["name"], t["owned"]) for t in mine] == [("Alpha", True), ("Beta", True)]
    with_shared = client.get("/api/teams", params={"opened": f"{c},nope"},
                             headers={"X-Owner-Token": ta}).json()
    assert [(t["id"], t["owned"]) for t in with_shared] == [(a, True), (c, False)]
    assert b not in {t["id"] for t in with_shared}


def test_the_token_is_shown_once_and_stored_hashed(client: TestClient, tmp_path: Path) -> None:
    tid, token = save(client)
    assert client.get(f"/api/teams/{tid}").json()["owner_token"] is None
    put = client.put(f"/api/teams/{tid}", json={"team": racer_team()},
                     headers={"X-Owner-Token": token})
    assert put.json()["owner_token"] is None
    raw = (tmp_path / "carnage.db").read_bytes()
    assert token.encode() not in raw


def test_ownership_is_reusable_for_other_kinds(client: TestClient) -> None:
    owners: Owners = client.app.state.owners
    t = owners.claim("campaign", "c1")
    assert owners.owns("campaign", "c1", [t]) and not owners.owns("team", "c1", [t])
    assert owners.owned("campaign", f"junk,{t}") == {"c1"}
    owners.release("campaign", "c1")
    assert not owners.owns("campaign", "c1", [t])
    assert split_tokens(",".join(["x"] * 2000)) == ["x"]
    assert len(split_tokens(",".join(str(i) for i in range(2000)))) == 500


# -- fair dice ---------------------------------------------------------------------------------
SEATS_2H = [{"controller": "human"}, {"controller": "human"}]


def create(client: TestClient, seats: list[dict[str, str]], seed: int | None,
           hot_seat: bool = False) -> dict[str, Any]:
    r = client.post("/api/games", json={"seats": seats, "seed": seed, "hot_seat": hot_seat})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def stored_seed(client: TestClient, gid: str) -> int:
    row = client.app.state.store.game(gid)
    assert row is not None
    return int(row.seed)


@pytest.mark.parametrize("seats, hot_seat", [
    ([{"controller": "heuristic"}, {"controller": "random"}], False),
    ([{"controller": "human"}, {"controller": "heuristic"}], False),
    ([{"controller": "human"}, {"controller": "heuristic"}], True),
])
def test_a_given_seed_is_used_when_at_most_one_human_plays(
    client: TestClient, seats: list[dict[str, str]], hot_seat: bool
) -> None:
    g = create(client, seats, 1234, hot_seat)
    assert g["seed"] == 1234 and stored_seed(client, g["id"]) == 1234


@pytest.mark.parametrize("hot_seat", [False, True])
def test_against_another_human_the_server_draws_the_seed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, hot_seat: bool
) -> None:
    # Hot-seat too: its two seat links could be handed to two different people.
    monkeypatch.setattr(sessions.secrets, "randbelow", lambda n: 987654321987)
    g = create(client, SEATS_2H, 1234, hot_seat)
    assert g["seed"] is None and len({x["token"] for x in g["seats"]}) == 2
    assert stored_seed(client, g["id"]) == 987654321987
    same = create(client, SEATS_2H, None)
    assert stored_seed(client, same["id"]) == 987654321987


def test_drawn_seeds_are_wide_and_differ(client: TestClient) -> None:
    seeds = {stored_seed(client, create(client, SEATS_2H, 5)["id"]) for _ in range(4)}
    assert len(seeds) == 4 and max(seeds) > 2**31


def test_the_seed_is_revealed_only_when_the_game_ends(client: TestClient) -> None:
    g = create(client, [{"controller": "human"}, {"controller": "heuristic"}], None)
    gid, tok = g["id"], g["seats"][0]["token"]
    seed = stored_seed(client, gid)
    view = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert view["seed"] is None and client.get(f"/api/games/{gid}").json()["seed"] is None
    for _ in range(3000):
        if view["status"] == "finished":
            break
        assert view["seed"] is None
        view = client.post(f"/api/games/{gid}/decisions", json={
            "token": tok, "version": view["version"],
            "choice": first_choice(view["pending"])}).json()
    assert view["status"] == "finished" and view["seed"] == seed
    assert client.get(f"/api/games/{gid}").json()["seed"] == seed


def test_every_seat_sees_how_the_seed_was_set_even_after_a_restart(client: TestClient) -> None:
    solo = create(client, [{"controller": "human"}, {"controller": "heuristic"}], 1234)
    fair = create(client, SEATS_2H, 1234, hot_seat=True)
    games = client.app.state.games
    for _ in range(2):
        for g, chosen in ((solo, True), (fair, False)):
            for seat in g["seats"]:
                view = client.get(f"/api/games/{g['id']}", params={"token": seat["token"]})
                assert view.json()["seed_chosen"] is chosen
        listed = {x["id"]: x["seed_chosen"] for x in client.get("/api/games").json()}
        assert listed[solo["id"]] is True and listed[fair["id"]] is False
        games.forget()  # a restart: the flag comes back from the database


def test_games_saved_before_the_dice_flag_read_as_chosen(client: TestClient) -> None:
    from sqlalchemy import delete

    from carnage.web.db import GameDiceRow

    g = create(client, SEATS_2H, 5)
    store = client.app.state.store
    with store.engine.begin() as conn:
        conn.execute(delete(GameDiceRow))
    assert store.game(g["id"]).seed_chosen is True  # the cautious reading
