"""Plain words and feedback on a phone (390 × 844), in Debian's chromium: the chat between a
game's seats (a message reaches the other seat over the websocket; a spectator reads it only
once a seat makes it public; players see the spectator link), the campaign form (the Starting
Cans follow the chosen team, the events are a picklist, a too-low budget is refused with a
sentence saying what to change, the new campaign is listed at once by name), and the lobby's
games listed in words (scenario, teams, round and result; no game id)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, ViewportSize, expect
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_support import api, keep_owner_token, open_page, racer_team, shot

PHONE: ViewportSize = {"width": 390, "height": 844}


def costly_team(name: str) -> dict[str, Any]:
    """A team built to 50 Cans that costs 43 (more than a season's 30 by default)."""
    return {"name": name, "cans": 50, "vehicles": [
        {"name": f"{name} Truck", "type": "truck", "weapons": [
            {"id": "heavy_machine_gun", "facing": "front"},
            {"id": "machine_gun", "facing": "rear"}]},
        {"name": f"{name} Car", "type": "car",
         "weapons": [{"id": "heavy_machine_gun", "facing": "front"}]},
        {"name": f"{name} Buggy", "type": "buggy",
         "weapons": [{"id": "machine_gun", "facing": "front"}]}]}


def test_the_seats_chat_and_a_spectator_reads_it_once_public(
        base: str, browser: Browser) -> None:  # noqa: F811
    status, g = api(base, "POST", "/api/games", {"scenario": "street-race", "seats": [
        {"controller": "human"}, {"controller": "human"}]})
    assert status == 201, g
    red_ctx, blue_ctx, watch_ctx = (browser.new_context(viewport=PHONE) for _ in range(3))
    red = open_page(red_ctx, base + g["seats"][0]["url"])
    blue = open_page(blue_ctx, base + g["seats"][1]["url"])
    watcher = open_page(watch_ctx, f"{base}/games/{g['id']}")
    for tab in (red, blue):
        expect(tab.page.locator("#chat")).to_be_visible()
        expect(tab.page.locator("#spectate-link")).to_have_value(f"{base}/games/{g['id']}")
        expect(tab.page.locator("#chat-visibility")).to_have_text("private: players only")
    expect(watcher.page.locator("#chat-private")).to_be_visible()
    expect(watcher.page.locator("#chat-form")).to_have_count(0)
    expect(watcher.page.locator("#spectate-link")).to_have_count(0)
    # Red writes; Blue's table shows it without reloading (the game's websocket).
    red.page.fill("#chat-text", "Good luck, Blue!")
    red.page.click("#chat-send")
    expect(red.page.locator("#chat-text")).to_have_value("")
    expect(blue.page.locator("#chat-lines li")).to_have_count(1)
    expect(blue.page.locator("#chat-lines li")).to_contain_text("Good luck, Blue!")
    expect(blue.page.locator("#chat-lines li .who")).to_contain_text("Red")
    # A message too long is refused in words, on the page.
    red.page.evaluate("() => document.getElementById('chat-text').removeAttribute('maxlength')")
    red.page.fill("#chat-text", "x" * 301)
    red.page.click("#chat-send")
    expect(red.page.locator("#chat-error")).to_have_text(
        "text: the message has 301 characters; the limit is 300")
    expect(watcher.page.locator("#chat-lines li")).to_have_count(0)
    # Blue makes the chat public: the spectator reads it at once.
    blue.page.check("#chat-public")
    expect(watcher.page.locator("#chat-lines li")).to_have_count(1, timeout=10000)
    expect(watcher.page.locator("#chat-lines li")).to_contain_text("Good luck, Blue!")
    expect(watcher.page.locator("#chat-visibility")).to_have_text("public: spectators read it")
    expect(red.page.locator("#chat-public")).to_be_checked(timeout=10000)
    expect(red.page.locator("#chat-set-by")).to_contain_text("Made public by Blue")
    red.page.locator("#chat").scroll_into_view_if_needed()
    watcher.page.locator("#chat").scroll_into_view_if_needed()
    shot(red.page, "feedback-chat-seat-phone")
    shot(watcher.page, "feedback-chat-spectator-phone")
    for tab in (red, blue, watcher):
        tab.check()
    for ctx in (red_ctx, blue_ctx, watch_ctx):
        ctx.close()


def test_the_campaign_form_fits_the_cans_and_says_what_to_change(
        base: str, browser: Browser) -> None:  # noqa: F811
    status, saved = api(base, "POST", "/api/teams", {"team": costly_team("Road Hogs")})
    assert status == 201, saved
    ctx = browser.new_context(viewport=PHONE)
    keep_owner_token(ctx, saved)
    tab = open_page(ctx, f"{base}/campaigns")
    page = tab.page
    page.select_option("#mode", "escalating")
    rows = page.locator(".team-row")
    rows.nth(0).locator("select.team-pick").select_option(saved["id"])
    rows.nth(1).locator("select.team-pick").select_option("")
    rows.nth(1).locator("textarea.team-json").fill(json.dumps(racer_team("Rats", 30)))
    # The Starting Cans follow the costliest chosen team (43), not the default 30.
    expect(page.locator("[name='opt-start_cans']")).to_have_value("43")
    # The events are a picklist of the ruleset's scenarios by name, four ticked.
    picks = page.locator("fieldset.picklist[data-option=events] input[type=checkbox]")
    assert picks.count() > 4
    expect(page.locator("fieldset.picklist[data-option=events] input:checked")).to_have_count(4)
    expect(page.locator("fieldset.picklist[data-option=events]")).to_contain_text("Death Race")
    page.locator("fieldset.picklist input[value='street-race']").uncheck()
    page.locator("fieldset.picklist input[value='death-race']").check()
    # Typed down to 30: refused, saying which team and what to set.
    page.fill("[name='opt-start_cans']", "30")
    page.fill("[name='opt-games']", "2")
    page.click("#create-campaign")
    expect(page.locator("#campaign-error")).to_have_text(
        "options.start_cans: Road Hogs costs more than the 30 Cans each team starts with "
        "(Road Hogs costs 43): set Starting Cans to 43 or more, or choose cheaper teams")
    page.locator("#campaign-error").scroll_into_view_if_needed()
    shot(page, "feedback-campaign-error-phone")
    page.fill("[name='opt-start_cans']", "43")
    page.click("#create-campaign")
    page.wait_for_selector("body[data-created]")
    cid = page.get_attribute("body", "data-created")
    # Listed at once, by its mode and teams, not its id.
    row = page.locator(f"#campaigns tr[data-campaign='{cid}']")
    expect(row).to_have_count(1)
    expect(row.locator("a")).to_have_text("Escalating Season: Road Hogs v Rats")
    assert cid is not None and cid not in row.inner_text()
    row.scroll_into_view_if_needed()
    shot(page, "feedback-campaign-listed-phone")
    status, made = api(base, "GET", f"/api/campaigns/{cid}")
    assert status == 200 and made["options"]["start_cans"] == 43
    assert made["options"]["events"] == ["capture-the-flag", "death-race", "flag-tag"]
    row.locator("a").click()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#title")).to_have_text("Escalating Season: Road Hogs v Rats")
    assert cid not in page.inner_text("main")
    # A seat's secrets in words (once shown as "Rp rp 3").
    said = page.evaluate("""async () => { const m = await import('/static/campaign.js');
        return [m.secretText({kind: 'rp', data: {seat: 0, rp: 3, why: 'Resistance Broadcast',
                                                 hidden: true, seen_by: [0]}}),
                m.secretText({kind: 'sabotage', data: {seat: 0, tokens: 1, number: 2}})]; }""")
    assert said == ["3 Resistance Points (Resistance Broadcast)",
                    "1 Sabotage Token for Televised Event 2"]
    shot(page, "feedback-campaign-page-phone")
    tab.check()
    ctx.close()


def test_the_lobby_lists_games_in_words(base: str, browser: Browser) -> None:  # noqa: F811
    status, done = api(base, "POST", "/api/games", {"scenario": "street-race", "seed": 5,
                                                    "seats": [{"controller": "heuristic"},
                                                              {"controller": "random"}]})
    assert status == 201, done
    status, summary = api(base, "GET", "/api/games")
    listed = next(x for x in summary if x["id"] == done["id"])
    ctx = browser.new_context(viewport=PHONE)
    tab = open_page(ctx, f"{base}/")
    row = tab.page.locator(f"#games tr[data-game='{done['id']}']")
    expect(row).to_contain_text("Street Race")
    expect(row).to_contain_text(f"Finished in round {listed['round']}: ")
    expect(row).to_contain_text(re.compile(r"\bwon\b|a draw"))
    teams = [s["team"] for s in listed["seats"]]
    assert all(teams), listed
    for team in teams:
        expect(row).to_contain_text(team)
    expect(row).to_contain_text("Heuristic bot")
    assert done["id"] not in row.inner_text() and done["id"][:8] not in row.inner_text()
    row.scroll_into_view_if_needed()
    shot(tab.page, "feedback-lobby-phone")
    tab.check()
    ctx.close()
