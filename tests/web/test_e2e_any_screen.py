"""Every page of the site fits a phone (390 × 844) and a laptop (1366 × 768): the page never
scrolls sideways, and no visible element's right edge passes the viewport (wide tables
scroll inside their own box instead). Every page also carries the same navigation bar.

Pages with content: a campaign started through the API, a finished game's replay, a saved
team's printable dashboards, a generated Legacy vehicle and a table of every ruleset."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_support import api, keep_owner_token, open_page, racer_team, shot

from carnage.rulesets import RULESETS

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}

# The visible elements whose right edge passes the viewport (named by tag, id and classes),
# skipping those inside a box that scrolls or clips sideways (a table's wrapper, the board).
OVERFLOWING = """() => {
  const width = window.innerWidth;
  const clipped = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== "visible") return true;
    }
    return false;
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + [...e.classList].map((c) => "." + c).join("");
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden" || s.display === "none") continue;
    if (r.right > width + 0.5 && !clipped(e)) {
      out.push(`${name(e)} (right edge ${Math.round(r.right)} px)`);
    }
  }
  return out;
}"""


def fits(page: Page, what: str, size: ViewportSize) -> list[str]:
    """What is wrong with the page's width at this size (empty: it fits)."""
    page.set_viewport_size(size)
    page.wait_for_timeout(150)  # let the layout and any resize handler settle
    problems = []
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    inner = page.evaluate("() => window.innerWidth")
    if scroll > inner:
        problems.append(f"{what} at {size['width']} px: the page is {scroll} px wide")
    over = page.evaluate(OVERFLOWING)
    if over:
        problems.append(f"{what} at {size['width']} px: past the right edge: "
                        + ", ".join(over[:8]))
    shot(page, f"any-screen-{what}-{size['width']}")
    return problems


def every_page(base: str) -> dict[str, str]:  # noqa: F811
    """Each page of the site, by a short name, with content made through the API."""
    pages = {"lobby": "/", "teams": "/teams", "campaigns": "/campaigns", "odds": "/odds",
             "tourney": "/tourney"}
    status, made = api(base, "POST", "/api/campaigns", {
        "mode": "championship", "options": {"events": ["street-race"]},
        "teams": [{"team": racer_team("Hogs", 30)}, {"team": racer_team("Rats", 30)}]})
    assert status == 201, made
    pages["campaign"] = f"/campaigns/{made['id']}"
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 21,
        "seats": [{"controller": "heuristic", "team_id": None},
                  {"controller": "random", "team_id": None}]})
    assert status == 201, game
    pages["replay"] = f"/games/{game['id']}/replay"
    for name, r in RULESETS.items():
        scenario = r.scenario_infos()[0].id
        if name != "devils-run":
            scenario = next((s.id for s in r.scenario_infos() if s.id == "street-race"),
                            scenario)
        status, g = api(base, "POST", "/api/games", {
            "ruleset": name, "scenario": scenario, "seed": 3,
            "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
        assert status == 201, (name, g)
        pages[f"table-{name}"] = g["seats"][0]["url"]
    return pages


def saved_team(base: str) -> dict[str, Any]:  # noqa: F811
    status, saved = api(base, "POST", "/api/teams",
                        {"team": racer_team("A Team Whose Name Runs On And On Forever")})
    assert status == 201, saved
    return saved


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_page_fits_the_screen_without_sideways_scroll(
        base: str, browser: Browser, size: ViewportSize) -> None:  # noqa: F811
    pages = every_page(base)
    saved = saved_team(base)
    ctx = browser.new_context(viewport=size)
    keep_owner_token(ctx, saved)
    pages["team"] = f"/teams?id={saved['id']}"
    pages["print"] = f"/teams/print?id={saved['id']}"
    problems: list[str] = []
    for what, url in pages.items():
        tab = open_page(ctx, base + url)
        problems += fits(tab.page, what, size)
        tab.check()
        tab.page.close()
    legacy = open_page(ctx, f"{base}/rulesets/legacy/generator")
    legacy.page.fill("#legacy-form [name=name]", "Rattlecan Of The Long Dusty Road")
    legacy.page.click("#legacy-form button[type=submit]")
    legacy.page.wait_for_selector("#legacy-vehicle:not([hidden])")
    problems += fits(legacy.page, "legacy-generator", size)
    legacy.check()
    ctx.close()
    assert not problems, "\n".join(problems)


PAGES_WITH_NAV = ["/", "/teams", "/campaigns", "/odds", "/tourney", "/rulesets/legacy/generator"]


def test_every_page_has_the_same_navigation_bar(base: str, browser: Browser) -> None:  # noqa: F811
    """The site's pages link the same places, in the same order (the ruleset pages last),
    with the page shown marked; the printable dashboards mark none and lead back to their
    team; the tables and the replay (their top bar also the game's state) mark none."""
    saved = saved_team(base)
    ctx = browser.new_context(viewport=PHONE)
    navs: dict[str, list[str]] = {}
    for where in [*PAGES_WITH_NAV, f"/teams/print?id={saved['id']}"]:
        tab = open_page(ctx, base + where)
        tab.page.wait_for_function(
            "() => document.querySelector('.topbar nav a[data-ruleset]') !== null")
        links = tab.page.eval_on_selector_all(
            ".topbar nav a", "as => as.map((a) => a.getAttribute('href'))")
        here = tab.page.eval_on_selector_all(".topbar nav a.here",
                                             "as => as.map((a) => a.getAttribute('href'))")
        if where.startswith("/teams/print"):
            assert here == [], here
            assert f"/teams?id={saved['id']}" in links, links
            links = [a.split("?")[0] for a in links]
        else:
            assert here == [where], (where, here)
        navs[where] = links
        tab.check()
        tab.page.close()
    # The tables and the replay carry the same links beside the game's state, none marked.
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 21,
        "seats": [{"controller": "heuristic"}, {"controller": "random"}]})
    assert status == 201, game
    status, dr = api(base, "POST", "/api/games", {
        "ruleset": "devils-run", "scenario": RULESETS["devils-run"].scenario_infos()[0].id,
        "seed": 3, "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201, dr
    for where in (f"/games/{game['id']}", f"/games/{game['id']}/replay",
                  dr["seats"][0]["url"]):
        tab = open_page(ctx, base + where)
        tab.page.wait_for_function(
            "() => document.querySelector('.topbar nav a[data-ruleset]') !== null")
        navs[where] = tab.page.eval_on_selector_all(
            ".topbar nav a", "as => as.map((a) => a.getAttribute('href'))")
        assert tab.page.locator(".topbar nav a.here").count() == 0, where
        tab.check()
        tab.page.close()
    first = navs["/"]
    for where, links in navs.items():
        assert links == first, f"{where} links {links}, the lobby {first}"
    ctx.close()
