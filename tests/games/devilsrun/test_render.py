"""The SVG board and stat cards."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from tests.games.devilsrun.helpers import arranged, play

from carnage.games.devilsrun.bots import bot
from carnage.games.devilsrun.render import arc_squares, render_board, stat_cards
from carnage.games.devilsrun.state import WRECK

NS = "{http://www.w3.org/2000/svg}"


def _classes(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_board_draws_three_tiles_of_sixty_four_squares_and_the_features() -> None:
    g = arranged("hell-on-wheels", {"law-car": (3, 6), "ha-bike": (1, 1)}, [])
    svg = render_board(g)
    tiles = _classes(svg, "tile")
    assert [t.get("data-tile") for t in tiles] == ["1", "2", "3"]
    assert len(_classes(svg, "square")) == 3 * 64
    assert len(_classes(svg, "debris")) == 7 and len(_classes(svg, "impassable")) == 3
    ids = [v.get("data-id") for v in _classes(svg, "vehicle")]
    assert ids == ["law-car", "ha-bike"]
    car = _classes(svg, "body")[0]
    assert car.get("height") == str(2 * 32 - 8)  # the car covers two squares


def test_board_follows_the_road_as_it_rolls_forward() -> None:
    g = arranged("devils-run", {"ha-bike": (3, 22), "law-bike": (0, 12)}, [1, 1], to_act=1)
    play(g, "ha-bike", "peddle", "F", "F")
    tiles = _classes(render_board(g), "tile")
    assert [(t.get("data-tile"), t.get("data-origin")) for t in tiles] == [
        ("2", "8"), ("3", "16"), ("1", "24")]


def test_arcs_are_shaded_squares_with_their_modifiers() -> None:
    g = arranged("devils-run", {"law-bike": (3, 5), "ha-bike": (0, 20)}, [])
    sq = arc_squares(g, "law-bike")
    assert sq[(3, 6)] == ("pistol#0", 0, "primary")
    assert sq[(4, 4)] == ("pistol#0", -2, "secondary")
    assert (3, 4) not in sq  # blind straight behind
    shaded = _classes(render_board(g, arcs_for="law-bike"), "arc")
    assert len(shaded) == len(sq)
    assert {e.get("data-mod") for e in shaded} >= {"0", "-1", "-2", "-3"}


def test_wrecks_stash_and_stat_cards() -> None:
    g = arranged("devils-run", {"law-bike": (3, 5), "ha-bike": (0, 20)}, [])
    g.vehicle("law-bike").status = WRECK
    g.state.stash.status, g.state.stash.pos = "placed", (3, 19)
    svg = render_board(g)
    assert len(_classes(svg, "wreck-cross")) == 1
    assert len(_classes(svg, "stash")) == 1
    cards = _classes(svg, "stat-card")
    assert len(cards) == 4
    assert "wreck" in ET.tostring(cards[0], encoding="unicode")
    printable = stat_cards()
    assert len(_classes(printable, "stat-card")) == 6


def test_every_position_of_a_played_game_renders() -> None:
    from carnage.games.devilsrun.missions import DEVILS_RUN

    g = DEVILS_RUN.new_game("hell-on-wheels", seed=11)
    rng = random.Random(11)
    h = bot("heuristic")
    while (d := g.pending()) is not None:
        g.apply(h(g, d, rng))
        if len(g.choices) % 15 == 0:
            ET.fromstring(render_board(g, arcs_for=next(iter(g.state.vehicles))))
    ET.fromstring(render_board(g))
