"""Exact odds of the Kart variant (rules inventory MK-20, MK-23, MK-24, MK-30, MK-32, MK-35,
MK-36; rulings MK-R4 to MK-R6): Refuelled's dice with the variant's changes, as
``carnage.games.kart.rules`` plays them.

- An Item Attack is Refuelled's attack (``analysis.odds.attack_odds``), but every hit that
  gets through is a Hazard Token, not a hull point (MK-20): the distribution of Hazards gained
  and the chance the kart then has enough for a Wipeout.
- A Collision uses the variant's smash dice: Refuelled's by orientation, plus or minus one
  or two for being heavier or lighter by that many weight classes, an obstacle always
  Heavyweight (MK-35, MK-36); a Sideswipe counts as a T-bone (ruling MK-R4). Each kart's
  uncancelled hits are Hazards, and every kart in the Collision gains the variant's flat
  Hazard instead of Refuelled's (MK-30, ruling MK-R5).
- A Wipeout faces one of 36 headings, 10° apart, rolled on two D6 (MK-24, ruling MK-R6).

The variant's numbers come from its data (``games/kart/data/kart.yaml``) through the same
functions the rules use, so the odds follow any change to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from carnage.games.kart.rules import kart_data, kart_weight_bonus, random_heading
from carnage.games.refuelled.engine.collision import base_smash_dice
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import (
    CRIT_HITS,
    ORIENTATIONS,
    AttackOdds,
    Dist,
    OddsError,
    Side,
    SideOdds,
    SmashOdds,
    attack_odds,
    check_count,
    smash_odds,
)

KART_ORIENTATIONS = (*ORIENTATIONS, "sideswipe")



def _reaching(gained: Dist, hazards: int, wipeout_at: int) -> Fraction:
    """P(``hazards`` plus what is gained reaches ``wipeout_at``)."""
    return gained.at_least(wipeout_at - hazards)


@dataclass(frozen=True)
class KartAttackOdds:
    attack: AttackOdds
    """Refuelled's attack: ``damage`` is the Hazards the target kart gains."""
    hazards: int
    """Hazard Tokens on the target before the attack."""
    wipeout_at: int

    @property
    def p_wipeout(self) -> Fraction:
        return _reaching(self.attack.damage, self.hazards, self.wipeout_at)

    def to_json(self) -> dict[str, object]:
        gained = self.attack.damage
        return {
            "distribution": gained.floats(), "expected_hazards": float(gained.mean()),
            "p_at_least": gained.at_least_floats(),
            "hits": self.attack.hits.floats(), "evade_dice": self.attack.evade_dice,
            "hazards": self.hazards, "wipeout_at": self.wipeout_at,
            "p_wipeout": float(self.p_wipeout),
            "exact": {"distribution": gained.exact(), "p_wipeout": str(self.p_wipeout)},
        }


def kart_attack_odds(dice: int, *, evade_gear: int = 0, cover: bool = False,
                     to_hit_bonus: int = 0, crit_hits: int = CRIT_HITS, evade_bonus: int = 0,
                     hazards: int = 0, wipeout_at: int = WIPEOUT_AT) -> KartAttackOdds:
    """An Item Attack at a kart with ``hazards`` Hazard Tokens: the Hazards it gains (MK-15,
    MK-20) and P(it reaches ``wipeout_at``, so wipes out)."""
    check_count("hazards", hazards, 99)
    check_count("the wipeout threshold", wipeout_at, 99, 1)
    odds = attack_odds(dice, evade_gear=evade_gear, cover=cover, to_hit_bonus=to_hit_bonus,
                       crit_hits=crit_hits, evade_bonus=evade_bonus)
    return KartAttackOdds(odds, hazards, wipeout_at)


def kart_smash_dice(orientation: str, p: Side, o: Side) -> int:
    """The variant's smash dice for party ``p`` (MK-35, MK-36): Refuelled's by orientation,
    with its weight bonus replaced by the variant's; an obstacle is Heavyweight."""
    mine = int(kart_data()["obstacle_weight"]) if p.obstacle else p.weight
    theirs = int(kart_data()["obstacle_weight"]) if o.obstacle else o.weight
    return base_smash_dice(orientation, p.gear, o.gear) + kart_weight_bonus(mine, theirs)


