"""The pages' navigation in a real browser links each page a ruleset declares of its own (from
``GET /api/rulesets``, not hand-written links), and the link leads to the page, served from its
game package, where it is marked as the page shown."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_support import new_context, open_page, shot

from carnage.rulesets import RULESETS

DECLARED = [(name, p) for name, r in RULESETS.items() for p in r.table.pages]


def test_the_navigation_lists_every_declared_page(base: str, browser: Browser) -> None:  # noqa: F811
    assert DECLARED, "no ruleset declares a page"
    ctx = new_context(browser)
    for where in ("/", "/teams"):
        tab = open_page(ctx, f"{base}{where}")
        nav = tab.page.locator(".topbar nav")
        for name, p in DECLARED:
            link = nav.locator(f"a[href='/rulesets/{name}/{p.path}']")
            expect(link).to_have_text(p.title)
            expect(link).not_to_have_class("here")
        tab.check()
    name, p = DECLARED[0]
    tab.page.click(f".topbar nav a[href='/rulesets/{name}/{p.path}']")
    tab.page.wait_for_url(f"{base}/rulesets/{name}/{p.path}")
    tab.page.wait_for_selector("body[data-ready]")
    here = tab.page.locator(".topbar nav a.here")
    expect(here).to_have_count(1)
    expect(here).to_have_text(p.title)
    # Its stylesheets still apply: the top bar is laid out as on every page.
    assert tab.page.eval_on_selector(".topbar", "e => getComputedStyle(e).display") == "flex"
    shot(tab.page, "ruleset-page")
    tab.check()
    ctx.close()


def test_the_lobby_cites_an_overlays_scenario_in_its_parents_book(
        base: str, browser: Browser) -> None:  # noqa: F811
    """The page of an overlay's scenario is in its parent's book, named from the registry."""
    overlay = next(r for r in RULESETS.values() if r.parent is not None)
    parent = RULESETS[overlay.parent or ""]
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/")
    tab.page.select_option("#ruleset", overlay.name)
    first = next(s for s in overlay.scenario_infos() if s.page is not None)
    tab.page.select_option("#scenario", first.id)
    book = parent.title.removeprefix("Gaslands: ")
    expect(tab.page.locator("#scenario-info")).to_contain_text(f"{book} p.{first.page}")
    tab.check()
    ctx.close()
