"""Dice rolled at the table, entered on the regular (non-companion) table: the same pad as the
companion page (tap each die's face, then confirm), never a list of every set of faces; the
roll-off for Pole Position and two skid dice entered so, the bot's die too."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser
from tests.web.test_e2e_support import (
    Tab,
    api,
    new_context,
    open_page,
    shot,
    version,
    wait_version_above,
)


def _view(base: str, gid: str, token: str) -> dict[str, Any]:
    status, v = api(base, "GET", f"/api/games/{gid}?token={token}")
    assert status == 200, v
    return v


def _pad(tab: Tab, faces: list[int]) -> None:
    page = tab.page
    pad = page.locator("#decision .pad")
    pad.wait_for()
    assert page.locator("#decision button.choice").count() == 0  # no list of faces
    assert int(pad.get_attribute("data-n") or "0") == len(faces)
    assert pad.locator(".faces button").count() == 6
    v = version(page)
    assert pad.locator(".send").is_disabled()  # nothing entered yet: nothing to send
    for f in faces[:-1]:
        pad.locator(f".faces button[data-face='{f}']").click()
    pad.locator(".clear").click()  # a slip: cleared, entered again
    assert pad.locator(".slot.filled").count() == 0 and pad.locator(".send").is_disabled()
    for f in faces:
        pad.locator(f".faces button[data-face='{f}']").click()
    shot(page, f"table-dice-pad-{len(faces)}")
    assert [t.strip() for t in pad.locator(".slot.filled").all_inner_texts()] == [
        str(f) for f in faces]
    assert pad.locator(".faces button[disabled]").count() == 6  # every die entered
    pad.locator(".send").click()
    wait_version_above(page, v)


def test_table_dice_are_entered_on_a_pad_at_the_regular_table(base: str,
                                                               browser: Browser) -> None:
    status, g = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 5, "dice": "table",
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201, g
    gid, tok = g["id"], g["seats"][0]["token"]
    context = new_context(browser)
    tab = open_page(context, f"{base}/games/{gid}?token={tok}")  # the regular table
    page = tab.page
    assert "pole roll-off" in page.inner_text("#decision")
    _pad(tab, [2])
    assert "pole roll-off" in page.inner_text("#decision")  # the bot's die, entered by me
    assert "Roll the dice at the table" in page.inner_text("#turn")
    _pad(tab, [5])
    status, events = api(base, "GET", f"/api/games/{gid}/events")
    assert [e["data"]["dice"] for e in events if e["kind"] == "roll"] == [[2], [5]]
    assert [e["data"]["player"] for e in events if e["kind"] == "pole"] == [1]
    # on to the skid dice through the API; the two dice entered on the pad
    v = _view(base, gid, tok)
    for _ in range(60):
        p = v["pending"]
        if p["kind"] == "table_dice":
            break
        choice = (2 if p["kind"] == "skid_dice" else "medium_straight"
                  if p["kind"] == "template" else p["options"][0]["value"])
        status, v = api(base, "POST", f"/api/games/{gid}/decisions",
                        {"token": tok, "version": v["version"], "choice": choice})
        assert status == 200, v
    p = v["pending"]  # the bot's skid dice (Blue has the pole), entered at my seat
    assert p["kind"] == "table_dice" and "skid dice" in p["prompt"], p
    n = len(str(p["options"][0]["value"]).split(","))
    assert n >= 2
    wait_version_above(page, v["version"] - 1)
    _pad(tab, [6, 3, 1, 2][:n])
    status, events = api(base, "GET", f"/api/games/{gid}/events")
    skids = [e["data"]["dice"] for e in events if e["kind"] == "roll"
             and e["data"].get("why") == "skid dice"]
    assert skids[-1] == [6, 3, 1, 2][:n]
    tab.check()
    context.close()
