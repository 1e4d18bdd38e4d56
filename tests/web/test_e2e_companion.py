"""The companion page on a phone (390 × 844, touch) at a real table: a Street Race started from
the lobby's "At a real table" option, played through the page with real dice entered on its
pad (the roll-off for Pole Position too), an answer undone with the big Undo button, and the
page opening again with no connection (its service worker keeps it; the server keeps the
game); and a whole Street Race, two people sharing one phone, played to its winner."""

from __future__ import annotations

import re
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
    pictures = entries = rolloff = 0
    for _ in range(150):
        kind = pending(page)
        if not kind or page.locator("#c-controls *").count() == 0:
            break
        if kind == "template":
            pictures = max(pictures, page.locator("#c-controls svg.template-pic").count())
            if pictures and not entered:
                keep(page, tmp_path, "templates")
                # each template's use is a word of its own, never the engine's letter code
                words = page.locator("#c-controls .c-choice").all_inner_texts()
                assert not [w for w in words if re.search(r"\[[TPH-]\]", w)], words
                assert page.locator("#c-controls .c-choice .c-use").count() == len(words)
                assert any("trivial" in w for w in words), words
        if kind == "table_dice" and "pole roll-off" in (page.text_content("#c-what") or ""):
            rolloff += 1  # the roll-off for Pole Position, entered too: Red 6, the bot 3
            enter_dice(page, [6 if rolloff == 1 else 3])
            continue
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
            # one line per roll: the result restating the roll draws no second row of dice
            rows = page.locator("#c-dice .roll[data-seq]")
            assert rows.filter(has_text="skid dice").count() == 1, rows.all_inner_texts()
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
    assert entered and undone and pictures >= 3 and entries >= 3 and rolloff == 2
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


STRAIGHT = {"short_straight": 60.0, "medium_straight": 120.0, "long_straight": 180.0}
"""mm each straight template carries a car forward (web/static/js/templates.js)."""
TO_FINISH = 900.0
"""The Street Race's finish line is five Long Straights past its start line (p.62; our table,
street_race.py): a car whose front started on the start line crosses it after this far."""


def options_of(page: Page) -> list[str]:
    return [b.get_attribute("data-value") or "" for b in
            page.locator("#c-controls button.c-choice").all()]


def tap_value(page: Page, value: str) -> None:
    v = ver(page)
    page.locator(f"#c-controls button.c-choice[data-value='{value}']").tap()
    wait_after(page, v)


def tap_enter(page: Page) -> None:
    v = ver(page)
    page.locator("#c-controls button.c-enter").tap()
    wait_after(page, v)


def words_only(text: str) -> None:
    """What the page says is words: no ids (``p1-red-car``), no codes (``snake_case``), no
    coordinates (``x=``/``+30 mm``-style numbers are fine; raw ``(450, 300)`` are not)."""
    assert not re.search(r"\bp\d-[a-z]", text), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    assert not re.search(r"\(\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*\)", text), text


