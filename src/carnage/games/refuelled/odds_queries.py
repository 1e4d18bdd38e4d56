"""Refuelled's odds calculator as declared queries (``kernel/queries.py``): attack, skid,
flip, explode and smash, answered by ``games/refuelled/odds.py``. The command line
(``carnage odds attack ...``) and the web (``/api/odds/attack``) are built from these; their
bounds are the ones the odds functions check, so a query the published schema allows is
answered."""

from __future__ import annotations

from typing import Any

from carnage.bounds import MAX_GEAR
from carnage.catalog import Weight
from carnage.games.refuelled.engine.damage import EXPLOSION_DICE
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import (
    CRIT_HITS,
    MAX_DICE,
    MAX_SKID_DICE,
    ORIENTATIONS,
    AttackOdds,
    SkidOdds,
    SmashOdds,
    attack_odds,
    collision_sides,
    explode_odds,
    explosion_attack,
    flip_odds,
    p_explode,
    p_flip,
    parse_weight,
    skid_odds,
    smash_odds,
)
from carnage.kernel.odds import dist_table
from carnage.kernel.queries import (
    Args,
    Block,
    CliFlag,
    Param,
    Query,
    TextTable,
    as_is,
    choice_param,
    flag_param,
    int_param,
    own_json,
)

WEIGHTS = ("light", "middle", "heavy", "lightweight", "middleweight", "heavyweight",
           "1", "2", "3")
"""A weight class as a query may name it: short, full, or its number."""
REACTION_WORDS = ("smash", "evade")
PARTIES = ("a", "b")


# -- shared parameters (the Kart variant's queries use them too) -----------------------------
def dice_param(help: str = "Attack dice rolled at the target.") -> Param:
    return int_param("dice", help, low=0, high=MAX_DICE, required=True)


def evade_gear_param(help: str = "Target's current gear: one evade die per gear (0: no evade)."
               ) -> Param:
    return int_param("evade_gear", help, low=0, high=MAX_GEAR, default=0)


COVER = flag_param("cover", "Target in cover: -1 to hit.")
TO_HIT_BONUS = int_param("to_hit_bonus", "Bonus to hit (Dead-Eye, Loader: 1); negative for "
                         "penalties.", low=-6, high=6, default=0)
CRIT = int_param("crit_hits", "Hits a natural 6 scores (p.32; Headshot: 3).", low=1, high=6,
                 default=CRIT_HITS)


def moving_gear(name: str, help: str, default: int | None = None) -> Param:
    return int_param(name, help, low=1, high=MAX_GEAR, default=default,
                     required=default is None)


def weight_param(name: str, help: str, default: str | None = "middle") -> Param:
    return choice_param(name, help, WEIGHTS, default=default)


def reaction_param(name: str, help: str) -> Param:
    return choice_param(name, help, REACTION_WORDS, default="smash")


def front_param(help: str) -> Param:
    return choice_param("front", help, PARTIES, default="b")


# -- attack --------------------------------------------------------------------------------------
def attack_tables(title: str, odds: AttackOdds) -> list[Block]:
    return [dist_table(f"{title}: hits before the evade", odds.hits, "hits"),
            dist_table(f"{title}: damage after {odds.evade_dice} evade dice", odds.damage),
            f"expected damage {float(odds.expected_damage):.3f} ({odds.expected_damage}); "
            f"expected hits {float(odds.hits.mean()):.3f}"]


def _attack(dice: int, evade_gear: int, cover: bool, to_hit_bonus: int, crit_hits: int,
            evade_bonus: int, evasive: bool) -> AttackOdds:
    return attack_odds(dice, evade_gear=evade_gear, cover=cover, to_hit_bonus=to_hit_bonus,
                       crit_hits=crit_hits, evade_bonus=evade_bonus, evasive=evasive)


def _attack_report(odds: AttackOdds, a: Args) -> list[Block]:
    return attack_tables(f"{a['dice']} dice{' in cover' if a['cover'] else ''}", odds)


