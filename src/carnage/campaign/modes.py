"""Campaign modes: one interface every kind of campaign implements, found through the rulesets.

A mode is a set of pure functions over a campaign's records (``Campaign``): it checks its
options, writes the first records, summarises the campaign (redacting other seats' secrets),
names the next game, builds its set-up and its game and offers the decisions before and after
it as ``Steps`` (``carnage.campaign.steps``). A mode's games are kernel games: its set-up is a
``kernel.campaign_modes.EventSetup``, its game a ``kernel.contract.PlayableGame``, a set-up
its game refuses a ``SeasonError`` (from the kernel's ``SetupRefused``), and a roster is a
``TeamSpec`` the mode writes as JSON and prices; so nothing here, nor in the campaign desk
and commands over it, imports a game package. Each ruleset declares its own modes
(``Ruleset.campaign_modes``); ``MODES`` gathers those of every ruleset of the registry
(``carnage.rulesets.RULESETS``), and ``carnage.campaign.play.play_next``, the CLI and the web
page go through it only, so a new mode is one class in its game's package and one line in
its ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from carnage.campaign.steps import NextEvent, SeasonError, StepAsk, Steps
from carnage.campaign.store import Campaign, Record
from carnage.kernel.campaign_modes import CampaignMode, EventSetup
from carnage.kernel.contract import PlayableGame

if TYPE_CHECKING:
    from carnage.kernel.ruleset import Rulesets
    from carnage.team import TeamSpec

__all__ = ["MODES", "EventSetup", "Mode", "NextEvent", "SeasonError", "StepAsk",
           "Steps", "mode_of", "modes_of"]


@runtime_checkable
class Mode(CampaignMode, Protocol):
    """What a campaign mode provides (every method pure: records in, records out)."""

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

    def setup(self, c: Campaign, ev: NextEvent) -> EventSetup:
        """The game to play for ``ev``, with ``pregame`` filled from the records (including
        those of the pre-game steps)."""
        ...

    def new_game(self, setup: EventSetup, seed: int) -> PlayableGame:
        """The started game of ``setup`` (from ``setup``), dice seeded with ``seed``;
        ``SeasonError`` naming what cannot be set up (a set-up this mode did not make
        included)."""
        ...

    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        """The decisions before ``ev`` (empty once they are recorded)."""
        ...

    def post_game(self, c: Campaign, ev: NextEvent, game: PlayableGame, game_id: str,
                  seed: int) -> Steps:
        """The whole post-game sequence of ``game`` (played for ``ev``, a game of this
        mode's ``new_game``), in the book's order, its first record the result; dice from
        ``seed``. ``SeasonError`` if ``game`` is not a game this mode plays."""
        ...

    def roster(self, c: Campaign, seat: int) -> Steps:
        """Between games: one decision for ``seat``, its new roster (a team file as JSON, or
        ``"keep"``), checked by the mode's rules."""
        ...

    def team_json(self, spec: TeamSpec) -> dict[str, Any]:
        """``spec`` as this mode's records keep a roster (and as ``roster`` takes it)."""
        ...

    def team_cost(self, spec: TeamSpec) -> int:
        """What ``spec`` costs in Cans, by the team builder of this mode's games."""
        ...


def modes_of(rulesets: Rulesets) -> Mapping[str, Mode]:
    """Every campaign mode the ``rulesets`` declare, by id (read-only); ``ValueError`` if two
    declare the same id or a declared mode lacks the interface."""
    modes: dict[str, Mode] = {}
    for rs in rulesets.values():
        for mid, m in rs.campaign_modes.items():
            if not isinstance(m, Mode) or m.id != mid:
                raise ValueError(f"ruleset {rs.name!r}: campaign mode {mid!r} is not a "
                                 "campaign mode with that id")
            if mid in modes and modes[mid] is not m:
                raise ValueError(f"campaign mode {mid!r} is declared by two rulesets")
            modes[mid] = m
    return MappingProxyType(modes)


def _build() -> Mapping[str, Mode]:
    from carnage.rulesets import RULESETS

    return modes_of(RULESETS)


MODES: Mapping[str, Mode] = _build()
"""Every campaign mode of every ruleset in the registry, by id (read-only)."""


def mode_of(mode: str) -> Mode:
    """The mode named ``mode``; ``SeasonError`` listing the known ones."""
    try:
        return MODES[mode]
    except KeyError:
        raise SeasonError(f"unknown campaign mode {mode!r} (known: {', '.join(MODES)})"
                          ) from None
