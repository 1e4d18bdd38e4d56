"""The Kart variant's rules: what it changes from Refuelled, as effects on Refuelled's hooks.

The Kart ruleset (carnage/games/kart/ruleset.py) installs ``("ruleset", "kart")`` once per game;
everything not here is Refuelled's own flow (movement, skid dice, Attack Step, evades, the
Collision procedure). What differs (the variant's page, "Kart variant"; MK ids of the rules
inventory, rulings MK-R.. in docs/rulings.md):

- MK-20, MK-29: every hull point a kart would lose (an item's hit, a smash hit, a blast) becomes
  a Hazard Token instead (``damage_amount``), so no kart is ever damaged or wrecked.
- MK-15: the Attack Step is the Item Attack: the kart's items are Refuelled weapons, fired as
  in the Attack Step (distraction, target, range, LoS, cover, 4-5 a hit, 6 two, evades by gear).
- MK-30: each kart in a Collision gains a flat Hazard (``collision_hazards``) besides its hits.
- MK-32: a Sideswipe counts as a T-bone (``collision_orientation``).
- MK-35, MK-36: smash dice by weight are +1/+2 heavier, -1/-2 lighter; obstacles are
  Heavyweight (``smash_dice``).
- MK-23, MK-24: a Wipeout is gear 1, no Hazards and a random facing rolled on two D6, pivoted
  as Lose Control is (its collision window); no flip check (``wipeout_start`` resolves it).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import yaml

from carnage.games.refuelled.engine.collision import weight_bonus, weight_class
from carnage.games.refuelled.engine.state import WEIGHT_CLASS
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.kernel.decisions import Decision

SOURCE = "Kart variant"
"""The ``source`` of every event a kart rule logs: the log names the variant."""
EFFECT = "ruleset:kart"
RULES = RuleTable()


def _frozen(value: Any) -> Any:
    """``value`` read-only all the way down: mappings as ``MappingProxyType``, lists as
    tuples (the data is cached for the whole process and read by every kart game)."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


@lru_cache(maxsize=1)
def kart_data() -> Mapping[str, Any]:
    """The variant's choices where its page is silent (games/kart/data/kart.yaml), read-only."""
    text = resources.files("carnage.games.kart").joinpath("data/kart.yaml").read_text("utf-8")
    data: Mapping[str, Any] = _frozen(yaml.safe_load(text))
    return data


def kart_weight_bonus(mine: int, theirs: int) -> int:
    """Smash dice for being heavier (+1, +2) or lighter (-1, -2) than the other party (MK-35)."""
    table = {int(k): int(v) for k, v in kart_data()["weight_bonus"].items()}
    return table[max(-2, min(2, mine - theirs))]


def random_heading(first: int, second: int) -> float:
    """The facing two D6 give a wiping-out kart (ruling MK-R6): 36 headings, 10 degrees apart."""
    step = float(kart_data()["heading_step"])
    return ((first - 1) * 6 + (second - 1)) * step


def _rule(g: Game, rule: str, what: str, **data: Any) -> None:
    g.emit("kart_rule", source=SOURCE, page=None, rule=rule, what=what, **data)


@RULES.rule("ruleset", "kart")
def install_kart(g: Game, _vehicle: VehicleState | None, source: str) -> None:
    fx = g.effects
    data = kart_data()

    def hits_to_hazards(amount: int, ctx: dict[str, Any]) -> int | None:
        v = ctx["vehicle"]
        if amount <= 0:
            return None
        _rule(g, "MK-20", "hits become Hazards", vehicle=v.id, hits=amount,
              cause=str(ctx.get("source", "")))
        g.add_hazards(v, amount, "kart_hits", None)
        return 0

    def party_weight(v: Any, ob: Any) -> tuple[int, int]:
        """(Refuelled's weight class, the variant's) of a party of a Collision."""
        if v is not None:
            w = weight_class(g, v)
            return w, w
        return WEIGHT_CLASS[ob.weight], int(data["obstacle_weight"])

    def smash_dice(n: int, ctx: dict[str, Any]) -> int:
        core_mine, mine = party_weight(ctx["vehicle"], ctx["obstacle"])
        core_theirs, theirs = party_weight(ctx["other"], ctx["other_obstacle"])
        out = n - weight_bonus(core_mine, core_theirs) + kart_weight_bonus(mine, theirs)
        if out != n:
            _rule(g, "MK-35", "smash dice by the variant's weights", party=str(ctx["party"]),
                  dice=out, refuelled_dice=n)
        return out

    def collision_hazards(_n: int, ctx: dict[str, Any]) -> int:
        flat = int(data["collision_hazards"])
        _rule(g, "MK-30", "every kart in a collision gains a Hazard", vehicle=str(ctx["party"]),
              hazards=flat)
        return flat

    def orientation(o: str, _ctx: dict[str, Any]) -> str:
        return str(data["orientations"].get(o, o))

    def wipeout_pick(ctx: dict[str, Any]) -> Any:
        return kart_wipeout if ctx.get("vehicle") is not None else None

    def item_attack_pick(ctx: dict[str, Any]) -> Any:
        return item_attack if ctx.get("vehicle") is not None else None

    fx.on("damage_amount", source, hits_to_hazards, priority=-1000)
    fx.on("smash_dice", source, smash_dice, priority=-1000)
    fx.on("collision_hazards", source, collision_hazards, priority=-1000)
    fx.on("collision_orientation", source, orientation, priority=-1000)
    fx.add_flow("wipeout_start", source, wipeout_pick, priority=-1000)
    fx.add_flow("attack_start", source, item_attack_pick, priority=1000)


def item_attack(g: Game, ctx: dict[str, Any]) -> Flow:
    """MK-15: the Attack Step is the Item Attack; Refuelled's Attack Step then runs as it is."""
    v = ctx["vehicle"]
    _rule(g, "MK-15", "Item Attack: items fire as weapons, hits give Hazards", vehicle=v.id)
    return
    yield


def kart_wipeout(g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
    """MK-23: gear 1, every Hazard gone, then a random facing (MK-24, ruling MK-R6) pivoted
    about the centre with Lose Control's collision window (p.35). No flip check."""
    from carnage.games.refuelled.engine.movement import pivot_vehicle
    from carnage.games.refuelled.engine.wipeout import reset_gear_and_hazards

    v = ctx["vehicle"]
    if not v.in_play or g.state.finished:
        return True
    _rule(g, "MK-23", "wipeout: gear 1, no Hazards, random facing (no flip check)",
          vehicle=v.id)
    reset_gear_and_hazards(g, v, source="kart_wipeout", page=34)
    first, second = g.roll(2, "random facing", source="kart_wipeout", page=None, vehicle=v.id)
    heading = random_heading(first, second)
    angle = (heading - v.pose.heading + 180.0) % 360.0 - 180.0
    g.emit("kart_facing", source=SOURCE, page=None, vehicle=v.id, dice=[first, second],
           heading=heading, pivot=angle)
    if angle or g.facts.people:  # a real table: the people turn it to the facing rolled
        yield from pivot_vehicle(g, v, angle, "kart_wipeout", 35)
    return True
