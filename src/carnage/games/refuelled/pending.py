"""Odds of a game's pending decision: what each option would roll, before it is chosen.

* ``attack`` (declare a shooting attack): for each "weapon at target" option the weapon's
  attack dice, cover judged as the declaration would judge it (``Sight``; weapons ignoring
  terrain never suffer it), and the target's current gear as its evade dice.
* ``skid_dice`` (how many skid dice): for each count, the skid odds from the vehicle's Hazard
  Tokens now (a hazardous manoeuvre's Hazard is already on it), a trivial manoeuvre's bonus
  Shift and its Wipeout threshold; with and without Push It.
* ``collision_reaction`` (smash or evade): for each reaction, the damage both parties take,
  from the Collision as logged (orientation, gears, weight classes), against the other party's
  declared reaction or, if it has yet to react, against each of its choices.

The odds use the base rules and the state on the table: perk and sponsor modifiers that only
act as the dice are rolled (to-hit bonuses, extra dice, evade bonuses) are not applied, and the
answer says so (``basis``). In a game under the Kart variant's rules (``kart_rules``) an attack
and a collision give Hazards, not damage: their odds are the variant's
(``analysis.odds_kart``: the Hazards gained and the chance of a Wipeout).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.catalog import Catalog, TemplateUse, load_catalog
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
from carnage.games.refuelled.engine.attack import HANDGUN, STOP, Sight, legal_shots
from carnage.games.refuelled.engine.wipeout import wipeout_threshold
from carnage.games.refuelled.odds import Side, attack_odds, skid_odds, smash_odds
from carnage.geometry.arcs import parse_arc

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.kernel.decisions import Decision

BASIS = ("base rules on the table as it stands: perk and sponsor modifiers applied as the dice "
         "are rolled are not included")
KINDS = ("attack", "skid_dice", "collision_reaction")


@dataclass(frozen=True)
class OptionOdds:
    option: str | int
    label: str
    detail: dict[str, Any]
    odds: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"option": self.option, "label": self.label, **self.detail, "odds": self.odds}


def _catalog(g: Game) -> Catalog:
    """The game's own catalogue where it has one (a ruleset's), else the book's."""
    cat = getattr(g, "catalog", None)
    return cat if isinstance(cat, Catalog) else load_catalog()


def kart_rules(g: Game) -> bool:
    """Whether the game plays the Kart variant's rules (installed once per game)."""
    return any(e[:3] == ["rule", "ruleset", "kart"] for e in g.state.installed)


def attack_options(g: Game, d: Decision, v: VehicleState) -> list[OptionOdds]:
    """One entry per "weapon at target" option of an ``attack`` decision."""
    cat = _catalog(g)
    mounts = {m.key: m for m in v.weapons}
    shots = {s.value: s for s in legal_shots(g, v)}
    sight = Sight(g, v)
    kart = kart_rules(g)
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
        odds = kart_attack_odds(w.attack_dice, evade_gear=t.gear, cover=cover,
                                hazards=t.hazards, wipeout_at=wipeout_threshold(g, t)).to_json() \
            if kart else attack_odds(w.attack_dice, evade_gear=t.gear, cover=cover).to_json()
        out.append(OptionOdds(o.value, o.label, {
            "weapon": shot.key if shot.key != HANDGUN else HANDGUN, "weapon_name": w.name,
            "target": t.id, "target_name": t.name, "dice": w.attack_dice, "cover": cover,
            "evade_gear": t.gear}, odds))
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


def collision_options(g: Game, d: Decision, v: VehicleState) -> list[OptionOdds]:
    """One entry per Smash or Evade option of a ``collision_reaction`` decision."""
    from carnage.games.refuelled.engine.collision import REACTIONS

    start = next((i for i in range(len(g.log.events) - 1, -1, -1)
                  if g.log.events[i].kind == "collision"), None)
    if start is None:
        return []
    col = g.log.events[start].data
    gears, weights = col.get("gears"), col.get("weights")
    if not isinstance(gears, dict) or not isinstance(weights, dict) or v.id not in gears:
        return []
    other = next((k for k in gears if k != v.id), None)
    if other is None:
        return []
    obstacle = other not in g.state.vehicles
    declared = next((str(e.data.get("reaction")) for e in g.log.events[start:]
                     if e.kind == "reaction" and e.data.get("vehicle") == other), None)
    theirs = ["smash"] if obstacle else [declared] if declared in REACTIONS else list(REACTIONS)
    orientation = str(col.get("orientation"))
    kart = kart_rules(g)
    out: list[OptionOdds] = []
    for o in d.options:
        mine = str(o.value)
        if mine not in REACTIONS:
            continue  # a rule's own reaction (Piledriver, PIT ...): not modelled here
        against = {}
        for r in theirs:
            a = Side(int(gears[v.id]), int(weights[v.id]), mine)
            b = Side(int(gears[other]), int(weights[other]), r, obstacle=obstacle)
            if kart:
                them = None if obstacle else g.state.vehicles[other]
                ko = kart_smash_odds(
                    orientation, a, b, hazards_a=v.hazards,
                    hazards_b=0 if them is None else them.hazards,
                    wipeout_at=wipeout_threshold(g, v),
                    other_wipeout_at=None if them is None else wipeout_threshold(g, them),
                ).to_json()
                against[r] = {"self": ko["a"], "other": ko["b"]}
                continue
            odds = smash_odds(orientation, a, b)
            against[r] = {"self": odds.a.to_json(), "other": odds.b.to_json()}
        out.append(OptionOdds(o.value, o.label, {
            "orientation": orientation, "other": other, "obstacle": obstacle,
            "other_reaction": declared if declared in REACTIONS else None}, against))
    return out


def pending_odds(g: Game, d: Decision, v: VehicleState | None) -> list[OptionOdds]:
    """The odds of each option of ``d`` (empty for decisions without dice to show)."""
    if v is None:
        return []
    if d.kind == "attack":
        return attack_options(g, d, v)
    if d.kind == "skid_dice":
        return skid_options(g, d, v)
    if d.kind == "collision_reaction":
        return collision_options(g, d, v)
    return []
