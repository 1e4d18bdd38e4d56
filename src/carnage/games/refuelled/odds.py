"""Exact odds of the game's dice: attacks against evades, skid dice, flip checks, explosion
checks and smash collisions (Refuelled pp.21-24, 32-35, 40, 42-44, 52-57).

Pure arithmetic: every answer is an exact ``Fraction`` (floats on request), derived from the
engine's own per-die rules so the two cannot drift apart: attack dice are scored face by face
with ``engine.combat.score_attack``, skid faces are read with ``kernel.dice.skid_face``, smash
dice come from ``engine.collision.smash_dice``, and the thresholds are the engine's constants.
Distributions are computed in closed form (multinomial counts over a common denominator of
``6**n``), never by simulation, so each query takes well under a millisecond
(``benchmarks/odds.py``).

What a distribution models is the base rules plus the modifiers passed in: perks and sponsor
rules enter only through those parameters (``crit_hits`` for Headshot, ``evade_bonus`` and
``evasive`` for Evasive, ``to_hit_bonus`` for Dead-Eye or Loader ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from carnage.catalog import Weight
from carnage.games.refuelled.engine.collision import (
    BOTH_EVADED_HAZARDS,
    COLLISION_HAZARDS,
    EVADE,
    REACTIONS,
    SMASH,
    smash_dice,
)
from carnage.games.refuelled.engine.combat import EVADE_ON, score_attack
from carnage.games.refuelled.engine.damage import EXPLODES_ON, EXPLOSION_DICE
from carnage.games.refuelled.engine.state import WEIGHT_CLASS
from carnage.games.refuelled.engine.wipeout import FLIP_HITS, WIPEOUT_AT
from carnage.kernel.dice import SkidFace, skid_face

FACES = range(1, 7)
CRIT_HITS = 2
"""A natural 6 on an attack die is two hits (p.32); Headshot makes it three (p.109)."""
MAX_DICE = 60
"""Largest pool a query accepts (far beyond any legal pool; keeps answers instant)."""
MAX_SKID_DICE = 12
ORIENTATIONS = ("head_on", "t_bone", "tailgate")


class OddsError(ValueError):
    """A query the rules cannot answer (a negative dice pool, an unknown weight ...)."""


# -- distributions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dist:
    """A distribution over the counts 0..len(weights)-1: ``weights[k] / denom`` is P(= k)."""

    weights: tuple[int, ...]
    denom: int

    @staticmethod
    def of(weights: Mapping[int, int], denom: int) -> Dist:
        top = max((k for k, w in weights.items() if w), default=0)
        return Dist(tuple(weights.get(k, 0) for k in range(top + 1)), denom)

    @staticmethod
    def certain(k: int) -> Dist:
        return Dist.of({k: 1}, 1)

    @property
    def top(self) -> int:
        return len(self.weights) - 1

    def p(self, k: int) -> Fraction:
        """P(= k)."""
        return Fraction(self.weights[k], self.denom) if 0 <= k <= self.top else Fraction(0)

    def at_least(self, k: int) -> Fraction:
        """P(>= k)."""
        return Fraction(sum(self.weights[max(0, k):]), self.denom)

    def mean(self) -> Fraction:
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.denom)

    def probabilities(self) -> dict[int, Fraction]:
        return {k: Fraction(w, self.denom) for k, w in enumerate(self.weights)}

    def floats(self) -> dict[str, float]:
        """P(= k) as floats keyed by the count (as a string, for JSON)."""
        return {str(k): w / self.denom for k, w in enumerate(self.weights)}

    def at_least_floats(self) -> dict[str, float]:
        """P(>= k) for k = 1..top, as floats keyed by the count."""
        out: dict[str, float] = {}
        acc = 0
        for k in range(self.top, 0, -1):
            acc += self.weights[k]
            out[str(k)] = acc / self.denom
        return dict(reversed(out.items()))

    def exact(self) -> dict[str, str]:
        return {str(k): str(Fraction(w, self.denom)) for k, w in enumerate(self.weights)}

    def to_json(self) -> dict[str, object]:
        return {"distribution": self.floats(), "mean": float(self.mean()),
                "p_at_least": self.at_least_floats(), "exact": self.exact()}


def check_count(what: str, n: int, high: int, low: int = 0) -> None:
    """``OddsError`` unless ``n`` is a whole number from ``low`` to ``high``."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise OddsError(f"{what} must be a whole number, not {n!r}")
    if not low <= n <= high:
        raise OddsError(f"{what} must be between {low} and {high}, not {n}")


