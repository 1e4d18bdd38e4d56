"""Playing in a real browser: start a game from the lobby against
the heuristic bot and play activations by clicking; the log and dashboards follow; a second
browser joins as player 2 with its link and is refused when it acts for player 1; hot-seat;
a finished game is listed and replays step by step."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from tests.web.test_e2e_support import (
    Tab,
    adopt,
    api,
    keep_owner_token,
    new_context,
    open_page,
    racer_team,
    shot,
    version,
    view_of,
    wait_version_above,
)

PREFERRED = ["medium_straight", "short_straight", "gentle", "veer", "turn"]





def start_from_lobby(ctx: BrowserContext, base: str, controllers: list[str],
                     team_ids: list[str | None], *, hotseat: bool = False,
                     seed: int | None = None) -> tuple[Tab, Tab]:
    """Fill in the lobby and start; returns (lobby tab, the table tab it opened)."""
    lobby = open_page(ctx, f"{base}/")
    for seat, (ctrl, team) in enumerate(zip(controllers, team_ids, strict=True)):
        row = lobby.page.locator(f"#seats .seat[data-seat='{seat}']")
        row.locator("select.controller").select_option(ctrl)
        row.locator("select.team").select_option(team or "")
    if seed is not None:
        lobby.page.fill("#seed", str(seed))
    if hotseat:
        lobby.page.check("#hotseat")
    with ctx.expect_page() as popup:
        lobby.page.click("#create-game")
    return lobby, adopt(popup.value)


def pick(page: Page, kind: str) -> str:
    """A sensible choice by clicking what a player would click: its button's value."""
    rows: list[list[str]] = page.eval_on_selector_all(
        "#decision button.choice",
        "bs => bs.map(b => [b.dataset.value, (b.closest('.tpl-row') || {}).dataset?.template "
        "|| '', ((b.closest('.tpl-row') || document.body).querySelector('.use') || {})"
        ".textContent || ''])")
    values = [r[0] for r in rows]
    assert values, f"no buttons offered for {kind}"
    if kind == "template":
        usable = [r for r in rows if r[2] != "✕" and "reverse" not in r[0] and "left" not in r[0]]
        for tid in PREFERRED:
            for value, template, _ in usable:
                if template == tid:
                    return value
        return usable[0][0]
    if kind == "skid_dice":
        return "1" if "1" in values else values[0]
    if kind == "spend_shift":
        return "gear_up" if "gear_up" in values else ("done" if "done" in values else values[0])
    if kind == "attack":
        shots = [v for v in values if ">" in v]
        return shots[0] if shots else values[0]
    return values[0]


def check_dashboards(page: Page) -> None:
    """Every card shows the vehicle's gear, hazards, hull and activation as the view has them."""
    view = view_of(page)
    for v in view["vehicles"]:
        card = page.locator(f".live-card[data-vehicle='{v['id']}']")
        expect(card.locator(".gears .on")).to_have_text(str(v["gear"]))
        expect(card.locator(".box.hazard.used")).to_have_count(v["hazards"])
        expect(card.locator(".box.hull.used")).to_have_count(v["hull"] - v["hull_points"])
        expect(card.locator(".hullnum")).to_have_text(f"{v['hull_points']}/{v['hull']}")
        if v["status"] == "active":
            expect(card.locator("header .badge")).to_have_text(
                "activated" if v["activated"] else "to act")
        for w in v["weapons"]:
            if w["ammo"] is not None:
                expect(card.locator(f".wline[data-key='{w['key']}'] .ammo")).to_contain_text(
                    f"ammo {w['ammo']}")


def drawn_pose(page: Page, vid: str) -> tuple[float, float, float] | None:
    el = page.query_selector(f"svg.board g.vehicle[data-id='{vid}']")
    t = None if el is None else el.get_attribute("transform")
    if t is None:
        return None
    m = re.match(r"translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)", t)
    assert m, t
    return float(m[1]), float(m[2]), float(m[3])


