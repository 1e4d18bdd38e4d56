"""Devil's Run's odds calculator as declared queries (``kernel/queries.py``), under
``devilsrun/``: a D10 test, a shot, an offensive move and the Repair roll
(``games/devilsrun/odds.py``). The command line (``carnage odds devilsrun shoot ...``) and the
web (``/api/odds/devilsrun/shoot``) are built from these."""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun.odds import (
    MAX_ROF,
    OFFENSIVES,
    OffensiveOdds,
    ShootOdds,
    d10_odds,
    offensive_odds,
    repair_dist,
    repair_odds,
    shoot_odds,
)
from carnage.kernel.odds import dist_table
from carnage.kernel.queries import (
    Args,
    Block,
    Query,
    as_is,
    choice_param,
    flag_param,
    int_param,
    own_json,
)


def _test_report(data: dict[str, Any], a: Args) -> list[Block]:
    return [f"D10 <= {a['target']}: P(success) {data['p_success']:.0%} "
            f"({data['exact']['p_success']})"]


TEST = Query(
    "devilsrun/test",
    "Devil's Run: chance a D10 test succeeds (evade, pick-up, BS, disengage)",
    (int_param("target", "Succeeds on a D10 at most this: E (evade), E + bonus (stash "
               "pick-up), the modified BS, the disengage number.", low=-99, high=99,
               required=True),),
    d10_odds, as_is, _test_report,
    description="Chance a D10 test succeeds (DR-028, DR-029, DR-085, DR-107, DR-110).")


def _shoot(rof: int, bs: int, modifier: int, armour: int, flamer: bool, cp: int | None,
           **more: int) -> ShootOdds:
    # ``range`` comes in ``more``: the query's word for it names a builtin here
    return shoot_odds(rof, bs + modifier, armour, flamer=flamer, range_=more["range"], cp=cp)


def _shoot_report(odds: ShootOdds, a: Args) -> list[Block]:
    saves = f"armour {a['armour']} saves" if odds.saves else "no saves (Flamer)"
    out: list[Block] = [
        dist_table(f"{odds.dice} D10 at BS {odds.bs}: hits", odds.hits, "hits"),
        dist_table(f"damage after {saves}", odds.damage),
        f"expected damage {float(odds.damage.mean()):.3f} ({odds.damage.mean()})"]
    if odds.p_wreck is not None:
        out.append(f"P(wrecked, {a['cp']} chassis points) {float(odds.p_wreck):.2%} "
                   f"({odds.p_wreck})")
    return out


SHOOT = Query(
    "devilsrun/shoot", "Devil's Run: hits, criticals and damage of one shot",
    (int_param("rof", "The weapon's Rate of Fire.", low=0, high=MAX_ROF, required=True),
     int_param("bs", "The shooter's BS (BS1 driver, BS2 gunner).", low=-49, high=49,
               required=True),
     int_param("modifier", "The arc grid's BS modifier for the target's square.", low=-50,
               high=50, default=0),
     int_param("armour", "The target's armour (A).", low=0, high=6, default=0),
     flag_param("flamer", "A Flamer: no saves, one die less per square beyond the first."),
     int_param("range", "Squares to the target (a Flamer's dice).", low=1, high=99,
               default=1),
     int_param("cp", "The target's chassis points: adds P(wrecked).", low=1, high=99)),
    _shoot, own_json, _shoot_report,
    description="Hits, criticals and damage of one shot (DR-053, DR-090 to DR-094): a D10 per "
                "RoF at most the modified BS hits, a 1 always hits and is critical (2 damage); "
                "saves in order, a D6 at most A each, until one fails.")


def _offensive(attacker: int, defender: int, action: str) -> OffensiveOdds:
    return offensive_odds(action, attacker, defender)


def _offensive_report(odds: OffensiveOdds, a: Args) -> list[Block]:
    return [dist_table(f"{a['action']}: damage to the target", odds.to_target),
            dist_table(f"{a['action']}: damage to the attacker", odds.to_attacker)]


OFFENSIVE = Query(
    "devilsrun/offensive", "Devil's Run: damage a ram, t-bone or side-swipe deals each side",
    (int_param("attacker", "The attacker's total before its D3 (a ram: squares moved + A; a "
               "side-swipe: A + CP).", low=0, high=99, required=True),
     int_param("defender", "The defender's total before its D3 (A; a side-swipe: A + CP).",
               low=0, high=99, required=True),
     choice_param("action", "ram, t_bone, side_swipe or ram_on_the_brakes.", OFFENSIVES,
                  default="ram")),
    _offensive, own_json, _offensive_report,
    description="Damage an offensive move deals each side (DR-076 to DR-079); a pile-up's "
                "extra damage is not included.")


def _repair_report(data: dict[str, Any], a: Args) -> list[Block]:
    d = repair_dist()
    p = 1 - d.p(0)
    return [dist_table("the Repair roll: chassis points after it", d, "CP"),
            f"P(repaired) {float(p):.2%} ({p})"]


REPAIR = Query(
    "devilsrun/repair", "Devil's Run: the Repair roll", (), repair_odds, as_is, _repair_report,
    description="The Repair roll (DR-068): 3D6, two sixes repair with 1 CP, three with 3.")

DEVILS_RUN_QUERIES = (TEST, SHOOT, OFFENSIVE, REPAIR)
"""Devil's Run's odds calculator, in the order the command line lists it."""
