"""A ruleset: everything one game of the family needs, owned in one object.

A ``Ruleset`` holds its catalogue, its movement templates, its rule table (installers), its
declared hooks and its scenarios, and makes and restores its games. Nothing is process-wide:
two rulesets (or one with a modified catalogue, as a Legacy campaign has) run side by side in
one process. An overlay (the Kart variant) is ``dataclasses.replace`` of its parent with what
differs. ``Rulesets`` finds them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from carnage.kernel.campaign_modes import CampaignMode
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.rules import RuleTable


@dataclass(frozen=True)
class ScenarioInfo:
    """What a list of scenarios shows: id, name, page, players, a line in our own words."""

    id: str
    name: str
    page: int | None
    players: str
    description: str


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    rules: RuleTable
    hooks: HookRegistry
    catalog: Any
    """The ruleset's catalogue (Refuelled's: ``carnage.catalog.Catalog``)."""
    templates: Any
    """Its movement templates (``geometry.templateset.TemplateSet`` for Refuelled)."""
    scenarios: Mapping[str, Any]
    """Scenario id -> scenario class (a game makes its own instance)."""
    new_game: Callable[..., Any] = field(compare=False)
    """``new_game(scenario=..., teams=..., seed=..., **options)`` -> a started game."""
    restore: Callable[[dict[str, Any]], Any] = field(compare=False)
    """``restore(snapshot_doc)`` -> the game, as it was."""
    parent: str | None = None
    """The ruleset this one overlays (None: its own game)."""
    view: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Flags for the table's views (``{"hull": False}``: no Hull track, nothing damages)."""
    check_state: Callable[[Any, Any], None] | None = field(default=None, compare=False)
    """``check_state(game, state)``: the ruleset's invariants of a state restored from a
    snapshot (its types are checked by the kernel first); raises ``validate.Invalid`` naming
    the field. None: no check beyond the types."""

    # What campaigns use
    campaign_modes: Mapping[str, CampaignMode] = field(
        default_factory=lambda: MappingProxyType({}), compare=False)
    """Campaign mode id -> the mode (``carnage.campaign.modes.Mode``); the campaign layer finds
    modes here only. Usually a ``kernel.campaign_modes.LazyMapping``: read on first use."""

    def scenario_class(self, scenario_id: str) -> Any:
        """The scenario registered as ``scenario_id``; ``ValueError`` naming the known ids."""
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            known = ", ".join(sorted(self.scenarios))
            raise ValueError(
                f"unknown scenario {scenario_id!r} for {self.title} (known: {known})") from None


class Rulesets(Mapping[str, Ruleset]):
    """An immutable collection of rulesets by name; ``with_ruleset`` returns a new one."""

    def __init__(self, rulesets: Mapping[str, Ruleset] | None = None) -> None:
        self._by_name: Mapping[str, Ruleset] = MappingProxyType(dict(rulesets or {}))

    def __getitem__(self, name: str) -> Ruleset:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(sorted(self._by_name))
            raise KeyError(f"unknown ruleset {name!r} (known: {known})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def with_ruleset(self, ruleset: Ruleset) -> Rulesets:
        """These rulesets and ``ruleset`` (replacing one of the same name)."""
        return Rulesets({**self._by_name, ruleset.name: ruleset})
