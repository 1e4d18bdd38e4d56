"""A ruleset added to the registry (here, in the test) is served by the table's one session
path: created, shown, decided, told in its log, saved, resumed and replayed through its
``Ruleset`` and ``TableOffer`` alone, like every shipped ruleset."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client

import carnage.rulesets
from carnage.kernel.decisions import Decision, IllegalChoice, Option
from carnage.kernel.dice import SeededDice
from carnage.kernel.events import Event, EventLog, JsonValue
from carnage.kernel.game import Outcome, SnapshotError
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.rules import RuleTable
from carnage.kernel.ruleset import Ruleset, TableOffer
from carnage.web import sessions

GOAL = 5
"""The toy game: seats take turns adding 1 or 2 to a count; who brings it to GOAL wins."""


class Race:
    """A toy game keeping the game contract: a count, two seats, a cheer die each turn."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.dice = SeededDice(seed)
        self.log = EventLog()
        self.choices: list[JsonValue] = []
        self.count = 0
        self.players = 2
        self.state = self  # the table reads ``state.round``
        self.log.emit("begin", "toy:start", goal=GOAL)

    @property
    def round(self) -> int:
        return len(self.choices) // 2 + 1

    def pending(self) -> Decision | None:
        if self.count >= GOAL:
            return None
        return Decision(len(self.choices) % 2, "add", "Add to the count",
                        (Option(1, "one"), Option(2, "two")), source="toy:add")

    def apply(self, choice: Any) -> None:
        d = self.pending()
        if d is None:
            raise IllegalChoice("the race is over")
        value = d.validate(choice)
        self.count += int(value)
        self.choices.append(value)
        self.log.emit("added", "toy:add", seat=d.player, by=int(value), count=self.count)
        self.log.emit("cheer", "toy:cheer", roll=self.dice.roll(1)[0])

    def outcome(self) -> Outcome | None:
        if self.count < GOAL:
            return None
        return Outcome((len(self.choices) - 1) % 2, False, "reached the goal", self.round)

    def clone(self) -> Race:
        return restore(self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        return {"ruleset": "toy", "seed": self.seed, "choices": list(self.choices)}

    def visible_events(self, seats: Iterable[int]) -> list[Event]:
        return list(self.log.events)


def new_game(scenario: str = "race", seed: int = 0, **_: Any) -> Race:
    if scenario != "race":
        raise ValueError(f"no toy scenario {scenario!r}")
    return Race(seed)


def restore(doc: dict[str, Any]) -> Race:
    if doc.get("ruleset") != "toy":
        raise SnapshotError("not a toy race")
    game = Race(int(doc["seed"]))
    for c in doc["choices"]:
        game.apply(c)
    restored.append(len(game.choices))
    return game


restored: list[int] = []
"""How many choices each restored game had (the test reads it)."""


class AddOne:
    name = "heuristic"

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> int:
        return 1


def toy_view(game: Any, seats: Sequence[int]) -> dict[str, Any]:
    d = game.pending()
    return {"count": game.count, "goal": GOAL,
            "pending": None if d is None else
            {"seat": d.player, "options": [{"value": o.value, "label": o.label}
                                           for o in d.options]}}


def toy_text(game: Any, e: Event) -> str:
    if e.kind == "added":
        return f"seat {e.data['seat']} adds {e.data['by']}: the count is {e.data['count']}"
    return f"the race to {e.data.get('goal')} begins"


TOY = Ruleset(
    name="toy", title="Toy Race", rules=RuleTable(), hooks=HookRegistry(), catalog=None,
    templates=None, scenarios={"race": object}, new_game=new_game, restore=restore,
    bots={"heuristic": AddOne},
    table=TableOffer(board_view="toy", view=toy_view, event_text=toy_text,
                     rule_text=lambda source: f"the toy rule {source}",
                     quiet=frozenset({"cheer"}), seats=(2, 2), own_teams=True,
                     seat_names=("North", "South"), board_svg=lambda game: "<svg>toy</svg>"),
)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setattr(carnage.rulesets, "RULESETS", carnage.rulesets.RULESETS.with_ruleset(TOY))
    return new_client(tmp_path)


def _decide(client: TestClient, gid: str, token: str, version: int, choice: Any) -> Any:
    return client.post(f"/api/games/{gid}/decisions",
                       json={"token": token, "version": version, "choice": choice})


def test_a_ruleset_added_to_the_registry_plays_on_the_one_session_path(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    r = client.post("/api/games", json={"ruleset": "toy", "seed": 4, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]

    v = client.get(f"/api/games/{gid}", params={"token": token}).json()
    # its own view, framed with the fields every view has
    assert (v["count"], v["goal"], v["ruleset"], v["board_view"]) == (0, GOAL, "toy", "toy")
    assert (v["version"], v["status"], v["your_seat"], v["your_turn"]) == (0, "in_progress",
                                                                           0, True)
    assert [s["name"] for s in v["seats"]] == ["North", "South"]
    assert v["seed"] == 4  # one human: the seed was the creator's to choose
    assert [ln["text"] for ln in v["log"]] == ["the race to 5 begins"]

    # a choice sent as text names the option; the bot answers; the log tells both
    r = _decide(client, gid, token, 0, "2")
    assert r.status_code == 200, r.text
    v = r.json()
    assert (v["count"], v["version"], v["your_turn"]) == (3, 2, True)
    lines = client.get(f"/api/games/{gid}/log", params={"token": token}).json()
    assert [ln["text"] for ln in lines] == [
        "the race to 5 begins", "seat 0 adds 2: the count is 2", "seat 1 adds 1: the count is 3"]
    assert lines[1]["rule"] == "the toy rule toy:add"  # cheers are quiet

    bad = _decide(client, gid, token, 2, "fly")
    assert bad.status_code == 422 and "is not one of the options" in bad.json()["detail"]
    assert _decide(client, gid, token, 1, 1).status_code == 409  # stale

    # a restart resumes it from its snapshot, through the ruleset's restore
    client.app.state.games.forget()
    restored.clear()

    def no_replay(*a: Any, **k: Any) -> Any:
        raise AssertionError("rebuilt by replaying its choices, not from the snapshot")

    with monkeypatch.context() as m:
        m.setattr(sessions.GameSession, "rebuild", no_replay)
        again = client.get(f"/api/games/{gid}", params={"token": token}).json()
    assert restored == [2] and again == v

    r = _decide(client, gid, token, 2, 2)
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert r.json()["seed"] == 4
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["status"] == "finished" and listed[gid]["ruleset"] == "toy"

    step = client.get(f"/api/games/{gid}/replay", params={"step": 2}).json()
    assert step["count"] == 3 and step["replay"] == {"step": 2, "steps": 3}
    steps = client.get(f"/api/games/{gid}/replay").json()["steps"]
    assert [s["count"] for s in steps] == [0, 2, 3, 5]
    assert client.get(f"/api/games/{gid}/svg").text == "<svg>toy</svg>"

    # the very same session class serves a shipped ruleset's game
    ref = client.post("/api/games", json={"seed": 1, "seats": [
        {"controller": "heuristic"}, {"controller": "heuristic"}]}).json()
    games = client.app.state.games
    assert type(games.get(ref["id"])) is type(games.get(gid)) is sessions.GameSession


def test_a_ruleset_added_to_the_registry_refuses_what_it_cannot_seat(
        client: TestClient) -> None:
    three = [{"controller": "human"}] * 3
    r = client.post("/api/games", json={"ruleset": "toy", "seats": three})
    assert r.status_code == 422 and "Toy Race has 2 seats, not 3" in r.json()["detail"]
    r = client.post("/api/games", json={"ruleset": "toy", "scenario": "sprint", "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 422 and "unknown Toy Race scenario 'sprint'" in r.json()["detail"]


def test_a_ruleset_offering_the_table_no_view_is_refused_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blind = dataclasses.replace(TOY, name="blind", title="Blind Race", table=TableOffer())
    monkeypatch.setattr(carnage.rulesets, "RULESETS",
                        carnage.rulesets.RULESETS.with_ruleset(blind))
    client = new_client(tmp_path)
    r = client.post("/api/games", json={"ruleset": "blind", "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 422
    assert r.json()["detail"] == "ruleset: Blind Race offers the table no view"
