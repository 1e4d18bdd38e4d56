"""The table a newcomer enjoys, in a real browser: skid dice drawn as dice and numbered from 1,
every move played out to whoever watches (opponent, spectator, replay) at the pace they pick,
the whole log (no cap, downloadable), plain words, and the "touch it, use it" warning."""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.web.test_e2e_support import (
    Tab,
    api,
    new_context,
    open_page,
    version,
    wait_version_above,
)

ID_LIKE = re.compile(r"\bp\d+-[a-z]|#\d|\b[a-z]+_[a-z_]+\b|\bcancel:\d|\b(?:seat|Player) \d"
                     r"|(?i:perk:)")



def paced(browser: Browser, pace: str) -> BrowserContext:
    ctx = new_context(browser)
    ctx.add_init_script(f"localStorage.setItem('carnage.pace', '{pace}')")
    return ctx


def new_game(base: str, *controllers: str, seed: int) -> dict[str, Any]:
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": seed,
        "seats": [{"controller": c, "team_id": None} for c in controllers]})
    assert status == 201, game
    return game


def game_view(base: str, gid: str, token: str | None = None) -> dict[str, Any]:
    status, v = api(base, "GET", f"/api/games/{gid}" + (f"?token={token}" if token else ""))
    assert status == 200
    return v


def decide(base: str, gid: str, token: str, version_: int, choice: Any) -> dict[str, Any]:
    status, v = api(base, "POST", f"/api/games/{gid}/decisions",
                    {"token": token, "version": version_, "choice": choice})
    assert status == 200, v
    return v


def drive_until(base: str, gid: str, tokens: dict[int, str], kind: str,
                limit: int = 400) -> dict[str, Any]:
    """Answer for the human seats (most skid dice, no Push It, spend Shifts on gear up, hold
    fire) until a decision of ``kind`` is pending."""
    v = game_view(base, gid, tokens[0])
    for _ in range(limit):
        p = v["pending"]
        assert p is not None, "the game ended first"
        if p["kind"] == kind:
            return v
        values = [o["value"] for o in p["options"] or []]
        if p["kind"] == "skid_dice":
            choice: Any = max(values)
        elif p["kind"] == "template":
            choice = next((o["value"] for o in p["options"] if "[T]" in o["label"]
                           or "[P]" in o["label"]), values[0])
        elif p["kind"] == "push_it":
            choice = values[-1] if kind in ("spend_shift",) else "no"
        elif p["kind"] == "spend_shift":
            choice = "done"
        elif p["kind"] == "attack":
            choice = "stop"
        elif p["domain"] is not None:
            choice = 0
        else:
            choice = values[0]
        v = decide(base, gid, tokens[p["seat"]], v["version"], choice)
    raise AssertionError(f"no {kind} decision within {limit} choices")


def texts(page: Page, selector: str) -> list[str]:
    out: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return out


# -- skid dice as dice ---------------------------------------------------------------------------
def test_push_it_and_shifts_show_the_dice_numbered_from_one(base: str, browser: Browser) -> None:
    game = new_game(base, "human", "human", seed=5)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    v = drive_until(base, game["id"], tokens, "push_it")
    seat = v["pending"]["seat"]
    dice = v["pending"]["dice"]["dice"]
    assert [d["number"] for d in dice] == list(range(1, len(dice) + 1))
    ctx = paced(browser, "skip")
    tab = open_page(ctx, f"{base}/games/{game['id']}?token={tokens[seat]}")
    page = tab.page
    row = page.locator("#decision .dice-row .die")
    expect(row).to_have_count(len(dice))
    # A free Shift (a trivial manoeuvre's) is no die: marked "+" instead of a number.
    assert texts(page, "#decision .dice-row .die .num") == [
        "+" if d.get("free") else str(d["number"]) for d in dice]
    assert page.locator("#decision .die.free").count() == sum(1 for d in dice if d.get("free"))
    assert [f.lower() for f in texts(page, "#decision .dice-row .die .fname")] == [
        d["face"] for d in dice]
    # Re-roll buttons count dice from 1; hovering one picks out exactly those dice.
    last = page.locator("#decision .reroll-options button.choice").last
    value = str(last.get_attribute("data-value"))
    want = [int(i) + 1 for i in value.split(",")]
    assert [int(n) for n in re.findall(r"\d", last.inner_text())] == want
    last.hover()
    highlighted = page.eval_on_selector_all("#decision .die.highlight",
                                            "els => els.map(e => Number(e.dataset.number))")
    assert highlighted == want
    # The roll is in the log as dice too.
    expect(page.locator("#log li[data-kind='roll'] .dice-row.skid").last).to_be_visible()
    before = version(page)
    last.click()
    wait_version_above(page, before)
    view = page.evaluate("() => window.carnage.view")
    if view["pending"] and view["pending"]["kind"] == "spend_shift":
        shift = view["pending"]["dice"]["dice"]
        expect(page.locator("#decision .dice-row .die")).to_have_count(len(shift))
        rerolled = page.locator("#log li[data-kind='skid'] .die.mark-rerolled")
        expect(rerolled).to_have_count(len(want))
        spend = page.locator("#decision button.choice[data-value='gear_up'],"
                             "#decision button.choice[data-value='discard']").first
        if spend.count():
            before = version(page)
            spend.click()
            wait_version_above(page, before)
            after = page.evaluate("() => window.carnage.view")["pending"]
            if after and after["kind"] == "spend_shift":
                expect(page.locator("#decision .die.mark-spent")).to_have_count(1)
    tab.check()
    ctx.close()


