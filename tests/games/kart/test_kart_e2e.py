"""A kart race in a real browser: the lobby offers the Kart variant and its races, the table
shows no Hull track, the human plays activations by clicking against the heuristic bot, and
the log names the kart rules applied."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_play import pick
from tests.web.test_e2e_support import (
    adopt,
    new_context,
    open_page,
    version,
    view_of,
    wait_version_above,
)


def test_a_kart_race_from_the_lobby_played_by_clicking(
        base: str, browser: Browser) -> None:  # noqa: F811
    ctx = new_context(browser)
    lobby = open_page(ctx, f"{base}/")
    lobby.page.select_option("#ruleset", "kart")
    options = lobby.page.locator("#scenario option")
    expect(options).to_have_count(2)
    assert sorted(options.all_text_contents()) == ["Death Race", "Street Race"]
    lobby.page.select_option("#scenario", "street-race")
    for seat, ctrl in enumerate(["human", "heuristic"]):
        lobby.page.locator(f"#seats .seat[data-seat='{seat}'] select.controller").select_option(
            ctrl)
    lobby.page.fill("#seed", "3")
    with ctx.expect_page() as popup:
        lobby.page.click("#create-game")
    table = adopt(popup.value)
    page = table.page
    view = view_of(page)
    assert (view["ruleset"], view["hull_track"]) == ("kart", False)
    expect(page.locator(".live-card")).to_have_count(len(view["vehicles"]))
    expect(page.locator(".live-card .hull-row")).to_have_count(0)
    expect(page.locator(".live-card .hazard-row")).to_have_count(len(view["vehicles"]))

    for _ in range(60):
        if page.get_attribute("body", "data-status") == "finished":
            break
        texts = page.locator("#log li .text").all_text_contents()
        if any(t.startswith("Kart variant") for t in texts):
            break
        p = view_of(page)["pending"]
        assert p is not None and p["seat"] == 0
        before = version(page)
        if p["kind"] in ("spin", "lose_control"):
            page.fill("input.angle-number", "20")
            page.click("button.confirm")
        else:
            choice = pick(page, p["kind"])
            page.locator(f"#decision button.choice[data-value='{choice}']").first.click()
        wait_version_above(page, before)
    texts = page.locator("#log li .text").all_text_contents()
    assert any(t.startswith("Kart variant: ") for t in texts), texts[-10:]
    assert all(v["hull_points"] == v["hull"] for v in view_of(page)["vehicles"])
    expect(page.locator(".live-card .hull-row")).to_have_count(0)
    lobby.check()
    table.check()