def settled(page: Page) -> None:
    page.wait_for_function("document.getElementById('board').dataset.animating !== '1'")


def test_lobby_game_against_the_heuristic_bot_played_by_clicking(
        base: str, browser: Browser) -> None:
    status, saved = api(base, "POST", "/api/teams", {"team": racer_team("Road Hogs")})
    assert status == 201
    ctx = new_context(browser)
    keep_owner_token(ctx, saved)  # the lobby lists this browser's own teams
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    lobby, table = start_from_lobby(ctx, base, ["human", "heuristic"], [saved["id"], None],
                                    seed=4)
    # The lobby shows the human seat's join link with a working copy button.
    link = lobby.page.locator(".seat-link[data-seat='0'] input")
    url = link.input_value()
    assert re.search(r"/games/\w+\?token=\S+", url)
    lobby.page.click(".seat-link[data-seat='0'] button.copy")
    assert lobby.page.evaluate("navigator.clipboard.readText()") == url
    assert table.page.url == url

    page = table.page
    view = view_of(page)
    assert view["your_seat"] == 0
    assert [p["controller"] for p in view["players"]] == ["human", "heuristic"]
    mine = {v["id"] for v in view["vehicles"] if v["player"] == 0}
    assert {v["name"] for v in view["vehicles"] if v["player"] == 0} == {
        "Road Hogs Car", "Road Hogs Buggy"}
    shot(page, "table-start")
    page.click("#help-toggle")
    expect(page.locator("#help")).to_be_visible()
    page.click("#help-close")
    expect(page.locator("#help")).to_be_hidden()

    done_names: list[str] = []
    clicked_vehicle = placed_seen = False
    log_sizes = [page.locator("#log li").count()]
    names = {v["name"] for v in view["vehicles"] if v["id"] in mine}
    for _ in range(45):
        if len(done_names) >= 2 or page.get_attribute("body", "data-status") == "finished":
            break
        view = view_of(page)
        p = view["pending"]
        assert p is not None and p["seat"] == 0 == view["your_seat"]
        kind = p["kind"]
        before = version(page)
        if kind in ("skid_dice", "push_it", "spend_shift", "slide") and not placed_seen:
            # The template chosen for this move stays laid on the table.
            expect(page.locator("svg.board .template-ghost.placed")).to_have_count(1)
            placed_seen = True
        if kind in ("spin", "lose_control"):
            page.fill("input.angle-number", "20")
            page.click("button.confirm")
        elif kind == "activate":
            # A vehicle picked shows its templates (nothing sent yet); the template click
            # sends the vehicle, the template and its skid dice in one action.
            vid = str(p["options"][-1]["value"])
            page.click(f"svg.board g.vehicle.clickable[data-id='{vid}']")
            clicked_vehicle = True
            name = next(x["name"] for x in view["vehicles"] if x["id"] == vid)
            expect(page.locator("#decision .vehicle-templates .for-vehicle")).to_contain_text(
                name)
            page.wait_for_selector("#decision .tpl-row")
            expect(page.locator("#decision .dice-options button.dice-pick")).not_to_have_count(0)
            choice = pick(page, "template")
            page.locator(f"#decision button.choice[data-value='{choice}']").first.click()
        else:
            choice = pick(page, kind)
            button = page.locator(f"#decision button.choice[data-value='{choice}']").first
            if kind == "template" and not placed_seen:
                button.hover()
                expect(page.locator("svg.board .template-ghost polygon")).not_to_have_count(0)
                shot(page, "table-template")
            button.click()
        wait_version_above(page, before)
        log_sizes.append(page.locator("#log li").count())
        ended = page.locator("#log li[data-kind='activation_end'] .text").all_text_contents()
        now_done = [n for t in ended for n in names if t.startswith(n)]
        if len(now_done) > len(done_names):
            # An activation of ours is over: its card says so, and every dashboard is current.
            check_dashboards(page)
        done_names = now_done
    assert clicked_vehicle, "never asked to pick a vehicle to activate"
    assert len(done_names) >= 2 or page.get_attribute("body", "data-status") == "finished"
    assert placed_seen
    check_dashboards(page)

    # The log grew with the game; every line names its rule, most a page.
    assert log_sizes[-1] > log_sizes[0]
    cites = page.eval_on_selector_all("#log li .cite .rule", "els => els.map(e => e.textContent)")
    assert all(c.strip() for c in cites)
    assert page.locator("#log li .cite .page").count() > len(cites) // 2
    # Our vehicles moved on the table, where the engine says they are.
    settled(page)
    for v in view_of(page)["vehicles"]:
        pose = drawn_pose(page, v["id"])
        if v["status"] == "active" and pose is not None:
            assert pose[0] == pytest.approx(v["x"], abs=0.01)
            assert pose[1] == pytest.approx(v["y"], abs=0.01)
    # The page is in step with the server.
    token = table.page.url.split("token=")[1]
    status, server_view = api(base, "GET", f"/api/games/{view['id']}?token={token}")
    assert status == 200 and server_view["version"] == version(page)
    shot(page, "table-played")
    lobby.check()
    table.check()
    ctx.close()