# -- everyone sees the table ---------------------------------------------------------------------
def test_a_spectator_sees_the_template_laid_and_the_move_played_out(
        base: str, browser: Browser) -> None:
    game = new_game(base, "human", "human", seed=8)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    v = drive_until(base, game["id"], tokens, "template")
    ctx = paced(browser, "slow")
    tab = open_page(ctx, f"{base}/games/{game['id']}")
    page = tab.page
    expect(page.locator("#pace button.on")).to_have_text("Slow")
    p = v["pending"]
    choice = next(o["value"] for o in p["options"] if "[T]" in o["label"] or "[P]" in o["label"])
    decide(base, game["id"], tokens[p["seat"]], v["version"], choice)
    # The spectator's board lays the template and says so, then the view catches up.
    expect(page.locator("#playback .caption")).to_contain_text("template", timeout=10000)
    expect(page.locator("svg.board .template-ghost")).to_have_count(1)
    page.wait_for_function("!document.body.dataset.playing", timeout=15000)
    assert version(page) == v["version"] + 1
    tab.check()
    ctx.close()


def test_the_bots_activation_is_played_out_and_can_be_skipped(
        base: str, browser: Browser) -> None:
    game = new_game(base, "human", "heuristic", seed=4)
    token = game["seats"][0]["token"]
    ctx = paced(browser, "slow")
    tab = open_page(ctx, f"{base}/games/{game['id']}?token={token}")
    page = tab.page
    seen: list[str] = []
    skipped = False
    for _ in range(80):
        view = page.evaluate("() => window.carnage.view")
        p = view["pending"]
        if view["status"] == "finished" or (skipped and any("template" in c for c in seen)):
            break
        before = version(page)
        if p["domain"] is not None:
            page.click("button.confirm")
        elif p["kind"] == "push_it":
            page.click("#decision button.choice[data-value='no']")
        elif p["kind"] == "attack":
            page.click("#decision button.choice[data-value='stop']")
        else:
            page.locator("#decision button.choice:not(.forbidden)").first.click()
        try:
            page.wait_for_selector("body[data-playing]", timeout=1500)
        except PlaywrightTimeout:  # nothing of the bot's came with this choice
            wait_version_above(page, before)
            continue
        # While the bot's moves play out, the caption says what happens and the panel waits.
        state = page.evaluate("""() => [!!document.body.dataset.playing,
            document.getElementById('decision').classList.contains('busy'),
            (document.querySelector('#playback .caption') || {}).textContent || '']""")
        if state[0]:
            assert state[1], "the decision panel must wait while moves are played out"
        if not skipped and any("template" in c for c in seen):
            page.click("#playback .skip-playback")
            page.wait_for_function("!document.body.dataset.playing", timeout=1500)
            skipped = True
        else:
            for _ in range(100):
                caption = page.evaluate(
                    "(document.querySelector('#playback .caption') || {}).textContent || ''")
                if caption and caption not in seen:
                    seen.append(caption)
                if not page.evaluate("!!document.body.dataset.playing"):
                    break
                page.wait_for_timeout(150)
        wait_version_above(page, before)
    assert any("Blue" in c and "template" in c for c in seen), seen
    assert skipped
    assert [c for c in seen if ID_LIKE.search(c)] == []
    # Skip as the pace: nothing is played out any more.
    page.click("#pace button[data-pace='skip']")
    assert page.evaluate("localStorage.getItem('carnage.pace')") == "skip"
    tab.check()
    ctx.close()


