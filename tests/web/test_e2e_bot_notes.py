"""In a real browser: the table's side panel says why the search bot chose what it did."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect
from tests.web.test_api_support import first_choice
from tests.web.test_e2e_support import api, new_context, open_page


def test_the_side_panel_shows_the_search_bots_candidates(base: str, browser: Browser) -> None:
    status, g = api(base, "POST", "/api/games", {"scenario": "street-race", "seed": 3, "seats": [
        {"controller": "human"}, {"controller": "search:easy"}]})
    assert status == 201, g
    token = g["seats"][0]["token"]
    status, v = api(base, "GET", f"/api/games/{g['id']}?token={token}")
    for _ in range(60):
        if v["bot_notes"] or v["pending"] is None:
            break
        status, v = api(base, "POST", f"/api/games/{g['id']}/decisions", {
            "token": token, "version": v["version"], "choice": first_choice(v["pending"])})
        assert status == 200, v
    note: dict[str, Any] = v["bot_notes"][0]
    ctx = new_context(browser)
    page = open_page(ctx, base + g["seats"][0]["url"]).page
    panel = page.locator("#bot-notes")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Why the bot chose")
    expect(panel.locator(".bot-note").first).to_contain_text(note["lines"][0])
    expect(panel.locator(".bot-note").first).to_contain_text(note["lines"][1].strip())
    ctx.close()
