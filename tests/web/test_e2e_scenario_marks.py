"""The board in a real browser draws a scenario it has never heard of from the view alone: the
zone, token, gate, spawn point and label of tests/games/refuelled/engine/test_scenario_view.py's
``MarkedGround``, and Street Race's lines as before."""

from __future__ import annotations

from playwright.sync_api import expect
from tests.games.refuelled.engine.test_scenario_view import SEATS, marked_game
from tests.web.test_e2e_board import tab  # noqa: F401  (the board's fixture)
from tests.web.test_e2e_support import Tab

from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import game_view


def test_the_board_draws_a_scenario_it_does_not_know(tab: Tab) -> None:  # noqa: F811
    page = tab.page
    view = game_view(marked_game(), "g", SEATS).model_dump(mode="json")
    page.evaluate("(v) => T.board.update(v, { animate: false })", view)
    zone = page.locator("svg.board g.scenario.zone[data-id='yard']")
    expect(zone.locator("polygon")).to_have_attribute("points",
                                                      "100,600 300,600 300,800 100,800")
    expect(zone.locator("text")).to_have_text("Scrap yard")
    token = page.locator("svg.board g.scenario.token[data-id='scrap-1']")
    expect(token.locator("circle")).to_have_attribute("cx", "200")
    expect(token.locator("text")).to_have_text("3")
    gate = page.locator("svg.board g.line.gate[data-id='gate-1']")
    # its number once, in a badge, and an arrow the way it is passed (no "GATE 1 1")
    expect(gate.locator("text.gate-number")).to_have_text("1")
    assert gate.locator("text").all_text_contents() == ["1"]
    expect(gate.locator("polygon.pass-arrow")).to_have_count(1)
    assert gate.locator(".flag").count() == 2
    expect(page.locator("svg.board g.scenario.spawn[data-id='entry'] polygon")).to_have_count(1)
    expect(page.locator("svg.board g.scenario.label[data-id='warning'] text")).to_have_text(
        "Here be dragons")


def test_the_board_draws_street_race_from_its_description(tab: Tab) -> None:  # noqa: F811
    page = tab.page
    view = game_view(build_game(GameSetup(), 0), "g", SEATS).model_dump(mode="json")
    page.evaluate("(v) => T.board.update(v, { animate: false })", view)
    expect(page.locator("svg.board g.line.start text")).to_have_text("START")
    expect(page.locator("svg.board g.line.finish text")).to_have_text("FINISH")
    assert page.locator("svg.board g.line.finish .flag").count() == 2


def test_the_status_line_shows_any_scenarios_report(tab: Tab) -> None:  # noqa: F811
    page = tab.page
    view = game_view(marked_game(), "g", SEATS).model_dump(mode="json")
    page.evaluate("""async (v) => {
      const m = await import('/static/js/view.js');
      document.getElementById('panel').replaceChildren(...m.statusLine(v));
    }""", view)
    chip = page.locator("#panel .scenario-report[data-key='scrap']")
    expect(chip.locator("small")).to_have_text("Scrap gathered")
    expect(chip.locator("b")).to_have_text("3 tokens")


def test_flags_are_drawn_as_flags_in_their_owners_colours(tab: Tab) -> None:  # noqa: F811
    """Capture the Flag's flags, one carried and one on the table: a pennant each, in its
    owner's colour, the carried one marked so."""
    from tests.games.refuelled.scenarios.test_capture_the_flag import ctf, red_and_blue

    red, blue = red_and_blue()
    game = ctf(red, blue, flags={"flag-1": "red", "flag-2": (800.0, 100.0)}, dice=[6, 1])
    view = game_view(game, "g", SEATS).model_dump(mode="json")
    page = tab.page
    page.evaluate("(v) => T.board.update(v, { animate: false })", view)
    carried = page.locator("svg.board g.scenario.token.flag.carried[data-id='token-flag-1']")
    lying = page.locator("svg.board g.scenario.token.flag[data-id='token-flag-2']")
    expect(carried.locator("path.token-flag")).to_have_count(1)
    expect(lying.locator("path.token-flag")).to_have_count(1)
    assert "carried" not in (lying.get_attribute("class") or "")
    colours = {p["seat"]: p["colour"] for p in view["players"]}
    owner = next(d["owner"] for d in view["drawables"] if d["id"] == "token-flag-2")
    expect(lying.locator("path.token-flag")).to_have_attribute("fill", colours[owner])