def test_the_replay_plays_each_step_out(base: str, browser: Browser) -> None:
    game = new_game(base, "heuristic", "random", seed=21)
    ctx = paced(browser, "fast")
    tab = open_page(ctx, f"{base}/games/{game['id']}/replay")
    page = tab.page
    steps = 0
    for _ in range(40):
        page.click("#forward")
        try:
            page.wait_for_selector("body[data-playing]", timeout=800)
        except PlaywrightTimeout:  # a step with nothing to draw
            continue
        steps += 1
        expect(page.locator("#playback .caption")).not_to_be_empty()
        page.wait_for_function("!document.body.dataset.playing", timeout=15000)
        if steps >= 2:
            break
    assert steps >= 2
    tab.check()
    ctx.close()


# -- the whole log ---------------------------------------------------------------------------------
def test_the_table_holds_the_whole_log_and_downloads_it(base: str, browser: Browser) -> None:
    game = new_game(base, "heuristic", "heuristic", seed=3)
    status, lines = api(base, "GET", f"/api/games/{game['id']}/log")
    assert status == 200 and len(lines) > 200
    ctx = paced(browser, "skip")
    tab = open_page(ctx, f"{base}/games/{game['id']}")
    page = tab.page
    expect(page.locator("#log li")).to_have_count(len(lines), timeout=15000)
    assert page.get_attribute("#log li:first-child", "data-seq") == "0"
    href = page.get_attribute("#download-log", "href")
    assert href and href.endswith("format=text")
    with urllib.request.urlopen(base + href) as r:
        body = r.read().decode()
    assert len(body.splitlines()) == len(lines)
    # Every line reads as words: no ids anywhere on the page's log or players.
    shown = texts(page, "#log li .text") + texts(page, "#log li .rule") + texts(page, "#players")
    assert [t for t in shown if ID_LIKE.search(t)] == []
    tab.check()
    ctx.close()


