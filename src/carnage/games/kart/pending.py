"""Odds of a kart game's pending decision: Refuelled's (``games/refuelled/pending.py``), but a
hit and a collision give Hazards, not damage, so an attack's and a collision's odds are the
variant's: the Hazards gained and the chance of a Wipeout (``games/kart/odds.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
from carnage.games.refuelled.engine.wipeout import wipeout_threshold
from carnage.games.refuelled.pending import AttackInputs, DiceModel, pending_offer

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.games.refuelled.odds import Side


def _hazard_attack(g: Game, inp: AttackInputs, target: VehicleState,
                   cover: bool) -> dict[str, Any]:
    return kart_attack_odds(inp.dice, evade_gear=target.gear, cover=cover,
                            hazards=target.hazards,
                            wipeout_at=wipeout_threshold(g, target)).to_json()


def _hazard_collision(g: Game, orientation: str, a: Side, b: Side, v: VehicleState,
                      other: VehicleState | None) -> dict[str, Any]:
    ko = kart_smash_odds(
        orientation, a, b, hazards_a=v.hazards, hazards_b=0 if other is None else other.hazards,
        wipeout_at=wipeout_threshold(g, v),
        other_wipeout_at=None if other is None else wipeout_threshold(g, other)).to_json()
    return {"self": ko["a"], "other": ko["b"]}


KART_DICE = DiceModel(attack=_hazard_attack, collision=_hazard_collision)
"""The Kart variant's: hits and collisions give Hazard Tokens."""

KART_PENDING = pending_offer(KART_DICE)
"""What the table shows of a kart game's pending decision's odds (``TableOffer.pending_odds``)."""
