"""Rule tables: which installer implements which special rule, per ruleset.

A rules module keeps its own ``RuleTable`` and decorates its installers::

    RULES = RuleTable()

    @RULES.rule("perk", "slick")
    def slick(game, vehicle, source): ...

    @RULES.rule_with_id("sponsor", "x")  # an installer that reads its effect id's parts
    def x(game, vehicle, eid: EffectId): ...

    @RULES.journaled("on_fire")          # a shared installer some rules call at run time
    def install_on_fire(game): ...

A ruleset composes the tables of its modules with ``RuleTable.merged`` into a table of its own
(an overlay ruleset merges Refuelled's and then its own, whose entries override). Games look
installers up only in their ruleset's table, so two rulesets never see each other's rules.

Calling a ``journaled`` installer (or ``Game.install_rule``) runs it through
``KernelGame.install``, which records it in the state's effect journal, so that a copy of the
game rebuilds the same handlers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from carnage.kernel.effect_ids import EffectId

Installer = Callable[[Any, Any, str], None]
"""``fn(game, vehicle or None, source)``: attach a rule's handlers for one vehicle (or team);
``source`` is the effect id's text, the key its handlers and memory are kept under."""
IdInstaller = Callable[[Any, Any, EffectId], None]
"""``fn(game, vehicle or None, eid)``: an installer that reads the parts of its effect id (a
sponsor's seat, a weapon's id), given it as an ``EffectId`` (``RuleTable.rule_with_id``)."""
Named = Callable[..., None]
"""``fn(game, *json_args)``: a shared installer."""
F = TypeVar("F", bound=Callable[..., None])

RULE_KEY = "rule"
"""Journal entries of rule installers: ``["rule", family, id, vehicle id or None, source]``."""


@dataclass
class RuleTable:
    rules: dict[tuple[str, str], Installer] = field(default_factory=dict)
    named: dict[str, Named] = field(default_factory=dict)

    # -- declaring -------------------------------------------------------------------------------
    def rule(self, family: str, rule_id: str) -> Callable[[Installer], Installer]:
        """Decorator: ``fn`` installs ``rule_id`` of ``family``."""

        def register(fn: Installer) -> Installer:
            key = (family, rule_id)
            if key in self.rules and self.rules[key] is not fn:
                raise ValueError(f"{family} {rule_id!r} is registered twice")
            self.rules[key] = fn
            return fn

        return register

    def rule_with_id(self, family: str, rule_id: str) -> Callable[[IdInstaller], IdInstaller]:
        """Decorator: ``fn`` installs ``rule_id`` of ``family`` and takes its effect id as an
        ``EffectId``: the table reads the journal's text once (``ValueError`` naming it if it
        is not an effect id), so the rule never splits it apart."""

        def register(fn: IdInstaller) -> IdInstaller:
            self.rule(family, rule_id)(_with_id(fn))
            return fn

        return register

    def journaled(self, name: str) -> Callable[[F], F]:
        """Decorator: a shared installer ``fn(game, *json_args)``; calling it records it in
        the game's effect journal (once per arguments)."""

        def register(fn: F) -> F:
            if name in self.named:
                raise ValueError(f"installer {name!r} is registered twice")
            self.named[name] = fn

            @functools.wraps(fn)
            def run(game: Any, *args: Any) -> None:
                game.install(name, fn, *args)

            return cast(F, run)

        return register

    # -- composing -------------------------------------------------------------------------------
    @staticmethod
    def merged(tables: Iterable[RuleTable]) -> RuleTable:
        """A new table with the entries of ``tables``; later tables override earlier ones."""
        out = RuleTable()
        for t in tables:
            out.rules.update(t.rules)
            out.named.update(t.named)
        return out

    def with_rules(self, rules: dict[tuple[str, str], Installer | None]) -> RuleTable:
        """A copy with ``rules`` added or replaced (None: removed): for variants and tests."""
        out = RuleTable(dict(self.rules), dict(self.named))
        for k, fn in rules.items():
            if fn is None:
                out.rules.pop(k, None)
            else:
                out.rules[k] = fn
        return out

    # -- looking up ------------------------------------------------------------------------------
    def get(self, family: str, rule_id: str) -> Installer | None:
        return self.rules.get((family, rule_id))

    def installer(self, key: str) -> Named:
        """The shared installer journaled as ``key``; ``KeyError`` naming it if unknown."""
        try:
            return self.named[key]
        except KeyError:
            raise KeyError(f"no installer {key!r} in this ruleset") from None


@functools.cache
def _with_id(fn: IdInstaller) -> Installer:
    """``fn`` as an ``Installer`` (one per ``fn``, so registering it again is no conflict)."""

    @functools.wraps(fn)
    def run(game: Any, vehicle: Any, source: str) -> None:
        fn(game, vehicle, EffectId.parse(source))

    return run