# -- fewer traps -----------------------------------------------------------------------------------
def test_touch_it_use_it_warns_before_handing_the_choice_over(
        base: str, browser: Browser) -> None:
    game = new_game(base, "human", "human", seed=6)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    v = drive_until(base, game["id"], tokens, "template")
    seat = v["pending"]["seat"]
    ctx = paced(browser, "skip")
    tab: Tab = open_page(ctx, f"{base}/games/{game['id']}?token={tokens[seat]}")
    page = tab.page
    expect(page.locator("#decision .legend")).to_contain_text("touch it, use it")
    forbidden = page.locator("#decision button.choice.forbidden").first
    expect(forbidden).to_be_visible()
    before = version(page)
    forbidden.click()
    warning = page.locator("#decision .touch-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("not permitted")
    page.click("#decision .touch-warning button:has-text('Pick another template')")
    expect(warning).to_be_hidden()
    assert version(page) == before
    forbidden.click()
    page.click("#decision .confirm-forbidden")
    wait_version_above(page, before)
    after = page.evaluate("() => window.carnage.view")["pending"]
    assert after["kind"] == "template" and after["seat"] != seat
    tab.check()
    ctx.close()


def test_the_lobby_abandons_and_deletes_games(base: str, browser: Browser) -> None:
    ctx = paced(browser, "skip")
    lobby = open_page(ctx, f"{base}/")
    page = lobby.page
    # A game started from this lobby (it holds the seat link), and a finished bot game.
    page.locator("#seats .seat[data-seat='0'] select.controller").select_option("human")
    page.locator("#seats .seat[data-seat='1'] select.controller").select_option("heuristic")
    with ctx.expect_page() as popup:
        page.click("#create-game")
    popup.value.close()
    bots = new_game(base, "heuristic", "random", seed=9)
    page.click("#refresh-games")
    ours = page.locator("#games tr").filter(has=page.locator("button.delete-game",
                                                             has_text="Abandon"))
    expect(ours).to_have_count(1)
    gid = ours.get_attribute("data-game")
    ours.locator("button.delete-game").click()
    expect(ours.locator(".confirm-delete")).to_contain_text("cannot be undone")
    ours.locator(".confirm-delete button.no").click()
    expect(ours.locator(".confirm-delete")).to_have_count(0)
    ours.locator("button.delete-game").click()
    ours.locator(".confirm-delete button.yes").click()
    expect(page.locator(f"#games tr[data-game='{gid}']")).to_have_count(0)
    assert api(base, "GET", f"/api/games/{gid}")[0] == 404
    finished = page.locator(f"#games tr[data-game='{bots['id']}']")
    finished.locator("button.delete-game", has_text="Delete").click()
    finished.locator(".confirm-delete button.yes").click()
    expect(page.locator(f"#games tr[data-game='{bots['id']}']")).to_have_count(0)
    lobby.check()
    ctx.close()


def test_fire_everything_at_one_target_in_one_click(base: str, browser: Browser) -> None:
    game = new_game(base, "human", "human", seed=5)
    gid = game["id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    target = None
    for _ in range(40):
        v = drive_until(base, gid, tokens, "attack")
        p = v["pending"]
        shooter = next(x for x in v["vehicles"] if x["id"] == p["vehicle"])
        shots = [o["value"] for o in p["options"] if str(o["value"]).startswith("handgun>")]
        if shots and shooter["crew"] >= 2:
            target = shots[0].split(">")[1]
            break
        decide(base, gid, tokens[p["seat"]], v["version"], "stop")
    assert target is not None, "no handgun shot in reach"
    seat = p["seat"]
    ctx = paced(browser, "skip")
    tab = open_page(ctx, f"{base}/games/{gid}?token={tokens[seat]}")
    page = tab.page
    name = next(x["name"] for x in v["vehicles"] if x["id"] == target)
    button = page.locator(f"#decision button.shortcut[data-value='*>{target}']")
    expect(button).to_contain_text(f"Fire everything at {name}")
    expect(page.locator("#decision button.batch")).to_have_count(0)  # no second button for it
    before = len(api(base, "GET", f"/api/games/{gid}/events")[1])
    button.click()
    page.wait_for_function(
        """([vid, value]) => { const p = window.carnage.view.pending;
           return !(p && p.kind === 'attack'
             && p.vehicle === vid && p.options.some(o => o.value === value)); }""",
        arg=[shooter["id"], f"handgun>{target}"], timeout=15000)
    events = api(base, "GET", f"/api/games/{gid}/events?since={before}")[1]
    aimed = [e for e in events if e["kind"] == "declare_attack"
             and e["data"].get("vehicle") == shooter["id"]]
    assert len(aimed) >= 2  # more than one attack from one click
    assert all(e["data"]["target"] == target for e in aimed)
    tab.check()
    ctx.close()


# -- dashboards like the card ------------------------------------------------------------------
def test_dashboards_read_like_the_card_at_1024_pixels(base: str, browser: Browser) -> None:
    import yaml
    from tests.web.test_e2e_teams import EXAMPLES

    team = yaml.safe_load((EXAMPLES / "rustys_convoy.yaml").read_text(encoding="utf-8"))
    status, saved = api(base, "POST", "/api/teams", {"team": team})
    assert status == 201
    status, game = api(base, "POST", "/api/games", {"seed": 3, "seats": [
        {"controller": "human", "team_id": saved["id"]}, {"controller": "heuristic"}]})
    assert status == 201
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    ctx.add_init_script("localStorage.setItem('carnage.pace', 'skip')")
    tab = open_page(ctx, f"{base}{game['seats'][0]['url']}")
    page = tab.page
    view = page.evaluate("() => window.carnage.view")
    for v in view["vehicles"]:
        card = page.locator(f".live-card[data-vehicle='{v['id']}']")
        expect(card.locator(".crew")).to_have_text(f"Crew {v['crew']}")
        for w in v["weapons"]:
            line = card.locator(f".wline[data-key='{w['key']}']")
            expect(line.locator(".wname")).to_have_text(w["name"])
            expect(line.locator(".warc")).not_to_be_empty()
            if w["ammo"] is not None:
                expect(line.locator(".ammo")).to_contain_text(f"ammo {w['ammo']}")
        for u in v["upgrades"]:
            expect(card.locator(".upgrades")).to_contain_text(u["name"])
        for perk in v["perks"]:
            expect(card.locator(".perks")).to_contain_text(perk)
        for rule in v["rule_names"]:
            expect(card.locator(".specials")).to_contain_text(rule)
    rig = next(v for v in view["vehicles"] if v["name"] == "Moonshine Express")
    assert [u["name"] for u in rig["upgrades"]] == ["Ram", "Peach Moonshine"]
    expect(page.locator(f".live-card[data-vehicle='{rig['id']}'] .upgrades")).to_contain_text(
        "Ram (Front)")
    runner = next(v for v in view["vehicles"] if v["name"] == "Still Runner")
    assert runner["perks"] == ["Bruiser"]
    # Readable at 1024 px: nothing wider than the window, the board a usable size.
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    box = page.locator("svg.board").bounding_box()
    assert box is not None and box["width"] >= 360 and box["height"] >= 300
    tab.check()
    ctx.close()


# -- the odds of the pending decision, on the table ------------------------------------------------
def test_the_table_shows_the_odds_of_the_skid_dice_before_they_are_rolled(
        base: str, browser: Browser) -> None:
    game = new_game(base, "human", "human", seed=7)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    v = drive_until(base, game["id"], tokens, "skid_dice")
    p = v["pending"]
    seat = p["seat"]
    status, answer = api(base, "GET", f"/api/odds/games/{game['id']}/pending?token={tokens[seat]}")
    assert status == 200 and answer["kind"] == "skid_dice"
    ctx = paced(browser, "skip")
    tab = open_page(ctx, f"{base}/games/{game['id']}?token={tokens[seat]}")
    page = tab.page
    page.wait_for_selector(f"#decision-odds[data-shown='{v['version']}']")
    options = page.eval_on_selector_all(
        "#decision-odds figure", "els => els.map(e => e.dataset.option)")
    assert options == [str(o["value"]) for o in p["options"]]
    captions = texts(page, "#decision-odds figcaption")
    assert all("skid dice: P(wipeout)" in c and "(Push It:" in c for c in captions)
    drawn = page.eval_on_selector_all("#decision-odds figure", """els => els.map(f =>
        Object.fromEntries([...f.querySelectorAll('rect.bar')].map(
          r => [r.dataset.k, Number(r.dataset.p)])))""")
    for o, bars in zip(answer["options"], drawn, strict=True):
        want = {k: p for k, p in o["odds"]["hazards_after"].items()}
        assert bars == pytest.approx(want)  # the Hazards after the dice, option by option
    # The other seat's page shows no odds: the decision is not theirs.
    other = open_page(ctx, f"{base}/games/{game['id']}?token={tokens[1 - seat]}")
    other.page.wait_for_selector("#decision[data-kind='skid_dice']")
    assert other.page.locator("#decision-odds").count() == 0
    # Choosing moves on; the odds box goes with the decision.
    before = version(page)
    page.locator("#decision button.choice").first.click()
    wait_version_above(page, before)
    view = page.evaluate("() => window.carnage.view")
    if view["pending"] is None or view["pending"]["kind"] not in (
            "attack", "skid_dice", "collision_reaction"):
        expect(page.locator("#decision-odds")).to_have_count(0)
    tab.check()
    other.check()
    ctx.close()


# -- optional prompts: how a seat wants them asked ----------------------------------------------
def test_a_seat_says_never_to_ask_about_the_nitro_booster(base: str, browser: Browser) -> None:
    import yaml
    from tests.web.test_e2e_teams import EXAMPLES

    team = yaml.safe_load((EXAMPLES / "idris_cult_of_speed.yaml").read_text(encoding="utf-8"))
    status, saved = api(base, "POST", "/api/teams", {"team": team})
    assert status == 201, saved
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 2,
        "seats": [{"controller": "human", "team_id": saved["id"]}, {"controller": "heuristic"}]})
    assert status == 201, game
    gid, token = game["id"], game["seats"][0]["token"]
    status, _ = api(base, "PUT", f"/api/games/{gid}/preferences",
                    {"token": token, "key": "nitro", "value": "ask"})
    assert status == 200
    v = drive_until(base, gid, {0: token}, "nitro")
    ctx = paced(browser, "skip")
    tab = open_page(ctx, f"{base}/games/{gid}?token={token}")
    page = tab.page
    select = page.locator("#decision select.prompt-pref")
    expect(select).to_have_value("ask")
    select.select_option("never")
    wait_version_above(page, v["version"])
    page.wait_for_function("window.carnage.view.pending.kind !== 'nitro'")
    status, after = api(base, "GET", f"/api/games/{gid}/log")
    assert any("Nitro Booster: never asked" in ln["text"] for ln in after)
    tab.check()
    ctx.close()
