"""A campaign event's game in the Refuelled family: building it, and reading its result.

Every campaign mode of Refuelled and of Gaslands: Legacy plays its events as Refuelled games
(``setup.build_game``); ``EventGames`` gives a mode the ``new_game`` of the campaign modes
interface (``carnage.campaign.modes.Mode``), and ``finishing_order`` / ``game_result`` read a
finished game for the post-game sequence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carnage.campaign.steps import SeasonError

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.setup import GameSetup
    from carnage.kernel.ruleset import Ruleset


class EventGames:
    """``new_game`` for a campaign mode whose events are Refuelled-family games."""

    def event_ruleset(self) -> Ruleset | None:
        """The ruleset the events are played in (None: Refuelled's own)."""
        return None

    def new_game(self, setup: GameSetup, seed: int) -> Game:
        """The event's game, set up from ``setup`` with dice seeded by ``seed``;
        ``SeasonError`` naming what cannot be set up."""
        from carnage.games.refuelled.setup import SetupError, build_game

        try:
            return build_game(setup, seed, ruleset=self.event_ruleset())
        except SetupError as e:
            raise SeasonError(str(e)) from None


def finishing_order(game: Game) -> list[list[int]]:
    """Engine seats best first, tied seats grouped. Death Race freezes its own order of places
    (p.128, ``state.scenario["places"]``); every other event ranks the winner first, then
    the rest by vehicles still in play, then by Hull Points left (ruling CMP-1)."""
    from carnage.games.refuelled.engine.state import Status

    st = game.state
    seats = sorted({v.player for v in st.vehicles.values() if v.player >= 0})
    raced = st.scenario.get("places") if isinstance(st.scenario, dict) else None
    if isinstance(raced, list) and raced:
        order = [int(p) for p in raced if int(p) in seats]
        rest = [s for s in seats if s not in order]
        return [[s] for s in order] + ([rest] if rest else [])

    def key(seat: int) -> tuple[int, int, int]:
        mine = [v for v in st.vehicles.values() if v.player == seat]
        alive = [v for v in mine if v.status is Status.ACTIVE]
        won = 0 if (st.winner is not None and not st.draw and st.winner == seat) else 1
        return (won, -len(alive), -sum(max(0, v.hull) for v in alive))

    groups: list[list[int]] = []
    for seat in sorted(seats, key=key):
        if groups and key(groups[-1][0]) == key(seat):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def game_result(game: Game) -> tuple[str, int]:
    """Why the game ended and how many rounds it lasted."""
    o = game.outcome()
    return ("" if o is None else o.reason), (game.state.round if o is None else o.rounds)
