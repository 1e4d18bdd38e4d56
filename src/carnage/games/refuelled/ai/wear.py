"""Heuristic answers to the campaign's decisions in play (rules/campaign/): Sabotage Tokens
and Twitch. Each takes (game, decision, rng) and returns a choice, or None to fall back.

Used simply: Hidden Explosives only on a point that catches enemies and no friend; Do Not
Adjust Your Set only for a Respawn; Fix Your Brakes on an enemy in gear 3 or more (the flip
is likelier to hurt); a Resistance Cache for one's own vehicle; Twitch always called."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

Choice = str | int | float
Handler = Callable[["Game", Decision, random.Random], "Choice | None"]
NO = "no"
FLIP_FROM_GEAR = 3


def _friends(game: Game, seat: int) -> frozenset[int]:
    from carnage.games.refuelled.engine.votes import allies

    return allies(game, seat)


def _point_score(game: Game, seat: int, key: str) -> int:
    """Enemies caught less three per friend caught (no friend: a clean strike)."""
    from carnage.games.refuelled.rules.campaign.sabotage import explosive_points, within

    x, y, _ = explosive_points(game)[key]
    mine = _friends(game, seat)
    caught = within(game, x, y)
    friends = sum(1 for v in caught if v.player in mine and v.in_team)
    enemies = sum(1 for v in caught if v.player not in mine and v.in_team)
    return -1 if friends else enemies


def _best_point(game: Game, d: Decision) -> tuple[str, int]:
    keys = [str(o.value) for o in d.options]
    best = max(keys, key=lambda k: _point_score(game, d.player, k))
    return best, _point_score(game, d.player, best)


def _sabotage(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    from carnage.games.refuelled.rules.campaign.sabotage import (
        DO_NOT_ADJUST,
        HIDDEN_EXPLOSIVES,
        explosive_points,
        free_effects,
    )

    offered = {str(o.value) for o in d.options}
    if DO_NOT_ADJUST in offered and any(e.id == "respawn"
                                        for e, _ in free_effects(game, d.player)):
        return DO_NOT_ADJUST
    points = list(explosive_points(game))
    if HIDDEN_EXPLOSIVES in offered and max(
            _point_score(game, d.player, k) for k in points) > 0:
        return HIDDEN_EXPLOSIVES
    return NO


def _explosives_point(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    return _best_point(game, d)[0]


def _free_vote_effect(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    values = [str(o.value) for o in d.options]
    return "respawn" if "respawn" in values else values[0]


def _fix_your_brakes(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    v = game.state.vehicles.get(d.vehicle or "")
    if v is None or v.player in _friends(game, d.player) or v.gear < FLIP_FROM_GEAR:
        return NO
    return "flip"


def _resistance_cache(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    v = game.state.vehicles.get(d.vehicle or "")
    return "cache" if v is not None and v.player in _friends(game, d.player) else NO


HANDLERS: dict[str, Handler] = {
    "sabotage": _sabotage,
    "explosives_point": _explosives_point,
    "free_vote_effect": _free_vote_effect,
    "fix_your_brakes": _fix_your_brakes,
    "resistance_cache": _resistance_cache,
    "twitch": lambda game, d, rng: "call",
}
