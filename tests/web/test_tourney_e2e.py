"""The tourney page in a real browser: linked from the lobby, it plays a small tourney of a
saved team against the scenario's own team and charts exactly the summary the engine gives
(bars and 95% interval whiskers), and shows a refused payload as its sentence."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page
from tests.web.test_e2e_support import (
    api,
    keep_owner_token,
    new_context,
    open_page,
    racer_team,
    shot,
)

from carnage.analysis.tourney import Tourney, run_tourney
from carnage.rulesets import get_ruleset
from carnage.team import parse_team


def bars(page: Page, chart: str) -> dict[str, float]:
    out: dict[str, float] = page.evaluate(
        """(chart) => Object.fromEntries([...document.querySelectorAll(
             `figure[data-chart="${chart}"] svg rect.bar`)].map(
             (r) => [r.dataset.k, Number(r.dataset.p)]))""", chart)
    return out


def whiskers(page: Page, chart: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = page.evaluate(
        """(chart) => Object.fromEntries([...document.querySelectorAll(
             `figure[data-chart="${chart}"] svg line.ci[data-k]`)].map(
             (l) => [l.dataset.k, [Number(l.dataset.lo), Number(l.dataset.hi)]]))""", chart)
    return out


def run_and_wait(page: Page, n: int) -> None:
    page.click("#run")
    page.wait_for_function(f"document.body.dataset.runs === '{n}'", timeout=60000)


def test_tourney_page_plays_and_charts_the_engines_summary(base: str, browser: Browser) -> None:
    status, saved = api(base, "POST", "/api/teams", {"team": racer_team("Hogs")})
    assert status == 201, saved
    ctx = new_context(browser)
    keep_owner_token(ctx, saved)
    lobby = open_page(ctx, base + "/")
    lobby.page.click("nav a[href='/tourney']")
    lobby.page.wait_for_selector("body[data-ready]")
    page = lobby.page
    assert page.url.endswith("/tourney")
    page.select_option("#team-a", saved["id"])  # B stays the scenario's own team
    page.select_option("select[name=bot_b]", "random")
    page.fill("input[name=games]", "4")
    page.fill("input[name=seed]", "21")
    page.fill("input[name=max_rounds]", "8")
    run_and_wait(page, 1)
    assert page.inner_text("#tourney-error") == ""
    own = get_ruleset().scenario_class("street-race")().default_teams(2)
    want, _ = run_tourney(Tourney(a=parse_team(racer_team("Hogs"), "a"), b=own[1], games=4,
                                  seed=21, bots=("heuristic", "random"), max_rounds=8))
    o = want["a"]
    assert bars(page, "outcomes") == pytest.approx({k: o[k]["rate"] for k in o})
    assert whiskers(page, "outcomes") == {k: o[k]["ci95"] for k in o}
    assert bars(page, "survival") == pytest.approx(
        {str(i): v["survived"]["rate"] for i, v in enumerate(want["vehicles"])})
    damage = bars(page, "damage")
    assert damage == pytest.approx({
        **{f"{i}-dealt": v["damage_dealt"] for i, v in enumerate(want["vehicles"])},
        **{f"{i}-taken": v["damage_taken"] for i, v in enumerate(want["vehicles"])}})
    assert "4 games played from seed 21" in page.inner_text("#summary")
    assert "Hogs (A, heuristic)" in page.inner_text("#title")
    assert page.locator("#seats tbody tr").count() == 2
    shot(page, "tourney")
    # A seed the API refuses: its sentence, and the charts of the last tourney stay.
    page.fill("input[name=seed]", str(2**63))
    run_and_wait(page, 2)
    assert "seed: input should be less than or equal to" in page.inner_text("#tourney-error")
    assert bars(page, "outcomes") == pytest.approx({k: o[k]["rate"] for k in o})
    lobby.check()
    ctx.close()
