"""Exact odds of Devil's Run: Route 666's dice: D10 tests, shooting with armour saves and
criticals, ram and side-swipe totals, and the Repair roll (rules inventory DR-028, DR-029,
DR-053, DR-068, DR-076 to DR-079, DR-085, DR-090 to DR-094, DR-107, DR-110).

Pure arithmetic over a common denominator, like ``analysis.odds``: every answer is an exact
``Fraction`` (floats on request). The per-die rules are those ``devilsrun.game`` plays (a
Monte Carlo of the engine's own methods with its seeded dice checks each one,
``tests/analysis/test_odds_variants.py``):

- a D10 test succeeds on a roll at most the target number (E for evades and stash pick-ups,
  the modified BS for shots, the disengage number);
- a shot rolls one D10 per point of RoF; a roll at most the modified BS hits, and a 1 always
  hits and is a critical (ruling DRR-22); a Flamer loses one die per square of range beyond
  the first and allows no saves (DR-053);
- the target saves the hits in the order rolled, one D6 each at most its armour, until one
  fails: that hit and every one after it get through (DR-093); a hit through is 1 damage, a
  critical 2 (DR-094);
- a ram, t-bone or side-swipe adds a D3 to each side's total; the higher total deals the
  difference to the other, and a ram on the brakes deals each total to the other (DR-076 to
  DR-079);
- the Repair roll is 3D6: two sixes repair the vehicle with 1 chassis point, three with 3
  (DR-068).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from carnage.games.refuelled.odds import Dist, OddsError, check_count

D10 = 10
CRITICAL_ON = 1
"""A natural 1 on a BS test: always a hit, and a critical (DR-094, ruling DRR-22)."""
CRITICAL_DAMAGE = 2
MAX_ROF = 30
"""Largest number of shots a query accepts (far beyond any weapon's RoF)."""
OFFENSIVES = ("ram", "t_bone", "side_swipe", "ram_on_the_brakes")
REPAIR_DICE = 3
REPAIR_SIXES = {2: 1, 3: 3}
"""Sixes on the Repair roll -> chassis points the repaired vehicle has (DR-068)."""



def d10_test(target: int) -> Fraction:
    """P(a D10 rolls at most ``target``): an evade (E), a stash pick-up (E plus the mission's
    bonus), a BS test, a disengage roll (DR-028, DR-029, DR-085, DR-107, DR-110)."""
    check_count("the target number", target, 99, -99)
    return Fraction(max(0, min(D10, target)), D10)


def d10_odds(target: int) -> dict[str, object]:
    """``d10_test`` as JSON."""
    p = d10_test(target)
    return {"target": target, "p_success": float(p), "p_fail": float(1 - p),
            "exact": {"p_success": str(p)}}


@dataclass(frozen=True)
class ShootOdds:
    dice: int
    """D10s rolled: the RoF (a Flamer's less its range beyond the first square)."""
    bs: int
    hits: Dist
    criticals: Dist
    damage: Dist
    """Chassis points the target loses."""
    saves: bool
    """Whether the target rolls armour saves (not against a Flamer)."""
    cp: int | None = None
    """The target's chassis points, if asked: ``p_wreck`` is P(damage >= cp)."""

    @property
    def p_wreck(self) -> Fraction | None:
        return None if self.cp is None else self.damage.at_least(self.cp)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "dice": self.dice, "bs": self.bs, "saves": self.saves,
            "distribution": self.damage.floats(),
            "expected_damage": float(self.damage.mean()),
            "p_at_least": self.damage.at_least_floats(),
            "hits": self.hits.floats(), "expected_hits": float(self.hits.mean()),
            "criticals": self.criticals.floats(),
            "exact": {"distribution": self.damage.exact(),
                      "expected_damage": str(self.damage.mean()), "hits": self.hits.exact()},
        }
        if self.cp is not None:
            p = self.p_wreck
            assert p is not None
            out["cp"] = self.cp
            out["p_wreck"] = float(p)
        return out


def shot_dice(rof: int, *, flamer: bool = False, range_: int = 1) -> int:
    """D10s a shot rolls: its RoF, a Flamer's less one per square beyond the first (DR-053)."""
    check_count("RoF", rof, MAX_ROF, 0)
    check_count("range", range_, 99, 1)
    return max(0, rof - (range_ - 1)) if flamer else rof


