"""Campaign modes: one interface every kind of campaign implements, and the table of them.

A mode is a set of pure functions over a campaign's records (``Campaign``): it checks its
options, writes the first records, summarises the campaign (redacting other seats' secrets),
names the next game, builds its ``GameSetup`` and offers the decisions before and after it as
``Steps`` (``carnage.campaign.steps``). ``carnage.campaign.play.play_next``, the CLI and the
web page go through ``MODES`` only, so a new mode is one class and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from carnage.campaign.steps import NextEvent, SeasonError, StepAsk, Steps
from carnage.campaign.store import Campaign, Record

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.setup import GameSetup
    from carnage.team import TeamSpec

__all__ = ["MODES", "Mode", "NextEvent", "SeasonError", "StepAsk", "Steps", "mode_of"]


class Mode(Protocol):
    """What a campaign mode provides (every method pure: records in, records out)."""

    id: str
    name: str

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The checked options record from what a user gave (strings from the command line
        or typed values); ``SeasonError`` naming a bad or unknown option."""
        ...

    def start(self, options: Mapping[str, Any], teams: Sequence[TeamSpec]) -> list[Record]:
        """The first records: every team joining (seat = index), plus anything fixed up
        front (a schedule); ``SeasonError`` for a team the mode refuses."""
        ...

    def summary(self, c: Campaign, seat: int | None = None) -> dict[str, Any]:
        """JSON for show and the web: ``standings``, ``schedule``, ``teams`` (each vehicle
        with its career), ``next``, ``finished``, ``titles``, ``results``. ``seat``: the
        viewer; secrets of the other seats are left out (None: a spectator, no secrets)."""
        ...

    def next_event(self, c: Campaign,
                   request: Mapping[str, Any] | None = None) -> NextEvent | None:
        """The next game (None: the campaign is over). ``request`` carries what the players
        decide at the meeting, if the mode has such a choice (see the mode's docstring)."""
        ...

    def setup(self, c: Campaign, ev: NextEvent) -> GameSetup:
        """The game to play for ``ev``, with ``pregame`` filled from the records (including
        those of the pre-game steps)."""
        ...

    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        """The decisions before ``ev`` (empty once they are recorded)."""
        ...

    def post_game(self, c: Campaign, ev: NextEvent, game: Game, game_id: str,
                  seed: int) -> Steps:
        """The whole post-game sequence of ``game`` (played for ``ev``), in the book's order,
        its first record the result; dice from ``seed``."""
        ...

    def roster(self, c: Campaign, seat: int) -> Steps:
        """Between games: one decision for ``seat``, its new roster (a team file as JSON, or
        ``"keep"``), checked by the mode's rules."""
        ...


def _build() -> Mapping[str, Mode]:
    from carnage.games.legacy.campaign import LEGACY
    from carnage.games.refuelled.campaign.savage import SAVAGE_HIGHWAYS
    from carnage.games.refuelled.campaign.seasons import CHAMPIONSHIP, ESCALATING
    from carnage.games.refuelled.campaign.televised import TELEVISED

    modes: list[Mode] = [ESCALATING, CHAMPIONSHIP, TELEVISED, SAVAGE_HIGHWAYS, LEGACY]
    return MappingProxyType({m.id: m for m in modes})


MODES: Mapping[str, Mode] = _build()
"""Every campaign mode by id (read-only)."""


def mode_of(mode: str) -> Mode:
    """The mode named ``mode``; ``SeasonError`` listing the known ones."""
    try:
        return MODES[mode]
    except KeyError:
        raise SeasonError(f"unknown campaign mode {mode!r} (known: {', '.join(MODES)})"
                          ) from None
