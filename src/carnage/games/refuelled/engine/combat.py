"""Shared dice arithmetic for attacks, smash attacks and evades (Refuelled pp.32-33, 42, 55-56)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from carnage.kernel.events import JsonValue

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

HIT_ON = 4
"""Attack dice hit on 4+ (p.32); cover makes it 5+ (p.42); a natural 6 always hits twice."""
EVADE_ON = 6
"""Each evade die scoring 6+ cancels one hit (p.33)."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class AttackRoll:
    dice: tuple[int, ...]
    hits: int
    criticals: int


def score_attack(dice: list[int], *, penalty: int = 0) -> AttackRoll:
    """Hits from attack dice: each die >= 4 + penalty hits; each natural 6 is a Critical Hit
    worth two hits whatever the penalty (pp.32, 42)."""
    hits = crits = 0
    for d in dice:
        if d == 6:
            crits += 1
            hits += 2
        elif d >= HIT_ON + penalty:
            hits += 1
    return AttackRoll(tuple(dice), hits, crits)


def roll_attack(
    g: Game, n: int, *, why: str, source: str, page: int, penalty: int = 0, told: str = "",
    **data: JsonValue
) -> AttackRoll:
    """Roll ``n`` attack dice together (none if ``n`` <= 0) and score them (``told``: who
    rolls them and why, in words for a real table)."""
    dice = g.roll(max(0, n), why, source=source, page=page, told=told, roller=None, **data)
    return score_attack(dice, penalty=penalty)


def plural(n: int, word: str) -> str:
    """``1 hit``, ``3 hits``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def listed(names: list[str]) -> str:
    """Names in words, once each in order, a repeat counted: "Handgun and 2 Machine Guns"."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    words = [name if k == 1 else f"{k} {name}{'' if name.endswith('s') else 's'}"
             for name, k in counts.items()]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def evade_words(v: VehicleState, hits: int, against: str) -> str:
    """Who rolls an evade and why, in words for the people at a real table: "Blue Car's player
    rolls evade dice against 3 hits from Red Car's Handgun" (``against``: where the hits come
    from, in words)."""
    return (f"{v.name}'s player rolls evade dice against {plural(hits, 'hit')}"
            + (f" from {against}" if against else ""))


def roll_evade(g: Game, v: VehicleState, hits: int, *, source: str, page: int,
               against: str = "") -> int:
    """Evade against ``hits``: one die per current gear (through effects), each 6+ cancels one
    hit (p.33). Returns the hits cancelled (never more than ``hits``). ``against``: where the
    hits come from, in words (a real table's dice entry says who rolls against what)."""
    n = int(g.effects.run_event("evade_dice", v.gear, {"game": g, "vehicle": v}))
    bonus = int(g.effects.run_event("evade_bonus", 0, {"game": g, "vehicle": v}))
    dice = g.roll(n, "evade", source=source, page=page, told=evade_words(v, hits, against),
                  roller=v.player, vehicle=v.id)
    saved = sum(1 for d in dice if d + bonus >= EVADE_ON)
    # ``evade_saves`` hook: hits these dice cancel (Evasive: a natural 1 fails, p.107).
    saved = int(g.effects.run_event("evade_saves", saved, {
        "game": g, "vehicle": v, "dice": list(dice), "bonus": bonus}))
    return min(saved, hits)


def remove_hull(g: Game, v: VehicleState, amount: int, *, source: str, page: int,
                fire: bool = False) -> bool:
    """Mark off ``amount`` hull points (p.43). True when this leaves the vehicle on zero (it
    must then be wrecked by the caller, in order)."""
    if amount <= 0 or not v.in_play:
        return False
    # ``damage_amount`` hook: the hull points about to be lost (Beerserker, p.112); ctx
    # "fire" when the damage has the Fire rule (Fire Walk With Me, p.100).
    amount = int(g.effects.run_event("damage_amount", amount,
                                     {"game": g, "vehicle": v, "source": source, "fire": fire}))
    if amount <= 0:
        return False
    before = v.hull_points
    v.damage = min(v.hull, v.damage + amount)
    g.emit("damage", source=source, page=page, vehicle=v.id, amount=amount,
           hull_points=v.hull_points)
    return before > 0 and v.hull_points == 0
