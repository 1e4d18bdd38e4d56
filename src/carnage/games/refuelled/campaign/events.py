"""A campaign event's game in the Refuelled family: building it, and reading its result.

Every campaign mode of Refuelled and of Gaslands: Legacy plays its events as Refuelled games
(``setup.build_game``); ``EventGames`` gives a mode what the campaign modes interface
(``carnage.campaign.modes.Mode``) asks of its games and rosters whatever the mode (``new_game``,
``team_json``, ``team_cost``), ``event_game`` takes a game handed back by the generic layers
(a ``PlayableGame``) as the Refuelled game it is, and ``finishing_order`` / ``game_result``
read a finished game for the post-game sequence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.campaign.steps import SeasonError
from carnage.kernel.campaign_modes import EventSetup
from carnage.kernel.contract import PlayableGame

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.kernel.ruleset import Ruleset
    from carnage.team import TeamSpec


class EventGames:
    """What every campaign mode whose events are Refuelled-family games offers alike: its
    events' games (``new_game``) and its rosters as records keep them and as they cost."""

    def event_ruleset(self) -> Ruleset | None:
        """The ruleset the events are played in (None: Refuelled's own)."""
        return None

    def new_game(self, setup: EventSetup, seed: int) -> Game:
        """The event's game, set up from ``setup`` (a ``GameSetup``, as the mode's ``setup``
        makes it) with dice seeded by ``seed``; ``SeasonError`` naming what cannot be set
        up."""
        from carnage.games.refuelled.setup import GameSetup, SetupError, build_game

        if not isinstance(setup, GameSetup):
            raise SeasonError(f"a {type(setup).__name__} is not the set-up of a game of this "
                              "campaign (a Refuelled-family game set-up is needed)")
        try:
            return build_game(setup, seed, ruleset=self.event_ruleset())
        except SetupError as e:
            raise SeasonError(str(e)) from None

    def team_json(self, spec: TeamSpec) -> dict[str, Any]:
        """``spec`` as a team file's JSON (unset fields left out): a roster in the records."""
        out: dict[str, Any] = spec.model_dump(mode="json", exclude_none=True)
        return out

    def team_cost(self, spec: TeamSpec) -> int:
        """What ``spec`` costs in Cans (the team builder's total)."""
        from carnage.team import check_team

        return int(check_team(spec).total_cans)


def event_game(game: PlayableGame) -> Game:
    """``game`` (an event's game handed back by the campaign desk or player) as the
    Refuelled-family game it is; ``SeasonError`` if it is another ruleset's."""
    from carnage.games.refuelled.engine.game import Game

    if not isinstance(game, Game):
        raise SeasonError(f"a {type(game).__name__} is not a game of this campaign's events "
                          "(a Refuelled-family game is needed)")
    return game


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
