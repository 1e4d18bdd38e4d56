"""The table's drawing pieces in a real browser: template ghosts land where the engine puts the
vehicle, spins by dragging the vehicle round (and by angle), moves glide between poses, and
attack previews draw each weapon's arc and ring its targets.

The board and decision modules are loaded into a page of the running app and fed a small
hand-made GameView, so each behaviour is checked without playing a game up to it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page, expect
from tests.web.test_e2e_support import Tab, new_context, shot

from carnage.geometry.movement import final_pose
from carnage.geometry.shapes import Pose, Rect

GEOMETRY = Path(__file__).resolve().parents[2] / "src" / "carnage" / "geometry" / "data"

CAR = {"id": "car", "name": "Test Car", "player": 0, "type": "car", "weight": "middleweight",
       "x": 450.0, "y": 500.0, "heading": 90.0, "length": 60.0, "width": 30.0, "gear": 2,
       "max_gear": 5, "hazards": 1, "hull": 10, "hull_points": 9, "handling": 3, "crew": 2,
       "status": "active", "activated": False, "weapons": [], "special_rules": []}
RIVAL = {**CAR, "id": "rival", "name": "Rival", "player": 1, "x": 450.0, "y": 700.0}


def game_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": "g", "version": 1, "scenario": "street-race", "round": 1, "gear_phase": 2,
        "pole": 0, "status": "in_progress", "winner": None, "outcome_reason": None,
        "table": {"width": 900, "height": 1200}, "your_seat": 0,
        "players": [{"seat": 0, "controller": "human", "votes": 0, "colour": "#c0392b"},
                    {"seat": 1, "controller": "heuristic", "votes": 0, "colour": "#2471a3"}],
        "vehicles": [dict(CAR), dict(RIVAL)],
        "obstacles": [{"id": "rock-1", "x": 300, "y": 480, "length": 90, "width": 70,
                       "heading": 20, "tall": False, "destructible": False, "wreck_of": None}],
        "surfaces": [], "drawables": [], "pending": None, "log": [], "svg_url": "",
    }
    view.update(changes)
    return view


SETUP = """async (view) => {
  document.body.replaceChildren();
  const css = document.createElement('link');
  css.rel = 'stylesheet'; css.href = '/static/css/table.css';
  document.head.append(css);
  await new Promise((r) => { css.onload = r; });
  const host = document.createElement('div');
  host.id = 'host';
  host.style.cssText = 'position:fixed;left:0;top:0;width:900px;height:700px;';
  const panel = document.createElement('div');
  panel.id = 'panel';
  panel.className = 'decision';
  panel.style.cssText = 'position:fixed;left:910px;top:0;width:360px;';
  document.body.append(host, panel);
  const { Board } = await import('/static/js/board.js');
  const decisions = await import('/static/js/decisions.js');
  window.T = { board: new Board(host), decisions, submitted: [] };
  T.board.update(view, { animate: false });
  return true;
}"""

CONTROLS = """(view) => {
  const ctx = { board: T.board, submit: (c) => T.submitted.push(c), onVehicleClick: null };
  T.ctx = ctx;
  T.board.update(view, { animate: false });
  document.getElementById('panel').replaceChildren(T.decisions.decisionControls(view, ctx));
}"""




@pytest.fixture
def tab(base: str, browser: Browser) -> Iterator[Tab]:
    ctx = new_context(browser)
    t = Tab(ctx.new_page())
    t.page.goto(f"{base}/teams/print")  # a quiet page of the app: no id, so it does nothing
    t.page.wait_for_selector("body[data-ready], #print-errors li")
    t.page.evaluate(SETUP, game_view())
    yield t
    t.check()
    ctx.close()


def world_to_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    pt: list[float] = page.evaluate("""([x, y]) => {
      const svg = document.querySelector('svg.board');
      const p = svg.createSVGPoint(); p.x = x; p.y = y;
      const q = p.matrixTransform(svg.querySelector('g.world').getScreenCTM());
      return [q.x, q.y];
    }""", [x, y])
    return pt[0], pt[1]


def test_template_data_matches_the_geometry_file(tab: Tab) -> None:
    shapes = tab.page.evaluate(
        "async () => (await import('/static/js/templates.js')).TEMPLATE_SET")
    data = yaml.safe_load((GEOMETRY / "templates.yaml").read_text(encoding="utf-8"))
    assert shapes["width"] == data["width"]
    assert shapes["ranges"] == data["ranges"]
    for tid, spec in data["movement"].items():
        assert shapes["movement"][tid]["segments"] == spec["segments"], tid
    assert set(shapes["movement"]) == set(data["movement"])


@pytest.mark.parametrize("body", [(450.0, 500.0, 90.0), (123.0, 456.0, 37.0)])
def test_template_ghost_ends_where_the_engine_puts_the_vehicle(
        tab: Tab, body: tuple[float, float, float]) -> None:
    x, y, h = body
    ids = sorted(yaml.safe_load((GEOMETRY / "templates.yaml").read_text(encoding="utf-8"))
                 ["movement"])
    assert len(ids) == 9
    cases = [{"id": tid, "mirror": m, "reverse": r}
             for tid in ids for m in (False, True) for r in (False, True)]
    got = tab.page.evaluate("""async ([body, cases]) => {
      const m = await import('/static/js/templates.js');
      return cases.map((c) => m.layTemplate(body, c.id, c).final);
    }""", [{"x": x, "y": y, "heading": h, "length": 60, "width": 30}, cases])
    rect = Rect(Pose(x, y, h), 60.0, 30.0)
    for case, pose in zip(cases, got, strict=True):
        want = final_pose(rect, case["id"], mirror=case["mirror"], reverse=case["reverse"])
        assert pose["x"] == pytest.approx(want.x, abs=1e-6), case
        assert pose["y"] == pytest.approx(want.y, abs=1e-6), case
        turn = (pose["heading"] - want.heading + 180.0) % 360.0 - 180.0
        assert turn == pytest.approx(0.0, abs=1e-6), case


def test_template_choices_grouped_and_hover_lays_the_ghost(tab: Tab) -> None:
    page = tab.page
    options = [
        {"value": "medium_straight", "label": "Medium Straight [T]"},
        {"value": "turn", "label": "Turn [P]"},
        {"value": "turn/left", "label": "Turn (left) [P]"},
        {"value": "hard", "label": "Hard [H]"},
        {"value": "hard/left", "label": "Hard (left) [H]"},
    ]
    view = game_view(pending={
        "seat": 0, "kind": "template", "prompt": "Test Car: select a movement template",
        "source": "movement", "page": 22, "options": options, "domain": None,
        "vehicle": "car", "preview": None})
    page.evaluate(CONTROLS, view)
    rows = page.locator(".tpl-row")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("button.choice")).to_have_text(["Ahead"])
    expect(rows.nth(1).locator("button.choice")).to_have_text(["Right", "Left"])
    expect(rows.nth(2).locator(".use")).to_have_text("H")
    page.hover(".tpl-row[data-template='turn'] button[data-value='turn/left']")
    ghost = page.locator("svg.board .template-ghost[data-template='turn'] .end-ghost")
    expect(ghost).to_have_count(1)
    # The end outline is the vehicle at the engine's final pose (a left Turn from heading 90).
    want = final_pose(Rect(Pose(450.0, 500.0, 90.0), 60.0, 30.0), "turn", mirror=True)
    pts = [tuple(map(float, p.split(","))) for p in ghost.get_attribute("points").split()]
    cx = sum(p[0] for p in pts) / 4
    cy = sum(p[1] for p in pts) / 4
    assert (cx, cy) == (pytest.approx(want.x, abs=0.2), pytest.approx(want.y, abs=0.2))
    page.click("button[data-value='turn/left']")
    assert page.evaluate("T.submitted") == ["turn/left"]
    shot(page, "board-template")


@pytest.mark.parametrize("kind,low,high", [("spin", -90, 90), ("lose_control", -180, 180)])
def test_spin_by_dragging_the_vehicle_round_or_by_angle(
        tab: Tab, kind: str, low: int, high: int) -> None:
    page = tab.page
    view = game_view(pending={
        "seat": 0, "kind": kind, "prompt": "Test Car: pivot", "source": kind, "page": 24,
        "options": None, "domain": {"low": low, "high": high, "unit": "deg"}, "vehicle": "car",
        "preview": {"vehicle": "car", "centre": [450, 500], "heading": 90}})
    page.evaluate(CONTROLS, view)
    handle = page.locator("svg.board .spin-handle")
    expect(handle).to_have_count(1)
    box = handle.bounding_box()
    assert box is not None
    # Drag the handle round the vehicle to 45 degrees anticlockwise of its heading.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    a = math.radians(90 + 45)
    tx, ty = world_to_screen(page, 450 + 80 * math.cos(a), 500 + 80 * math.sin(a))
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    expect(page.locator("input.angle-number")).to_have_value("45")
    expect(page.locator("input.angle-slider")).to_have_value("45")
    ghost = page.get_attribute("svg.board .spin-ghost", "transform") or ""
    assert "rotate(135)" in ghost
    # Dragging past the end of the range stops at the limit.
    box = handle.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    a = math.radians(90 - 135) if high <= 90 else math.radians(90 + 179)
    tx, ty = world_to_screen(page, 450 + 80 * math.cos(a), 500 + 80 * math.sin(a))
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    expect(page.locator("input.angle-number")).to_have_value("-90" if high <= 90 else "179")
    # Typing an angle turns the ghost too; confirming sends the number.
    page.fill("input.angle-number", "-30")
    assert "rotate(60)" in (page.get_attribute("svg.board .spin-ghost", "transform") or "")
    shot(page, f"board-{kind}")
    page.click("button.confirm")
    assert page.evaluate("T.submitted") == [-30]


def test_moves_glide_between_poses_and_leave_tracks(tab: Tab) -> None:
    page = tab.page
    moved = game_view(version=2, vehicles=[{**CAR, "x": 450.0, "y": 740.0, "heading": 0.0},
                                           dict(RIVAL)])
    # A slow glide (3 s) so a busy machine still catches it half way.
    page.evaluate("(v) => { T.board.tweenMs = 3000; T.board.update(v, { animate: true }); }",
                  moved)
    page.wait_for_function(r"""() => {
      const t = document.querySelector("svg.board g.vehicle[data-id='car']")
        .getAttribute('transform');
      const y = Number(/translate\(([-\d.]+),([-\d.]+)\)/.exec(t)[2]);
      return y > 505 && y < 735;
    }""", timeout=10000)
    assert page.get_attribute("#host", "data-animating") == "1"
    page.wait_for_function("document.getElementById('host').dataset.animating === '0'",
                           timeout=15000)
    end = page.get_attribute("svg.board g.vehicle[data-id='car']", "transform")
    assert end == "translate(450,740) rotate(0)"
    expect(page.locator("svg.board .trail[data-id='car']")).to_have_count(1)
    expect(page.locator("svg.board .trail[data-id='rival']")).to_have_count(0)


def test_attack_preview_draws_arcs_and_rings_targets(tab: Tab) -> None:
    page = tab.page
    arc = [[435, 515], [350, 700], [550, 700], [465, 515]]
    view = game_view(pending={
        "seat": 0, "kind": "attack", "prompt": "Test Car: declare an attack", "source": "attack",
        "page": 30,
        "options": [{"value": "stop", "label": "make no more attacks"},
                    {"value": "machine_gun#0>rival",
                     "label": "Machine Gun (front, double) at Rival"}],
        "domain": None, "vehicle": "car",
        "preview": {"vehicle": "car", "weapons": [
            {"key": "machine_gun#0", "name": "Machine Gun", "arc": "front", "range": "double",
             "targets": ["rival"], "polygons": [arc]}]}})
    page.evaluate(CONTROLS, view)
    expect(page.locator("svg.board .arc-area")).to_have_count(1)
    expect(page.locator("svg.board .target-ring")).to_have_count(1)
    expect(page.locator(".weapon-row[data-weapon='machine_gun#0'] button.choice")).to_have_text(
        "at Rival")
    ring = page.locator("svg.board .target-ring")
    assert (ring.get_attribute("cx"), ring.get_attribute("cy")) == ("450", "700")
    page.click("button[data-value='machine_gun#0>rival']")
    page.click("button[data-value='stop']")
    assert page.evaluate("T.submitted") == ["machine_gun#0>rival", "stop"]


def test_terrain_lines_and_dropped_templates_are_drawn(tab: Tab) -> None:
    page = tab.page
    slick = [[600, 300], [640, 300], [660, 360], [580, 360]]
    view = game_view(
        drawables=[{"id": "finish-line", "kind": "line", "points": [[360, 1050], [540, 1050]],
                    "label": "FINISH", "direction": [0, 1], "style": "finish"}],
        dropped=[{"id": "d1", "kind": "oil_slick_dropper", "shape": "large_burst",
                  "polygon": slick}],
        obstacles=[{"id": "crate-1", "x": 590, "y": 640, "length": 40, "width": 40,
                    "heading": 0, "tall": False, "destructible": True, "wreck_of": None},
                   {"id": "wreck-1", "x": 200, "y": 200, "length": 60, "width": 30,
                    "heading": 45, "tall": False, "destructible": True, "wreck_of": "x"}])
    page.evaluate("(v) => T.board.update(v, { animate: false })", view)
    oil = page.locator("svg.board g.dropped[data-id='d1'] polygon")
    expect(oil).to_have_attribute("points", "600,300 640,300 660,360 580,360")
    expect(page.locator("svg.board g.dropped[data-id='d1'] text")).to_have_text("oil slick")
    expect(page.locator("svg.board g.obstacle.crate[data-id='crate-1']")).to_have_count(1)
    expect(page.locator("svg.board g.obstacle.wreck[data-id='wreck-1']")).to_have_count(1)
    expect(page.locator("svg.board g.line.finish text")).to_have_text("FINISH")
    assert page.locator("svg.board g.line.finish .flag").count() == 2
    # Vehicles still waiting off the table (not yet deployed) are not drawn on it.
    off = game_view(vehicles=[dict(CAR), {**RIVAL, "x": -200.0, "y": -300.0}])
    page.evaluate("(v) => T.board.update(v, { animate: false })", off)
    expect(page.locator("svg.board g.vehicle")).to_have_count(1)
