"""The Kart variant's odds calculator as declared queries (``kernel/queries.py``), under
``kart/``: an Item Attack's Hazards, a Collision's Hazards and a Wipeout's random facing
(``games/kart/odds.py``). The variant's ruleset offers these and Refuelled's skid query (its
skid dice are Refuelled's); Refuelled's attack, flip, explode and smash do not hold for karts
(hits give Hazards, no flip check, nothing explodes)."""

from __future__ import annotations

from typing import Any

from carnage.games.kart.odds import (
    KART_ORIENTATIONS,
    KartAttackOdds,
    KartSmashOdds,
    kart_attack_odds,
    kart_smash_odds,
    wipeout_facings,
)
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import collision_sides
from carnage.games.refuelled.odds_queries import (
    COVER,
    CRIT,
    SKID,
    TO_HIT_BONUS,
    collision_params,
    dice_param,
    evade_gear_param,
)
from carnage.kernel.odds import dist_table
from carnage.kernel.queries import (
    Args,
    Block,
    Param,
    Query,
    as_is,
    choice_param,
    int_param,
    own_json,
)


def _hazards(name: str, help: str) -> Param:
    return int_param(name, help, low=0, high=99, default=0)


WIPEOUT = int_param("wipeout_at", "Hazards that cause a Wipeout.", low=1, high=99,
                    default=WIPEOUT_AT)


def _attack(dice: int, evade_gear: int, cover: bool, to_hit_bonus: int, crit_hits: int,
            hazards: int, wipeout_at: int) -> KartAttackOdds:
    return kart_attack_odds(dice, evade_gear=evade_gear, cover=cover,
                            to_hit_bonus=to_hit_bonus, crit_hits=crit_hits, hazards=hazards,
                            wipeout_at=wipeout_at)


def _attack_report(odds: KartAttackOdds, a: Args) -> list[Block]:
    return [dist_table(f"{a['dice']} dice at a kart in gear {a['evade_gear']}: Hazards gained",
                       odds.attack.damage, "hazards"),
            f"P({a['wipeout_at']}+ Hazards from {a['hazards']}: a Wipeout) "
            f"{float(odds.p_wipeout):.2%} ({odds.p_wipeout})"]


KART_ATTACK = Query(
    "kart/attack", "Kart variant: Hazards an Item Attack gives and the chance of a Wipeout",
    (dice_param("Attack dice of the item."),
     evade_gear_param("The target kart's current gear: its evade dice."), COVER, TO_HIT_BONUS, CRIT,
     _hazards("hazards", "Hazard Tokens on the target kart before the attack."), WIPEOUT),
    _attack, own_json, _attack_report,
    description="Hazards an Item Attack gives the target kart (its hits become Hazards, "
                "MK-20) and the chance it then has enough for a Wipeout.")


def _smash(gear: int, other_gear: int, orientation: str, weight: str, other_weight: str,
           reaction: str, other_reaction: str, obstacle: bool, front: str, hazards: int,
           other_hazards: int, wipeout_at: int) -> KartSmashOdds:
    a, b = collision_sides(gear, other_gear, weight, other_weight, reaction, other_reaction,
                           obstacle=obstacle, front=front)
    return kart_smash_odds(orientation, a, b, hazards_a=hazards, hazards_b=other_hazards,
                           wipeout_at=wipeout_at)


def _smash_report(odds: KartSmashOdds, a: Args) -> list[Block]:
    parties: list[tuple[str, Any, Any]] = [("A (moving)", odds.smash.a, a["hazards"])]
    if not a["obstacle"]:
        parties.append(("B", odds.smash.b, a["other_hazards"]))
    out: list[Block] = []
    for name, s, before in parties:
        other = odds.smash.b if s is odds.smash.a else odds.smash.a
        out.append(dist_table(f"{name} ({s.reaction}), hit by {other.smash_dice} dice: "
                              "Hazards gained", odds.gained(s), "hazards"))
        p = odds.p_wipeout(s, int(before))
        out.append(f"{name}: P({odds.threshold(s)}+ Hazards from {before}) {float(p):.2%} "
                   f"({p})")
    return out


KART_SMASH = Query(
    "kart/smash", "Kart variant: Hazards both karts of a Collision gain",
    (*collision_params(
        "kart", choice_param("orientation", "head_on, t_bone, tailgate or sideswipe (a "
                             "Sideswipe counts as a T-bone, ruling MK-R4).", KART_ORIENTATIONS,
                             default="head_on"),
        "B is an obstacle: head-on, Heavyweight, always smashes."),
     _hazards("hazards", "A's Hazards before."),
     _hazards("other_hazards", "B's Hazards before."), WIPEOUT),
    _smash, own_json, _smash_report,
    description="Hazards both karts of a Collision gain under the variant's smash dice and "
                "flat Hazard (MK-30, MK-32, MK-35, MK-36), and the chance of each wiping out.")


def _wipeout_report(data: dict[str, Any], a: Args) -> list[Block]:
    headings = data["headings"]
    assert isinstance(headings, dict)
    return [f"{len(headings)} headings, each {next(iter(headings.values())):.2%}: "
            + ", ".join(f"{h}°" for h in headings)]


KART_WIPEOUT = Query(
    "kart/wipeout", "Kart variant: a Wipeout's random facing", (),
    wipeout_facings, as_is, _wipeout_report,
    description="The headings a wiping-out kart may face, rolled on two D6 (MK-24).")

KART_QUERIES = (SKID, KART_ATTACK, KART_SMASH, KART_WIPEOUT)
"""What the Kart variant's ruleset offers: Refuelled's skid dice and its own three."""