ATTACK = Query(
    "attack", "Damage distribution of an attack against an evading target",
    (dice_param(), evade_gear_param(), COVER, TO_HIT_BONUS, CRIT,
     int_param("evade_bonus", "Added to every evade die (Evasive tokens, Burning Man).",
               low=-6, high=6, default=0),
     flag_param("evasive", "Evasive perk: a natural 1 on an evade die always fails.")),
    _attack, own_json, _attack_report,
    description="Damage distribution of one attack against an evading target (pp.32-33, 42).")


# -- skid ----------------------------------------------------------------------------------------
def _skid(dice: int, push_it: bool, manoeuvre: str, hazards: int, wipeout_at: int,
          gear: int | None) -> SkidOdds:
    return skid_odds(dice, push_it=push_it, trivial=manoeuvre == "trivial",
                     hazardous=manoeuvre == "hazardous", hazards=hazards,
                     wipeout_at=wipeout_at, gear=gear)


def _skid_report(odds: SkidOdds, a: Args) -> list[Block]:
    kinds = (odds.shifts, odds.hazards, odds.spins, odds.slides)
    top = max(d.top for d in kinds)
    rows = tuple((str(k), *(f"{float(d.p(k)):.2%}" for d in kinds)) for k in range(top + 1))
    out: list[Block] = [
        TextTable(f"{a['dice']} skid dice{' with Push It' if a['push_it'] else ''}",
                  ("count", *(f"P({n} = k)" for n in ("shifts", "hazards", "spins", "slides"))),
                  rows),
        dist_table("Hazard Tokens after the skid dice", odds.hazards_after, "hazards"),
        f"P(wipeout, {a['wipeout_at']}+ hazards) {float(odds.p_wipeout):.2%} "
        f"({odds.p_wipeout}); P(push it) {float(odds.pushed):.2%}"]
    if odds.p_wipeout_flip is not None:
        out.append(f"P(wipeout and flip in gear {a['gear']}) {float(odds.p_wipeout_flip):.2%} "
                   f"({odds.p_wipeout_flip})")
    return out


SKID = Query(
    "skid", "Skid dice results and the chance of a Wipeout",
    (int_param("dice", "Skid dice rolled.", low=0, high=MAX_SKID_DICE, required=True),
     flag_param("push_it", "Push It whenever a die is not a Shift, rerolling those dice."),
     choice_param("manoeuvre", "The template in this gear: permitted, trivial (+1 Shift) or "
                  "hazardous (+1 Hazard).", ("permitted", "trivial", "hazardous"),
                  default="permitted",
                  flags=(CliFlag("trivial", "trivial", "Trivial manoeuvre: one bonus Shift."),
                         CliFlag("hazardous", "hazardous",
                                 "Hazardous manoeuvre: +1 Hazard before the dice."))),
     int_param("hazards", "Hazard Tokens on the vehicle before the Movement Step.", low=0,
               high=30, default=0),
     int_param("wipeout_at", "Hazards that cause a Wipeout (6; Dutch Courage 8).", low=1,
               high=30, default=WIPEOUT_AT),
     int_param("gear", "Current gear: adds P(a Wipeout that flips).", low=1, high=MAX_GEAR)),
    _skid, own_json, _skid_report,
    description="Skid dice results and the chance of a Wipeout (pp.21-24, 34, 38-40). Shifts "
                "are spent to end on the fewest Hazards.")


# -- flip ----------------------------------------------------------------------------------------
def _flip_report(data: dict[str, Any], a: Args) -> list[Block]:
    gear, modifier = a["gear"], a["modifier"]
    assert isinstance(gear, int) and isinstance(modifier, int)
    p = p_flip(gear, modifier)
    return [f"gear {gear}: P(flip) {float(p):.2%} ({p}); a flip is {data['flip_hits']} hits "
            "that cannot be evaded"]


FLIP = Query(
    "flip", "Chance a flip check flips",
    (moving_gear("gear", "Current gear at the Wipeout."),
     int_param("modifier", "Added to the flip check die.", low=-6, high=6, default=0)),
    flip_odds, as_is, _flip_report,
    description="Chance that a Wipeout's flip check flips the vehicle (p.34).")


