"""The campaign page in a real browser: start a campaign from the lobby's Campaigns link with a
saved team and a pasted team file, open it by its seat's link, play its events with bots on
the table (short games), and watch the standings table and the standings chart follow the
campaign's own standings; every mode in ``MODES`` is played start to finish this way. A second
browser tab acting on a stale version is refused with the 409's sentence."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from tests.campaign.conftest import pg_server  # noqa: F401  (the session's server)
from tests.campaign.pg import Server
from tests.web.test_e2e_support import (
    api,
    keep_owner_token,
    new_context,
    open_page,
    racer_team,
    serve,
    shot,
)

from carnage.campaign.modes import MODES

MAX_EVENTS = 12
"""Most events a mode's campaign may take to finish in this test."""
FINITE: dict[str, dict[str, Any]] = {"escalating": {"games": 2}, "championship": {"games": 2}}
"""Options that give an open-ended season an end (the other modes end by their own rules)."""
RIGGERS = {"name": "Riggers", "cans": 60, "vehicles": [
    {"name": "Big Rig", "type": "war_rig",
     "weapons": [{"id": "heavy_machine_gun", "facing": "front", "mount": "cab"}]}]}


def legacy_team_json(name: str, picks: list[tuple[str, str]]) -> dict[str, Any]:
    from carnage.games.legacy.generator import generate_vehicle, legacy_team

    team = legacy_team(name, [generate_vehicle(t, n) for t, n in picks])
    return team.model_dump(mode="json", exclude_none=True)


TEAMS: dict[str, tuple[dict[str, Any] | None, dict[str, Any]]] = {
    "savage-highways": (RIGGERS, racer_team("Rats", 60)),
    "legacy": (legacy_team_json("Rusty", [("car", "Rust Bucket"), ("buggy", "Zip")]),
               legacy_team_json("Gloop", [("truck", "Big Mo"), ("performance_car", "Vroom")])),
}
"""Per mode: the first team (None: the browser's saved team) and the second (pasted)."""
SEEN: dict[str, str] = {"savage-highways": "Rats Car", "legacy": "Big Mo"}
"""Per mode: a vehicle name the rosters show (default: the saved team's car)."""


def chart_points(page: Page) -> dict[int, list[int]]:
    out: dict[str, list[int]] = page.evaluate(
        """() => { const o = {}; for (const c of document.querySelectorAll(
             '#chart svg circle[data-seat]')) { (o[c.dataset.seat] ??= [])[Number(
             c.dataset.game)] = Number(c.dataset.cp); } return o; }""")
    return {int(k): v for k, v in out.items()}