def test_second_browser_joins_as_player_two_and_is_refused_for_player_one(
        base: str, browser: Browser) -> None:
    ctx_a = new_context(browser)
    lobby, first = start_from_lobby(ctx_a, base, ["human", "human"], [None, None], seed=9)
    expect(lobby.page.locator(".seat-link input")).to_have_count(2)
    # Two different humans: the seed asked for is not used; the lobby says the server drew it.
    expect(lobby.page.locator(".seed-note")).to_contain_text("the server drew the dice seed")
    link_b = lobby.page.locator(".seat-link[data-seat='1'] input").input_value()
    ctx_b = new_context(browser)
    second = open_page(ctx_b, link_b)
    assert view_of(first.page)["your_seat"] == 0 and view_of(second.page)["your_seat"] == 1
    expect(second.page.locator("body")).to_have_attribute("data-conn", "live")
    expect(first.page.locator("body")).to_have_attribute("data-conn", "live")

    pending = view_of(first.page)["pending"]
    actor, other = (first, second) if pending["seat"] == 0 else (second, first)
    p_seat, o_seat = pending["seat"], 1 - pending["seat"]
    expect(other.page.locator("#decision button.choice")).to_have_count(0)
    expect(other.page.locator("#decision")).to_contain_text("is deciding")
    v0 = version(actor.page)
    choice = pending["options"][0]["value"]

    # A direct request from the other browser, with its own token: 403, nothing changes.
    res = other.page.evaluate("""async (choice) => {
        const r = await fetch(`/api/games/${carnage.gid}/decisions`, {
          method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({token: carnage.token, version: carnage.view.version, choice})});
        return {status: r.status, body: await r.json()};
    }""", choice)
    refusal = f"{['Red', 'Blue'][o_seat]} cannot act for {['Red', 'Blue'][p_seat]}"
    assert res == {"status": 403, "body": {"detail": refusal}}
    # The same through the page's own action: the UI shows the server's sentence.
    other.page.evaluate("(c) => carnage.submit(c)", choice)
    expect(other.page.locator("#decision-error")).to_have_text(refusal)
    expect(other.page.locator("#decision-error")).to_be_visible()
    shot(other.page, "table-refused")
    assert version(other.page) == v0 == version(actor.page)
    gid = view_of(actor.page)["id"]
    status, spectator_view = api(base, "GET", f"/api/games/{gid}")
    assert status == 200 and spectator_view["version"] == v0

    # An action against an old version is refused as stale.
    stale = actor.page.evaluate("""async (choice) => {
        const r = await fetch(`/api/games/${carnage.gid}/decisions`, {
          method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({token: carnage.token, version: carnage.view.version - 1,
                                choice})});
        return {status: r.status, body: await r.json()};
    }""", choice)
    assert stale == {"status": 409, "body": {"detail": f"stale state: version {v0} is current"}}

    # The rightful player acts by clicking; the other browser sees it over the websocket.
    actor.page.locator("#decision button.choice").first.click()
    wait_version_above(actor.page, v0)
    wait_version_above(other.page, v0)
    assert version(other.page) == version(actor.page)

    # A spectator sees the game but is offered nothing.
    ctx_c = new_context(browser)
    watcher = open_page(ctx_c, f"{base}/games/{gid}")
    assert view_of(watcher.page)["your_seat"] is None
    expect(watcher.page.locator("#decision button.choice")).to_have_count(0)
    expect(watcher.page.locator("#decision")).to_contain_text("You are watching")
    # A wrong token or an unknown game: the page says so in one sentence.
    bad = open_page(ctx_c, f"{base}/games/{gid}?token=not-a-seat")
    expect(bad.page.locator("#decision")).to_contain_text(
        "that seat token does not belong to this game")
    missing = open_page(ctx_c, f"{base}/games/no-such-game")
    expect(missing.page.locator("#decision h2")).to_have_text("Cannot open this game")
    for tab in (lobby, first, second, watcher, bad, missing):
        tab.check()
    for c in (ctx_a, ctx_b, ctx_c):
        c.close()


