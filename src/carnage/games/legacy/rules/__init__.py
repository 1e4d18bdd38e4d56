"""Gaslands: Legacy's play rules: what the Legacy ruleset changes from Refuelled, as effects
on Refuelled's hooks (GL ids of the rules inventory; rulings GL-R in docs/rulings.md).

The Legacy ruleset (carnage/games/legacy/ruleset.py) installs ``("ruleset", "legacy")`` once per
game; the rest is Refuelled's own flow.

- GL-020 Televised Carnage: a vehicle whose attacks in one Attack Step score 6 or more hits,
  counted before evades (all its targets together, ruling GL-R23), gives its controller one
  Audience Vote, once per Attack Step (``attack``).
- GL-021 Live Fast: a vehicle beginning the Wipeout Step of its own activation with more
  Hazard Tokens than Hull Points gives its controller one Audience Vote
  (``wipeout_step_start``).
- Mutation traits (ours, games/legacy/data/mutations.yaml): ``legacy_heavier`` counts one weight
  class heavier each (at most Heavyweight, ``weight_class``); ``legacy_hazard_tolerance``
  wipes out at one more Hazard each (``wipeout_threshold``).
- GL-099 Nano-Cloaking Device: declared the target of an attack (attacks of the Attack Step:
  collisions are never declared), the vehicle's controller may cut its Hull by one for good
  to cloak until the end of the active vehicle's activation; a cloaked vehicle is no target
  (``targetable``) and the attacker gets its attack back to declare again (``attack_declared``;
  the engine refunds a withdrawn declaration). Not at one Hull Point (ruling GL-R22).
  The permanent cut is logged as ``nano_cloak``; ``legacy.ratings.fill_hull_box`` records it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.votes import gain_votes
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState

SOURCE = "Gaslands: Legacy"
RULES = RuleTable()
TELEVISED_HITS = 6
"""GL-020: hits in one Attack Step, before evades, for a vote."""
HITS = "legacy_step_hits"
TELEVISED = "legacy_televised"
CLOAKED = "legacy_cloaked"
PAGE = 81
"""BLASTER vol.3 page of "Gaining Audience Votes" (Legacy excerpt lines 200-242)."""
CLOAK_PAGE = 92
YES = "cloak"
NO = "no"
WEIGHT_CAP = 3


def _rule(g: Game, rule: str, what: str, **data: Any) -> None:
    g.emit("legacy_rule", source=SOURCE, page=None, rule=rule, what=what, **data)


@RULES.rule("ruleset", "legacy")
def install_legacy(g: Game, _vehicle: VehicleState | None, source: str) -> None:
    fx = g.effects

    def count_hits(res: Any, ctx: dict[str, Any]) -> None:
        st = g.state
        v = res.attacker
        if st.step != "attack" or st.active != v.id:
            return None
        total = v.conditions.get(HITS, 0) + sum(grp.hits for grp in res.groups)
        v.conditions[HITS] = total
        if total >= TELEVISED_HITS and not v.conditions.get(TELEVISED):
            v.conditions[TELEVISED] = 1
            _rule(g, "GL-020", "Televised Carnage: 6+ hits in one Attack Step", vehicle=v.id,
                  hits=total)
            gain_votes(g, v.player, 1, source="televised_carnage", page=PAGE, vehicle=v.id)
        return None

    def step_over(_value: Any, ctx: dict[str, Any]) -> None:
        v = ctx["vehicle"]
        v.conditions.pop(HITS, None)
        v.conditions.pop(TELEVISED, None)
        return None

    def live_fast(g: Game, ctx: dict[str, Any]) -> Flow:
        v = ctx["vehicle"]
        if v.in_play and v.hazards > v.hull_points:
            _rule(g, "GL-021", "Live Fast: more Hazards than Hull Points at the Wipeout Step",
                  vehicle=v.id, hazards=v.hazards, hull=v.hull_points)
            gain_votes(g, v.player, 1, source="live_fast", page=PAGE, vehicle=v.id)
        return
        yield

    fx.on("attack", source, count_hits, priority=1000)
    fx.on("activation_end", source, step_over)
    fx.add_flow("wipeout_step_start", source,
                lambda ctx: live_fast if ctx.get("vehicle") is not None else None,
                priority=-901)


@RULES.rule("vehicle_rule", "legacy_heavier")
def install_heavier(g: Game, vehicle: VehicleState | None, source: str) -> None:
    assert vehicle is not None
    steps = vehicle.special_rules.count("legacy_heavier")

    def heavier(w: int, ctx: dict[str, Any]) -> int:
        return min(WEIGHT_CAP, w + steps)

    g.effects.on("weight_class", source, heavier, about=vehicle)


@RULES.rule("vehicle_rule", "legacy_hazard_tolerance")
def install_tolerance(g: Game, vehicle: VehicleState | None, source: str) -> None:
    assert vehicle is not None
    extra = vehicle.special_rules.count("legacy_hazard_tolerance")

    def threshold(n: int, ctx: dict[str, Any]) -> int:
        return n + extra

    g.effects.on("wipeout_threshold", source, threshold, about=vehicle)


@RULES.rule("upgrade", "nano_cloaking_device")
def install_nano_cloak(g: Game, vehicle: VehicleState | None, source: str) -> None:
    assert vehicle is not None
    nano_cloak_effects(g, vehicle, source)


def nano_cloak_effects(g: Game, v: VehicleState, source: str,
                       when: Callable[[], bool] | None = None) -> None:
    """The Nano-Cloaking Device's effects on ``v``; ``when``: only while it says so (a vehicle
    that counts as having the device for a while: Legacy Chapter 5's crates)."""
    from carnage.games.refuelled.engine.game import ask

    def targetable(ok: bool, ctx: dict[str, Any]) -> bool | None:
        return False if v.conditions.get(CLOAKED) else None

    def uncloak(_value: Any, ctx: dict[str, Any]) -> None:
        if v.conditions.pop(CLOAKED, None):
            _rule(g, "GL-099", "the Nano-Cloak ends with the activation", vehicle=v.id)
        return None

    def cloak(g: Game, ctx: dict[str, Any]) -> Flow:
        shot = ctx["shot"]
        attacker = ctx["vehicle"]
        if (v.conditions.get(CLOAKED) or not v.in_play or v.hull_points <= 1
                or (when is not None and not when())):
            return
        pick = yield ask(
            v.player, "nano_cloak",
            f"{v.name} is the target of {attacker.name}'s attack: cut its Hull by one for "
            "good to cloak until the end of this activation?",
            [(NO, "no, take the attack"), (YES, "cloak (Hull -1 for good)")],
            source="nano_cloaking_device", page=CLOAK_PAGE, vehicle=v.id,
            target=attacker.id)
        if pick != YES:
            return
        v.hull -= 1
        v.conditions[CLOAKED] = 1
        declared: list[Any] = ctx["declared"]
        for i in range(len(declared) - 1, -1, -1):
            if declared[i] == shot:
                del declared[i]
                break
        uses: dict[str, int] = ctx["uses"]
        uses[shot.key] = max(0, uses.get(shot.key, 0) - 1)
        ctx["withdrawn"] = True
        g.emit("nano_cloak", source="nano_cloaking_device", page=CLOAK_PAGE, vehicle=v.id,
               attacker=attacker.id, weapon=shot.key, hull=v.hull,
               hull_points=v.hull_points)

    g.effects.on("targetable", source, targetable, about=v, key="target")
    g.effects.on("activation_end", source, uncloak)
    g.effects.add_flow(
        "attack_declared", source,
        lambda ctx: cloak if (ctx.get("shot") is not None and ctx["shot"].target == v.id
                              and not ctx["shot"].extra) else None,
        priority=500)
