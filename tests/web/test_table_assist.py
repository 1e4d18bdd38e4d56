"""Fewer clicks at the table (kernel/assist.py, games/refuelled/assist.py, web/sessions.py):
questions whose answer cannot matter are answered by the server, optional prompts follow each
seat's preference, several answers go in one action, and every game still replays exactly from
its stored choices."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import delete
from tests.web.test_api_support import TestClient, first_choice, new_client

from carnage.kernel.codec import encode
from carnage.web.db import GameSnapshotRow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"
View = dict[str, Any]


SOLO = {"name": "Solo", "cans": 20, "vehicles": [
    {"name": "Solo Car", "type": "car", "weapons": [{"id": "machine_gun", "facing": "front"}]}]}
"""A team of one vehicle: "which vehicle activates?" has one answer."""


def _new(client: TestClient, seed: int = 3,
         team: str | dict[str, Any] | None = None) -> tuple[str, str, View]:
    seat: dict[str, Any] = {"controller": "human"}
    if team is not None:
        data = team if isinstance(team, dict) else \
            yaml.safe_load((EXAMPLES / team).read_text(encoding="utf-8"))
        r = client.post("/api/teams", json={"team": data})
        assert r.status_code == 201, r.text
        seat["team_id"] = r.json()["id"]
    r = client.post("/api/games", json={"scenario": "street-race", "seed": seed,
                                        "seats": [seat, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, tok = g["id"], g["seats"][0]["token"]
    return gid, tok, client.get(f"/api/games/{gid}", params={"token": tok}).json()


def _answer(p: View) -> Any:
    """A plain player: a permitted template, every skid die, else the first option (the
    domain's low end)."""
    if p["kind"] == "skid_dice":
        return p["options"][-1]["value"]
    if p["kind"] == "template":
        return next((o["value"] for o in p["options"] if not o["label"].endswith("[-]")),
                    p["options"][0]["value"])
    return first_choice(p)


def _post(client: TestClient, gid: str, tok: str, v: View, choice: Any,
          then: list[dict[str, Any]] | None = None, status: int = 200) -> Any:
    body: dict[str, Any] = {"token": tok, "version": v["version"], "choice": choice}
    if then is not None:
        body["then"] = then
    r = client.post(f"/api/games/{gid}/decisions", json=body)
    assert r.status_code == status, r.text
    return r.json()


def _drive(client: TestClient, gid: str, tok: str, v: View, until: Callable[[View], bool],
           limit: int = 300) -> View:
    for _ in range(limit):
        assert v["status"] != "finished", "the game ended first"
        if until(v):
            return v
        v = _post(client, gid, tok, v, _answer(v["pending"]))
    raise AssertionError("never reached")


def _session(client: TestClient, gid: str) -> Any:
    return client.app.state.games.get(gid)


# -- what cannot matter is not asked -----------------------------------------------------------
def test_a_question_with_one_legal_answer_is_never_put_to_a_person(tmp_path: Path) -> None:
    """Refuelled's kernel takes a lone option itself (a ``forced_choice``); the table takes
    one for any ruleset whose engine asks it (``automatic_answer``)."""
    from carnage.games.refuelled.engine.game import ask
    from carnage.kernel.assist import automatic_answer

    client = new_client(tmp_path)
    gid, tok, v = _new(client, team=SOLO)
    for _ in range(60):
        if v["status"] == "finished":
            break
        p = v["pending"]
        assert p["domain"] is not None or len(p["options"]) >= 2, p
        v = _post(client, gid, tok, v, _answer(p))
    lone = ask(0, "activate", "which vehicle?", [("car", "Car")])
    assert automatic_answer(None, None, lone, {}) == ("car", "the only legal answer")
    two = ask(0, "activate", "which vehicle?", [("car", "Car"), ("bus", "Bus")])
    assert automatic_answer(None, None, two, {}) is None


def test_a_step_the_people_confirm_is_put_to_them_though_it_has_one_answer() -> None:
    """A Spin at a real table (ruling CP-25): the people turn the car, then tap Done; the
    table never taps it for them, nor does the kernel take it as a forced choice."""
    from dataclasses import replace

    from tests.builders import vehicle

    from carnage.games.refuelled.engine.movement import ask_spin_at_table
    from carnage.kernel.assist import automatic_answer

    d = ask_spin_at_table(vehicle("car", "car", 600, 600))
    assert d.confirm and [o.value for o in d.options] == ["done"]
    assert automatic_answer(None, None, d, {}) is None
    assert automatic_answer(None, None, replace(d, confirm=False), {}) == (
        "done", "the only legal answer")


def test_answers_that_all_lead_to_the_same_game_are_taken_for_the_seat() -> None:
    """A car that cannot change gear (its top gear is 1) and holds no Hazard, with the
    trivial Medium Straight's free Shift: discarding it or being done is the same game."""
    from tests.builders import play, run_step, table, vehicle

    from carnage.games.refuelled.assist import ASSIST
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.movement import movement_step
    from carnage.kernel.assist import automatic_answer, same_outcome

    def move(g: Game) -> Flow:
        yield from movement_step(g, g.state.vehicles["car"])

    stuck = table(vehicle("car", "car", 600, 300, gear=1))
    stuck.vehicles["car"].max_gear = 1
    g = run_step(stuck, move)
    play(g, "medium_straight", 0)
    d = g.pending()
    assert d is not None and d.kind == "spend_shift"
    assert {o.value for o in d.options} == {"discard", "done"}
    assert same_outcome(g, d) == "discard"
    assert automatic_answer(ASSIST, g, d, {}) == ("discard",
                                                   "every answer leads to the same game")
    # With a gear to change up to, the answer matters.
    free = run_step(table(vehicle("car", "car", 600, 300, gear=1)), move)
    play(free, "medium_straight", 0)
    d2 = free.pending()
    assert d2 is not None and "gear_up" in {o.value for o in d2.options}
    assert same_outcome(free, d2) is None and automatic_answer(ASSIST, free, d2, {}) is None


# -- several answers in one action -------------------------------------------------------------
def test_the_template_and_its_skid_dice_go_in_one_action(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "template"
               and x["pending"]["follow_up"] is not None)
    follow = v["pending"]["follow_up"]
    assert follow["kind"] == "skid_dice" and follow["options"][0] == 0
    n = follow["options"][-1]
    after = _post(client, gid, tok, v, _answer(v["pending"]),
                  [{"kind": "skid_dice", "choice": n}])
    assert after["version"] >= v["version"] + 2
    assert after["pending"]["kind"] != "skid_dice"
    game = _session(client, gid).game
    decided = [e.data for e in game.log.events if e.kind == "decision"]
    assert decided[v["version"]]["decision"] == "template"
    assert decided[v["version"] + 1] == {**decided[v["version"] + 1], "decision": "skid_dice",
                                         "choice": n}


def test_a_then_answer_of_another_kind_ends_the_action_there(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "template")
    after = _post(client, gid, tok, v, _answer(v["pending"]),
                  [{"kind": "attack", "choice": "stop"}])
    assert after["pending"]["kind"] in ("skid_dice", "push_it", "spend_shift", "template",
                                        "spin", "collision_reaction", "attack", "activate")
    game = _session(client, gid).game
    assert [e.data["decision"] for e in game.log.events if e.kind == "decision"][
        v["version"]] == "template"


def test_a_refused_answer_in_an_action_refuses_it_all(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "template"
               and x["pending"]["follow_up"] is not None)
    game_before = json.dumps(_session(client, gid).game.snapshot(), sort_keys=True)
    err = _post(client, gid, tok, v, _answer(v["pending"]),
                [{"kind": "skid_dice", "choice": 99}], status=422)
    # nothing of it stays: the game (dice included) is as it stood
    assert json.dumps(_session(client, gid).game.snapshot(), sort_keys=True) == game_before
    assert err["detail"].startswith("then[0]:")
    now = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert now["version"] == v["version"] and now["pending"] == v["pending"]
    store = client.app.state.store
    row = store.game(gid)
    assert row is not None and len(row.choices) == v["version"]


def test_keep_the_dice_and_spend_the_shifts_as_suggested_in_one_action(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "push_it"
               and bool(x["pending"]["shortcuts"]))
    sc = v["pending"]["shortcuts"][0]
    assert sc["intent"] == "keep" and sc["choice"] == "no"
    assert sc["label"].startswith("Keep the dice; Shifts: ")
    assert all(st["kind"] == "spend_shift" for st in sc["then"]) and sc["then"]
    vehicle = v["pending"]["vehicle"]
    after = _post(client, gid, tok, v, sc["choice"], sc["then"])
    p = after["pending"]
    assert not (p["kind"] in ("push_it", "spend_shift") and p["vehicle"] == vehicle)
    game = _session(client, gid).game
    kinds = [e.data["decision"] for e in game.log.events if e.kind == "decision"]
    assert kinds[v["version"]:v["version"] + 1 + len(sc["then"])] == \
        ["push_it"] + ["spend_shift"] * len(sc["then"])


def test_fire_everything_at_one_target_in_one_action(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client, seed=5)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "attack"
               and any(s["intent"] == "fire_at" for s in x["pending"]["shortcuts"]), limit=600)
    p = v["pending"]
    sc = next(s for s in p["shortcuts"] if s["intent"] == "fire_at")
    target = sc["choice"][2:]
    keys = {str(o["value"]).split(">")[0] for o in p["options"]
            if str(o["value"]).endswith(f">{target}")}
    # One button per target: no two shortcuts do the same.
    assert len({s["choice"] for s in p["shortcuts"]}) == len(p["shortcuts"])
    game = _session(client, gid).game
    seen = len(game.log.events)
    after = _post(client, gid, tok, v, sc["choice"])
    game = _session(client, gid).game
    declared = [e.data for e in game.log.events[seen:] if e.kind == "declare_attack"
                and e.data["vehicle"] == p["vehicle"]]
    assert declared and all(d["target"] == target for d in declared)
    assert {d["weapon"] for d in declared} == keys
    q = after["pending"]
    assert q is None or not (q["kind"] == "attack" and q["vehicle"] == p["vehicle"])


