"""The movement template list reads whole on a laptop (1366 × 768) and on a phone (390 × 844):
in gear 1, where reversing is offered, no template's name and no button's label in the list is
cut short (an element's scrollWidth past its clientWidth means the text is clipped)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from tests.web.test_e2e_support import Tab, api, open_page, shot

LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                         "is_mobile": True, "device_scale_factor": 2}

# Every label in the template list whose text is wider than its box (clipped or ellipsised).
CLIPPED = """() => [...document.querySelectorAll(
    '#decision .tpl-list button.choice, #decision .tpl-list .tpl-name')]
  .filter((e) => e.scrollWidth > e.clientWidth)
  .map((e) => `${e.textContent} (${e.scrollWidth} px of text in ${e.clientWidth} px)`)"""


def game_at_first_activation(base: str) -> str:
    """A Street Race whose human seat has placed its vehicles and is to activate one in gear
    phase 1 (every vehicle in gear 1): the table's URL for that seat."""
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 5,
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201, game
    url = str(game["seats"][0]["url"])
    token = url.split("token=")[1]
    for _ in range(12):
        status, view = api(base, "GET", f"/api/games/{game['id']}?token={token}")
        assert status == 200, view
        pending = view["pending"]
        if pending["kind"] == "activate":
            return url
        status, view = api(base, "POST", f"/api/games/{game['id']}/decisions", {
            "token": token, "version": view["version"],
            "choice": pending["options"][0]["value"]})
        assert status == 200, view
    raise AssertionError("the game never asked to activate a vehicle")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_no_template_label_is_cut_short(base: str, browser: Browser,
                                        size: dict[str, Any]) -> None:
    url = game_at_first_activation(base)
    ctx = browser.new_context(**size)
    tab: Tab = open_page(ctx, base + url)
    page = tab.page
    page.wait_for_selector("#decision .tpl-list.with-reverse .tpl-row", state="attached")
    if page.locator("#decision.folded").count():  # the phone's sheet opens up
        page.locator("#decision .sheet-toggle").click()
    if not page.locator("#decision details.all-options[open]").count():  # folded on a phone
        page.locator("#decision details.all-options > summary").click()
    page.wait_for_selector("#decision .tpl-list.with-reverse .tpl-row")
    page.locator("#decision .tpl-list").scroll_into_view_if_needed()
    labels = page.eval_on_selector_all("#decision .tpl-list button.choice",
                                       "bs => bs.map((b) => b.textContent)")
    assert "Reverse" in labels and "Rev. L" in labels, labels
    clipped = page.evaluate(CLIPPED)
    shot(page, f"template-list-{size['viewport']['width']}")
    assert clipped == [], clipped
    tab.check()
    ctx.close()
