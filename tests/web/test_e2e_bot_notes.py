"""In a real browser: the table's side panel says why the search bot chose what it did (its
short reason first); the lobby says how strong each bot is, or that it is not yet rated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
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
    first = panel.locator(".bot-note").first
    assert note["reason"], note
    expect(first.locator(".bot-reason")).to_contain_text(note["reason"])
    expect(first.locator(".bot-reason")).to_contain_text(" chose ")
    expect(first).to_contain_text(note["lines"][-1].strip())
    ctx.close()


def test_the_lobby_says_each_bots_strength_beside_its_choice(
        base: str, browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from carnage.ai import strength

    data = tmp_path / "ratings.json"
    hard = strength.BotRating(elo=1620.0, low=1560.0, high=1680.0, games=12, wins=9, draws=1,
                              losses=2, think_seconds=0.8, think_cpu_seconds=0.8)
    strength.record(strength.LadderRun(
        ruleset="refuelled", scenario="street-race", scenario_name="Street Race",
        date="2026-12-05", games=12, games_per_pair=6, seed=0, anchor="random",
        resamples=100, cpu_clock=True, bots={"search:hard": hard}), data)
    monkeypatch.setattr(strength, "DATA", data)  # the server runs in this process
    ctx = new_context(browser)
    page = open_page(ctx, f"{base}/").page
    page.select_option("#ruleset", "refuelled")
    seat = page.locator("#seats .seat[data-seat='1'] select.controller")
    expect(seat.locator("option[value='search:hard']")).to_have_text(
        "Search bot (hard) — rated 1\u2009620 (won 9 of 12), "
        "thinks about 0.8 s")
    assert "12 games" in (seat.locator("option[value='search:hard']").get_attribute("title")
                          or "")
    expect(seat.locator("option[value='heuristic']")).to_have_text(
        "Heuristic bot — not yet rated")
    expect(seat.locator("option[value='human']")).to_have_text("Human")
    page.select_option("#ruleset", "kart")
    expect(seat.locator("option[value='search:hard']")).to_have_text(
        "Search bot (hard) — not yet rated")
    ctx.close()