def test_hot_seat_one_page_plays_both_seats(base: str, browser: Browser) -> None:
    ctx = new_context(browser)
    lobby, table = start_from_lobby(ctx, base, ["human", "human"], [None, None],
                                    hotseat=True, seed=2)
    assert "," in table.page.url.split("token=")[1]
    # Hot-seat too: each human seat has its own link, so the seed asked for is not used.
    expect(lobby.page.locator(".seed-note")).to_contain_text("the server drew the dice seed")
    page = table.page
    seats = set()
    handed = 0
    last = None
    for _ in range(5):
        view = view_of(page)
        p = view["pending"]
        assert p is not None and view["your_seat"] == p["seat"]
        seats.add(p["seat"])
        if last is not None and p["seat"] != last:
            # The decision passed to the other player: the table is covered until they take it.
            cover = page.locator("#handover")
            expect(cover).to_be_visible()
            names = {0: "Red", 1: "Blue"}
            expect(cover).to_contain_text(f"Pass the table to {names[p['seat']]}")
            page.click("#handover-ready")
            expect(cover).to_be_hidden()
            handed += 1
        else:
            expect(page.locator("#handover")).to_be_hidden()
        last = p["seat"]
        before = version(page)
        page.locator("#decision button.choice").first.click()
        wait_version_above(page, before)
    assert seats == {0, 1} and handed >= 1
    lobby.check()
    table.check()
    ctx.close()


