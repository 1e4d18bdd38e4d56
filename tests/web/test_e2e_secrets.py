"""In a real browser: an Express Delivery table shows each seat its own delivery slip ("Only
you can see") and the other seat's as face down in the log; a spectator's page shows neither
slip; the board draws the road's edges and the table count."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from tests.web.test_e2e_support import api, new_context, open_page

SLIP_TEXT = "'s name"


def test_each_seat_sees_only_its_own_slip_in_the_browser(base: str, browser: Browser) -> None:
    status, g = api(base, "POST", "/api/games", {"scenario": "express-delivery", "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert status == 201
    ctx = new_context(browser)
    try:
        mine = open_page(ctx, f"{base}/games/{g['id']}?token={g['seats'][0]['token']}")
        panel = mine.page.locator("#secrets")
        expect(panel).to_be_visible()
        expect(panel.locator("h3")).to_have_text("Only you can see")
        expect(panel.locator("li[data-secret='slip:0']")).to_contain_text("Delivery slip:")
        expect(panel.locator("li")).to_have_count(1)
        log = mine.page.locator("#log")
        expect(log).to_contain_text("now holds a delivery slip, face down")
        expect(mine.page.locator("svg.board g.scenario.label[data-id='table-count'] text")
               ).to_have_text("Table 1")
        mine.check()
        watcher = open_page(ctx, f"{base}/games/{g['id']}")
        expect(watcher.page.locator("#log")).to_contain_text("face down")
        expect(watcher.page.locator("#secrets")).to_be_hidden()
        assert SLIP_TEXT not in watcher.page.locator("#log").inner_text()
        watcher.check()
    finally:
        ctx.close()