def test_a_whole_street_race_on_one_shared_phone(base: str, browser: Browser,
                                                 tmp_path: Path) -> None:
    """Two people play a Street Race (p.62) to its winner on one phone (hot-seat: the page
    holds both seats), every question of the table and every decision answered by taps: the
    roll-off for Pole Position and the attack dice entered from real dice, the skid dice
    rolled on screen; an entry undone mid-race. The finish line is told crossed once a car
    has driven its distance in straights (each car takes the Medium Straight, 120 mm)."""
    context = browser.new_context(**PHONE)
    lobby = Tab(context.new_page())
    lobby.page.goto(base + "/")
    lobby.page.wait_for_selector("body[data-ready]")
    lobby.page.select_option("select[name=controller-1]", "human")
    lobby.page.locator("#hotseat").check()
    lobby.page.locator("#physical").check()
    lobby.page.select_option("#table-dice", "table-skid")
    with context.expect_page() as popup:
        lobby.page.locator("#create-game").click()
    tab = Tab(popup.value)
    page = tab.page
    page.wait_for_selector("body[data-ready]", timeout=20000)
    gid = page.url.split("/companion/")[1].split("?")[0]
    token = page.url.split("token=")[1]

    driven: dict[str, float] = {}
    chosen: dict[str, str] = {}
    rolloff = skids = attacks = fired = entries = numbers = 0
    undone = False
    shots: set[str] = set()
    for _ in range(900):
        kind = pending(page)
        if page.locator("#c-controls *").count() == 0:
            break
        what = page.text_content("#c-what") or ""
        who = what.split(":")[0]
        if kind == "table_dice":
            n = int(page.locator(".pad").get_attribute("data-n") or "0")
            if "pole roll-off" in what:
                rolloff += 1
                if rolloff == 1:
                    keep(page, tmp_path, "race-rolloff")
                    shots.add("rolloff")
                # Red rolls 5, Blue 5: a tie, rolled again; then Red 2, Blue 6: Blue's pole
                enter_dice(page, [[5], [5], [2], [6]][min(rolloff, 4) - 1])
                continue
            entries += 1
            enter_dice(page, [5] * n)
            if not undone:  # a die read wrong: taken back on the shared phone, entered again
                keep(page, tmp_path, "race-entered")
                v = ver(page)
                page.locator("#c-undo").tap()
                page.locator("#c-undo").tap()
                wait_after(page, v)
                assert pending(page) == "table_dice"
                undone = True
                keep(page, tmp_path, "race-undone")
                enter_dice(page, [4] * n)
            continue
        if page.locator("#c-controls input.c-number").count():
            # a number asked (a spin's degrees, p.24), offered at no turn: taken as it is
            numbers += 1
            assert "degrees" in page.inner_text("#c-controls")
            assert page.input_value("#c-controls input.c-number") == "0"
            tap_enter(page)
            continue
        options = options_of(page)
        if kind == "template":
            pick = "medium_straight" if "medium_straight" in options else next(
                (o for o in options if o in STRAIGHT), options[0])
            chosen[who] = pick
            if "template" not in shots:
                keep(page, tmp_path, "race-templates")
                shots.add("template")
            tap_value(page, pick)
        elif kind == "skid_dice":  # one die once (rolled on screen), else none
            skids += 1
            tap_value(page, "1" if skids == 1 and "1" in options else "0")
        elif kind == "table:finish_line":
            driven[who] = driven.get(who, 0.0) + STRAIGHT.get(chosen.get(who, ""), 0.0)
            tap_value(page, "yes" if driven[who] >= TO_FINISH else "no")
        elif kind == "table:in_reach" and attacks == 0 and any(
                who.split()[0].lower() not in o for o in options[1:]):
            attacks += 1  # one shot at the other team, its dice entered from the table
            tap_value(page, next(o for o in options[1:] if who.split()[0].lower() not in o))
        elif kind == "attack" and fired == 0 and len(options) > 1:
            fired += 1  # the shot declared: its attack dice are rolled at the table
            tap_value(page, next(o for o in options if o != "stop"))
        elif kind == "attack" and "stop" in options:
            tap_value(page, "stop")
        elif "none" in options:
            tap_value(page, "none")
        elif "no" in options:
            tap_value(page, "no")
        elif kind == "spend_shift" and "done" in options:
            tap_value(page, "done")
        else:
            tap_value(page, options[0])
        if "middle" not in shots and max(driven.values(), default=0) >= TO_FINISH / 2:
            keep(page, tmp_path, "race-middle", full=True)
            shots.add("middle")
            words_only(page.inner_text("#c-now") + page.inner_text("#c-dash"))
    page.wait_for_function("document.getElementById('c-who').textContent.includes('wins')",
                           timeout=20000)
    keep(page, tmp_path, "race-won", full=True)
    status, g = api(base, "GET", f"/api/games/{gid}?token={token}")
    assert status == 200 and g["status"] == "finished" and g["winner"] is not None
    assert max(driven.values()) >= TO_FINISH
    assert rolloff == 4 and undone and entries >= 1 and skids >= 1 and fired == 1
    status, events = api(base, "GET", f"/api/games/{gid}/events")
    rolls = [e["data"] for e in events if e["kind"] == "roll"]
    assert [r["dice"] for r in rolls if r.get("why") == "pole roll-off"] == [[5], [5], [2], [6]]
    assert any(r.get("why") == "skid dice" for r in rolls)  # rolled on screen
    attack = [r["dice"] for r in rolls if r.get("why") not in ("skid dice", "pole roll-off")]
    assert attack and all(set(d) == {4} for d in attack[:1])  # entered again after the undo
    assert [e["data"]["player"] for e in events if e["kind"] == "pole"][:1] == [1]
    words_only(page.inner_text("#c-now") + page.inner_text("#c-log"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    tab.check()
    lobby.check()
    context.close()


def test_one_phone_each_undoing_dice_waits_for_the_other_phone(base: str, browser: Browser,
                                                                tmp_path: Path) -> None:
    """Ruling CP-20 on two phones: dice entered for my answer are taken back only once the
    other player agrees; my Undo says whom it waits for, the other phone shows my ask, and
    its Undo takes the dice back on both."""
    status, g = api(base, "POST", "/api/games", {
        "scenario": "street-race", "physical": True, "dice": "table",
        "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert status == 201, g
    gid = g["id"]
    both = ",".join(s["token"] for s in g["seats"])
    _, v = api(base, "GET", f"/api/games/{gid}?token={both}")
    for _ in range(80):  # to the first skid dice entry (set-up moves through the API)
        p = v["pending"]
        if p["kind"] == "table_dice" and "skid dice" in p["prompt"]:
            break
        choice = (str(6 - p["seat"]) if p["kind"] == "table_dice" else 2
                  if p["kind"] == "skid_dice" else "medium_straight"
                  if p["kind"] == "template" else p["options"][0]["value"])
        status, v = api(base, "POST", f"/api/games/{gid}/decisions",
                        {"token": both, "version": v["version"], "choice": choice})
        assert status == 200, v
    seat = v["pending"]["seat"]
    phones = []
    for s in (seat, 1 - seat):
        context = browser.new_context(**PHONE)
        tab = Tab(context.new_page())
        tab.page.goto(base + g["seats"][s]["url"])
        tab.page.wait_for_selector("body[data-ready]", timeout=20000)
        phones.append((context, tab))
    mine, theirs = phones[0][1].page, phones[1][1].page
    enter_dice(mine, [6, 4])
    entered = ver(mine)
    mine.locator("#c-undo").tap()
    mine.locator("#c-undo").tap()
    mine.wait_for_selector("#c-error:not(.hidden)")
    assert "agree" in (mine.text_content("#c-error") or "") and ver(mine) == entered
    theirs.wait_for_selector("#c-asked:not(.hidden)", timeout=20000)
    assert "asks to take back the last answer" in (theirs.text_content("#c-asked") or "")
    keep(theirs, tmp_path, "undo-asked")
    theirs.locator("#c-undo").tap()
    theirs.locator("#c-undo").tap()
    for page in (mine, theirs):
        wait_after(page, entered)
        assert pending(page) == "table_dice"
        assert page.locator("#c-asked").is_hidden()
    for context, tab in phones:
        tab.check()
        context.close()


def test_a_spin_is_turned_at_the_table_then_done_on_the_phone(base: str, browser: Browser,
                                                             tmp_path: Path) -> None:
    """A skid die read as Spin (p.21, p.24): the people turn the real car and tap Done; no
    angle is asked, since nothing at a real table needs it (ruling CP-25)."""
    status, g = api(base, "POST", "/api/games", {
        "scenario": "street-race", "physical": True, "dice": "table",
        "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert status == 201, g
    gid = g["id"]
    both = ",".join(s["token"] for s in g["seats"])
    _, v = api(base, "GET", f"/api/games/{gid}?token={both}")
    for _ in range(80):  # one skid die, read as Spin (a 2), then on to the spin itself
        p = v["pending"]
        if p["kind"] == "spin":
            break
        skid = p["kind"] == "table_dice" and "skid dice" in p["prompt"]
        choice = ("2" if skid else str(6 - p["seat"]) if p["kind"] == "table_dice" else 1
                  if p["kind"] == "skid_dice" else "medium_straight"
                  if p["kind"] == "template" else "done"
                  if any(o["value"] == "done" for o in p["options"])
                  else p["options"][0]["value"])
        status, v = api(base, "POST", f"/api/games/{gid}/decisions",
                        {"token": both, "version": v["version"], "choice": choice})
        assert status == 200, v
    assert v["pending"]["kind"] == "spin", v["pending"]
    context = browser.new_context(**PHONE)
    tab = Tab(context.new_page())
    page = tab.page
    page.goto(base + g["seats"][v["pending"]["seat"]]["url"])
    page.wait_for_selector("body[data-ready]", timeout=20000)
    assert "up to 90° about its centre, then tap Done" in page.inner_text("#c-what")
    assert page.locator("#c-controls input.c-number").count() == 0
    assert options_of(page) == ["done"]
    keep(page, tmp_path, "spin")
    tap_value(page, "done")
    assert pending(page) != "spin"
    _, events = api(base, "GET", f"/api/games/{gid}/events")
    spins = [e["data"]["choice"] for e in events
             if e["kind"] in ("decision", "forced_choice") and e["data"]["decision"] == "spin"]
    assert spins == ["done"], spins
    tab.check()
    context.close()
