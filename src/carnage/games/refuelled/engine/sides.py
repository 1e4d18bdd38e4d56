"""Sides and the points they hold, read by scenarios and bots alike.

In a team game (Refuelled p.123) "team" is read for "player" in every victory condition: a
player's side is every seat the ``allies`` hook names (installed by a team game; without one
each player is their own side), and a side is named by its lowest seat. The points are the
scenarios' ledgers (``scenarios/common/score.py`` writes them): ``state.scenario[SCORES]``,
tally -> holder -> points, a holder being ``"s<side>"`` or ``"v:<vehicle id>"``. This module
only reads them, so that the search bot can value a position by them without importing a
scenario (bots and scenarios meet in the engine: ``engine/bot_facing.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

SCORES = "scores"
"""The key of the scenarios' score ledgers in ``state.scenario``."""


def side_players(game: Game, player: int) -> frozenset[int]:
    """The seats on ``player``'s side (just ``player`` outside team games)."""
    if game.effects.idle("allies"):
        return frozenset({player})
    out = game.effects.run_event("allies", frozenset({player}), {"game": game, "player": player})
    return frozenset(out) if isinstance(out, frozenset | set) else frozenset({player})


def side_of(game: Game, player: int) -> int:
    """The side ``player`` is on, named by its lowest seat."""
    return min(side_players(game, player))


def sides(game: Game) -> list[int]:
    """Every side, by its lowest seat, in seat order."""
    return sorted({side_of(game, p) for p in range(game.state.players)})


def ledger(game: Game, tally: str) -> dict[str, int]:
    """The tally's points by holder (a read adds nothing to the state)."""
    book: dict[str, int] = game.state.scenario.get(SCORES, {}).get(tally, {})
    return book


def side_totals(game: Game, tally: str, *, with_vehicles: bool = False) -> dict[int, int]:
    """Side -> points (every side, 0 if none); ``with_vehicles``: plus the tallies kept by
    that side's vehicles."""
    book = ledger(game, tally)
    out = {s: int(book.get(f"s{s}", 0)) for s in sides(game)}
    if with_vehicles:
        for holder, pts in book.items():
            if holder.startswith("v:"):
                v = game.state.vehicles.get(holder[2:])
                if v is not None:
                    out[side_of(game, v.player)] = out.get(side_of(game, v.player), 0) + pts
    return out