@dataclass(frozen=True)
class KartSmashOdds:
    smash: SmashOdds
    """``damage`` of each side: the Hazards its uncancelled hits give; ``hazards`` the flat
    Hazards every kart gains."""
    hazards_a: int
    hazards_b: int
    wipeout_at: int
    obstacle: bool = False
    """B is an obstacle: it gains nothing and never wipes out."""
    wipeout_at_b: int | None = None
    """B's own Wipeout threshold (a perk may raise it); None: the same as A's."""

    def gained(self, side: SideOdds) -> Dist:
        """Every Hazard the side gains: its hits and the flat Hazard(s)."""
        return Dist.of({k + side.hazards: w for k, w in enumerate(side.damage.weights)},
                       side.damage.denom)

    def threshold(self, side: SideOdds) -> int:
        """The Wipeout threshold of ``side`` (one of ``smash.a``, ``smash.b``)."""
        if side is self.smash.b and self.wipeout_at_b is not None:
            return self.wipeout_at_b
        return self.wipeout_at

    def p_wipeout(self, side: SideOdds, hazards: int) -> Fraction:
        return _reaching(self.gained(side), hazards, self.threshold(side))

    def to_json(self) -> dict[str, object]:
        def one(side: SideOdds, hazards: int, obstacle: bool) -> dict[str, object]:
            g = self.gained(side)
            out: dict[str, object] = {
                "reaction": side.reaction, "smash_dice": side.smash_dice,
                "hits_as_hazards": side.damage.floats(), "flat_hazards": side.hazards,
                "distribution": g.floats(), "expected_hazards": float(g.mean()),
                "p_at_least": g.at_least_floats(), "hazards": hazards,
                "wipeout_at": self.threshold(side), "exact": {"distribution": g.exact()}}
            if not obstacle:
                p = self.p_wipeout(side, hazards)
                out["p_wipeout"] = float(p)
                out["exact"] = {"distribution": g.exact(), "p_wipeout": str(p)}
            return out

        s = self.smash
        return {"orientation": s.orientation, "forced_evade": s.forced_evade,
                "wipeout_at": self.wipeout_at,
                "a": one(s.a, self.hazards_a, False),
                "b": one(s.b, self.hazards_b, self.obstacle)}


def kart_smash_odds(orientation: str, a: Side, b: Side, *, hazards_a: int = 0,
                    hazards_b: int = 0, wipeout_at: int = WIPEOUT_AT,
                    other_wipeout_at: int | None = None) -> KartSmashOdds:
    """A Collision between karts ``a`` (moving) and ``b`` (or an obstacle) under the variant:
    Hazards each gains and P(each reaches its Wipeout threshold: ``wipeout_at``, and
    ``other_wipeout_at`` for B when it differs)."""
    if orientation not in KART_ORIENTATIONS:
        raise OddsError(f"unknown orientation {orientation!r} ({', '.join(KART_ORIENTATIONS)})")
    check_count("A's hazards", hazards_a, 99)
    check_count("B's hazards", hazards_b, 99)
    check_count("the wipeout threshold", wipeout_at, 99, 1)
    if other_wipeout_at is not None:
        check_count("B's wipeout threshold", other_wipeout_at, 99, 1)
    mapped = str(kart_data()["orientations"].get(orientation, orientation))
    flat = int(kart_data()["collision_hazards"])
    odds = smash_odds(mapped, a, b, dice_of=kart_smash_dice, collision_hazards=flat)
    return KartSmashOdds(odds, hazards_a, hazards_b, wipeout_at, b.obstacle, other_wipeout_at)


def wipeout_facings() -> dict[str, object]:
    """The 36 headings a wiping-out kart may face and the chance of each (MK-24)."""
    faces = range(1, 7)
    counts: dict[float, int] = {}
    for first in faces:
        for second in faces:
            h = random_heading(first, second)
            counts[h] = counts.get(h, 0) + 1
    return {"headings": {f"{h:g}": n / 36 for h, n in sorted(counts.items())},
            "exact": {f"{h:g}": str(Fraction(n, 36)) for h, n in sorted(counts.items())}}
