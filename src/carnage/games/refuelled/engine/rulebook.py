"""Which special rules a Refuelled game installs, and in what order.

Rules modules (``carnage.games.refuelled.rules.*``) each keep a ``RuleTable`` of installers,
one per vehicle special rule, weapon, weapon special rule, upgrade, perk and sponsor they
implement; the Refuelled ruleset (``ruleset.py``) composes them into its own table. When a game
starts, ``install_rules`` installs every id its vehicles and teams carry, through the game's
ruleset (``Game.install_rule``, which journals it so a copy of the game rebuilds the same
handlers): once per vehicle, or once per player for sponsors, with a ``source`` naming the
effect (``vehicle_rule:full_throttle:car1``) for the log and for removing it later. The core
never names a rule; an id with no installer is simply not (yet) played, and ``unplayed_rules``
lists those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from carnage.kernel.effect_ids import EffectId

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

Family = Literal["vehicle_rule", "weapon", "weapon_rule", "upgrade", "perk", "sponsor"]


def rule_ids(game: Game, v: VehicleState) -> list[tuple[Family, str]]:
    """The (family, id) of every special rule ``v`` carries, each once, in install order."""
    weapons = game.catalog.weapons.records
    out: list[tuple[Family, str]] = [("vehicle_rule", r) for r in v.special_rules]
    seen_weapons: set[str] = set()
    for m in v.weapons:
        if m.weapon in seen_weapons:
            continue
        seen_weapons.add(m.weapon)
        out.append(("weapon", m.weapon))
        if m.weapon in weapons:
            out += [("weapon_rule", r) for r in weapons[m.weapon].special_rules]
    out += [("upgrade", u) for u in dict.fromkeys(v.upgrades)]
    out += [("perk", p) for p in dict.fromkeys(v.perks)]
    # The same rule id from two sources (e.g. a weapon rule on two weapons) installs once.
    return list(dict.fromkeys(out))


def install_rules(game: Game) -> None:
    """Install the effects of every special rule the game's vehicles and sponsors carry."""
    for v in list(game.state.vehicles.values()):
        for family, rid in rule_ids(game, v):
            game.install_rule(family, rid, v, EffectId(family, rid, v.id))
    for player, sponsor in enumerate(game.state.sponsors):
        if sponsor:
            game.install_rule("sponsor", sponsor, None, EffectId("sponsor", sponsor, str(player)))


def unplayed_rules(game: Game) -> list[str]:
    """Rule ids carried in this game that have no installer (for coverage reports)."""
    out = []
    for v in game.state.vehicles.values():
        for family, rid in rule_ids(game, v):
            if game.rules.get(family, rid) is None:
                out.append(f"{family}:{rid}")
    return sorted(set(out))
