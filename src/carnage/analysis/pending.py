"""Odds of a game's pending decision: what each option would roll, before it is chosen.

* ``attack`` (declare a shooting attack): for each "weapon at target" option the weapon's
  attack dice, cover judged as the declaration would judge it (``Sight``; weapons ignoring
  terrain never suffer it), and the target's current gear as its evade dice.
* ``skid_dice`` (how many skid dice): for each count, the skid odds from the vehicle's Hazard
  Tokens now (a hazardous manoeuvre's Hazard is already on it), a trivial manoeuvre's bonus
  Shift and its Wipeout threshold; with and without Push It.

The odds use the base rules and the state on the table: perk and sponsor modifiers that only
act as the dice are rolled (to-hit bonuses, extra dice, evade bonuses) are not applied, and the
answer says so (``basis``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.analysis.odds import attack_odds, skid_odds
from carnage.catalog import TemplateUse, load_catalog
from carnage.engine.attack import HANDGUN, STOP, Sight, legal_shots
from carnage.engine.wipeout import wipeout_threshold
from carnage.geometry.arcs import parse_arc

if TYPE_CHECKING:
    from carnage.engine.game import Game
    from carnage.engine.state import VehicleState
    from carnage.kernel.decisions import Decision

BASIS = ("base rules on the table as it stands: perk and sponsor modifiers applied as the dice "
         "are rolled are not included")
KINDS = ("attack", "skid_dice")


@dataclass(frozen=True)
class OptionOdds:
    option: str | int
    label: str
    detail: dict[str, Any]
    odds: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"option": self.option, "label": self.label, **self.detail, "odds": self.odds}


def attack_options(g: Game, d: Decision, v: VehicleState) -> list[OptionOdds]:
    """One entry per "weapon at target" option of an ``attack`` decision."""
    cat = load_catalog()
    mounts = {m.key: m for m in v.weapons}
    shots = {s.value: s for s in legal_shots(g, v)}
    sight = Sight(g, v)
    out: list[OptionOdds] = []
    for o in d.options:
        value = str(o.value)
        shot = shots.get(value)
        if value == STOP or shot is None:
            continue
        w = cat.weapons.get(shot.weapon)
        if not w.attack_dice:
            continue  # no attack dice: nothing to roll
        t = g.state.vehicles[shot.target]
        mount = mounts.get(shot.key)
        indirect = g.effects.run_event("ignores_terrain", False, {
            "game": g, "vehicle": v, "mount": mount, "weapon": shot.weapon}) is True
        cover = False if indirect else sight.for_mount(mount).check(
            t, parse_arc(shot.arc), shot.template).cover
        odds = attack_odds(w.attack_dice, evade_gear=t.gear, cover=cover)
        out.append(OptionOdds(o.value, o.label, {
            "weapon": shot.key if shot.key != HANDGUN else HANDGUN, "weapon_name": w.name,
            "target": t.id, "target_name": t.name, "dice": w.attack_dice, "cover": cover,
            "evade_gear": t.gear}, odds.to_json()))
    return out


def _template_use(g: Game, v: VehicleState) -> str | None:
    for e in reversed(g.log.events):
        if e.kind == "template" and e.data.get("vehicle") == v.id:
            return str(e.data.get("use"))
    return None


def skid_options(g: Game, d: Decision, v: VehicleState) -> list[OptionOdds]:
    """One entry per dice count of a ``skid_dice`` decision."""
    use = _template_use(g, v)
    trivial = use == TemplateUse.TRIVIAL.value
    at = wipeout_threshold(g, v)
    out: list[OptionOdds] = []
    for o in d.options:
        n = int(o.value)
        plain = skid_odds(n, trivial=trivial, hazards=v.hazards, wipeout_at=at)
        pushed = skid_odds(n, push_it=True, trivial=trivial, hazards=v.hazards, wipeout_at=at)
        out.append(OptionOdds(o.value, o.label, {
            "dice": n, "hazards": v.hazards, "trivial": trivial, "wipeout_at": at},
            {**plain.to_json(), "push_it": pushed.to_json()}))
    return out


def pending_odds(g: Game, d: Decision, v: VehicleState | None) -> list[OptionOdds]:
    """The odds of each option of ``d`` (empty for decisions without dice to show)."""
    if v is None:
        return []
    if d.kind == "attack":
        return attack_options(g, d, v)
    if d.kind == "skid_dice":
        return skid_options(g, d, v)
    return []
