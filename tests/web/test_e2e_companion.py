"""The companion page on a phone (390 × 844, touch) at a real table: a Street Race started from
the lobby's "At a real table" option, played through the page with real dice entered on its
pad, an answer undone with the big Undo button, and the page opening again with no
connection (its service worker keeps it; the server keeps the game)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from tests.web.test_e2e_support import Tab, api, shot

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                         "is_mobile": True, "device_scale_factor": 2}


def keep(page: Page, folder: Path, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full)
    shot(page, f"companion-{name}")


def pending(page: Page) -> str:
    return page.get_attribute("body", "data-pending") or ""


def ver(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def wait_after(page: Page, v: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) > {v}", timeout=20000)


def enter_dice(page: Page, faces: list[int]) -> None:
    pad = page.locator(".pad")
    n = int(pad.get_attribute("data-n") or "0")
    wanted = (faces + [4] * n)[:n]
    for f in wanted:
        page.locator(f".pad .faces button[data-face='{f}']").tap()
    assert page.locator(".pad .slot.filled").count() == n
    v = ver(page)
    page.locator(".pad button.send").tap()
    wait_after(page, v)


def answer(page: Page, kind: str) -> None:
    v = ver(page)
    if kind == "skid_dice":
        page.locator("#c-controls button[data-value='2']").tap()
    elif kind == "template":
        page.locator("#c-controls button[data-value='medium_straight']").tap()
    elif kind == "spend_shift":
        page.locator("#c-controls button[data-value='done']").tap()
    else:
        first = page.locator("#c-controls button.c-choice").first
        first.tap()
    wait_after(page, v)


def test_a_street_race_at_a_real_table_on_a_phone(base: str, browser: Browser,
                                                  tmp_path: Path) -> None:
    context = browser.new_context(**PHONE)
    lobby = Tab(context.new_page())
    lobby.page.goto(base + "/")
    lobby.page.wait_for_selector("body[data-ready]")
    lobby.page.locator("#physical").check()
    assert lobby.page.locator("#table-dice").is_visible()
    lobby.page.select_option("#table-dice", "table")
    lobby.page.fill("#seed", "7")
    with context.expect_page() as popup:
        lobby.page.locator("#create-game").click()
    tab = Tab(popup.value)
    page = tab.page
    page.wait_for_selector("body[data-ready]", timeout=20000)
    assert "/companion/" in page.url
    gid = page.url.split("/companion/")[1].split("?")[0]
    keep(page, tmp_path, "first")

    entered = undone = False
    pictures = entries = 0
    for _ in range(150):
        kind = pending(page)
        if not kind or page.locator("#c-controls *").count() == 0:
            break
        if kind == "template":
            pictures = max(pictures, page.locator("#c-controls svg.template-pic").count())
            if pictures and not entered:
                keep(page, tmp_path, "templates")
        if kind == "table_dice":
            entries += 1
            if entered:  # more dice wanted at the table (the bot's too): any faces
                enter_dice(page, [5, 3, 6, 2])
                continue
            assert "Roll 2D6 at the table" in (page.text_content("#c-what") or "")
            keep(page, tmp_path, "dice-pad")
            enter_dice(page, [6, 4])
            # 6 and 4 are two Shifts (p.21), shown as skid dice with the template's free one
            at_hand = page.locator("#c-dice .roll").first
            assert at_hand.locator(".die.skid.face-shift:not(.free)").count() == 2
            assert at_hand.locator(".die.skid.face-hazard").count() == 0
            if not undone:  # a mis-tap at the table: take the dice back, enter them again
                keep(page, tmp_path, "entered")
                v = ver(page)
                page.locator("#c-undo").tap()  # asks again: a mis-tap on Undo costs nothing
                assert "Tap again" in page.locator("#c-undo").inner_text() and ver(page) == v
                page.locator("#c-undo").tap()
                wait_after(page, v)
                assert pending(page) == "table_dice"
                undone = True
                keep(page, tmp_path, "undone")
                enter_dice(page, [6, 4])
            entered = True
            continue
        answer(page, kind)
        if entries >= 3 and page.locator("#c-log li", has_text="Blue").count() > 3:
            break
    assert entered and undone and pictures >= 3 and entries >= 3
    status, row = api(base, "GET", f"/api/games/{gid}/events")
    assert status == 200
    skids = [e["data"]["dice"] for e in row if e["kind"] == "roll"
             and e["data"].get("why") == "skid dice"]
    assert [6, 4] in skids
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.locator("#c-dash .live-card").count() >= 2
    assert page.locator("#c-log li").count() > 5
    keep(page, tmp_path, "playing", full=True)

    # the page opens again with no connection: its service worker keeps it, and it shows the
    # last state it saw; back online it catches up
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    shown = ver(page)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready]", timeout=20000)
    assert ver(page) == shown
    page.wait_for_selector("body[data-conn=offline]", timeout=20000)
    keep(page, tmp_path, "offline")
    # an answer given offline is kept and sent when the connection is back
    kind = pending(page)
    if kind == "table_dice":
        for _ in range(int(page.locator(".pad").get_attribute("data-n") or "0")):
            page.locator(".pad .faces button").last.tap()
        page.locator(".pad button.send").tap()
    else:
        page.locator("#c-controls button.c-choice").first.tap()
    page.wait_for_selector("#c-error:not(.hidden)")
    assert "kept" in (page.text_content("#c-error") or "")
    keep(page, tmp_path, "offline-answer")
    context.set_offline(False)
    page.wait_for_selector("body[data-conn=live]", timeout=30000)
    wait_after(page, shown)
    assert kind
    # the browser's own reports of the requests that failed while offline are expected
    # (the lobby's page shares the browser context that went offline)
    for t in (tab, lobby):
        t.errors = [e for e in t.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    tab.check()
    lobby.check()
    context.close()
