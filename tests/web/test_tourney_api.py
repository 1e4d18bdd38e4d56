"""The tourney API (``POST /api/tourney``): the summary the CLI prints, for saved teams, team
objects or the scenario's own teams; bounded games, rounds, time and one tourney at a time;
every bad payload a sentence."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client, racer_team

from carnage.analysis.tourney import Tourney, run_tourney
from carnage.team import parse_team
from carnage.web.routers import tourney as tourney_router


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def post(client: TestClient, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post("/api/tourney", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_saved_teams_and_team_objects_give_the_clis_summary(client: TestClient) -> None:
    saved = client.post("/api/teams", json={"team": racer_team("Hogs")}).json()
    out = post(client, {"a": {"team_id": saved["id"]}, "b": {"team": racer_team("Rats")},
                        "games": 4, "seed": 9, "bot_b": "random", "max_rounds": 6})
    want, _ = run_tourney(Tourney(
        a=parse_team(racer_team("Hogs"), "a"), b=parse_team(racer_team("Rats"), "b"), games=4,
        seed=9, bots=("heuristic", "random"), max_rounds=6,
        a_source=f"saved team {saved['id']}", b_source="the team sent"))
    run = out.pop("run")
    assert out.pop("asked") == 4 and out.pop("stopped_early") is False
    assert out.pop("time_limit") == tourney_router.TIME_LIMIT
    assert out == want
    assert run["backend"] == "local" and run["workers"] == 1


def test_neither_id_nor_team_plays_the_scenarios_own_teams(client: TestClient) -> None:
    out = post(client, {"a": {}, "b": {}, "games": 2})
    assert out["teams"]["A"]["source"] == "the scenario's own team"
    assert out["games"] == out["played"] == 2


def test_the_time_limit_stops_a_tourney_early(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tourney_router, "TIME_LIMIT", 0.0)
    out = post(client, {"a": {}, "b": {}, "games": 5})
    assert out["stopped_early"] is True and out["games"] < 5


def test_one_tourney_at_a_time(client: TestClient) -> None:
    assert tourney_router._running.acquire(blocking=False)
    try:
        r = client.post("/api/tourney", json={"a": {}, "b": {}, "games": 1})
        assert r.status_code == 429
        assert "another tourney is being played" in r.json()["detail"]
    finally:
        tourney_router._running.release()
    assert isinstance(tourney_router._running, type(threading.Lock()))
    post(client, {"a": {}, "b": {}, "games": 1})  # free again


@pytest.mark.parametrize(("body", "message"), [
    ({"a": {}, "b": {}, "games": 41}, "games: input should be less than or equal to 40"),
    ({"a": {}, "b": {}, "games": 0}, "games: input should be greater than or equal to 1"),
    ({"a": {}, "b": {}, "games": "3"}, "games: input should be a valid integer"),
    ({"a": {}, "b": {}, "max_rounds": 13}, "max_rounds: input should be less than or equal"),
    ({"a": {}, "b": {}, "bot_a": "genius"}, "bot_a: input should be 'heuristic' or 'random'"),
    ({"a": {}}, "b: missing (required)"),
    ({"a": {}, "b": {}, "workers": 8}, "workers: unknown field"),
    ({"a": {"team_id": "nope"}, "b": {}}, "team A: no saved team with id 'nope'"),
    ({"a": {}, "b": {"team_id": "x", "team": racer_team()}},
     "team B: give a saved team's id or a team, not both"),
    ({"a": {}, "b": {"team": {"name": "x"}}}, "team B: cans: missing (required)"),
    ({"a": {}, "b": {"team": racer_team("Dear", cans=10)}}, "team B (the team sent) (Dear): "),
    ({"a": {}, "b": {}, "scenario": "nowhere"}, "unknown scenario 'nowhere'"),
])
def test_bad_payloads_are_one_sentence(client: TestClient, body: dict[str, Any],
                                       message: str) -> None:
    out = post(client, body, 422)
    assert message in out["detail"], out["detail"]


def test_the_page_is_served_and_linked_from_the_lobby(client: TestClient) -> None:
    r = client.get("/tourney")
    assert r.status_code == 200 and 'src="/static/tourney.js"' in r.text
    assert 'href="/tourney"' in client.get("/").text