# -- attacks and evades (pp.32-33, 42) -----------------------------------------------------------
def attack_face_hits(penalty: int = 0, crit_hits: int = CRIT_HITS) -> tuple[int, ...]:
    """Hits scored by each face 1..6 of one attack die, through the engine's scoring (a natural
    6 is a Critical Hit worth ``crit_hits`` whatever the penalty)."""
    out = []
    for d in FACES:
        roll = score_attack([d], penalty=penalty)
        out.append(roll.hits + (crit_hits - CRIT_HITS) * roll.criticals)
    return tuple(out)


@cache
def hits_dist(dice: int, penalty: int = 0, crit_hits: int = CRIT_HITS) -> Dist:
    """Hits from ``dice`` attack dice rolled together at ``penalty`` to hit (cover +1, a bonus
    -1 each): counted as (criticals, plain hits) pairs, a multinomial over the faces."""
    check_count("attack dice", dice, MAX_DICE)
    check_count("hits per Critical Hit", crit_hits, 6, 1)
    faces = attack_face_hits(penalty, crit_hits)
    crit = sum(1 for d, h in zip(FACES, faces, strict=True) if d == 6)
    plain = sum(1 for d, h in zip(FACES, faces, strict=True) if d != 6 and h > 0)
    if any(h > 1 for d, h in zip(FACES, faces, strict=True) if d != 6):
        raise OddsError("only a natural 6 scores more than one hit")
    miss = 6 - crit - plain
    w: dict[int, int] = {}
    for c in range(dice + 1):
        wc = comb(dice, c) * crit ** c
        for j in range(dice - c + 1):
            k = c * crit_hits + j
            w[k] = w.get(k, 0) + wc * comb(dice - c, j) * plain ** j * miss ** (dice - c - j)
    return Dist.of(w, 6 ** dice)


def evade_saves_per_die(bonus: int = 0, evasive: bool = False) -> int:
    """Faces of one evade die that cancel a hit: die + bonus >= 6 (p.33); with Evasive a
    natural 1 always fails (p.107)."""
    return sum(1 for d in FACES if d + bonus >= EVADE_ON and not (evasive and d == 1))


@cache
def saves_dist(dice: int, bonus: int = 0, evasive: bool = False) -> Dist:
    """Successes among ``dice`` evade dice (before they are capped by the hits)."""
    check_count("evade dice", dice, MAX_DICE)
    s = evade_saves_per_die(bonus, evasive)
    return Dist(tuple(comb(dice, k) * s ** k * (6 - s) ** (dice - k) for k in range(dice + 1)),
                6 ** dice)


def damage_after_evade(hits: Dist, saves: Dist) -> Dist:
    """Un-cancelled hits: each evade success cancels one hit, never more than there are."""
    w: dict[int, int] = {}
    for h, wh in enumerate(hits.weights):
        if not wh:
            continue
        for k, ws in enumerate(saves.weights):
            d = max(0, h - k)
            w[d] = w.get(d, 0) + wh * ws
    return Dist.of(w, hits.denom * saves.denom)


def _convolve(a: Dist, b: Dist) -> Dist:
    w: dict[int, int] = {}
    for i, wa in enumerate(a.weights):
        if wa:
            for j, wb in enumerate(b.weights):
                w[i + j] = w.get(i + j, 0) + wa * wb
    return Dist.of(w, a.denom * b.denom)


@dataclass(frozen=True)
class Volley:
    """One weapon's dice in an attack: its own penalty to hit (pp.32, 42)."""

    dice: int
    cover: bool = False
    to_hit_bonus: int = 0

    @property
    def penalty(self) -> int:
        return (1 if self.cover else 0) - self.to_hit_bonus