def standings_cp(page: Page) -> dict[int, int]:
    out: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#standings tbody tr')]
             .map((r) => [r.dataset.seat, r.querySelector('td.cp').textContent]))""")
    return {int(k): int(v) for k, v in out.items()}


def start_campaign(page: Page, mode: str, saved_id: str, options: dict[str, Any]) -> None:
    page.select_option("#mode", mode)
    for k, v in options.items():
        page.fill(f"[name='opt-{k}']", str(v))
    first, second = TEAMS.get(mode, (None, racer_team("Rats", 30)))
    rows = page.locator(".team-row")
    if first is None:
        rows.nth(0).locator("select.team-pick").select_option(saved_id)
    else:
        rows.nth(0).locator("select.team-pick").select_option("")
        rows.nth(0).locator("textarea.team-json").fill(json.dumps(first))
    rows.nth(1).locator("select.team-pick").select_option("")
    rows.nth(1).locator("textarea.team-json").fill(json.dumps(second))
    page.click("#create-campaign")
    page.wait_for_selector("body[data-created]", timeout=15000)


def play_next_with_bots(page: Page, max_rounds: int = 3) -> None:
    games = int(page.get_attribute("body", "data-games") or "0")
    for sel in page.locator("select.controller").all():
        sel.select_option("heuristic")
    page.fill("#max-rounds", str(max_rounds))
    page.click("#play-next")
    page.wait_for_function(f"Number(document.body.dataset.games) > {games}", timeout=60000)


PG_MODES = ("televised", "savage-highways")
"""Modes also played on a PostgreSQL server (SQLite plays every mode)."""


@pytest.fixture(scope="module")
def pg_base(pg_server: Server | str) -> Iterator[str]:  # noqa: F811
    """The table served on a fresh PostgreSQL database (skipped, saying why, if no server
    could be started)."""
    if isinstance(pg_server, str):
        pytest.fail(f"no PostgreSQL server could be started (make test installs it): "
                    f"{pg_server}")
    with serve(pg_server.fresh_database("carnage_e2e_campaign")) as url:
        yield url


@pytest.mark.parametrize(("mode", "db"), [(m, "sqlite") for m in MODES] + [
    (m, "postgresql") for m in MODES if m in PG_MODES])
def test_a_campaign_plays_start_to_finish_in_the_browser(
        base: str, browser: Browser, request: pytest.FixtureRequest, mode: str,
        db: str) -> None:
    if db == "postgresql":
        base = request.getfixturevalue("pg_base")
    status, saved = api(base, "POST", "/api/teams", {"team": racer_team("Hogs", 30)})
    assert status == 201, saved
    ctx = new_context(browser)
    keep_owner_token(ctx, saved)
    lobby = open_page(ctx, base + "/")
    lobby.page.click("nav a[href='/campaigns']")
    lobby.page.wait_for_selector("body[data-ready]")
    page = lobby.page
    start_campaign(page, mode, saved["id"], FINITE.get(mode, {}))
    assert page.inner_text("#campaign-error") == ""
    links = page.locator("#created input[data-seat]")
    assert links.count() == 2
    page.click("#open-campaign")
    page.wait_for_selector("body[data-ready]")
    cid = page.url.split("/campaigns/")[1].split("?")[0]
    assert "You are seat 1" in page.inner_text("#whoami")
    assert page.locator("#rosters .roster").count() == 2
    assert SEEN.get(mode, "Hogs Car") in page.inner_text("#rosters")
    for n in range(1, MAX_EVENTS + 1):
        play_next_with_bots(page)
        status, v = api(base, "GET", f"/api/campaigns/{cid}")
        assert status == 200
        assert int(page.get_attribute("body", "data-games") or "0") == len(
            v["summary"]["results"]) == n
        # The table and the chart show exactly the campaign's standings.
        score = v["chart"]["measure"]  # Championship Points, or wins (Savage Highways)
        want = {r["seat"]: r[score] for r in v["summary"]["standings"]}
        assert standings_cp(page) == want
        points = chart_points(page)
        assert {s: p[-1] for s, p in points.items()} == want
        assert all(len(p) == n + 1 and p[0] == 0 for p in points.values())
        assert points == {x["seat"]: x["cp"] for x in v["chart"]["series"]}
        assert page.locator("#schedule li.played").count() >= n
        if v["summary"]["finished"]:
            break
    else:
        pytest.fail(f"{mode}: not finished after {MAX_EVENTS} events")
    assert "The campaign is over" in page.inner_text("#event")
    if mode == "legacy":  # each team's vehicles, mutations and templates as they now are
        rosters = page.inner_text("#rosters")
        assert "Team Rating" in rosters and "mutations:" in rosters
        assert "Doughnut" in rosters and "+" in rosters  # our Doughnut and a combined template
    assert page.locator("#play-next").count() == 0
    shot(page, f"campaign-{mode}")
    lobby.check()
    ctx.close()


def test_a_stale_tab_is_refused_and_the_tables_game_links_back(base: str,
                                                                browser: Browser) -> None:
    status, made = api(base, "POST", "/api/campaigns", {
        "mode": "championship", "options": {"events": ["street-race"]},
        "teams": [{"team": racer_team("Hogs", 30)}, {"team": racer_team("Rats", 30)}]})
    assert status == 201, made
    ctx = new_context(browser)
    first = open_page(ctx, base + made["seats"][0]["url"])
    second = open_page(ctx, base + f"/campaigns/{made['id']}")  # the token kept in this browser
    assert "You are seat 1" in second.page.inner_text("#whoami")
    # The first tab changes its roster (drops the buggy) ...
    p1 = first.page
    p1.click("#rosters details.editor summary")
    team = racer_team("Hogs", 30)
    team["vehicles"] = team["vehicles"][:1]
    p1.fill("#roster-json", json.dumps(team))
    p1.click("#roster-check")
    p1.wait_for_function("document.querySelector('#roster-bill').textContent.includes('p.164')")
    assert "scrap Buggy of Hogs Buggy (3)" in p1.inner_text("#roster-bill")
    before = int(p1.get_attribute("body", "data-version") or "0")
    p1.click("#roster-save")
    p1.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    # ... so the second tab's version is stale: its write is refused with the sentence, and the
    # page reloads to what is now there.
    p2 = second.page
    p2.locator("select.controller").nth(1).select_option("heuristic")
    p2.click("#play-next")
    p2.wait_for_function("document.querySelector('#campaign-error').textContent.length > 0")
    assert "the campaign changed since you loaded it" in p2.inner_text("#campaign-error")
    p2.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    assert "Hogs Buggy" not in p2.inner_text("#rosters")
    # Playing seat 1 as a human: the event's game is a table link that leads back.
    p2.locator("select.controller").nth(0).select_option("human")
    p2.click("#play-next")
    p2.wait_for_selector("#game-link")
    href = p2.get_attribute("#game-link", "href") or ""
    assert "token=" in href and f"campaign={made['id']}" in href
    p2.click("#game-link")
    p2.wait_for_selector("body[data-ready]")
    assert p2.get_attribute("#back-to-campaign", "href") == f"/campaigns/{made['id']}"
    first.check()
    second.check()
    ctx.close()


def play_human_seat(base: str, gid: str, token: str) -> None:
    """Play a human seat's table game to its end over the game API (first option each time)."""
    for _ in range(5000):
        status, view = api(base, "GET", f"/api/games/{gid}?token={token}")
        assert status == 200, view
        d = view["pending"]
        if view["status"] == "finished" or d is None:
            return
        choice = d["options"][0]["value"] if d["options"] else d["domain"]["low"]
        status, out = api(base, "POST", f"/api/games/{gid}/decisions",
                          {"token": token, "version": view["version"], "choice": choice})
        assert status == 200, out
    pytest.fail("the table game did not end")


