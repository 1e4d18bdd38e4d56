"""Every ruleset of the registry through the one web path: ``POST /api/games`` starts a game
of it, ``GET /api/games/{id}`` names its board view, and ``GET /api/games/{id}/log`` gives its
log as plain text; the lobby's list of rulesets and the request schema come from the registry."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.test_api_support import TestClient, new_client

from carnage.rulesets import RULESETS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return new_client(Path(tmp_path_factory.mktemp("rulesets")))


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_ruleset_starts_and_logs_through_the_one_api(client: TestClient,
                                                            name: str) -> None:
    r = client.post("/api/games", json={"ruleset": name, "seed": 5, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    game = r.json()
    gid, token = game["id"], game["seats"][0]["token"]
    assert game["seats"][0]["url"] == f"/games/{gid}?token={token}"
    view = client.get(f"/api/games/{gid}", params={"token": token}).json()
    assert view["ruleset"] == name
    assert view["board_view"] == RULESETS[name].table.board_view
    assert view["pending"] is not None and view["your_seat"] == 0
    r = client.get(f"/api/games/{gid}/log", params={"format": "text"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    lines = r.text.splitlines()
    assert lines, f"{name}: an empty log"
    for n, line in enumerate(lines, 1):
        seq, _rule, _page, text = line.split("\t")
        assert int(seq) >= n and text.strip(), line
    as_json = client.get(f"/api/games/{gid}/log").json()
    assert [x["text"] for x in as_json] == [ln.split("\t")[3] for ln in lines]
    assert any(g["id"] == gid and g["ruleset"] == name
               for g in client.get("/api/games").json())
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200 and "/static/js/table.js" in page.text


def test_the_lobby_lists_every_ruleset_with_its_scenarios(client: TestClient) -> None:
    listed = client.get("/api/rulesets").json()
    assert [r["name"] for r in listed] == list(RULESETS)
    for r in listed:
        ruleset = RULESETS[r["name"]]
        assert r["title"] == ruleset.title and r["board_view"] == ruleset.table.board_view
        assert sorted(x["id"] for x in r["scenarios"]) == sorted(ruleset.scenarios)


def test_the_ruleset_is_checked_against_the_registry(client: TestClient) -> None:
    r = client.post("/api/games", json={"ruleset": "chess", "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert r.status_code == 422
    assert r.json()["detail"] == ("ruleset: value error, unknown ruleset 'chess' (known: "
                                  f"{', '.join(RULESETS)})")
    schema = client.get("/openapi.json").json()["components"]["schemas"]["NewGameRequest"]
    assert schema["properties"]["ruleset"]["enum"] == list(RULESETS)
    assert client.get("/api/scenarios", params={"ruleset": "chess"}).status_code == 404


def test_the_web_layer_reaches_devils_run_only_through_its_ruleset() -> None:
    """No parallel stack: nothing under web/ imports the Devil's Run package or tests for its
    game class; what its table shows is declared by its ruleset (``Ruleset.table``), its odds
    queries by ``Ruleset.queries``."""
    import carnage.web

    root = Path(carnage.web.__file__).parent
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for banned in ("carnage.games.devilsrun", "DevilsRunGame", "drsessions", "drtext"):
            assert banned not in text, f"{path.relative_to(root)} names {banned}"
    assert RULESETS["devils-run"].table.view is not None


def test_the_lobby_lists_each_bot_with_its_measured_strength_or_not_yet_rated(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from carnage.ai import strength

    data = tmp_path / "ratings.json"
    hard = strength.BotRating(elo=1620.0, low=1560.0, high=1680.0, games=12, wins=9, draws=1,
                              losses=2, think_seconds=0.8, think_cpu_seconds=0.8)
    strength.record(strength.LadderRun(
        ruleset="refuelled", scenario="street-race", scenario_name="Street Race",
        date="2026-12-05", games=12, games_per_pair=6, seed=0, anchor="random",
        resamples=100, cpu_clock=True, bots={"search:hard": hard}), data)
    monkeypatch.setattr(strength, "DATA", data)
    listed = {r["name"]: {b["name"]: b for b in r["bots"]}
              for r in client.get("/api/rulesets").json()}
    for name in RULESETS:
        assert {"random", "heuristic", "search:easy", "search:normal", "search:hard"} <= set(
            listed[name]), name
        assert "search" not in listed[name], "the normal level's other name is not listed"
    rated = listed["refuelled"]["search:hard"]
    assert rated["rated"] and rated["words"] == (
        "rated 1\u2009620 (won 9 of 12), thinks about 0.8 s")
    assert (rated["elo"], rated["low"], rated["high"], rated["games"]) == (1620, 1560, 1680, 12)
    assert "12 games" in rated["detail"] and "Street Race" in rated["detail"]
    for ruleset, bot in (("refuelled", "heuristic"), ("kart", "search:hard"),
                         ("devils-run", "search:easy")):
        b = listed[ruleset][bot]
        assert not b["rated"] and b["words"] == "not yet rated" and b["elo"] is None
