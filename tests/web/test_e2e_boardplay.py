"""Playing on the board itself, on a laptop (1366 × 768, a mouse) and on a phone (390 × 844,
a touch screen): a Street Race against the heuristic bot played by clicking or tapping what the
table draws (the ghosts of the legal moves, the vehicles, the places on the starting grid) and
the Confirm bar (a vehicle still to deploy waits in a tray in the board's corner); the
decision panel's buttons only for what is not on the table (skid dice, Shifts, Push It).

With a mouse, hovering a ghost lays its template and a click moves. On the phone a first tap
only previews (the game's version does not change) and the second tap on the same ghost, or
Confirm, commits it; the decision is a sheet fixed to the bottom of the screen, visible
without scrolling, and the page never scrolls sideways. Screenshots go to ``tmp_path`` (and to
``CARNAGE_E2E_SHOTS`` when set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from tests.web.test_e2e_support import Tab, api, open_page, shot, version, view_of

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
STRAIGHTS = ["long_straight", "medium_straight", "short_straight"]
PANEL_CHOICE = {"skid_dice": "0", "spend_shift": "done", "push_it": "no"}

# The centre of each pick drawn on the board that a finger can reach there now: inside the
# board's box, not under the bottom sheet nor the board's tool buttons (what the browser would
# hit at that point belongs to the pick).
HITTABLE = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) {
      out.push({ key: el.dataset.pick || el.dataset.id, x, y });
    }
  }
  return out;
}"""


def new_game(base: str, seed: int) -> dict[str, Any]:
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": seed,
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201, game
    return game


