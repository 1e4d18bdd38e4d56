"""Devil's Run in a real browser: a human starts a mission from the one lobby (ruleset Devil's
Run) against the heuristic bot and plays it to the end by clicking the offered buttons on the
one table page, which loads Devil's Run's board; the road, the stat cards, the dice and the log
follow every move. Old table links redirect to the new one."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page
from tests.web.test_e2e_support import (
    adopt,
    api,
    new_context,
    open_page,
    shot,
    version,
    view_of,
    wait_version_above,
)

INTERNAL_ID = re.compile(r"\b(law|ha)-(bike|buggy|car|trike)\b|\bDR-\d|\b[a-z]+_[a-z_]+\b")
PREFERRED = ("Straight ahead", "Peddle to the Metal", "Ram", "Shoot", "Grab the stash",
             "Try to evade", "Try to repair")



def _pick_devils_run(page: Page) -> None:
    """The lobby's ruleset picker (filled from the registry) set to Devil's Run."""
    page.select_option("#ruleset", "devils-run")
    page.wait_for_function("document.querySelector('#scenario').value === 'devils-run'")


def choose(page: Page) -> str:
    """What a player would click: a sensible button by its words, else the first one."""
    texts: list[str] = page.eval_on_selector_all("#dr-decision button.choice",
                                                 "bs => bs.map(b => b.textContent)")
    assert texts, "no buttons offered"
    for i, t in enumerate(texts, 1):
        assert t.startswith(f"{i}. "), t  # numbered from 1
        assert not INTERNAL_ID.search(t), f"an internal id in the button text: {t!r}"
    for want in PREFERRED:
        for t in texts:
            if t[t.index(" ") + 1:].startswith(want):
                return t
    return texts[0]


def test_a_human_plays_a_devils_run_mission_against_the_heuristic_bot(
        base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    lobby = open_page(ctx, f"{base}/")
    _pick_devils_run(lobby.page)
    assert lobby.page.locator("#scenario option").all_inner_texts() == [
        "Mission 1 - The Devil's Run", "Mission 2 - Hell on Wheels"]
    lobby.page.select_option("#scenario", "devils-run")
    assert "stash" in lobby.page.inner_text("#scenario-info")
    assert lobby.page.locator("#seats .seat").count() == 2
    assert lobby.page.locator("#seats .team").count() == 0  # it brings its own gangs
    assert "The Law" in lobby.page.inner_text("#seats .seat >> nth=0")
    lobby.page.select_option("#seats .seat[data-seat='0'] .controller", "human")
    lobby.page.select_option("#seats .seat[data-seat='1'] .controller", "heuristic")
    lobby.page.fill("#seed", "11")
    with ctx.expect_page() as popup:
        lobby.page.click("#create-game")
    table = adopt(popup.value)
    page = table.page
    # The lobby names the game by its scenario, not by an id.
    assert lobby.page.inner_text("#created h3").startswith("Mission 1 - The Devil's Run is on.")
    assert "/games/" in page.url and "token=" in page.url
    assert page.get_attribute("body", "data-board-view") == "devilsrun"
    # Its own stylesheet (declared by its ruleset, served from its game package) is applied.
    assert page.locator("link[href='/static/games/devilsrun/table.css']").count() == 1
    assert page.eval_on_selector(".dr-main", "e => getComputedStyle(e).display") == "flex"

    # The road: three 8 x 8 tiles of squares, tile names, and the stat cards of both gangs.
    assert page.locator("#dr-board rect.cell").count() == 3 * 8 * 8
    assert page.locator("#dr-board text.tile-name").count() == 6
    assert page.locator("#dr-cards-live .dr-card").count() == 4
    card = page.inner_text("#dr-cards-live .dr-card >> nth=0")
    for head in ("Chassis", "Armour", "Evade", "BS 1"):
        assert head in card
    assert page.locator("#dr-log li").count() > 0
    assert page.locator("#dr-log li .rule").first.get_attribute("title")
    shot(page, "devilsrun-start")

    back_rows: set[int] = set()
    saw_arcs = saw_vehicles = saw_dice = False
    clicks = 0
    while page.get_attribute("body", "data-status") != "finished":
        assert clicks < 600, "the mission did not end within 600 clicks"
        v = version(page)
        page.wait_for_selector("#dr-decision button.choice", timeout=15000)
        text = choose(page)
        page.locator("#dr-decision button.choice", has_text=text).first.click()
        wait_version_above(page, v)
        clicks += 1
        back_rows.add(int(page.get_attribute("#dr-board svg", "data-back-row") or "-1"))
        saw_vehicles = saw_vehicles or page.locator("#dr-board rect.vehicle").count() > 0
        saw_arcs = saw_arcs or page.locator("#dr-board rect.arc").count() > 0
        saw_dice = saw_dice or page.locator("#dr-dice li").count() > 0
        if clicks == 25:
            shot(page, "devilsrun-midgame")
    shot(page, "devilsrun-end")

    view = view_of(page)
    assert view["outcome"] is not None and view["pending"] is None
    banner = page.inner_text("#dr-result")
    assert ("win" in banner or "draw" in banner.lower()) and "turn" in banner
    assert "game is over" in page.inner_text("#dr-decision")
    assert saw_vehicles and saw_arcs and saw_dice
    assert len(back_rows) > 1, "the road never rolled forward"
    # The server agrees with what the page shows.
    status, served = api(base, "GET", f"/api/games/{view['id']}")
    assert status == 200 and served["version"] == view["version"]
    assert served["outcome"] == view["outcome"]
    # Step through the finished game from its start.
    page.click("#dr-replay-start")
    page.wait_for_selector("#dr-replay-step")
    steps = view["version"]
    assert page.inner_text("#dr-replay-step") == f"After 0 of {steps} choices"
    assert page.locator("#dr-board rect.vehicle").count() == 0  # nobody deployed yet
    for n in range(1, 4):
        page.click("#dr-replay-next")
        page.wait_for_function(
            f"document.querySelector('#dr-replay-step').textContent.startsWith('After {n} ')")
    assert page.locator("#dr-board rect.vehicle").count() >= 1
    shot(page, "devilsrun-replay")
    lobby.page.reload()
    lobby.page.wait_for_selector(f"#games tr[data-game='{view['id']}']")
    table.check()
    lobby.check()
    ctx.close()


def test_a_watcher_sees_the_board_but_no_controls(base: str, browser: Browser) -> None:
    status, game = api(base, "POST", "/api/games", {
        "ruleset": "devils-run", "scenario": "hell-on-wheels", "seed": 2,
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/devils-run/{game['id']}")  # an old link: redirected
    assert tab.page.url == f"{base}/games/{game['id']}"
    assert tab.page.locator("#dr-decision button.choice").count() == 0
    assert "Waiting for The Law" in tab.page.inner_text("#dr-decision")
    assert tab.page.locator("#dr-cards-live .dr-card").count() == 6
    assert tab.page.locator("#dr-board rect.cell").count() == 3 * 8 * 8
    tab.check()
    ctx.close()


def test_hot_seat_one_page_plays_both_gangs(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    lobby = open_page(ctx, f"{base}/")
    _pick_devils_run(lobby.page)
    lobby.page.select_option("#scenario", "hell-on-wheels")
    lobby.page.select_option("#seats .seat[data-seat='0'] .controller", "human")
    lobby.page.select_option("#seats .seat[data-seat='1'] .controller", "human")
    lobby.page.check("#hotseat")
    with ctx.expect_page() as popup:
        lobby.page.click("#create-game")
    table = adopt(popup.value)
    page = table.page
    assert re.search(r"token=[^,&]+,[^,&]+", page.url), page.url
    prompts: set[str] = set()
    for _ in range(12):
        v = version(page)
        page.wait_for_selector("#dr-decision button.choice")
        prompts.add(page.inner_text("#dr-decision .prompt").split(":")[0])
        page.locator("#dr-decision button.choice").first.click()
        wait_version_above(page, v)
    assert {"The Law", "The Haul's Angels"} <= prompts
    table.check()
    lobby.check()
    ctx.close()


def test_a_shot_shows_the_odds_of_each_target(base: str, browser: Browser) -> None:
    # Hot seat over the API until a shot's target is to be chosen (as the API test does),
    # then the table: one chart per target, with its expected damage, none for "hold fire".
    status, g = api(base, "POST", "/api/games", {
        "ruleset": "devils-run", "scenario": "devils-run", "seed": 3, "hot_seat": True,
        "seats": [{"controller": "human"}, {"controller": "human"}]})
    assert status == 201, g
    tokens = f"{g['seats'][0]['token']},{g['seats'][1]['token']}"
    _, v = api(base, "GET", f"/api/games/{g['id']}?token={tokens}")
    for _ in range(400):
        p = v["pending"]
        values = [o["value"] for o in p["options"]]
        if p["kind"] == "shoot_target" and len(values) > 1:
            break
        choice = next((c for c in ("shoot", "stay", "peddle") if c in values), values[0])
        status, v = api(base, "POST", f"/api/games/{g['id']}/decisions",
                        {"token": tokens, "version": v["version"], "choice": choice})
        assert status == 200, v
    else:
        raise AssertionError("no shot to aim")
    targets = [o for o in p["options"] if "odds" in o]
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/games/{g['id']}?token={tokens}")
    page = tab.page
    page.wait_for_selector("#dr-odds figure")
    figures = page.eval_on_selector_all("#dr-odds figure", """fs => fs.map(f => [
        f.dataset.option, f.querySelector('figcaption').textContent,
        f.querySelectorAll('rect.bar').length])""")
    assert [f[0] for f in figures] == [str(o["value"]) for o in targets]
    for (_, caption, bars), o in zip(figures, targets, strict=True):
        assert f"expected damage {o['odds']['expected_damage']:.2f}" in caption
        assert bars == len(o["odds"]["distribution"])
    tab.check()
    ctx.close()