# -- explode -------------------------------------------------------------------------------------
def _explode(ammo: int, bonus: int, weight: str | None, evade_gear: int) -> dict[str, Any]:
    return explode_odds(ammo, bonus=bonus,
                        weight=None if weight is None else parse_weight(weight),
                        evade_gear=evade_gear)


def _explode_report(data: dict[str, Any], a: Args) -> list[Block]:
    ammo, bonus, name, gear = a["ammo"], a["bonus"], a["weight"], a["evade_gear"]
    assert isinstance(ammo, int) and isinstance(bonus, int) and isinstance(gear, int)
    p = p_explode(ammo, bonus)
    out: list[Block] = [f"{ammo} ammo: P(explode) {float(p):.2%} ({p})"]
    if isinstance(name, str):
        w: Weight = parse_weight(name)
        out += attack_tables(f"{w.value} explosion ({EXPLOSION_DICE[w]} dice)",
                             explosion_attack(w, evade_gear=gear))
    return out


EXPLODE = Query(
    "explode", "Chance a wreck explodes, and its blast attack",
    (int_param("ammo", "Ammo Tokens left on the wreck.", low=0, high=99, required=True),
     int_param("bonus", "Added to the explosion check (Powder Keg).", low=-6, high=6,
               default=0),
     weight_param("weight", "Weight of what explodes (light, middle, heavy): adds the blast "
            "attack's damage distribution.", default=None),
     evade_gear_param("Gear of the vehicle the blast attacks.")),
    _explode, as_is, _explode_report,
    description="Chance that a wreck explodes (p.43) and, with a weight, the blast attack "
                "(p.44).")


# -- smash ---------------------------------------------------------------------------------------
def _smash(gear: int, other_gear: int, orientation: str, weight: str, other_weight: str,
           reaction: str, other_reaction: str, obstacle: bool, front: str) -> SmashOdds:
    a, b = collision_sides(gear, other_gear, weight, other_weight, reaction, other_reaction,
                           obstacle=obstacle, front=front)
    return smash_odds(orientation, a, b)


def _smash_report(odds: SmashOdds, a: Args) -> list[Block]:
    out: list[Block] = []
    if odds.forced_evade:
        out.append("tailgate: the vehicle in front is in the higher gear, so both evade (p.53)")
    for name, s in (("A (moving)", odds.a), ("B (obstacle)" if a["obstacle"] else "B", odds.b)):
        out.append(dist_table(f"{name} {s.reaction}s with {s.smash_dice} dice: damage to "
                              f"{name}", s.damage))
        out.append(f"{name}: expected damage {float(s.damage.mean()):.3f}, "
                   f"+{s.hazards} Hazards")
    return out


def collision_params(what: str, orientation: Param, obstacle_help: str
                     ) -> tuple[Param, ...]:
    """The parameters of a Collision between A (moving) and B (``what``: vehicle, kart)."""
    return (
        moving_gear("gear", f"Gear of the moving {what} (A)."),
        moving_gear("other_gear", f"Gear of the other {what} (B); ignored for an obstacle.",
                    default=1),
        orientation,
        weight_param("weight", "A's weight: light, middle or heavy."),
        weight_param("other_weight", "B's weight (or the obstacle's)."),
        reaction_param("reaction", "A reacts: smash or evade."),
        reaction_param("other_reaction", "B reacts: smash or evade."),
        flag_param("obstacle", obstacle_help),
        front_param("Tailgate: which party is in front, hit on its rear edge (a or b)."),
    )


SMASH = Query(
    "smash", "Damage both parties of a Collision take",
    collision_params("vehicle", choice_param("orientation", "head_on, t_bone or tailgate "
                                             "(p.53).", ORIENTATIONS, default="head_on"),
                     "B is an obstacle: head-on, gear 0, always smashes."),
    _smash, own_json, _smash_report,
    description="Damage both parties of a Collision take (pp.52-57).")

REFUELLED_QUERIES = (ATTACK, SKID, FLIP, EXPLODE, SMASH)
"""Refuelled's odds calculator, in the order the command line lists it."""
