"""What a tourney (``analysis/tourney.py``: team A against team B over many seeded bot games)
asks of a ruleset, declared by the ruleset (``Ruleset.tourney``) and written in its game
package (Refuelled's: ``games/refuelled/tourney.py``; the Kart variant and Legacy inherit it).

The tourney layer builds every game from a set-up the offer wrote as JSON (so worker processes
and Ray tasks rebuild it by the ruleset's name alone), plays it through the game contract, reads
who won from ``outcome()`` and asks the offer for each vehicle's tally. Nothing here names a
rule of any game; a ruleset without an offer plays no tourney.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from carnage.kernel.contract import PlayableGame
from carnage.kernel.events import JsonValue


class TourneyTeam(Protocol):
    """A team as the tourney layer holds it (the ruleset's own team value; Refuelled's:
    ``team.TeamSpec``). The offer refuses one it cannot play (``SetupRefused``)."""

    @property
    def name(self) -> str:
        ...


@dataclass(frozen=True)
class Entrant:
    """One vehicle (or model) a team fields, as a tourney's summary lists it."""

    name: str
    type: str


@dataclass(frozen=True)
class Tally:
    """One vehicle at the end of a tourney game."""

    player: int
    """Its seat (0-based)."""
    survived: bool
    """Still in the game at the end (not wrecked, exploded or disqualified)."""
    dealt: int
    """Damage it dealt to other seats' vehicles."""
    taken: int
    """Damage it took."""


@dataclass(frozen=True)
class TourneyOffer:
    """A ruleset's tourney games: teams checked, games set up as JSON and rebuilt from it, and
    each vehicle's tally at the end. Every callable raises ``kernel.session.SetupRefused``
    with one line naming what is wrong."""

    default_scenario: str
    """The scenario a tourney plays when it names none."""
    max_rounds: int
    """Rounds a game plays when the tourney names none (still running then: a draw)."""
    check_team: Callable[[TourneyTeam, str], Sequence[Entrant]]
    """``check_team(team, who)`` -> the team's vehicles, in the order a game seats them;
    refused (``who`` and the first problem named) if the ruleset cannot play it."""
    setup: Callable[[str, Sequence[TourneyTeam], int], Mapping[str, JsonValue]]
    """``setup(scenario, teams, max_rounds)`` -> a two-player game's set-up as JSON, teams in
    seat order."""
    new_game: Callable[[Mapping[str, JsonValue], int], PlayableGame]
    """``new_game(setup, seed)`` -> the game of ``setup`` (as ``setup`` wrote it), started,
    its dice seeded by ``seed``."""
    tally: Callable[[PlayableGame], Sequence[Tally]]
    """``tally(game)`` -> every vehicle of the game in seat order (a team's in the order
    ``check_team`` lists them): survival, damage dealt and taken."""
    own_teams: Callable[[str], Sequence[TourneyTeam]]
    """``own_teams(scenario)`` -> the teams the scenario brings when the players bring none
    (fewer than two: it brings none)."""
