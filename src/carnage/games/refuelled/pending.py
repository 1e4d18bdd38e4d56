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

The odds are those that apply: the perk, sponsor, upgrade and weapon modifiers the engine asks
for as the dice are rolled (``attack_dice``, ``to_hit_penalty``, ``evade_dice``,
``evade_bonus``, ``evade_saves``, ``skid_setup``) are asked here too, on a copy of the game so
that a one-use modifier is not spent (``modifiers``). Choices still to be made before the roll
(Evasive's Hazards, Angel of Death, Loader's crew) count as not taken; Push It is shown once
(Chrome-Whisperer's further pushes are not). What an attack's hits and a collision's dice do to
a vehicle is the ruleset's ``DiceModel``: Refuelled's deal damage; an overlay may give its own
(the Kart variant's give Hazards: ``games/kart/pending.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from carnage.catalog import Catalog, TemplateUse, load_catalog
from carnage.games.refuelled.ai.bots import read_game
from carnage.games.refuelled.engine.attack import HANDGUN, STOP, Shot, Sight, legal_shots
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.wipeout import wipeout_threshold
from carnage.games.refuelled.odds import Side, attack_odds, skid_odds, smash_odds
from carnage.geometry.arcs import parse_arc
from carnage.kernel.odds import PendingOdds

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.kernel.decisions import Decision

BASIS = ("the table as it stands, with the perk, sponsor, upgrade and weapon modifiers the "
         "engine applies as the dice are rolled (choices still to make before the roll, such "
         "as Evasive's Hazards, count as not taken)")
KINDS = ("attack", "skid_dice", "collision_reaction")


@dataclass(frozen=True)
class OptionOdds:
    option: str | int
    label: str
    detail: dict[str, Any]
    odds: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"option": self.option, "label": self.label, **self.detail, "odds": self.odds}


@dataclass(frozen=True)
class DiceModel:
    """What an attack's hits and a collision's dice do to a vehicle, as odds (JSON)."""

    attack: Callable[[Game, AttackInputs, VehicleState, bool], dict[str, Any]]
    """``attack(game, inputs, target, cover)`` -> the odds of one shot at ``target``."""
    collision: Callable[[Game, str, Side, Side, VehicleState, VehicleState | None],
                        dict[str, Any]]
    """``collision(game, orientation, mine, theirs, vehicle, other)`` -> ``{"self": ...,
    "other": ...}``: what each party takes (``other`` None: an obstacle)."""


def _catalog(g: Game) -> Catalog:
    """The game's own catalogue where it has one (a ruleset's), else the book's."""
    cat = getattr(g, "catalog", None)
    return cat if isinstance(cat, Catalog) else load_catalog()


@dataclass(frozen=True)
class AttackInputs:
    """What the engine would roll for one shot: attack dice, the to-hit penalty (cover +1,
    bonuses -1 each), and the target's evade dice, evade bonus and whether a natural 1 always
    fails (Evasive)."""

    dice: int
    penalty: int
    evade_dice: int
    evade_bonus: int
    evasive: bool


def _evade_inputs(g: Game, t: VehicleState) -> tuple[int, int, bool]:
    """The target's evade as ``combat.roll_evade`` asks for it: dice, bonus, and whether the
    ``evade_saves`` hook fails a natural 1 (probed with a 1 that the bonus would save)."""
    n = int(g.effects.run_event("evade_dice", t.gear, {"game": g, "vehicle": t}))
    bonus = int(g.effects.run_event("evade_bonus", 0, {"game": g, "vehicle": t}))
    probe = max(bonus, 5)
    saved = int(g.effects.run_event("evade_saves", 1, {
        "game": g, "vehicle": t, "dice": [1], "bonus": probe}))
    return max(0, n), bonus, saved == 0


def attack_inputs(g: Game, v: VehicleState, shot: Shot, cover: bool) -> AttackInputs:
    """Ask the engine's hooks what ``shot`` would roll, as ``attack.resolve_attacks`` does,
    on a copy of ``g`` (a hook may spend a one-use bonus as it answers)."""
    gc = g.clone(lazy=True)
    vc = gc.state.vehicles[v.id]
    tc = gc.state.vehicles[shot.target]
    w = gc.catalog.weapons.get(shot.weapon)
    m = next((m for m in vc.weapons if m.key == shot.key), None)
    if m is not None and m.ammo is not None and not shot.extra and m.ammo > 0:
        m.ammo -= 1  # discarded as the attack is made, before the dice are counted
    ctx: dict[str, Any] = {"game": gc, "attacker": vc, "target": tc,
                           "shot": replace(shot, cover=cover), "weapon": w}
    n = int(gc.effects.run_event("attack_dice", w.attack_dice or 0, ctx))
    pen = int(gc.effects.run_event("to_hit_penalty", 1 if cover else 0, ctx))
    ev_n, ev_bonus, evasive = _evade_inputs(gc, tc)
    return AttackInputs(max(0, n), pen, ev_n, ev_bonus, evasive)


def attack_options(g: Game, d: Decision, v: VehicleState,
                   model: DiceModel | None = None) -> list[OptionOdds]:
    """One entry per "weapon at target" option of an ``attack`` decision."""
    model = model or REFUELLED_DICE
    cat = _catalog(g)
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
        inp = attack_inputs(g, v, shot, cover)
        bonus = (1 if cover else 0) - inp.penalty
        odds = model.attack(g, inp, t, cover)
        out.append(OptionOdds(o.value, o.label, {
            "weapon": shot.key if shot.key != HANDGUN else HANDGUN, "weapon_name": w.name,
            "target": t.id, "target_name": t.name, "dice": inp.dice, "cover": cover,
            "evade_gear": t.gear, "modifiers": {
                "to_hit_bonus": bonus, "evade_dice": inp.evade_dice,
                "evade_bonus": inp.evade_bonus, "evasive": inp.evasive}}, odds))
    return out


def _template_use(g: Game, v: VehicleState) -> str | None:
    for e in reversed(g.log.events):
        if e.kind == "template" and e.data.get("vehicle") == v.id:
            return str(e.data.get("use"))
    return None


def _skid_setup(g: Game, v: VehicleState, trivial: bool) -> SkidResolution:
    """The skid limits the perks set through ``skid_setup`` (as the Movement Step asks them),
    on a copy of ``g``."""
    gc = g.clone(lazy=True)
    vc = gc.state.vehicles[v.id]
    sk = SkidResolution(gear=vc.gear, max_gear=gc.stat(vc, "max_gear"), hazards=vc.hazards,
                        handling=gc.stat(vc, "handling"), trivial=trivial)
    gc.effects.run_event("skid_setup", sk, {"game": gc, "vehicle": vc})
    return sk


def skid_options(g: Game, d: Decision, v: VehicleState) -> list[OptionOdds]:
    """One entry per dice count of a ``skid_dice`` decision."""
    use = _template_use(g, v)
    trivial = use == TemplateUse.TRIVIAL.value
    at = wipeout_threshold(g, v)
    sk = _skid_setup(g, v, trivial)
    discard = sk.hazard_discard
    out: list[OptionOdds] = []
    for o in d.options:
        n = int(o.value)
        plain = skid_odds(n, trivial=trivial, hazards=v.hazards, wipeout_at=at,
                          hazard_discard=discard)
        pushed = skid_odds(n, push_it=True, trivial=trivial, hazards=v.hazards, wipeout_at=at,
                           hazard_discard=discard)
        out.append(OptionOdds(o.value, o.label, {
            "dice": n, "hazards": v.hazards, "trivial": trivial, "wipeout_at": at,
            "modifiers": {"hazard_discard": discard, "push_limit": sk.push_limit}},
            {**plain.to_json(), "push_it": pushed.to_json()}))
    return out


def collision_options(g: Game, d: Decision, v: VehicleState,
                      model: DiceModel | None = None) -> list[OptionOdds]:
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
    model = model or REFUELLED_DICE
    # Evade bonuses and Evasive of each party, as the engine asks them (its evade dice are
    # one per gear in a Collision, p.56).
    gc = g.clone(lazy=True)
    evades: dict[str, dict[str, Any]] = {}
    for vid in (v.id, other):
        if vid in gc.state.vehicles:
            _, bonus, evasive = _evade_inputs(gc, gc.state.vehicles[vid])
            evades[vid] = {"evade_bonus": bonus, "evasive": evasive}
    out: list[OptionOdds] = []
    for o in d.options:
        mine = str(o.value)
        if mine not in REACTIONS:
            continue  # a rule's own reaction (Piledriver, PIT ...): not modelled here
        against = {}
        for r in theirs:
            a = Side(int(gears[v.id]), int(weights[v.id]), mine, **evades[v.id])
            b = Side(int(gears[other]), int(weights[other]), r, obstacle=obstacle,
                     **evades.get(other, {}))
            them = None if obstacle else g.state.vehicles[other]
            against[r] = model.collision(g, orientation, a, b, v, them)
        out.append(OptionOdds(o.value, o.label, {
            "orientation": orientation, "other": other, "obstacle": obstacle,
            "other_reaction": declared if declared in REACTIONS else None}, against))
    return out


def pending_odds(g: Game, d: Decision, v: VehicleState | None,
                 model: DiceModel | None = None) -> list[OptionOdds]:
    """The odds of each option of ``d`` (empty for decisions without dice to show), hits and
    collisions counted by ``model`` (Refuelled's by default)."""
    if v is None:
        return []
    g = read_game(g)  # the compiled rules take the game, not a wrapper entering table dice
    if d.kind == "attack":
        return attack_options(g, d, v, model)
    if d.kind == "skid_dice":
        return skid_options(g, d, v)
    if d.kind == "collision_reaction":
        return collision_options(g, d, v, model)
    return []


def pending_offer(model: DiceModel) -> PendingOdds:
    """What the table shows of a pending decision's odds (``TableOffer.pending_odds``) in a
    ruleset whose hits and collisions ``model`` counts."""

    def decision_odds(g: Game, d: Decision) -> list[dict[str, Any]]:
        v = None if d.vehicle is None else g.state.vehicles.get(d.vehicle)
        return [o.to_json() for o in pending_odds(g, d, v, model)]

    return PendingOdds(decision_odds, BASIS)


def _damage_attack(g: Game, inp: AttackInputs, target: VehicleState,
                   cover: bool) -> dict[str, Any]:
    bonus = (1 if cover else 0) - inp.penalty
    return attack_odds(inp.dice, evade_gear=target.gear, cover=cover, to_hit_bonus=bonus,
                       evade_dice=inp.evade_dice, evade_bonus=inp.evade_bonus,
                       evasive=inp.evasive).to_json()


def _damage_collision(g: Game, orientation: str, a: Side, b: Side, v: VehicleState,
                      other: VehicleState | None) -> dict[str, Any]:
    odds = smash_odds(orientation, a, b)
    return {"self": odds.a.to_json(), "other": odds.b.to_json()}


REFUELLED_DICE = DiceModel(attack=_damage_attack, collision=_damage_collision)
"""Refuelled's: an attack's hits and a collision's dice deal damage (pp.30-34, p.56)."""

PENDING = pending_offer(REFUELLED_DICE)
"""What the table shows of a pending decision's odds in Refuelled."""