@dataclass(frozen=True)
class AttackOdds:
    hits: Dist
    """Hits before the evade."""
    damage: Dist
    """Hits left after the evade: hull points lost (p.33)."""
    evade_dice: int

    @property
    def expected_damage(self) -> Fraction:
        return self.damage.mean()

    def p_at_least(self, k: int) -> Fraction:
        return self.damage.at_least(k)

    def to_json(self) -> dict[str, object]:
        return {
            "distribution": self.damage.floats(),
            "expected_damage": float(self.expected_damage),
            "p_at_least": self.damage.at_least_floats(),
            "hits": self.hits.floats(),
            "expected_hits": float(self.hits.mean()),
            "evade_dice": self.evade_dice,
            "exact": {"distribution": self.damage.exact(),
                      "expected_damage": str(self.expected_damage),
                      "hits": self.hits.exact()},
        }


def attack_odds(
    dice: int | Sequence[Volley],
    *,
    evade_gear: int = 0,
    cover: bool = False,
    to_hit_bonus: int = 0,
    crit_hits: int = CRIT_HITS,
    evade_bonus: int = 0,
    evade_dice: int | None = None,
    evasive: bool = False,
    evadable: bool = True,
) -> AttackOdds:
    """An attack against one target (pp.32-33): all dice rolled together (each weapon with its
    own cover and bonus when ``dice`` is a list of volleys), then one evade roll of one die per
    current gear of the target (``evade_dice`` overrides), each 6+ (after ``evade_bonus``)
    cancelling one hit. ``evadable=False``: hits that cannot be evaded (a Flip, p.35)."""
    volleys = [Volley(dice, cover, to_hit_bonus)] if isinstance(dice, int) else list(dice)
    check_count("evade gear", evade_gear, 6)
    check_count("to-hit bonus", to_hit_bonus, 6, -6)
    check_count("evade bonus", evade_bonus, 6, -6)
    hits = Dist.certain(0)
    for v in volleys:
        hits = _convolve(hits, hits_dist(v.dice, v.penalty, crit_hits))
    n_evade = evade_gear if evade_dice is None else evade_dice
    if not evadable:
        n_evade = 0
    saves = saves_dist(n_evade, evade_bonus, evasive)
    return AttackOdds(hits, damage_after_evade(hits, saves), n_evade)


# -- skid dice (pp.21-24, 38-40) ------------------------------------------------------------------
SKID_KINDS = (SkidFace.HAZARD, SkidFace.SPIN, SkidFace.SLIDE, SkidFace.SHIFT)
_SKID_FACES = {k: sum(1 for d in FACES if skid_face(d) is k) for k in SKID_KINDS}
"""How many faces of a D6 read as each skid result (the engine's own mapping)."""


def _skid_die(push_it: bool) -> tuple[dict[SkidFace, int], int]:
    """How one skid die ends, as ways out of a denominator: the faces as rolled or, pushing,
    a non-Shift rerolled once (6 x 6 outcomes: a Shift stays, anything else rolls again)."""
    if not push_it:
        return dict(_SKID_FACES), 6
    shift = _SKID_FACES[SkidFace.SHIFT]
    other = 6 - shift
    return {k: (shift * 6 + other * shift if k is SkidFace.SHIFT else other * n)
            for k, n in _SKID_FACES.items()}, 36


def _binomial(n: int, ways: int, denom: int) -> dict[int, int]:
    """Weights (out of denom**n) of k successes in n trials of ways/denom each."""
    return {k: comb(n, k) * ways ** k * (denom - ways) ** (n - k) for k in range(n + 1)}


