"""A team's own movement templates in a real browser: the team builder keeps them when the
team is edited and saved, and the printable roster shows the set as it now is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from shapely.geometry import Polygon
from tests.builders import move, run_step, table, vehicle
from tests.web.test_e2e_board import CONTROLS, SETUP, game_view
from tests.web.test_e2e_support import (
    Tab,
    adopt,
    api,
    keep_owner_token,
    launch,
    new_context,
    open_page,
    racer_team,
    serve,
    shot,
)

from carnage.games.legacy.templates import add_exit, combine, standard_set, with_doughnut
from carnage.games.refuelled.engine.team_templates import set_seat_templates
from carnage.games.refuelled.table_view import pending_view

CHANGED = with_doughnut(combine(add_exit(standard_set(), "turn", "end"), "gentle", "hard"))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("legacy_templates_e2e") / "carnage.db") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as (_, b):
        yield b


def test_the_builder_keeps_the_templates_and_the_print_out_shows_them(
        base: str, browser: Browser) -> None:
    team = {**racer_team("Rust Buckets"), "templates": CHANGED.to_json()}
    status, saved = api(base, "POST", "/api/teams", {"team": team})
    assert status == 201, saved
    ctx = new_context(browser)
    keep_owner_token(ctx, saved)
    tab = open_page(ctx, f"{base}/teams?id={saved['id']}")
    page = tab.page
    page.fill("#team-name", "Rust Buckets Mk II")
    page.click("#save-team")
    expect(page.locator("#saved-teams li")).to_have_count(1)
    page.wait_for_timeout(300)
    status, record = api(base, "GET", f"/api/teams/{saved['id']}")
    assert status == 200
    assert record["team"]["name"] == "Rust Buckets Mk II"
    assert record["team"]["templates"] == CHANGED.to_json()  # kept through the edit

    with ctx.expect_page() as popup:
        page.click("#print-team")
    printed = adopt(popup.value)
    img = printed.page.locator("section.team-templates img")
    expect(img).to_have_count(1)
    printed.page.wait_for_function(
        "() => { const i = document.querySelector('section.team-templates img');"
        " return i && i.complete && i.naturalWidth > 0; }")
    src = img.get_attribute("src")
    assert src == f"/api/teams/{saved['id']}/templates.svg"
    svg = printed.page.evaluate("async (u) => (await fetch(u)).text()", src)
    assert ">Gentle + Hard<" in svg and ">Doughnut<" in svg
    shot(printed.page, "legacy-templates-print")
    tab.check()
    printed.check()
    ctx.close()


def test_a_standard_team_prints_no_template_sheet(base: str, browser: Browser) -> None:
    status, saved = api(base, "POST", "/api/teams", {"team": racer_team("Plain Janes")})
    assert status == 201
    ctx = new_context(browser)
    tab = open_page(ctx, f"{base}/teams/print?id={saved['id']}")
    expect(tab.page.locator(".dash-card")).to_have_count(2)
    expect(tab.page.locator("section.team-templates")).to_have_count(0)
    tab.check()
    ctx.close()


def test_the_table_offers_and_lays_a_teams_own_templates(base: str, browser: Browser) -> None:
    # The server's own view of a Movement Step on our templates (gear 3, car at 450, 500).
    st = table(vehicle("car", "car", 450, 500, heading=90, gear=3))
    set_seat_templates(st, 0, CHANGED)
    g = run_step(st, move("car"))
    pending = pending_view(g, g.pending()).model_dump(mode="json")
    ctx = new_context(browser)
    tab = Tab(ctx.new_page())
    page = tab.page
    page.goto(f"{base}/teams/print")  # a quiet page of the app (no team: it does nothing)
    page.wait_for_selector("body[data-ready], #print-errors li")
    page.evaluate(SETUP, game_view())
    page.evaluate(CONTROLS, game_view(pending=pending))
    combined = page.locator(".tpl-row[data-template='gentle+hard'] .tpl-name")
    expect(combined).to_have_text("Gentle + Hard")
    expect(page.locator(".tpl-row[data-template='gentle+hard/alt'] .use")).to_have_text("H")
    expect(page.locator(".tpl-row[data-template='doughnut'] .use")).to_have_text("P")
    page.hover(".tpl-row[data-template='doughnut'] button[data-value='doughnut']")
    ghost = page.locator("svg.board .template-ghost[data-template='doughnut']")
    expect(ghost.locator(".template-pieces polygon")).to_have_count(1)
    pts = [tuple(map(float, p.split(","))) for p in
           ghost.locator(".template-pieces polygon").get_attribute("points").split()]
    ring = Polygon(pending["preview"]["templates"]["doughnut"][0])
    assert abs(Polygon(pts).area) == pytest.approx(abs(ring.area), rel=1e-3)
    end = ghost.locator(".end-ghost")
    expect(end).to_have_count(1)  # where the car ends, from the server
    corners = [tuple(map(float, p.split(","))) for p in end.get_attribute("points").split()]
    assert sum(c[1] for c in corners) / 4 == pytest.approx(560.0, abs=0.01)
    page.click("button[data-value='gentle+hard/alt']")
    assert page.evaluate("T.submitted") == ["gentle+hard/alt"]
    shot(page, "legacy-templates-table")
    tab.check()
    ctx.close()
