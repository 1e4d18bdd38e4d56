"""What the kernel knows of a campaign mode, and a mapping of modes loaded on first use.

A ruleset declares its campaign modes (``Ruleset.campaign_modes``); the campaign layer
(``carnage.campaign.modes``) finds them there and drives them through its full ``Mode``
interface. The kernel names them (an id and a title) and says what a campaign event's game
set-up is to the generic layers (``EventSetup``); a set-up a game refuses is the kernel's
``kernel.session.SetupRefused``, and an event's game is a ``kernel.contract.PlayableGame``.
A game package declares its modes
with ``LazyMapping`` so that importing a ruleset does not import its campaign code (and the
database layer under it) until a campaign asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Protocol, Self, TypeVar, runtime_checkable

V = TypeVar("V", covariant=True)


@runtime_checkable
class CampaignMode(Protocol):
    """A kind of campaign a ruleset offers (Seasons, a Legacy campaign ...)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


@runtime_checkable
class EventSetup(Protocol):
    """A campaign event's game before its dice, as the mode of a ruleset makes it
    (Refuelled's ``GameSetup``): what the campaign desk and the campaign player read of it
    and change. The mode that made it builds its game
    (``carnage.campaign.modes.Mode.new_game``)."""

    @property
    def scenario(self) -> str:
        """The scenario's id."""
        ...

    @property
    def max_rounds(self) -> int:
        """A game still running after this many rounds is over (a draw)."""
        ...

    def with_max_rounds(self, max_rounds: int) -> Self:
        """The same set-up, its game over after ``max_rounds`` rounds."""
        ...


class LazyMapping(Mapping[str, V]):
    """A read-only mapping made by ``load()`` the first time it is read. What ``load``
    returns is copied once into a read-only mapping and never changes (a derived cache)."""

    __slots__ = ("_data", "_load")

    def __init__(self, load: Callable[[], Mapping[str, V]]) -> None:
        self._load = load
        self._data: Mapping[str, V] | None = None

    def _loaded(self) -> Mapping[str, V]:
        if self._data is None:
            self._data = MappingProxyType(dict(self._load()))
        return self._data

    def __getitem__(self, key: str) -> V:
        return self._loaded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def __repr__(self) -> str:
        return f"LazyMapping({'not loaded' if self._data is None else dict(self._data)!r})"
