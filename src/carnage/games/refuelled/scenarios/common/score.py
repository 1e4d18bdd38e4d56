"""Score ledgers: Victory Points and other named tallies, per player or per side (M-07, M-08,
G-04e).

A tally is a name (``vp`` for Victory Points, ``salvage``, ``crates``, ``zombies``, ``kills``
...). Scores belong to a **side**: in a team game (p.123) "team" is read for "player" in every
victory condition, so a player's points go to their side, named by its lowest seat (the
``allies`` hook, installed by ``install_team_game``); without teams each player is their own
side. A tally may also be kept per vehicle (``vehicle=``: Automated Salvage's Salvage Points).

Memory: ``state.scenario["scores"]``: tally -> holder -> points, where a holder is ``"s<side>"``
or ``"v:<vehicle id>"``. Every change is a ``score`` event naming its source and page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.scenario_view import ReportRow

# Sides, and the ledgers read back, live in the engine (the search bot reads them too); they
# are this module's as well, for the scenarios that keep their points here.
from carnage.games.refuelled.engine.sides import SCORES
from carnage.games.refuelled.engine.sides import ledger as _book
from carnage.games.refuelled.engine.sides import side_of as side_of
from carnage.games.refuelled.engine.sides import side_players as side_players
from carnage.games.refuelled.engine.sides import side_totals as side_totals
from carnage.games.refuelled.engine.sides import sides as sides

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

KEY = SCORES
VP = "vp"
NAMES = {"vp": "VP"}
"""Short names of tallies in reports (others: the tally's name)."""


def side_label(game: Game, side: int) -> str:
    seats = sorted(side_players(game, side))
    if len(seats) == 1:
        return f"P{seats[0] + 1}"
    return "Side " + "+".join(f"P{p + 1}" for p in seats)


def add(game: Game, tally: str, amount: int, *, player: int | None = None,
        vehicle: VehicleState | None = None, source: str, page: int | None,
        reason: str = "") -> int:
    """Change ``tally`` by ``amount`` for ``vehicle`` (its own tally) or else for ``player``'s
    side; logs a ``score`` event; returns the new total. Totals never go below 0."""
    if vehicle is not None:
        who = vehicle.player
    elif player is not None:
        who = int(player)
    else:
        raise ValueError("a score needs a player or a vehicle")
    side = side_of(game, who)
    holder = f"v:{vehicle.id}" if vehicle is not None else f"s{side}"
    book: dict[str, int] = game.state.scenario.setdefault(KEY, {}).setdefault(tally, {})
    before = book.get(holder, 0)
    after = max(0, before + int(amount))
    book[holder] = after
    game.emit("score", source=source, page=page, tally=tally, player=who, side=side,
              vehicle=None if vehicle is None else vehicle.id, change=after - before,
              total=after, reason=reason)
    return after


def total(game: Game, tally: str, player: int) -> int:
    """``player``'s side's points in ``tally`` (side holdings only, not vehicles')."""
    return int(_book(game, tally).get(f"s{side_of(game, player)}", 0))


def vehicle_total(game: Game, tally: str, vehicle: VehicleState) -> int:
    return int(_book(game, tally).get(f"v:{vehicle.id}", 0))


def report_rows(game: Game, tally: str, label: str | None = None, *,
                with_vehicles: bool = False) -> list[ReportRow]:
    """One ``ReportRow`` per side: key ``<tally>_<side label>``, the points as value."""
    name = label or NAMES.get(tally, tally.replace("_", " "))
    return [ReportRow(f"{tally}_{side_label(game, s).lower().replace(' ', '_')}",
                      f"{side_label(game, s)} {name}", pts, f"{pts} {name}")
            for s, pts in side_totals(game, tally, with_vehicles=with_vehicles).items()]