def keep(page: Page, folder: Path, name: str) -> Path:
    """A screenshot kept as the test's artefact."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    shot(page, name)
    return path


def hittable(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(HITTABLE, selector)
    return found


def reach(page: Page, selector: str) -> list[dict[str, Any]]:
    """The picks a finger reaches; when the zoomed board hides them all, back to the whole
    table (the board's Fit button) first."""
    found = hittable(page, selector)
    if not found and page.locator(selector).count():
        page.click("#zoom-fit") if not is_phone(page) else page.tap("#zoom-fit")
        page.wait_for_timeout(100)
        found = hittable(page, selector)
    return found


def is_phone(page: Page) -> bool:
    return bool(page.evaluate("() => innerWidth <= 700"))


def preview_of(page: Page, choice: str) -> dict[str, Any]:
    """The view after ``choice`` as the table's preview shows it (nothing applied)."""
    out: dict[str, Any] = page.evaluate(
        """async (choice) => {
            const u = new URL(location.href);
            const gid = u.pathname.split("/").pop();
            const q = new URLSearchParams({token: u.searchParams.get("token"),
                version: document.body.dataset.version, choice});
            return (await fetch(`/api/games/${gid}/preview?${q}`)).json();
        }""", choice)
    return out


def template_choice(view: dict[str, Any], keys: set[str]) -> str:
    """The longest straight ahead that is trivial or permitted, else any such move."""
    labels = {str(o["value"]): o["label"] for o in view["pending"]["options"]}
    easy = [k for k in keys if not labels[k].rstrip().endswith("[H]")]
    for tid in STRAIGHTS:
        if tid in easy:
            return tid
    forward = sorted(k for k in easy if "reverse" not in k) or sorted(keys)
    return forward[0]


def check_phone_layout(page: Page) -> None:
    """The decision sheet on screen without scrolling; nothing wider than the phone."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.evaluate("() => window.scrollY") == 0
    sheet = page.locator("#decision").bounding_box()
    assert sheet is not None
    assert sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= 844 + 0.5, sheet
    assert sheet["width"] <= 390
    board = page.locator("svg.board").bounding_box()
    assert board is not None and board["y"] < sheet["y"], (board, sheet)
    assert board["height"] >= 250, board


def play_on_board(page: Page, key: str, at: dict[str, Any], folder: Path, shots: list[Path],
                  *, confirm: bool = False, name: str = "", odds: bool = False) -> None:
    """Commit the pick ``key`` found at ``at``: a click with the mouse; on the phone a tap that
    must only preview, then a second tap on it (or Confirm). ``odds``: the picked target's
    chances must then head the odds under the controls, marked."""
    before = version(page)
    if not is_phone(page):
        page.mouse.move(at["x"], at["y"])
        page.mouse.click(at["x"], at["y"])
        page.wait_for_timeout(50)
        if version(page) == before and page.get_attribute("body", "data-picked") == key:
            page.click("#decision .board-confirm-go")  # a target some weapons reach: which one
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        return
    page.touchscreen.tap(at["x"], at["y"])
    page.wait_for_function(f"document.body.dataset.picked === {key!r}")
    if odds:
        page.wait_for_function(
            "k => { const f = document.querySelector('#decision-odds .odds-pending > figure');"
            " return Boolean(f) && f.classList.contains('picked')"
            " && String(f.dataset.option).split('>')[1] === k; }", arg=key, timeout=15_000)
    page.wait_for_timeout(150)
    assert version(page) == before, "a first tap must not commit"
    bar = page.locator("#decision .board-confirm")
    expect(bar).to_be_visible()
    expect(bar.locator(".pick-label")).not_to_be_empty()
    check_phone_layout(page)
    if name:
        shots.append(keep(page, folder, name))
    if confirm:
        page.tap("#decision .board-confirm-go")
    else:
        page.touchscreen.tap(at["x"], at["y"])
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")


def play(ctx: BrowserContext, url: str, folder: Path, *, moves: int) -> tuple[Tab, dict[str, int],
                                                                                list[Path]]:
    tab = open_page(ctx, url)
    page = tab.page
    phone = is_phone(page)
    shots = [keep(page, folder, f"boardplay-{'phone' if phone else 'laptop'}-start")]
    done: dict[str, int] = {"template": 0, "place": 0, "vehicle": 0, "target": 0, "panel": 0}
    for _ in range(160):
        if page.get_attribute("body", "data-status") == "finished" or done["template"] >= moves:
            break
        page.wait_for_function(
            "() => !document.getElementById('decision').classList.contains('busy')"
            " && document.getElementById('board').dataset.animating !== '1'")
        view = view_of(page)
        p = view["pending"]
        assert p is not None and p["seat"] == view["your_seat"] == 0, p
        kind = p["kind"]
        before = version(page)
        tag = f"boardplay-{'phone' if phone else 'laptop'}"
        if phone:
            check_phone_layout(page)
        ghosts = reach(page, "svg.board .ghost-handle") if kind == "template" else []
        places = reach(page, "svg.board .place-number")
        cars = reach(page, "svg.board g.vehicle.clickable") if kind in (
            "activate", "deploy", "attack") else []
        if kind == "template" and ghosts:
            hint = page.locator("#decision .board-hint").inner_text()
            assert hint.startswith("Tap" if phone else "Hover"), hint
            keys = {g["key"] for g in ghosts}
            choice = template_choice(view, keys)
            at = next(g for g in ghosts if g["key"] == choice)
            if not phone:  # hovering lays the template before anything is chosen
                page.mouse.move(at["x"], at["y"])
                expect(page.locator("svg.board .template-ghost")).to_have_count(1)
                if done["template"] == 0:
                    shots.append(keep(page, folder, f"{tag}-hover"))
                assert version(page) == before
            play_on_board(page, choice, at, folder, shots, confirm=done["template"] % 2 == 1,
                          name=f"{tag}-ghost" if done["template"] == 0 else "")
            done["template"] += 1
        elif places:
            play_on_board(page, places[0]["key"], places[0], folder, shots,
                          name=f"{tag}-place" if not done["place"] else "")
            done["place"] += 1
        elif kind == "attack":
            enemies = [c for c in cars if page.locator(
                f"svg.board g.vehicle.enemy[data-id='{c['key']}']").count()]
            friends = page.locator("svg.board .friendly-mark").count()
            assert friends == sum(1 for v in view["vehicles"] if v["player"] == 0
                                  and v["status"] == "active" and v["id"] != p["vehicle"]
                                  and page.locator(f"svg.board g.vehicle[data-id='{v['id']}']"
                                                   ).count())
            if enemies:
                play_on_board(page, enemies[0]["key"], enemies[0], folder, shots,
                              name=f"{tag}-target" if not done["target"] else "", odds=True)
                done["target"] += 1
            else:
                (page.tap if phone else page.click)("#decision .board-hold")
        elif kind == "activate" and cars:
            # A vehicle tapped shows its moves on the table (nothing sent); a ghost then sends
            # the vehicle, its template and its skid dice in one action.
            spot = cars[0]
            (page.touchscreen.tap if phone else page.mouse.click)(spot["x"], spot["y"])
            page.wait_for_timeout(150)
            assert version(page) == before, "tapping a vehicle to activate only shows its moves"
            page.wait_for_selector("svg.board .ghost-handle")
            page.wait_for_timeout(100)
            ghosts = reach(page, "svg.board .ghost-handle")
            previewed = preview_of(page, spot["key"])
            choice = template_choice(previewed, {g["key"] for g in ghosts})
            at = next(g for g in ghosts if g["key"] == choice)
            play_on_board(page, choice, at, folder, shots, confirm=done["template"] % 2 == 1)
            done["vehicle"] += 1
            done["template"] += 1
        elif kind in ("activate", "deploy") and (cars or reach(page, ".reserve-chip")):
            # On the table, or waiting in the board's corner to come on it.
            spot = (cars or reach(page, ".reserve-chip"))[0]
            play_on_board(page, spot["key"], spot, folder, shots,
                          name=f"{tag}-deploy" if not done["vehicle"] and not cars else "")
            done["vehicle"] += 1
        elif kind in ("spin", "lose_control"):
            (page.tap if phone else page.click)("#decision button.confirm")
        else:
            values = [str(o["value"]) for o in p["options"] or []]
            value = PANEL_CHOICE.get(kind, values[0])
            value = value if value in values else values[0]
            button = page.locator(f"#decision button.choice[data-value='{value}']").first
            button.tap() if phone else button.click()
            done["panel"] += 1
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    shots.append(keep(page, folder, f"boardplay-{'phone' if phone else 'laptop'}-end"))
    return tab, done, shots


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_street_race_is_played_on_the_board(
        base: str, browser: Browser, screen: str, tmp_path: Path) -> None:
    game = new_game(base, 4)
    ctx = browser.new_context(**(PHONE if screen == "phone" else LAPTOP))  # type: ignore[arg-type]
    ctx.add_init_script("localStorage.setItem('carnage.pace', 'skip')")
    tab, done, shots = play(ctx, f"{base}{game['seats'][0]['url']}", tmp_path, moves=5)
    page = tab.page
    assert done["template"] >= 5 or page.get_attribute("body", "data-status") == "finished"
    assert done["place"] >= 2, done  # the starting grid, tapped on the table
    assert done["vehicle"] >= 3, done  # two to deploy and one to activate, tapped on the table
    # Every move of ours was chosen on the table: the log's template choices are those taps.
    token = game["seats"][0]["url"].split("token=")[1]
    status, events = api(base, "GET", f"/api/games/{game['id']}/events?since=0&token={token}")
    assert status == 200
    moves = [e for e in events if e["kind"] == "decision"
             and e["data"].get("decision") == "template" and e["data"].get("player") == 0]
    assert len(moves) == done["template"], (len(moves), done)
    assert all(p.exists() for p in shots)
    if screen == "phone":
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    tab.check()
    ctx.close()


def test_the_phone_sheet_folds_and_the_board_pinches(
        base: str, browser: Browser, tmp_path: Path) -> None:
    """The bottom sheet folds to its first lines and opens again; two fingers zoom the board
    (a CDP touch pinch) and Fit brings the whole table back."""
    game = new_game(base, 5)
    ctx = browser.new_context(**PHONE)  # type: ignore[arg-type]
    ctx.add_init_script("localStorage.setItem('carnage.pace', 'skip')")
    tab = open_page(ctx, f"{base}{game['seats'][0]['url']}")
    page = tab.page
    check_phone_layout(page)
    tall = page.locator("#decision").bounding_box()
    page.tap("#decision .sheet-toggle")
    folded = page.locator("#decision").bounding_box()
    assert tall is not None and folded is not None and folded["height"] < tall["height"]
    expect(page.locator("#decision .prompt-head")).to_be_visible()
    keep(page, tmp_path, "boardplay-phone-folded")
    page.tap("#decision .sheet-toggle")
    assert page.locator("#decision").bounding_box()["height"] == pytest.approx(  # type: ignore[index]
        tall["height"], abs=2)
    before = page.evaluate("() => window.carnage.board.zoom.k")
    box = page.locator("svg.board").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = ctx.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i}
                                          for i, (x, y) in enumerate(points)]})

    touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for d in range(25, 100, 15):
        touch("touchMove", [(cx - d, cy), (cx + d, cy)])
    touch("touchEnd", [])
    after = page.evaluate("() => window.carnage.board.zoom.k")
    assert after > before * 2, (before, after)
    assert version(page) == view_of(page)["version"]
    keep(page, tmp_path, "boardplay-phone-pinched")
    page.tap("#zoom-fit")
    assert page.evaluate("() => window.carnage.board.zoom.k") == 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    tab.check()
    ctx.close()


def test_devils_run_deployment_squares_are_tapped_on_the_road(
        base: str, browser: Browser, tmp_path: Path) -> None:
    """Devil's Run on the phone: the deployment squares (A to D, or 1 to 4) are marked on the
    road; a first tap picks one without choosing, Confirm deploys there."""
    status, game = api(base, "POST", "/api/games", {
        "ruleset": "devils-run", "scenario": "devils-run", "seed": 7,
        "seats": [{"controller": "human"}, {"controller": "heuristic"}]})
    assert status == 201, game
    ctx = browser.new_context(**PHONE)  # type: ignore[arg-type]
    tab = open_page(ctx, f"{base}{game['seats'][0]['url']}")
    page = tab.page
    deployed = 0
    for _ in range(40):
        if deployed >= 2 or page.get_attribute("body", "data-status") == "finished":
            break
        page.wait_for_function("() => !document.getElementById('dr-decision')"
                               ".classList.contains('busy')")
        view = page.evaluate("() => window.carnage.view")
        p = view["pending"]
        before = version(page)
        if not view["your_turn"]:
            page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
            continue
        if p["kind"] == "deploy":
            marks = page.locator("#dr-board .dr-pick")
            wanted = {o["mark"] for o in p["options"]}
            assert wanted and wanted <= set("ABCD") | set("1234"), wanted
            assert set(marks.locator("text").all_text_contents()) == wanted
            assert all(o["square"] for o in p["options"])
            first = marks.first
            key = first.get_attribute("data-square")
            first.tap()
            page.wait_for_function(f"document.body.dataset.picked === {key!r}")
            assert version(page) == before, "a first tap must not choose"
            expect(page.locator("#dr-decision .dr-confirm")).to_be_visible()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
            if not deployed:
                keep(page, tmp_path, "boardplay-devilsrun-phone-deploy")
            page.locator("#dr-decision .dr-confirm-go").first.tap()
            deployed += 1
        else:
            want = "letters" if p["kind"] == "deploy_side" else str(p["options"][0]["value"])
            page.locator(f"#dr-decision button.choice[data-value='{want}']").first.tap()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    assert deployed >= 2
    tab.check()
    ctx.close()


def drive_to(base: str, game: dict[str, Any], kinds: tuple[str, ...],
             limit: int = 200) -> dict[str, Any]:
    """Play seat 0 through the API with plain choices (dropping its weapon when it may) until
    one of ``kinds`` is pending for it; returns that view."""
    url = game["seats"][0]["url"]
    token = url.split("token=")[1]
    for _ in range(limit):
        status, view = api(base, "GET", f"/api/games/{game['id']}?token={token}")
        assert status == 200, view
        p = view["pending"]
        assert view["status"] != "finished" and p is not None, "the game ended first"
        if p["seat"] != 0:
            continue
        if p["kind"] in kinds:
            return view
        values = [str(o["value"]) for o in p["options"] or []]
        choice: Any
        if p["domain"]:
            choice = 0
        elif p["kind"] == "attack":
            choice = next((v for v in values if v.startswith("drop:")),
                          next(v for v in values if ">" not in v))
        elif p["kind"] == "template":
            choice = next((v for v in ("medium_straight", "short_straight") if v in values),
                          values[0])
        else:
            choice = PANEL_CHOICE.get(p["kind"], values[0])
            choice = choice if choice in values else values[0]
        status, view = api(base, "POST", f"/api/games/{game['id']}/decisions",
                           {"token": token, "version": view["version"], "choice": choice})
        assert status == 200, view
    raise AssertionError(f"no {kinds} within {limit} choices")


def test_a_dropped_weapon_is_laid_by_tapping_the_vehicle_edge(
        base: str, browser: Browser, tmp_path: Path) -> None:
    """A side-mounted oil slick dropper: the edges it may drop off are marked on the vehicle; a
    first tap picks one, Confirm chooses it; then a tap along that edge sets where the burst
    touches (the panel's number follows) and a second tap there drops it."""
    team = {"name": "Slick", "cans": 25, "vehicles": [
        {"name": "Slick Car", "type": "car",
         "weapons": [{"id": "oil_slick_dropper", "facing": "side"}]},
        {"name": "Slick Buggy", "type": "buggy",
         "weapons": [{"id": "machine_gun", "facing": "front"}]}]}
    status, saved = api(base, "POST", "/api/teams", {"team": team})
    assert status == 201, saved
    status, game = api(base, "POST", "/api/games", {
        "scenario": "street-race", "seed": 11,
        "seats": [{"controller": "human", "team_id": saved["id"]},
                  {"controller": "heuristic"}]})
    assert status == 201, game
    view = drive_to(base, game, ("drop_edge",))
    assert set(view["pending"]["preview"]["edges"]) == {"left", "right"}
    ctx = browser.new_context(**PHONE)  # type: ignore[arg-type]
    tab = open_page(ctx, f"{base}{game['seats'][0]['url']}")
    page = tab.page
    before = version(page)
    edges = hittable(page, "svg.board .edge-word")
    assert {e["key"] for e in edges} == {"left", "right"}, edges
    page.touchscreen.tap(edges[0]["x"], edges[0]["y"])
    page.wait_for_function(f"document.body.dataset.picked === {edges[0]['key']!r}")
    assert version(page) == before
    keep(page, tmp_path, "boardplay-phone-drop-edge")
    page.tap("#decision .board-confirm-go")
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    page.wait_for_function("document.body.dataset.pending === 'drop_offset'")
    view = view_of(page)
    d = view["pending"]["domain"]
    (a, b) = view["pending"]["preview"]["edges"][view["pending"]["preview"]["edge"]]
    # A quarter of the way along the edge from its low end.
    x, y = page.evaluate("""([x, y]) => {
      const m = window.carnage.board.world.getScreenCTM();
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x, p.y];
    }""", [a[0] + (b[0] - a[0]) / 4, a[1] + (b[1] - a[1]) / 4])
    before = version(page)
    page.touchscreen.tap(x, y)
    page.wait_for_function("document.body.dataset.picked === 'edge'")
    assert version(page) == before
    want = d["low"] + (d["high"] - d["low"]) / 4
    shown = float(page.input_value("#decision input.angle-number"))
    assert shown == pytest.approx(want, abs=2.5), (shown, want)
    keep(page, tmp_path, "boardplay-phone-drop-offset")
    page.touchscreen.tap(x, y)
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    token = game["seats"][0]["url"].split("token=")[1]
    status, events = api(base, "GET", f"/api/games/{game['id']}/events?since=0&token={token}")
    assert status == 200
    offsets = [e["data"]["choice"] for e in events if e["kind"] in ("decision", "forced_choice")
               and e["data"].get("decision") == "drop_offset"]
    assert offsets and offsets[-1] == pytest.approx(want, abs=2.5), offsets
    tab.check()
    ctx.close()