def shoot_odds(rof: int, bs: int, armour: int = 0, *, flamer: bool = False, range_: int = 1,
               cp: int | None = None) -> ShootOdds:
    """One shot of ``rof`` D10s at modified BS ``bs`` against a target of ``armour`` (its A):
    the hits, criticals and damage it takes (DR-090 to DR-094; a Flamer: DR-053)."""
    check_count("the modified BS", bs, 99, -99)
    check_count("armour", armour, 6, 0)
    if cp is not None:
        check_count("chassis points", cp, 99, 1)
    n = shot_dice(rof, flamer=flamer, range_=range_)
    crit_faces = 1
    hit_faces = max(0, min(D10, bs) - CRITICAL_ON)  # faces 2..bs: hits that are not critical
    miss_faces = D10 - crit_faces - hit_faces
    save_ok = 0 if flamer else armour
    # Dice in the order rolled. State: whether a save has failed yet (then every later hit
    # gets through, and no D6 is rolled for it). Every die's weight is over 10 * 6 (a D6 that
    # is not rolled counts 6 ways), so all paths share the denominator 60 ** n.
    states: dict[tuple[bool, int], int] = {(flamer, 0): 1}
    hits: dict[int, int] = {0: 1}
    crits: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[tuple[bool, int], int] = {}
        for (broken, dmg), w in states.items():
            for faces, points in ((crit_faces, CRITICAL_DAMAGE), (hit_faces, 1)):
                if not faces:
                    continue
                if broken:
                    key = (True, dmg + points)
                    nxt[key] = nxt.get(key, 0) + w * faces * 6
                else:
                    if save_ok:
                        key = (False, dmg)
                        nxt[key] = nxt.get(key, 0) + w * faces * save_ok
                    if 6 - save_ok:
                        key = (True, dmg + points)
                        nxt[key] = nxt.get(key, 0) + w * faces * (6 - save_ok)
            if miss_faces:
                key = (broken, dmg)
                nxt[key] = nxt.get(key, 0) + w * miss_faces * 6
        states = nxt
        hits = _step(hits, {0: miss_faces, 1: crit_faces + hit_faces})
        crits = _step(crits, {0: miss_faces + hit_faces, 1: crit_faces})
    damage: dict[int, int] = {}
    for (_, dmg), w in states.items():
        damage[dmg] = damage.get(dmg, 0) + w
    return ShootOdds(n, bs, Dist.of(hits, D10 ** n), Dist.of(crits, D10 ** n),
                     Dist.of(damage, 60 ** n), not flamer, cp)


def _step(acc: dict[int, int], die: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, w in acc.items():
        for d, f in die.items():
            if f:
                out[k + d] = out.get(k + d, 0) + w * f
    return out


@dataclass(frozen=True)
class OffensiveOdds:
    action: str
    attacker_total: int
    """The attacker's total before its D3 (a ram: squares moved + A; a side-swipe: A + CP)."""
    defender_total: int
    to_target: Dist
    to_attacker: Dist

    def to_json(self) -> dict[str, object]:
        return {"action": self.action, "attacker_total": self.attacker_total,
                "defender_total": self.defender_total,
                "target": {"distribution": self.to_target.floats(),
                           "expected_damage": float(self.to_target.mean()),
                           "p_at_least": self.to_target.at_least_floats()},
                "attacker": {"distribution": self.to_attacker.floats(),
                             "expected_damage": float(self.to_attacker.mean()),
                             "p_at_least": self.to_attacker.at_least_floats()},
                "exact": {"target": self.to_target.exact(),
                          "attacker": self.to_attacker.exact()}}


def offensive_odds(action: str, attacker_total: int, defender_total: int) -> OffensiveOdds:
    """Damage a ram, t-bone, side-swipe or ram on the brakes deals each side, from the two
    totals before their D3s (DR-076 to DR-079). A pile-up's extra damage and a vehicle
    crushed against something immovable depend on the road, not the dice, and are left out."""
    if action not in OFFENSIVES:
        raise OddsError(f"unknown offensive move {action!r} ({', '.join(OFFENSIVES)})")
    check_count("the attacker's total", attacker_total, 99, 0)
    check_count("the defender's total", defender_total, 99, 0)
    tgt: dict[int, int] = {}
    att: dict[int, int] = {}
    for da, dd in product(range(1, 4), repeat=2):
        ta, td = attacker_total + da, defender_total + dd
        if action == "ram_on_the_brakes":
            to_t, to_a = ta, td
        else:
            to_t, to_a = max(0, ta - td), max(0, td - ta)
        tgt[to_t] = tgt.get(to_t, 0) + 1
        att[to_a] = att.get(to_a, 0) + 1
    return OffensiveOdds(action, attacker_total, defender_total, Dist.of(tgt, 9),
                         Dist.of(att, 9))


def repair_dist() -> Dist:
    """Chassis points after the Repair roll (DR-068): 3D6; 0 unless two or three sixes."""
    cps: dict[int, int] = {}
    for dice in product(range(1, 7), repeat=REPAIR_DICE):
        cp = REPAIR_SIXES.get(dice.count(6), 0)
        cps[cp] = cps.get(cp, 0) + 1
    return Dist.of(cps, 6 ** REPAIR_DICE)


def repair_odds() -> dict[str, object]:
    """``repair_dist`` as JSON, with P(repaired)."""
    d = repair_dist()
    p = 1 - d.p(0)
    return {"p_repaired": float(p), "chassis_points": d.floats(),
            "exact": {"p_repaired": str(p), "chassis_points": d.exact()}}
