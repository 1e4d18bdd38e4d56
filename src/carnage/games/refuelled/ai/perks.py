"""Heuristic answers to the perks' decisions (rules/perks/). Each takes (game, decision, rng)
and returns a choice, or None to let the bot fall back (the first option that acts).

The rule of thumb: take Hazard Tokens only while the vehicle stays clear of a Wipeout, never
hurt itself for a gamble, aim perks that harm at enemies and those that help at friends."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from carnage.kernel.decisions import Decision
from carnage.kernel.dice import SkidFace

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

Choice = str | int | float
Handler = Callable[["Game", Decision, random.Random], "Choice | None"]

WIPEOUT = 6
YES, NO = "yes", "no"
WORST_FIRST = (SkidFace.HAZARD.value, SkidFace.SLIDE.value, SkidFace.SPIN.value)
"""Skid results worth discarding, worst first."""


def _mine(game: Game, d: Decision) -> VehicleState | None:
    """The vehicle the decision is about (its ``vehicle`` field), else the active one."""
    st = game.state
    return st.vehicles.get(d.vehicle or st.active or "")


def _room(game: Game, d: Decision, n: int) -> bool:
    """Can the vehicle take ``n`` Hazard Tokens and stay below a Wipeout?"""
    v = _mine(game, d)
    return v is not None and v.hazards + n < WIPEOUT


def _yes_if_room(n: int) -> Handler:
    def pick(game: Game, d: Decision, rng: random.Random) -> Choice | None:
        return YES if _room(game, d, n) else NO

    return pick


def _never(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    return NO


def _foe(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """A target for something nasty: an enemy vehicle, else nobody."""
    foes = [o.value for o in d.options if str(o.value) in game.state.vehicles
            and game.state.vehicles[str(o.value)].player != d.player]
    return foes[0] if foes else NO


def _friend(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """A target for something kind: the friendly vehicle with most Hazard Tokens."""
    friends = [game.state.vehicles[str(o.value)] for o in d.options
               if str(o.value) in game.state.vehicles
               and game.state.vehicles[str(o.value)].player == d.player]
    if not friends or not _room(game, d, 1):
        return NO
    return max(friends, key=lambda t: t.hazards).id


def _discard_all(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    return max(int(o.value) for o in d.options)


def _worst_die(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Easy Rider: throw away the worst result, keep the dice if they are all Shifts."""
    for face in WORST_FIRST:
        for o in d.options:
            if o.value != NO and o.label.endswith(f": {face}"):
                return o.value
    return NO


def _evasive(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """As many Hazards for the evade bonus as keep it two short of a Wipeout (at most +3)."""
    v = _mine(game, d)
    if v is None:
        return 0
    spare = max(0, WIPEOUT - 2 - v.hazards)
    return max((int(o.value) for o in d.options if int(o.value) <= min(3, spare)), default=0)


HANDLERS: dict[str, Handler] = {
    # Self-harm for a gamble: the bot keeps its hull.
    "highway_to_hell": _never,
    "powder_keg": _never,
    "angel_of_death": lambda game, d, rng: 0,
    "purifying_flames": lambda game, d, rng: NO,
    "sympathy_for_the_devil": _never,
    # Hazard Tokens for a benefit: only with room to spare.
    "dead_weight": _yes_if_room(2),
    "dont_come_knocking": _yes_if_room(4),
    "return_fire": _yes_if_room(2),
    "skiing": _yes_if_room(3),
    "stunt_driver": _yes_if_room(3),
    "evasive": _evasive,
    # Pointed at enemies, or at friends.
    "taunt": _foe,
    "madman": _foe,
    "cover_me": _friend,
    "ecstatic_visions": _friend,
    # Shedding Hazards and bad dice.
    "time_extended": _discard_all,
    "easy_rider": _worst_die,
}
"""Decision kind -> heuristic, merged into the HeuristicBot's handlers."""
