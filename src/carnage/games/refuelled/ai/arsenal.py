"""Heuristic answers to the shooting weapons' decisions (rules/weapons.py): spare friends, hurt
foes. Each takes (game, decision, rng) and returns a choice, or None to let the bot fall back."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

Choice = str | int | float


def _player(game: Game, vid: str) -> int | None:
    v = game.state.vehicles.get(vid)
    return None if v is None else v.player


def splash(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """The template placement catching the fewest friends, then the most foes."""
    best: tuple[tuple[int, int], Choice] | None = None
    for o in d.options:
        ids = [i for i in str(o.value).split(",") if i and i != "-"]
        friends = sum(1 for i in ids if _player(game, i) == d.player)
        rank = (-friends, len(ids) - friends)
        if best is None or rank > best[0]:
            best = (rank, o.value)
    return None if best is None else best[1]


def arc_lightning(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Jump to the foe with the fewest Hull Points; failing that, the sturdiest friend."""

    def rank(value: Choice) -> tuple[int, int]:
        v = game.state.vehicles[str(value)]
        foe = v.player != d.player
        return (1, -v.hull_points) if foe else (0, v.hull_points)

    return max((o.value for o in d.options), key=rank, default=None)


def amplifiers(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Add a Hazard to a foe, take one from a friend (the vehicle just hit: the target)."""
    if d.target is None:
        return None
    return "discard" if _player(game, d.target) == d.player else "add"


def lob_wreck(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Drop a thrown wreck against the marker only when that hurts a foe (the target)."""
    if d.target is None:
        return None
    mine = _player(game, d.target) == d.player
    values = [o.value for o in d.options]
    if not mine and "marker" in values:
        return "marker"
    others = [v for v in values if v != "marker"]
    return others[0] if others else None


def grav_gun(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """A foe is made lighter (fewer smash dice), a friend heavier (the target)."""
    if d.target is None:
        return None
    return "heavier" if _player(game, d.target) == d.player else "lighter"


HANDLERS = {
    "splash": splash,
    "arc_lightning": arc_lightning,
    "amplifiers": amplifiers,
    "lob_wreck": lob_wreck,
    "grav_gun": grav_gun,
}
"""Decision kind -> heuristic, merged into ``HeuristicBot``'s handlers."""