# -- a vehicle's templates before it is chosen -------------------------------------------------
def test_a_preview_shows_the_next_question_and_changes_nothing(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client)
    v = _drive(client, gid, tok, v, lambda x: x["pending"]["kind"] == "activate")
    vid = v["pending"]["options"][-1]["value"]
    session = _session(client, gid)
    game_before = json.dumps(session.game.snapshot(), sort_keys=True)
    r = client.get(f"/api/games/{gid}/preview", params={
        "token": tok, "version": v["version"], "choice": vid})
    assert r.status_code == 200, r.text
    seen = r.json()
    assert seen["pending"]["kind"] == "template" and seen["pending"]["vehicle"] == vid
    assert seen["pending"]["follow_up"]["kind"] == "skid_dice"
    assert json.dumps(session.game.snapshot(), sort_keys=True) == game_before
    now = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert now["version"] == v["version"] and now["pending"] == v["pending"]
    # The vehicle, its template and its dice in one action.
    tpl = _answer(seen["pending"])
    after = _post(client, gid, tok, v, vid, [{"kind": "template", "choice": tpl},
                                              {"kind": "skid_dice", "choice": 0}])
    assert after["version"] >= v["version"] + 3
    # A preview that would roll dice is refused: it would show what is not yet known.
    v = _drive(client, gid, tok, after, lambda x: x["pending"]["kind"] == "skid_dice"
               or (x["pending"]["kind"] == "template" and x["pending"]["follow_up"]))
    if v["pending"]["kind"] == "template":
        v = _post(client, gid, tok, v, _answer(v["pending"]))
    assert v["pending"]["kind"] == "skid_dice"
    r = client.get(f"/api/games/{gid}/preview", params={
        "token": tok, "version": v["version"], "choice": "1"})
    assert r.status_code == 409 and "cannot be previewed" in r.json()["detail"]
    r = client.get(f"/api/games/{gid}/preview", params={"version": v["version"],
                                                         "choice": "1", "token": "nope"})
    assert r.status_code == 403