@dataclass(frozen=True)
class SkidOdds:
    shifts: Dist
    """Shift results to spend (rolled, plus the bonus Shift of a trivial manoeuvre, p.40)."""
    hazards: Dist
    """Hazard results rolled (after Push It)."""
    spins: Dist
    slides: Dist
    pushed: Fraction
    """P(the Push It is taken): with ``push_it`` whenever any die shows a non-Shift result."""
    hazards_after: Dist
    """Hazard Tokens on the vehicle after the skid dice, every Shift spent to cancel a
    non-Shift result or discard a Hazard Token (the fewest Hazards the roll allows)."""
    wipeout_at: int
    gear: int | None = None
    """Current gear, when given: the Wipeout's flip check is then part of the answer."""

    @property
    def p_wipeout(self) -> Fraction:
        return self.hazards_after.at_least(self.wipeout_at)

    @property
    def p_wipeout_flip(self) -> Fraction | None:
        """P(a Wipeout that flips): the Shifts all go on Hazards, so the gear is unchanged."""
        return None if self.gear is None else self.p_wipeout * p_flip(self.gear)

    def to_json(self) -> dict[str, object]:
        return {
            "shifts": self.shifts.floats(), "hazards": self.hazards.floats(),
            "spins": self.spins.floats(), "slides": self.slides.floats(),
            "p_spin": float(self.spins.at_least(1)), "p_slide": float(self.slides.at_least(1)),
            "p_push": float(self.pushed),
            "hazards_after": self.hazards_after.floats(),
            "expected_hazards_after": float(self.hazards_after.mean()),
            "p_wipeout": float(self.p_wipeout), "wipeout_at": self.wipeout_at,
            **({} if self.p_wipeout_flip is None else {
                "gear": self.gear, "p_wipeout_flip": float(self.p_wipeout_flip)}),
            "exact": {"shifts": self.shifts.exact(), "hazards_after": self.hazards_after.exact(),
                      "p_wipeout": str(self.p_wipeout)},
        }


