"""The board, the print-out and the CLI draw each team's templates as they now are
(Gaslands: Legacy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from shapely.geometry import Polygon
from tests.builders import move, play, run_step, table, vehicle
from tests.web.test_api_support import new_client, racer_team
from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.games.legacy.templates import (
    add_exit,
    add_shift,
    combine,
    cross_out_hazard,
    standard_set,
    with_doughnut,
)
from carnage.games.refuelled.engine.team_templates import set_seat_templates
from carnage.games.refuelled.table_view import pending_view
from carnage.games.refuelled.text import event_text
from carnage.games.refuelled.words import state_names
from carnage.geometry.movement import path_for
from carnage.render.team_templates import template_set_svg

CHANGED = with_doughnut(combine(add_exit(add_shift(standard_set(), "turn", 2), "turn", "end"),
                                "gentle", "hard"))


def test_the_table_lays_the_seats_own_templates_for_the_move() -> None:
    st = table(vehicle("car", "car", 600, 300, heading=90, gear=3))
    set_seat_templates(st, 0, CHANGED)
    g = run_step(st, move("car"))
    d = g.pending()
    pv = pending_view(g, d)
    labels = {o.value: o.label for o in pv.options}
    assert labels["gentle+hard/alt"] == "Gentle + Hard with its second icons [H]"
    assert labels["doughnut"] == "Doughnut [P]"
    laid = pv.preview["templates"]
    assert {"gentle+hard", "gentle+hard/alt", "doughnut", "doughnut/left"} <= set(laid)
    # The drawn outline is the combined template as the engine lays it.
    drawn = Polygon(laid["gentle+hard"][0])
    exact = Polygon(path_for(g.state.vehicles["car"].rect(), "gentle+hard",
                             ts=g.templates).outline(step_deg=1.0))
    assert drawn.symmetric_difference(exact).area < 0.01 * exact.area
    # Where the car would end: the page cannot lay our templates itself, so the server says.
    ends = pv.preview["ends"]
    assert set(ends) == {v for v in laid if v.split("/")[0] in ("gentle+hard", "doughnut")}
    assert ends["doughnut"] == {"x": 600.0, "y": 360.0, "heading": 90.0}


def test_the_sheet_draws_every_template_its_icons_and_exit_points() -> None:
    svg = template_set_svg(CHANGED)
    for name in ("Short Straight", "Turn", "Gentle + Hard", "Doughnut"):
        assert f">{name}<" in svg
    assert svg.count('class="template"') == len(CHANGED.templates)
    # One exit marker per slide exit point: one each, two on the Turn, two on the combined
    # template (the Gentle's own survives the cut).
    assert svg.count('class="exit"') == len(CHANGED.templates) + 1 + 1
    # Six gear boxes per icon set: the combined template has two sets.
    assert svg.count('class="gear') == 6 * (len(CHANGED.templates) + 1)
    # A Shift icon in gear 2: Medium Straight, Gentle + Hard (its Gentle), Turn (new), Veer.
    assert svg.count(">2T<") == 4
    plain = template_set_svg(cross_out_hazard(standard_set(), "hard", 3))
    assert re.search(r">3H<", plain) and plain.count(">3H<") == template_set_svg(
        standard_set()).count(">3H<") - 1


def test_cli_prints_and_draws_the_set(tmp_path: Path) -> None:
    team = {**racer_team(), "templates": CHANGED.to_json()}
    path = tmp_path / "legacy.yaml"
    path.write_text(yaml.safe_dump(team), encoding="utf-8")
    out = tmp_path / "set.svg"
    r = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"}).invoke(
        app, ["team", "templates", str(path), "--svg", str(out)])
    assert r.exit_code == 0, r.output
    assert "Gentle + Hard" in r.output and "1:T 2:T 3:P 4:H" in r.output
    assert "on the far short edge" in r.output
    assert out.read_text(encoding="utf-8").startswith("<svg")
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({**racer_team(), "templates": {"templates": [
        {"id": "turn", "gears": ["P"] * 6, "exits": [{"edge": "start"}]}]}}), encoding="utf-8")
    r = CliRunner().invoke(app, ["team", "templates", str(bad)])
    assert r.exit_code == 2
    assert "templates.templates[0].exits[0]: no slide exit point on the starting short edge" \
        in r.output


@pytest.mark.parametrize("templates", [CHANGED, None])
def test_the_web_roster_serves_the_set(tmp_path: Path, templates) -> None:
    client = new_client(tmp_path)
    team = racer_team() | ({} if templates is None else {"templates": templates.to_json()})
    r = client.post("/api/teams", json={"team": team})
    assert r.status_code == 201, r.text
    rec = r.json()
    assert ("templates" in rec["team"]) == (templates is not None)
    svg = client.get(f"/api/teams/{rec['id']}/templates.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert (">Doughnut<" in svg.text) == (templates is not None)
    assert client.get("/api/teams/nope/templates.svg").status_code == 404


def test_the_log_says_which_team_template_and_exit_point() -> None:
    tset = add_shift(add_shift(add_exit(standard_set(), "turn", "end"), "turn", 2), "turn", 2)
    st = table(vehicle("car", "car", 600, 300, heading=90, gear=2))
    set_seat_templates(st, 0, tset)
    g = run_step(st, move("car"), dice=[3])  # a Slide
    play(g, "turn", 1, "no", "done", "turn@end", "left")
    names = state_names(g.state)
    said = [event_text(e, names) for e in g.log.events if e.kind in ("template", "slide_exit")]
    assert said == ["Car takes the Turn template, trivial (2 Shift icons) (p.22)",
                    "Car slides from a new slide exit point"]
