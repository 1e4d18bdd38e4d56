"""Where special rules plug in: a registry of installers keyed by (family, id).

Rules modules (``carnage.rules.*``) register an installer for each vehicle special rule, weapon,
weapon special rule, upgrade, perk and sponsor they implement::

    @special_rule("vehicle_rule", "full_throttle")
    def full_throttle(game: Game, vehicle: VehicleState, source: str) -> None:
        game.effects.on("stat:max_gear", source, lambda value, ctx: ...)

When a game starts, ``install_rules`` calls the installer of every id its vehicles and teams
carry, once per vehicle (or once per player for sponsors), with a ``source`` naming the effect
(``vehicle_rule:full_throttle:car1``) for the log and for removing it later. The core never names
a rule; an id with no installer is simply not (yet) played, and ``unplayed_rules`` lists those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from carnage.engine.game import Game
    from carnage.engine.state import VehicleState

Family = Literal["vehicle_rule", "weapon", "weapon_rule", "upgrade", "perk", "sponsor"]
Installer = Callable[["Game", "VehicleState | None", str], None]

_RULES: dict[str, dict[str, Installer]] = {}


def special_rule(family: Family, rule_id: str) -> Callable[[Installer], Installer]:
    """Decorator: register ``fn`` as the installer of ``rule_id`` in ``family``."""

    def register(fn: Installer) -> Installer:
        table = _RULES.setdefault(family, {})
        if rule_id in table and table[rule_id] is not fn:
            raise ValueError(f"{family} {rule_id!r} is registered twice")
        table[rule_id] = fn
        return fn

    return register


def installer(family: Family, rule_id: str) -> Installer | None:
    return _RULES.get(family, {}).get(rule_id)


def _ids(game: Game, v: VehicleState) -> list[tuple[Family, str]]:
    from carnage.catalog import load_catalog

    cat = load_catalog()
    out: list[tuple[Family, str]] = [("vehicle_rule", r) for r in v.special_rules]
    seen_weapons: set[str] = set()
    for m in v.weapons:
        if m.weapon in seen_weapons:
            continue
        seen_weapons.add(m.weapon)
        out.append(("weapon", m.weapon))
        if m.weapon in cat.weapons.records:
            out += [("weapon_rule", r) for r in cat.weapons.records[m.weapon].special_rules]
    out += [("upgrade", u) for u in dict.fromkeys(v.upgrades)]
    out += [("perk", p) for p in dict.fromkeys(v.perks)]
    # The same rule id from two sources (e.g. a weapon rule on two weapons) installs once.
    return list(dict.fromkeys(out))


def install_rules(game: Game) -> None:
    """Install the effects of every special rule the game's vehicles and sponsors carry."""
    import carnage.rules  # noqa: F401  (loads the rules modules, which register themselves)

    for v in list(game.state.vehicles.values()):
        for family, rid in _ids(game, v):
            fn = installer(family, rid)
            if fn is not None:
                fn(game, v, f"{family}:{rid}:{v.id}")
    for player, sponsor in enumerate(game.state.sponsors):
        fn = installer("sponsor", sponsor) if sponsor else None
        if fn is not None:
            fn(game, None, f"sponsor:{sponsor}:{player}")


def unplayed_rules(game: Game) -> list[str]:
    """Rule ids carried in this game that have no installer (for coverage reports)."""
    import carnage.rules  # noqa: F401

    out = []
    for v in game.state.vehicles.values():
        for family, rid in _ids(game, v):
            if installer(family, rid) is None:
                out.append(f"{family}:{rid}")
    return sorted(set(out))