# -- preferences for optional prompts ----------------------------------------------------------
def test_optional_prompts_follow_the_seats_preference(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, tok, v = _new(client, seed=2, team="idris_cult_of_speed.yaml")
    session = _session(client, gid)
    assist = session.ruleset.table.assist
    r = client.put(f"/api/games/{gid}/preferences", json={"token": tok, "key": "nitro",
                                                           "value": "ask"})
    assert r.status_code == 200, r.text
    v = _drive(client, gid, tok, r.json(), lambda x: x["pending"]["kind"] == "nitro")
    pref = v["pending"]["preference"]
    assert pref["key"] == "nitro" and pref["value"] == "ask"
    assert set(pref["choices"]) == {"ask", "matters", "never"}
    # "never": the pending prompt is answered at once, "no", and none is asked again.
    r = client.put(f"/api/games/{gid}/preferences", json={"token": tok, "key": "nitro",
                                                           "value": "never"})
    assert r.status_code == 200, r.text
    v2 = r.json()
    assert v2["version"] > v["version"] and v2["pending"]["kind"] != "nitro"
    game = session.game
    assert game.choices[v["version"]] == "no"
    texts = [ln["text"] for ln in client.get(f"/api/games/{gid}/log").json()]
    assert any("Nitro Booster: never asked (the seat's preference)" in t for t in texts)
    v3 = v2
    for _ in range(80):
        if v3["status"] == "finished":
            break
        assert v3["pending"]["kind"] != "nitro"
        v3 = _post(client, gid, tok, v3, _answer(v3["pending"]))
    # "only when it matters": a Nitro prompt is put only when the sensible answer fires it.
    client.put(f"/api/games/{gid}/preferences", json={"token": tok, "key": "nitro",
                                                      "value": "matters"})
    for _ in range(80):
        v3 = client.get(f"/api/games/{gid}", params={"token": tok}).json()
        if v3["status"] == "finished":
            break
        if v3["pending"]["kind"] == "nitro":
            d = session.game.pending()
            assert assist.sensible(session.game, d) == "yes"
        _post(client, gid, tok, v3, _answer(v3["pending"]))
    # The preference is kept with the game's seats.
    client.app.state.games.forget()
    assert _session(client, gid).seats[0].prefs == {"nitro": "matters"}


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"key": "nitro", "value": "sometimes"}, 422, "value"),
    ({"key": "", "value": "never"}, 422, "key"),
    ({"token": "", "key": "nitro", "value": "never"}, 403, "seat token"),
])
def test_a_bad_preference_is_refused_by_name(tmp_path: Path, body: dict[str, Any],
                                              status: int, words: str) -> None:
    client = new_client(tmp_path)
    gid, tok, _ = _new(client)
    r = client.put(f"/api/games/{gid}/preferences", json={"token": tok, **body})
    assert r.status_code == status and words in r.text


# -- everything replays ------------------------------------------------------------------------
def test_a_game_played_with_shortcuts_replays_exactly_from_its_choices(tmp_path: Path) -> None:
    from tests.web.clicks_player import Player, new_street_race

    client = new_client(tmp_path)
    gid, tok = new_street_race(client, 3)  # its Audience Votes are declined unasked
    Player(client, gid, tok, "shortcuts", 3).play()
    session = _session(client, gid)
    before = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    live = encode(session.game.state)
    log = client.get(f"/api/games/{gid}/log").json()
    store = client.app.state.store
    with store.engine.begin() as conn:  # no snapshot: the choices alone rebuild it
        conn.execute(delete(GameSnapshotRow).where(GameSnapshotRow.game_id == gid))
    client.app.state.games.forget()
    after = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert after["version"] == before["version"] and after["pending"] == before["pending"]
    assert after["vehicles"] == before["vehicles"]
    assert encode(_session(client, gid).game.state) == live
    assert client.get(f"/api/games/{gid}/log").json() == log  # automatic answers still said
    assert any("answered by the table" in ln["text"] for ln in log)