def test_the_post_game_screen_asks_its_own_seat_only(base: str, browser: Browser) -> None:
    """An Escalating Season's post-game question (spend the new Cans, p.154) appears on the
    seat's own page once its table game ends; a spectator sees only whom it waits for."""
    status, made = api(base, "POST", "/api/campaigns", {
        "mode": "escalating", "options": {"events": ["street-race"]},
        "teams": [{"team": racer_team("Hogs", 30)}, {"team": racer_team("Rats", 30)}]})
    assert status == 201, made
    ctx = new_context(browser)
    mine = open_page(ctx, base + made["seats"][0]["url"])
    page = mine.page
    page.locator("select.controller").nth(0).select_option("human")
    page.locator("select.controller").nth(1).select_option("heuristic")
    page.fill("#max-rounds", "2")
    page.click("#play-next")
    page.wait_for_selector("#game-link")
    href = page.get_attribute("#game-link", "href") or ""
    gid = href.split("/games/")[1].split("?")[0]
    token = href.split("token=")[1].split("&")[0]
    play_human_seat(base, gid, token)
    page.wait_for_selector("#ask[data-kind=roster]", timeout=20000)  # the page looks again
    assert "spend your Cans" in page.inner_text("#ask")
    other = new_context(browser)
    watcher = open_page(other, base + f"/campaigns/{made['id']}")
    assert watcher.page.locator("#ask").count() == 0
    assert "Waiting for Hogs to decide" in watcher.page.inner_text("#waiting")
    page.click("#ask button.option[data-value=keep]")
    page.wait_for_function("document.body.dataset.games === '1'")
    assert page.locator("#ask").count() == 0
    assert "Rats" in page.inner_text("#standings")
    shot(page, "campaign-post-game")
    mine.check()
    watcher.check()
    ctx.close()
    other.close()