def test_finished_game_is_listed_and_replays_step_by_step(base: str, browser: Browser) -> None:
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 21,
        "seats": [{"controller": "heuristic", "team_id": None},
                  {"controller": "random", "team_id": None}]})
    assert status == 201
    gid = game["id"]
    status, final = api(base, "GET", f"/api/games/{gid}")
    assert final["status"] == "finished"
    ctx = new_context(browser)
    lobby = open_page(ctx, f"{base}/")
    row = lobby.page.locator(f"#games tr[data-game='{gid}']")
    expect(row.locator(".badge")).to_have_text(re.compile(r"\bwon\b|a draw"))
    row.locator("a", has_text="Replay").click()
    lobby.page.wait_for_selector("body[data-ready]")
    replay = Tab(lobby.page)
    page = replay.page
    n = final["version"]
    expect(page.locator("#step-label")).to_have_text(f"0 / {n}")
    # The header says it is a replay, which step of how many, and who won: nobody is waited for.
    expect(page.locator("#turn")).to_contain_text(f"Replay step 0 of {n}")
    expect(page.locator("#turn")).to_contain_text(re.compile(r"\bwon\b|a draw"))
    expect(page.locator("#turn")).not_to_contain_text("Waiting")
    expect(page.locator(".topbar nav a", has_text="Lobby")).to_have_attribute("href", "/")
    expect(page.locator("#back")).to_be_disabled()
    logs = [page.locator("#log li").count()]
    for i in range(1, 4):
        page.click("#forward")
        expect(page.locator("#step-label")).to_have_text(f"{i} / {n}")
        logs.append(page.locator("#log li").count())
    assert logs == sorted(logs) and logs[-1] > logs[0]
    page.click("#back")
    expect(page.locator("#step-label")).to_have_text(f"2 / {n}")
    page.click("#last")
    expect(page.locator("#step-label")).to_have_text(f"{n} / {n}")
    expect(page.locator("#turn")).to_contain_text(f"Replay step {n} of {n}")
    expect(page.locator("#forward")).to_be_disabled()
    settled(page)
    for v in final["vehicles"]:
        pose = drawn_pose(page, v["id"])
        if v["status"] == "active":
            assert pose is not None
            assert (pose[0], pose[1]) == (pytest.approx(v["x"], abs=0.01),
                                          pytest.approx(v["y"], abs=0.01))
    shot(page, "replay")
    # The finished table itself says who won and links to the replay.
    table = open_page(ctx, f"{base}/games/{gid}")
    expect(table.page.locator("#result")).to_be_visible()
    expect(table.page.locator(".topbar nav a", has_text="Campaigns")).to_have_attribute(
        "href", "/campaigns")
    expect(table.page.locator("#result a", has_text="Replay")).to_have_attribute(
        "href", f"/games/{gid}/replay")
    replay.check()
    table.check()
    ctx.close()


def test_without_a_websocket_the_table_falls_back_to_polling(
        base: str, browser: Browser) -> None:
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 5,
        "seats": [{"controller": "human", "team_id": None},
                  {"controller": "heuristic", "team_id": None}]})
    assert status == 201
    seat = game["seats"][0]
    ctx = new_context(browser)
    page = ctx.new_page()
    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), lambda ws: ws.close())
    tab = Tab(page)
    page.goto(base + seat["url"])
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("body")).to_have_attribute("data-conn", "poll")
    v = version(page)
    # The same seat acts from elsewhere (another tab of its player): polling brings it here.
    status, view = api(base, "GET", f"/api/games/{game['id']}?token={seat['token']}")
    choice = view["pending"]["options"][0]["value"]
    status, after = api(base, "POST", f"/api/games/{game['id']}/decisions",
                        {"token": seat["token"], "version": view["version"], "choice": choice})
    assert status == 200
    wait_version_above(page, v, timeout=10000)
    assert version(page) == after["version"]
    tab.check()
    ctx.close()


def test_the_lobby_offers_the_tables_each_ruleset_rolls_on(base: str, browser: Browser) -> None:
    """Refuelled's three tables of p.122 are offered as scenarios (from the ruleset's
    declaration); the Kart variant offers none; a rolled Televised Event starts a game."""
    ctx = new_context(browser)
    lobby = open_page(ctx, f"{base}/")
    page = lobby.page
    options = page.locator("#scenario option")
    expect(options.filter(has_text="Random: Televised Event (roll a D6)")).to_have_count(1)
    page.select_option("#ruleset", "kart")
    expect(options.filter(has_text="Random:")).to_have_count(0)
    page.select_option("#ruleset", "refuelled")
    page.select_option("#scenario", "random:televised")
    for seat in (0, 1):
        page.locator(f"#seats .seat[data-seat='{seat}'] select.controller").select_option(
            "random")
    page.fill("#seed", "0")
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as created:
        page.click("#create-game")
    new = created.value.json()
    _, view = api(base, "GET", f"/api/games/{new['id']}")
    # Seed 0's first die is a 4: Capture the Flag on the Televised Event table.
    assert view["scenario"] == "capture-the-flag"
    ctx.close()
