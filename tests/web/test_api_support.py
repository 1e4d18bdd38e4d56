"""Shared helpers for the web API tests (a client on a temp SQLite file, teams, a scripted
player), and tests of the small pure pieces: event sentences and validation messages."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from carnage.games.refuelled.text import event_text
from carnage.kernel.events import Event
from carnage.web.app import create_app, validation_sentence

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette prefers httpx2; httpx works the same here
    from fastapi.testclient import TestClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"


def new_client(tmp_path: Path, name: str = "carnage.db") -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / name}"))


def racer_team(name: str = "Road Hogs", cans: int = 25) -> dict[str, Any]:
    """A legal team: a Car and a Buggy with front machine guns (22 cans)."""
    return {
        "name": name,
        "cans": cans,
        "vehicles": [
            {"name": f"{name} Car", "type": "car",
             "weapons": [{"id": "machine_gun", "facing": "front"}]},
            {"name": f"{name} Buggy", "type": "buggy",
             "weapons": [{"id": "machine_gun", "facing": "front"}]},
        ],
    }


def first_choice(pending: dict[str, Any]) -> Any:
    """The scripted player: the first legal option, or the low end of a domain."""
    if pending["options"]:
        return pending["options"][0]["value"]
    return pending["domain"]["low"]


def play_to_end(client: TestClient, gid: str, token: str, limit: int = 3000) -> dict[str, Any]:
    """Answer every decision of ``token``'s seat with ``first_choice`` until the game ends."""
    view = client.get(f"/api/games/{gid}", params={"token": token}).json()
    for _ in range(limit):
        if view["status"] == "finished":
            return view
        p = view["pending"]
        assert p is not None and p["seat"] == view["your_seat"]
        r = client.post(f"/api/games/{gid}/decisions", json={
            "token": token, "version": view["version"], "choice": first_choice(p)})
        assert r.status_code == 200, r.text
        new = r.json()
        assert new["version"] > view["version"]
        view = new
    raise AssertionError(f"no result after {limit} choices")


# -- the pure pieces ---------------------------------------------------------------------------
def test_event_sentences_name_vehicles_and_cite_the_page() -> None:
    names = {"p1-red-car": "Red Car", "rock-1": "rock 1"}
    skid = Event(3, "roll", {"why": "skid dice", "dice": [2, 5, 6], "vehicle": "p1-red-car"},
                 source="skid_dice", page=22)
    assert event_text(skid, names) == "Red Car rolled 3 skid dice: Spin, Shift, Shift (p.22)"
    move = Event(4, "move", {"vehicle": "p1-red-car", "x": 10.0, "y": 20.5, "heading": 90.0,
                             "interrupted": True, "touched": ["rock-1"]}, page=25)
    assert event_text(move, names) == (
        "Red Car moves and faces north, stopped by rock 1 (p.25)")
    on_table = {**names, "table:size": "900,1200"}
    assert event_text(move, on_table) == (
        "Red Car moves to the south-west of the table, facing north, stopped by rock 1 (p.25)")
    told = Event(4, "move", {**move.data, "_before": [10.0, 170.5, 45.0]}, page=25)
    assert event_text(told, on_table) == (  # from 150 mm north, facing north-east
        "Red Car moves 106 mm back and 106 mm right, turning 45° left, to the south-west of "
        "the table, facing north, stopped by rock 1 (p.25)")
    wreck_gone = Event(5, "obstacle_removed", {"obstacle": "wreck:p1-red-car"},
                       source="destructible", page=54)
    assert event_text(wreck_gone, names) == "The wreck of Red Car is destroyed and removed (p.54)"
    over = Event(9, "game_over", {"winner": 1, "draw": False, "reason": "crossed the line"})
    assert event_text(over, names) == "Blue wins: crossed the line"
    assert event_text(over, {**names, "seat:1": "Blue (Road Hogs)"}) == (
        "Blue (Road Hogs) wins: crossed the line")
    one = Event(6, "roll", {"why": "flip check", "dice": [4], "vehicle": "p1-red-car"}, page=34)
    assert event_text(one, names) == "Red Car rolled 1 die for flip check: 4 (p.34)"


def test_unknown_or_odd_events_still_read_as_text() -> None:
    odd = Event(1, "new_rule_kind", {"vehicle": "p1-red-car", "amount": 3}, source="x", page=7)
    assert event_text(odd, {"p1-red-car": "Red Car"}) == "Red Car: new rule kind (amount 3) (p.7)"
    broken = Event(2, "hazards", {"vehicle": "v", "change": "lots"}, source="core")
    text = event_text(broken, {})
    assert text.startswith("V ") and "Hazard" in text


def test_validation_sentence_is_one_line_naming_the_field() -> None:
    assert validation_sentence([]) == "the request is malformed"
    assert validation_sentence([{"type": "json_invalid", "loc": ("body", 1), "msg": "x"}]) == (
        "the request body is not valid JSON")
    assert validation_sentence([{"type": "missing", "loc": ("body",), "msg": "x"}]) == (
        "the request body is missing")
    two = [
        {"type": "literal_error", "loc": ("body", "seats", 0, "controller"),
         "msg": "Input should be 'human', 'random' or 'heuristic'"},
        {"type": "missing", "loc": ("body", "version"), "msg": "Field required"},
    ]
    assert validation_sentence(two) == (
        "seats.0.controller: input should be 'human', 'random' or 'heuristic' "
        "(and 1 more problem)")
