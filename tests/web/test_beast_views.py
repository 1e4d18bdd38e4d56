"""The table view of vehicles no player owns (creatures, Truckasaurus): marked neutral and
drawn in a colour of their own, on the board's view and in the SVG table."""

from __future__ import annotations

import pytest

from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import NEUTRAL_COLOUR, colour, game_view, table_svg


@pytest.mark.parametrize(("scenario", "beasts"), [
    ("big-game-hunter", {"creature-1", "creature-2", "creature-3"}),
    ("truckasaurus", {"truckasaurus"}),
])
def test_beasts_are_neutral_in_the_view_and_drawn_in_their_own_colour(
        scenario: str, beasts: set[str]) -> None:
    g = build_game(GameSetup(scenario=scenario, players=2), 3)
    while (d := g.pending()) is not None and d.kind not in ("activate", "spend_votes"):
        g.apply(d.options[0].value)
    view = game_view(g, "g1", [])
    neutral = {v.id for v in view.vehicles if v.neutral}
    assert neutral == beasts
    assert all(v.colour == NEUTRAL_COLOUR for v in view.vehicles if v.neutral)
    assert all(v.colour == colour(v.player) for v in view.vehicles if not v.neutral)
    assert NEUTRAL_COLOUR in table_svg(g)
