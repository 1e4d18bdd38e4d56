"""Companion play through the API: dice entered from the table (a ``table_dice`` decision),
undo of the last human answer (companion and hot-seat games only, by the seat that gave it,
the bots' answers after it undone too), a version that only grows, and the compare-and-set
save between two server processes."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import FastAPI
from tests.web.test_api_support import TestClient, first_choice, new_client

from carnage.web.sessions import Games


def games_of(client: TestClient) -> Games:
    """The live games of the app the client talks to."""
    return cast(Games, cast(FastAPI, client.app).state.games)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def create(client: TestClient, *controllers: str, seed: int = 7, **mode: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"scenario": "street-race", "seed": seed, "seats": [
        {"controller": c} for c in controllers], **mode})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def view(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(client: TestClient, gid: str, token: str, version: int, choice: Any) -> Any:
    return client.post(f"/api/games/{gid}/decisions",
                       json={"token": token, "version": version, "choice": choice})


def undo(client: TestClient, gid: str, token: str, version: int) -> Any:
    return client.post(f"/api/games/{gid}/undo", json={"token": token, "version": version})


def answer(pending: dict[str, Any]) -> Any:
    """The scripted player; the table's dice always show 6 then 4, 4 ... (the roll-off for
    Pole Position: the first seat rolls a 6, the next a 5 ...)."""
    if pending["kind"] == "table_dice" and "setting up the game" in pending["prompt"]:
        return str(6 - pending["seat"])
    if pending["kind"] == "table_dice":
        highest = str(pending["options"][0]["value"]).split(",")  # every die on its top face
        n, sides = len(highest), int(highest[0])
        return ",".join([str(sides)] + [str(min(4, sides))] * (n - 1))
    return first_choice(pending)


def until(client: TestClient, gid: str, token: str, kind: str, limit: int = 300,
          pick: dict[str, Any] | None = None) -> dict[str, Any]:
    v = view(client, gid, token)
    for _ in range(limit):
        p = v["pending"]
        assert p is not None, "the game ended first"
        if p["kind"] == kind:
            return v
        choice = (pick or {}).get(p["kind"], answer(p))
        r = act(client, gid, token, v["version"], choice)
        assert r.status_code == 200, r.text
        v = r.json()
    raise AssertionError(f"no {kind} decision")


def _detail(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail
    return detail


def test_skid_dice_entered_at_the_table_are_the_dice_rolled(client: TestClient) -> None:
    g = create(client, "human", "heuristic", physical=True, dice="table")
    gid, tok = g["id"], g["seats"][0]["token"]
    assert g["seats"][0]["url"] == f"/companion/{gid}?token={tok}"  # the page for a real table
    v = until(client, gid, tok, "skid_dice")
    r = act(client, gid, tok, v["version"], 2)
    assert r.status_code == 200, r.text
    v = r.json()
    p = v["pending"]
    assert p["kind"] == "table_dice" and p["seat"] == 0 and "2D6" in p["prompt"]
    assert _detail(act(client, gid, tok, v["version"], "6,9"), 422)
    r = act(client, gid, tok, v["version"], "6,4")
    assert r.status_code == 200, r.text
    rolls = [e for e in client.get(f"/api/games/{gid}/events").json() if e["kind"] == "roll"]
    assert rolls[-1]["data"]["dice"] == [6, 4] and rolls[-1]["data"]["why"] == "skid dice"
    row = games_of(client).store.game(gid)
    assert row.choices[-1] == "6,4" and row.choices[-2] == 2
    games_of(client).forget()
    again = view(client, gid, tok)  # rebuilt from the choices, entries included
    assert again["version"] == r.json()["version"] and again["pending"] == r.json()["pending"]
    steps = client.get(f"/api/games/{gid}/replay", params={"token": tok})
    assert steps.status_code == 200 and len(steps.json()["steps"]) == len(row.choices) + 1


def test_the_odds_of_a_dice_entry_are_none(client: TestClient) -> None:
    g = create(client, "human", "heuristic", physical=True, dice="table")
    gid, tok = g["id"], g["seats"][0]["token"]
    v = until(client, gid, tok, "skid_dice")
    odds = client.get(f"/api/odds/games/{gid}/pending", params={"token": tok}).json()
    assert odds["kind"] == "skid_dice" and len(odds["options"]) == 4
    v = act(client, gid, tok, v["version"], 3).json()
    odds = client.get(f"/api/odds/games/{gid}/pending", params={"token": tok}).json()
    assert odds["kind"] == "table_dice" and odds["options"] == []


def test_skid_dice_may_stay_on_screen(client: TestClient) -> None:
    g = create(client, "human", "heuristic", physical=True, dice="table",
               screen_dice=["skid_dice"])
    gid, tok = g["id"], g["seats"][0]["token"]
    v = until(client, gid, tok, "skid_dice")
    r = act(client, gid, tok, v["version"], 2)
    assert r.status_code == 200 and r.json()["pending"]["kind"] != "table_dice"


def test_undo_takes_back_the_answer_and_the_bots_after_it(client: TestClient) -> None:
    g = create(client, "human", "heuristic", physical=True, dice="table")
    gid, tok = g["id"], g["seats"][0]["token"]
    v = until(client, gid, tok, "template")
    n_before = len(games_of(client).store.game(gid).choices)
    before = v
    # answer until the bot has answered after a human answer
    for _ in range(200):
        r = act(client, gid, tok, v["version"], answer(v["pending"]))
        assert r.status_code == 200, r.text
        after = r.json()
        jumped = after["version"] - v["version"] > 1
        if jumped:
            break
        before, v = after, after
    else:
        raise AssertionError("the bot never answered")
    last = v  # the view the last human answer was given from
    r = undo(client, gid, tok, after["version"])
    assert r.status_code == 200, r.text
    now = view(client, gid, tok)
    assert now["version"] == r.json()["version"] > after["version"]  # the version only grows
    assert now["pending"] == last["pending"]  # as it stood before the human answer
    row = games_of(client).store.game(gid)
    assert len(row.choices) == last["version"] - 0 and len(row.choices) >= n_before
    assert row.version == now["version"]
    # a client still showing the undone state is stale, and so is one before it
    for stale in (after["version"], last["version"]):
        assert "stale" in _detail(act(client, gid, tok, stale, answer(after["pending"] or
                                                                      last["pending"])), 409)
    # the game goes on from the undone point, and survives a reload from the database
    r = act(client, gid, tok, now["version"], answer(now["pending"]))
    assert r.status_code == 200, r.text
    games_of(client).forget()
    assert view(client, gid, tok)["version"] == r.json()["version"]
    del before


def test_undo_is_refused_online_to_others_and_when_stale(client: TestClient) -> None:
    online = create(client, "human", "human")
    t0, t1 = (s["token"] for s in online["seats"])
    v = view(client, online["id"], t0)
    seat = v["pending"]["seat"]
    tok = (t0, t1)[seat]
    r = act(client, online["id"], tok, v["version"], answer(v["pending"]))
    assert r.status_code == 200
    assert "online game" in _detail(undo(client, online["id"], tok, r.json()["version"]), 403)

    hot = create(client, "human", "human", hot_seat=True)
    gid = hot["id"]
    t0, t1 = (s["token"] for s in hot["seats"])
    both = f"{t0},{t1}"
    v = view(client, gid, both)
    assert "nothing to undo" in _detail(undo(client, gid, both, v["version"]), 409)
    r = act(client, gid, both, v["version"], answer(v["pending"]))
    assert r.status_code == 200
    v2 = r.json()
    assert "every human seat" in _detail(undo(client, gid, t0, v2["version"]), 403)
    assert "stale" in _detail(undo(client, gid, both, v["version"]), 409)
    assert "token" in _detail(undo(client, gid, "", v2["version"]), 403)
    r = undo(client, gid, both, v2["version"])
    assert r.status_code == 200, r.text
    assert view(client, gid, both)["pending"] == v["pending"]

    comp = create(client, "human", "human", physical=True)
    gid = comp["id"]
    t0, t1 = (s["token"] for s in comp["seats"])
    v = view(client, gid, f"{t0},{t1}")
    who = v["pending"]["seat"]
    mine, other = (t0, t1) if who == 0 else (t1, t0)
    r = act(client, gid, mine, v["version"], answer(v["pending"]))
    assert r.status_code == 200
    asked = undo(client, gid, other, r.json()["version"])  # another's answer: not alone
    assert asked.status_code == 200 and asked.json()["undone"] is False
    assert undo(client, gid, mine, r.json()["version"]).json()["undone"] is True


def _seat_of(g: dict[str, Any], seat: int) -> str:
    return str(g["seats"][seat]["token"])


def _to(client: TestClient, gid: str, tokens: str, kinds: set[str]) -> dict[str, Any]:
    """Answer (with every seat's tokens) until the pending decision is of one of ``kinds``."""
    v = view(client, gid, tokens)
    for _ in range(300):
        if v["pending"]["kind"] in kinds:
            return v
        r = act(client, gid, tokens, v["version"], answer(v["pending"]))
        assert r.status_code == 200, r.text
        v = r.json()
    raise AssertionError(f"none of {kinds}")


def test_one_phone_per_player_undoes_a_mis_tap_alone_and_dice_only_together(
        tmp_path: Path) -> None:
    """Ruling CP-20: with one phone per player, a seat takes back alone its own last answer
    before any dice fell for it; another seat's answer, or dice entered (or rolled) for it,
    only once every other human seat agrees (each asks the same undo from its own phone;
    the ask holds across server processes, until the game moves on). One shared phone
    (every seat's token) undoes anything at once."""
    a, b = new_client(tmp_path), new_client(tmp_path)
    g = create(a, "human", "human", physical=True, dice="table")
    gid, both = g["id"], ",".join(s["token"] for s in g["seats"])
    v = _to(a, gid, both, {"template"})
    seat = v["pending"]["seat"]
    me, them = _seat_of(g, seat), _seat_of(g, 1 - seat)
    # a mis-tap: my own answer, no dice yet: undone by me alone
    r = act(a, gid, me, v["version"], answer(v["pending"]))
    assert r.status_code == 200 and r.json()["pending"]["kind"] == "skid_dice"
    u = undo(a, gid, me, r.json()["version"])
    assert u.status_code == 200 and u.json()["undone"] is True, u.text
    assert view(a, gid, me)["pending"] == v["pending"]
    # dice entered for my answer: I ask, and it waits for the other seat
    v = view(a, gid, me)
    v = act(a, gid, me, v["version"], answer(v["pending"])).json()  # the template
    v = act(a, gid, me, v["version"], 2).json()  # two skid dice
    assert v["pending"]["kind"] == "table_dice"
    v = act(a, gid, me, v["version"], "6,4").json()
    entered = v["version"]
    u = undo(a, gid, me, entered)
    assert u.status_code == 200, u.text
    out = u.json()
    assert out["undone"] is False and out["version"] == entered and len(out["waits_for"]) == 1
    assert "agree" in out["message"] and "dice" in out["message"]
    assert out["waits_for"][0] in out["message"]
    assert view(a, gid, me)["version"] == entered  # nothing moved
    assert view(a, gid, them)["undo_asked"] == [seat]  # the other phone shows the ask
    # asking again alone changes nothing; the other seat agrees through another process
    assert undo(a, gid, me, entered).json()["undone"] is False
    u = undo(b, gid, them, entered)
    assert u.status_code == 200 and u.json()["undone"] is True, u.text
    now = view(a, gid, me)
    assert now["version"] > entered and now["pending"]["kind"] == "table_dice"
    assert now["undo_asked"] == []
    # an ask goes stale once the game moves on: my ask of the entry's undo is no agreement
    # to taking back my next answer
    r = act(a, gid, me, now["version"], "6,4")
    assert r.status_code == 200, r.text
    assert undo(a, gid, me, r.json()["version"]).json()["undone"] is False
    p = r.json()["pending"]
    assert p["seat"] == seat, p
    keep = next(o["value"] for o in p["options"] if o["label"] == "Keep the dice")
    r2 = act(a, gid, me, r.json()["version"], keep)  # no die rerolled
    assert r2.status_code == 200, r2.text
    u = undo(b, gid, them, r2.json()["version"])
    assert u.status_code == 200 and u.json()["undone"] is False, u.text
    # one shared phone: dice and all, at once
    u = undo(a, gid, both, view(a, gid, both)["version"])
    assert u.status_code == 200 and u.json()["undone"] is True, u.text


def test_the_roll_off_for_pole_position_is_entered_from_the_table(client: TestClient) -> None:
    """With table dice the roll-off for Pole Position (p.62) is asked as a dice entry like
    any other roll, from any human seat's phone; a tie asks again; the game replays it."""
    g = create(client, "human", "human", physical=True, dice="table")
    gid = g["id"]
    t0, t1 = _seat_of(g, 0), _seat_of(g, 1)
    v = view(client, gid, t0)
    faces = ["4", "4", "1", "6"]
    for i, f in enumerate(faces):
        p = v["pending"]
        assert p["kind"] == "table_dice" and "pole roll-off" in p["prompt"], p
        assert p["seat"] == i % 2 and "setting up the game" in p["prompt"]
        r = act(client, gid, (t1, t0)[i % 2], v["version"], f)  # either phone enters it
        assert r.status_code == 200, r.text
        v = r.json()
    assert v["pending"]["kind"] == "deploy" and v["pending"]["seat"] == 1
    events = client.get(f"/api/games/{gid}/events").json()
    assert [e["data"]["dice"] for e in events if e["kind"] == "roll"] == [[4], [4], [1], [6]]
    assert [e["data"]["player"] for e in events if e["kind"] == "pole"] == [1]
    games_of(client).forget()
    assert view(client, gid, t1)["pending"] == v["pending"]
    u = undo(client, gid, f"{t0},{t1}", v["version"])  # the last die, taken back
    assert u.status_code == 200 and u.json()["undone"] is True, u.text
    assert "pole roll-off" in view(client, gid, t0)["pending"]["prompt"]


def test_table_dice_need_a_person(client: TestClient) -> None:
    r = client.post("/api/games", json={"scenario": "street-race", "dice": "table", "seats": [
        {"controller": "heuristic"}, {"controller": "random"}]})
    assert "need a person" in _detail(r, 422)


def test_undo_through_one_process_makes_the_others_copy_stale(tmp_path: Path) -> None:
    a, b = new_client(tmp_path), new_client(tmp_path)  # two processes, one database
    g = create(a, "human", "human", physical=True, dice="table")
    gid = g["id"]
    both = ",".join(s["token"] for s in g["seats"])
    v = view(a, gid, both)
    r = act(a, gid, both, v["version"], answer(v["pending"]))
    assert r.status_code == 200
    seen_b = view(b, gid, both)  # b caches the game at this version
    assert seen_b["version"] == r.json()["version"]
    assert undo(a, gid, both, seen_b["version"]).status_code == 200
    # b's cached copy is behind the database: its client's choice is refused as stale ...
    assert "stale" in _detail(act(b, gid, both, seen_b["version"],
                                  answer(seen_b["pending"])), 409)
    # ... and so is a second undo of the same state
    assert "stale" in _detail(undo(b, gid, both, seen_b["version"]), 409)
    now = view(b, gid, both)
    assert now["version"] > seen_b["version"] and now["pending"] == v["pending"]


def test_devils_run_takes_the_same_path(client: TestClient) -> None:
    """Devil's Run offers no companion mode (its engine measures its own grid), so it is
    refused as one; its dice rolled at the table and the undo of a hot-seat game take the
    same path as Refuelled's."""
    from carnage.rulesets import RULESETS

    scenario = RULESETS["devils-run"].scenario_infos()[0].id
    r = client.post("/api/games", json={
        "ruleset": "devils-run", "scenario": scenario, "seed": 3, "physical": True,
        "dice": "table", "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 422 and "no companion mode" in r.json()["detail"], r.text
    r = client.post("/api/games", json={
        "ruleset": "devils-run", "scenario": scenario, "seed": 3, "dice": "table",
        "hot_seat": True, "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tok = ",".join(s["token"] for s in r.json()["seats"])
    v = view(client, gid, tok)
    entries = 0
    for _ in range(60):
        p = v["pending"]
        if p is None:
            break
        entries += p["kind"] == "table_dice"
        r = act(client, gid, tok, v["version"], answer(p))
        assert r.status_code == 200, r.text
        v = r.json()
    assert entries > 0
    r = undo(client, gid, tok, v["version"])
    assert r.status_code == 200, r.text
    games_of(client).forget()
    assert view(client, gid, tok)["version"] == r.json()["version"]
