"""A Death Race table in a real browser, on a laptop (1366 × 768) and a phone (390 × 844):
the gates are numbered once each, in order, with an arrow the way each is passed; the
scoreboard counts gates and names the teams; the "?" help describes Death Race (not Street
Race) with its pages. Screenshots go to $CARNAGE_SHOTS when it is set."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from tests.web.conftest import base, browser  # noqa: F401  (the served table, chromium)
from tests.web.test_e2e_support import api, open_page, racer_team, shot

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}

ARROW_TIP = 52.0
"""How far past a gate's middle its arrow's tip stands (board.js ``_passArrow``), in mm."""

GATES = """() => [...document.querySelectorAll('svg.board g.line[data-number]')].map((g) => {
  const arrow = g.querySelector('polygon.pass-arrow');
  const m = arrow.getScreenCTM();
  const at = (x, y) => { const p = arrow.ownerSVGElement.createSVGPoint(); p.x = x; p.y = y;
    const q = p.matrixTransform(m); return [q.x, q.y]; };
  return { id: g.dataset.id, number: Number(g.dataset.number), kind: g.getAttribute('class'),
           texts: [...g.querySelectorAll('text')].map((t) => t.textContent),
           tip: at(52, 0), tail: at(-34, 0) };
})"""


def world_to_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    pt: list[float] = page.evaluate("""([x, y]) => {
      const svg = document.querySelector('svg.board');
      const p = svg.createSVGPoint(); p.x = x; p.y = y;
      const q = p.matrixTransform(svg.querySelector('g.world').getScreenCTM());
      return [q.x, q.y];
    }""", [x, y])
    return pt[0], pt[1]


@pytest.fixture(scope="module")
def death_race(base: str) -> tuple[str, str]:  # noqa: F811
    status, saved = api(base, "POST", "/api/teams", {"team": racer_team("Road Hogs")})
    assert status == 201, saved
    status, game = api(base, "POST", "/api/games", {
        "scenario": "death-race", "seed": 11,
        "seats": [{"controller": "human", "team_id": saved["id"]},
                  {"controller": "heuristic"}]})
    assert status == 201, game
    return game["id"], game["seats"][0]["token"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_death_race_table_numbers_its_gates_points_their_way_and_keeps_score(
        base: str, browser: Browser, death_race: tuple[str, str],  # noqa: F811
        size: ViewportSize) -> None:
    gid, token = death_race
    ctx = browser.new_context(viewport=size)
    tab = open_page(ctx, f"{base}/games/{gid}?token={token}")
    page = tab.page
    page.wait_for_timeout(200)
    view = page.evaluate("() => window.carnage.view")
    drawn = {d["id"]: d for d in view["drawables"] if d["kind"] == "gate"}
    assert len(drawn) >= 4

    # Gates: each plain gate shows its number once, in order 1..n; every gate an arrow.
    gates = page.evaluate(GATES)
    assert {g["id"] for g in gates} == set(drawn)
    plain = sorted((g for g in gates if g["kind"] == "line gate"), key=lambda g: g["number"])
    assert [g["number"] for g in plain] == list(range(1, len(plain) + 1))
    for g in plain:
        assert g["texts"] == [str(g["number"])], g
    labels = page.locator("svg.board text").all_text_contents()
    assert not [t for t in labels if re.fullmatch(r"GATE \d+ \d+|.*\d+ \d+", t.strip())], labels
    # ... and the arrow points the way the gate is passed (its direction in the view).
    for g in gates:
        d = drawn[g["id"]]
        (ax, ay), (bx, by) = d["points"]
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        dx, dy = d["direction"]
        want = world_to_screen(page, cx + dx * ARROW_TIP, cy + dy * ARROW_TIP)
        assert math.dist(want, g["tip"]) < 2.0, (g["id"], want, g["tip"])
        assert math.dist(want, g["tail"]) > 5.0

    # The scoreboard: gates passed, each row named by its team, never "player 2".
    board = page.locator("#scoreboard")
    expect(board).to_be_visible()
    expect(board.locator(".scoreboard-title")).to_have_text("Gates passed")
    names = board.locator(".scoreboard-name").all_text_contents()
    assert sorted(names) == ["Blue Racers", "Road Hogs"]
    for score in board.locator(".scoreboard-score").all_text_contents():
        assert re.fullmatch(r"\d+ of \d+ gates|finished", score), score
    assert not re.search(r"player \d|seat \d|\bP\d\b", board.inner_text(), re.IGNORECASE)

    # The "?" help: Death Race from its own data, with its pages; not Street Race's.
    page.click("#help-toggle")
    help_box = page.locator("#help-scenario")
    expect(help_box).to_be_visible()
    expect(help_box.locator(".brief-title")).to_contain_text("Death Race")
    expect(help_box.locator(".brief-title")).to_contain_text("Refuelled pp.124-128")
    expect(help_box.locator(".brief-goal")).to_contain_text("gates in number order")
    assert help_box.locator(".brief-rules li").count() >= 5
    assert "Street Race" not in page.locator("#help").inner_text()
    shot(page, f"objectives-death-race-help-{size['width']}")
    if os.environ.get("OBJECTIVES_SHOTS"):
        Path(os.environ["OBJECTIVES_SHOTS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{os.environ['OBJECTIVES_SHOTS']}/help-{size['width']}.png")
    page.click("#help-close")
    shot(page, f"objectives-death-race-{size['width']}")
    if os.environ.get("OBJECTIVES_SHOTS"):
        page.screenshot(path=f"{os.environ['OBJECTIVES_SHOTS']}/table-{size['width']}.png",
                        full_page=True)
    tab.check()
    ctx.close()
