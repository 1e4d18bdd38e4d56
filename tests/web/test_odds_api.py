"""The odds API (``/api/odds/...``): the CLI's answers over HTTP, one-sentence errors, and the
odds of a game's pending attack or skid decision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_games import advance_until, new_game
from tests.web.test_api_support import TestClient, new_client

from carnage.catalog import load_catalog
from carnage.games.refuelled.engine.attack import fire_check, weapon_arc
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import attack_odds, skid_odds


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def get(client: TestClient, path: str, **params: Any) -> Any:
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_attack_answer_matches_the_hand_derivation(client: TestClient) -> None:
    out = get(client, "/api/odds/attack", dice=2, evade_gear=1)
    # 2 dice: P(0 hits) 1/4, P(1 hit) 1/3; one evade die saves a lone hit 1/6 of the time.
    assert out["distribution"]["0"] == pytest.approx(1 / 4 + 1 / 3 * 1 / 6)
    assert out["exact"]["expected_damage"] == "29/24"
    assert out == attack_odds(2, evade_gear=1).to_json()
    covered = get(client, "/api/odds/attack", dice=1, cover="true", to_hit_bonus=0)
    assert covered["distribution"] == pytest.approx({"0": 4 / 6, "1": 1 / 6, "2": 1 / 6})


def test_other_queries(client: TestClient) -> None:
    skid = get(client, "/api/odds/skid", dice=2, hazards=4, manoeuvre="hazardous")
    assert skid["p_wipeout"] == pytest.approx(1 / 4)
    assert skid["wipeout_at"] == WIPEOUT_AT
    assert get(client, "/api/odds/flip", gear=5)["p_flip"] == pytest.approx(4 / 6)
    boom = get(client, "/api/odds/explode", ammo=1, weight="heavy", evade_gear=2)
    assert boom["p_explode"] == pytest.approx(2 / 6) and boom["explosion_dice"] == 6
    smash = get(client, "/api/odds/smash", gear=2, other_gear=3, other_reaction="evade")
    assert smash["a"]["smash_dice"] == 5 and smash["b"]["reaction"] == "evade"
    assert smash["a"]["hazards"] == 2


@pytest.mark.parametrize(("path", "params", "message"), [
    ("/api/odds/attack", {"dice": -1}, "query.dice: input should be greater than or equal to 0"),
    ("/api/odds/attack", {}, "query.dice: missing (required)"),
    ("/api/odds/skid", {"dice": 2, "manoeuvre": "both"}, "query.manoeuvre: input should be"),
    ("/api/odds/explode", {"ammo": 1, "weight": "huge"}, "query.weight: input should be"),
    ("/api/odds/smash", {"gear": 2, "orientation": "sideways"}, "query.orientation"),
    ("/api/odds/smash", {"gear": 2, "reaction": "ram"}, "'smash' or 'evade'"),
    ("/api/odds/flip", {"gear": 0}, "query.gear: input should be greater than or equal to 1"),
    ("/api/odds/attack", {"dice": 2, "to_hit_bonus": 7},
     "query.to_hit_bonus: input should be less than or equal to 6"),
])
def test_bad_queries_are_422_with_one_sentence(client: TestClient, path: str,
                                               params: dict[str, Any], message: str) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 422
    assert message in r.json()["detail"]


def test_the_odds_page_is_served(client: TestClient) -> None:
    r = client.get("/odds")
    assert r.status_code == 200 and "odds.js" in r.text
    assert 'href="/odds"' in client.get("/").text  # linked from the lobby


def attack_game(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    for seed in range(3, 13):  # the first seed whose game reaches an attack with a target
        g = new_game(client, "human", "human", seed=seed)
        both = ",".join(s["token"] for s in g["seats"])
        try:
            return g["id"], both, advance_until(client, g["id"], both, "attack")
        except AssertionError:
            continue
    raise AssertionError("no attack decision in ten games")


def test_pending_attack_odds_for_every_weapon_at_every_target(client: TestClient) -> None:
    gid, tokens, view = attack_game(client)
    out = get(client, f"/api/odds/games/{gid}/pending", token=tokens)
    assert out["kind"] == "attack" and out["vehicle"] == view["pending"]["vehicle"]
    offered = {str(o["value"]) for o in view["pending"]["options"]} - {"stop"}
    assert out["options"] and {o["option"] for o in out["options"]} == offered
    # Each answer is the weapon's dice against the target's gear, in cover as the engine
    # judges it for that weapon from where the shooter stands.
    s = client.app.state.games.get(gid)
    g = s.game
    shooter = g.state.vehicles[out["vehicle"]]
    cat = load_catalog()
    for o in out["options"]:
        key, _, tid = o["option"].partition(">")
        t = g.state.vehicles[tid]
        mount = next((m for m in shooter.weapons if m.key == key), None)
        w = cat.weapons.get(mount.weapon if mount else "handgun")
        assert (o["target"], o["dice"], o["evade_gear"]) == (tid, w.attack_dice, t.gear)
        bands = [b.value for b in w.ranges]
        arc = weapon_arc(mount, w)
        fc = next(fc for b in bands if (fc := fire_check(g, shooter, t, arc, b)).in_range)
        assert o["cover"] == fc.cover
        assert o["odds"] == attack_odds(w.attack_dice or 0, evade_gear=t.gear,
                                        cover=fc.cover).to_json()


def test_pending_skid_odds_per_dice_count(client: TestClient) -> None:
    g = new_game(client, "human", "human", seed=7)
    both = ",".join(s["token"] for s in g["seats"])
    view = advance_until(client, g["id"], both, "skid_dice")
    out = get(client, f"/api/odds/games/{g['id']}/pending", token=both)
    assert out["kind"] == "skid_dice"
    counts = [o["value"] for o in view["pending"]["options"]]
    assert len(counts) > 1 and [o["option"] for o in out["options"]] == counts
    for o in out["options"]:
        plain = skid_odds(o["dice"], trivial=o["trivial"], hazards=o["hazards"]).to_json()
        assert {k: v for k, v in o["odds"].items() if k != "push_it"} == plain
        assert o["odds"]["push_it"]["p_push"] >= 0


def test_pending_odds_need_a_seat_and_only_show_dice_decisions(client: TestClient) -> None:
    g = new_game(client, "human", "human", seed=7)
    gid = g["id"]
    tok0, tok1 = (s["token"] for s in g["seats"])
    assert client.get(f"/api/odds/games/{gid}/pending").status_code == 403
    r = client.get(f"/api/odds/games/{gid}/pending", params={"token": "nope"})
    assert r.status_code == 403 and "token" in r.json()["detail"]
    assert client.get("/api/odds/games/missing/pending", params={"token": tok0}
                      ).status_code == 404
    view = get(client, f"/api/games/{gid}", token=tok0)
    seat = view["pending"]["seat"]
    mine, theirs = (tok0, tok1) if seat == 0 else (tok1, tok0)
    out = get(client, f"/api/odds/games/{gid}/pending", token=mine)
    assert out["kind"] == view["pending"]["kind"] != "attack"
    assert out["options"] == []
    other = get(client, f"/api/odds/games/{gid}/pending", token=theirs)
    assert other["options"] == [] and other["seat"] == seat