def skid_odds(
    dice: int,
    *,
    push_it: bool = False,
    trivial: bool = False,
    hazardous: bool = False,
    hazards: int = 0,
    wipeout_at: int = WIPEOUT_AT,
    gear: int | None = None,
) -> SkidOdds:
    """One Movement Step's skid dice (pp.21-24). ``hazards``: Hazard Tokens before the step;
    a hazardous manoeuvre adds one before the dice (p.38), a trivial one a bonus Shift (p.40).
    ``push_it``: Push It whenever any die shows a non-Shift result, rerolling exactly those dice
    (+1 Hazard, p.40). Then every Shift cancels a non-Shift result or discards a Hazard Token
    while there is one (the strategy that ends on the fewest Hazards), and each uncancelled
    Hazard, Spin and Slide result gains a Hazard (p.24). ``p_wipeout``: P(at least
    ``wipeout_at`` Hazard Tokens after the dice), the Wipeout of p.34 if nothing else adds any
    this activation; with ``gear``, also P(that Wipeout flips the vehicle)."""
    check_count("skid dice", dice, MAX_SKID_DICE)
    if gear is not None:
        check_count("gear", gear, 6, 1)
    check_count("hazard tokens", hazards, 30)
    check_count("wipeout threshold", wipeout_at, 30, 1)
    if trivial and hazardous:
        raise OddsError("a manoeuvre is either trivial or hazardous, not both")
    # Each die ends independently (a pushed die is rerolled at most once), so every count is
    # binomial; the Push It Hazard is taken unless every die first came up a Shift.
    per, base = _skid_die(push_it)
    denom = base ** dice
    bonus = 1 if trivial else 0
    start = hazards + (1 if hazardous else 0)
    marg = [{k + bonus: w for k, w in _binomial(dice, per[SkidFace.SHIFT], base).items()}]
    marg += [_binomial(dice, per[k], base) for k in SKID_KINDS[:3]]
    not_pushed = 0
    if push_it:
        # All first rolls Shifts: (shift faces)**n out of 6**n, scaled to base**n.
        not_pushed = _SKID_FACES[SkidFace.SHIFT] ** dice * (base // 6) ** dice
    after: dict[int, int] = {}
    for f, w in _binomial(dice, base - per[SkidFace.SHIFT], base).items():
        # f non-Shift results, dice - f + bonus Shifts, each Shift removing one Hazard.
        unpushed = w if not push_it else (not_pushed if f == 0 else 0)
        for p, ww in ((True, w - unpushed), (False, unpushed)):
            if ww:
                end = max(0, start + (1 if p else 0) + 2 * f - dice - bonus)
                after[end] = after.get(end, 0) + ww
    pushed = denom - not_pushed if push_it else 0
    return SkidOdds(
        shifts=Dist.of(marg[0], denom), hazards=Dist.of(marg[1], denom),
        spins=Dist.of(marg[2], denom), slides=Dist.of(marg[3], denom),
        pushed=Fraction(pushed, denom), hazards_after=Dist.of(after, denom),
        wipeout_at=wipeout_at, gear=gear,
    )


# -- flip and explosion checks (pp.34-35, 43) -----------------------------------------------------
def p_flip(gear: int, modifier: int = 0) -> Fraction:
    """Flip check of a Wipeout: the vehicle flips when D6 + ``modifier`` is below its current
    gear (p.34)."""
    check_count("gear", gear, 6, 1)
    check_count("flip check modifier", modifier, 6, -6)
    return Fraction(sum(1 for d in FACES if d + modifier < gear), 6)


def flip_odds(gear: int, modifier: int = 0) -> dict[str, object]:
    p = p_flip(gear, modifier)
    return {"p_flip": float(p), "flip_hits": FLIP_HITS, "exact": {"p_flip": str(p)}}


def p_explode(ammo: int, bonus: int = 0) -> Fraction:
    """Explosion check of a wreck: D6 + Ammo Tokens (+ ``bonus``, Powder Keg) explodes on 6+
    (p.43)."""
    check_count("ammo tokens", ammo, 99)
    check_count("explosion check bonus", bonus, 6, -6)
    return Fraction(sum(1 for d in FACES if d + ammo + bonus >= EXPLODES_ON), 6)


def parse_weight(text: str | Weight) -> Weight:
    if isinstance(text, Weight):
        return text
    t = text.strip().lower()
    for w in Weight:
        if t in (w.value, w.value.removesuffix("weight"), str(WEIGHT_CLASS[w])):
            return w
    raise OddsError(f"unknown weight {text!r} (light, middle or heavy)")


def explosion_attack(weight: Weight, *, evade_gear: int = 0, evade_bonus: int = 0,
                     evasive: bool = False) -> AttackOdds:
    """The Blast attack an explosion makes at each vehicle in reach: 2/4/6 dice by weight
    (p.44), no cover, evaded as usual; the blast hits also give Hazards (p.81)."""
    return attack_odds(EXPLOSION_DICE[weight], evade_gear=evade_gear, evade_bonus=evade_bonus,
                       evasive=evasive)


def explode_odds(ammo: int, *, bonus: int = 0, weight: Weight | None = None,
                 evade_gear: int = 0) -> dict[str, object]:
    p = p_explode(ammo, bonus)
    out: dict[str, object] = {"p_explode": float(p), "exact": {"p_explode": str(p)}}
    if weight is not None:
        att = explosion_attack(weight, evade_gear=evade_gear)
        out["explosion_dice"] = EXPLOSION_DICE[weight]
        out["attack"] = att.to_json()
    return out


# -- smash collisions (pp.52-57) ------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    """One party of a Collision: its gear, weight class (1-3), reaction, evade modifiers. An
    obstacle is gear 0, always smashes and takes no damage (p.54)."""

    gear: int
    weight: int
    reaction: str = SMASH
    obstacle: bool = False
    evade_bonus: int = 0
    evasive: bool = False
    rear_hit: bool = False
    """Tailgate: this party is the one hit on its rear edge (the one in front, p.53)."""


@dataclass(frozen=True)
class SideOdds:
    reaction: str
    smash_dice: int
    damage: Dist
    """Hull points this party loses (hits from the other's smash, less its evades)."""
    hazards: int

    def to_json(self) -> dict[str, object]:
        return {"reaction": self.reaction, "smash_dice": self.smash_dice,
                "distribution": self.damage.floats(),
                "expected_damage": float(self.damage.mean()),
                "p_at_least": self.damage.at_least_floats(), "hazards": self.hazards,
                "exact": {"distribution": self.damage.exact(),
                          "expected_damage": str(self.damage.mean())}}


@dataclass(frozen=True)
class SmashOdds:
    orientation: str
    a: SideOdds
    b: SideOdds
    forced_evade: bool

    def to_json(self) -> dict[str, object]:
        return {"orientation": self.orientation, "forced_evade": self.forced_evade,
                "a": self.a.to_json(), "b": self.b.to_json()}


SmashDice = Callable[[str, Side, Side], int]
"""Smash dice of a party (before ``max(0, ...)``) by orientation, itself and the other party."""


def _refuelled_smash_dice(orientation: str, p: Side, o: Side) -> int:
    return smash_dice(orientation, p.gear, o.gear, p.weight, o.weight)


def smash_odds(orientation: str, a: Side, b: Side, *, dice_of: SmashDice | None = None,
               collision_hazards: int | None = None) -> SmashOdds:
    """A Collision between ``a`` (the moving vehicle) and ``b``: reactions (a tailgated vehicle
    in the higher gear forces both to evade, p.53), smash dice by orientation and weight (p.55,
    the engine's ``smash_dice``), each smash scored like attack dice (4+, a 6 is two hits, no
    cover), evades of one die per gear against the hits taken (p.56), Hazards +2 each or +1 if
    both evaded (p.54). Obstacles are always head-on in gear 0 (p.54). A variant passes its
    own smash dice (``dice_of``) and Hazards per party (``collision_hazards``)."""
    if orientation not in ORIENTATIONS:
        raise OddsError(f"unknown orientation {orientation!r} (head_on, t_bone or tailgate)")
    for name, s in (("a", a), ("b", b)):
        check_count(f"{name}'s gear", s.gear, 6, 0 if s.obstacle else 1)
        check_count(f"{name}'s weight class", s.weight, 3, 1)
        if s.reaction not in REACTIONS:
            raise OddsError(f"{name}'s reaction must be smash or evade, not {s.reaction!r}")
    if a.obstacle:
        raise OddsError("the moving party must be a vehicle")
    if b.obstacle:
        orientation = "head_on"
        b = Side(0, b.weight, SMASH, obstacle=True)
    forced = orientation == "tailgate" and not b.obstacle and any(
        p.rear_hit and p.gear > o.gear for p, o in ((a, b), (b, a)))
    if forced:
        a = Side(a.gear, a.weight, EVADE, False, a.evade_bonus, a.evasive, a.rear_hit)
        b = Side(b.gear, b.weight, EVADE, False, b.evade_bonus, b.evasive, b.rear_hit)

    count = _refuelled_smash_dice if dice_of is None else dice_of

    def dice(p: Side, o: Side) -> int:
        return max(0, count(orientation, p, o)) if p.reaction == SMASH else 0

    na, nb = dice(a, b), dice(b, a)
    both_evaded = a.reaction == EVADE and b.reaction == EVADE
    hazards = (BOTH_EVADED_HAZARDS if both_evaded else COLLISION_HAZARDS) \
        if collision_hazards is None else collision_hazards

    def side(p: Side, n_mine: int, n_theirs: int) -> SideOdds:
        if p.obstacle:
            return SideOdds(SMASH, n_mine, Dist.certain(0), 0)
        hits = hits_dist(n_theirs)
        n_evade = p.gear if p.reaction == EVADE else 0
        dmg = damage_after_evade(hits, saves_dist(n_evade, p.evade_bonus, p.evasive))
        return SideOdds(p.reaction, n_mine, dmg, hazards)

    return SmashOdds(orientation, side(a, na, nb), side(b, nb, na), forced)


def collision_sides(gear: int, other_gear: int, weight: str, other_weight: str,
                    reaction: str = SMASH, other_reaction: str = SMASH, *,
                    obstacle: bool = False, front: str = "b", front_name: str = "front"
                    ) -> tuple[Side, Side]:
    """The two parties of a Collision as a query names them (the CLI's options, the API's
    parameters): weights by name, B in gear 0 when it is an obstacle, ``front`` the party in
    front in a tailgate (``front_name``: what the query calls it, for the error)."""
    if front not in ("a", "b"):
        raise OddsError(f"{front_name} must be a or b, not {front!r}")
    for r in (reaction, other_reaction):
        if r not in REACTIONS:
            raise OddsError(f"a reaction must be smash or evade, not {r!r}")
    a = Side(gear, WEIGHT_CLASS[parse_weight(weight)], reaction, rear_hit=front == "a")
    b = Side(0 if obstacle else other_gear, WEIGHT_CLASS[parse_weight(other_weight)],
             other_reaction, obstacle=obstacle, rear_hit=front == "b")
    return a, b


def smash_table(orientation: str, gear_a: int, gear_b: int, weight_a: int, weight_b: int
                ) -> dict[tuple[str, str], SmashOdds]:
    """All four reaction pairs of one Collision (smash/evade for each vehicle)."""
    return {(ra, rb): smash_odds(orientation, Side(gear_a, weight_a, ra),
                                 Side(gear_b, weight_b, rb))
            for ra in REACTIONS for rb in REACTIONS}

