"""Vehicles that belong to no player: the giant creatures of Big Game Hunter (p.144) and
Truckasaurus (p.152).

Such a vehicle is a ``VehicleState`` with ``neutral=True``: it is never part of a team (so
it counts for nobody's victory, earns nobody a wreck vote and is never offered when a player
picks a vehicle to activate). Its ``player`` field is whoever controls it at the moment:

* during one of its own activations, the player the rules chose (the one who enraged the
  creature, the one who paid to wake Truckasaurus): ``neutral_activation``;
* at any other time (reactions, cancelling hits), its *keeper* (ruling SC-N1): the first seat
  clockwise after the active vehicle's controller that is not on that controller's side, so
  that the player attacking it never decides for it.

When it activates it counts as being in the current Gear Phase's gear and it may activate any
number of times in one Gear Phase (its activations are ``free``: they never use up a phase).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.votes import allies

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState

EFFECT = "scenario:neutral_vehicles"
NO_KEEPER = -1
"""``player`` of a neutral vehicle during set-up, before anyone keeps it: no seat's, so
set-up steps that place "the player's vehicles" never take it for one of theirs."""
NEUTRAL_GEAR = 6
"""A neutral vehicle's top gear: it must be able to stand in any Gear Phase's gear."""


def neutrals(game: Game) -> list[VehicleState]:
    """The vehicles in play that belong to no player, in table order."""
    return [v for v in game.state.in_play() if v.neutral]


def keeper(game: Game, player: int) -> int:
    """Ruling SC-N1: who decides for a neutral vehicle while ``player``'s vehicle is active:
    the next seat clockwise not on ``player``'s side (``player`` itself if all are)."""
    st = game.state
    side = allies(game, player)
    for k in range(1, st.players + 1):
        p = (player + k) % st.players
        if p not in side:
            return p
    return player


def hand_to_keeper(game: Game, player: int) -> None:
    """Give every neutral vehicle to the keeper for ``player``'s activation."""
    who = keeper(game, player)
    for v in game.state.vehicles.values():
        if v.neutral:
            v.player = who


def install_neutrals(game: Game) -> None:
    """Keep neutral vehicles with their keeper whenever a player's vehicle activates (call
    from a scenario's ``install``)."""
    def start(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if not v.neutral:
            hand_to_keeper(game, v.player)
        yield from ()

    game.effects.add_flow("activation_start", EFFECT, lambda ctx: start, 1000, once=True)


def neutral_activation(game: Game, v: VehicleState, controller: int, *, source: str,
                       page: int) -> Flow:
    """``v`` (a neutral vehicle) activates once, driven by ``controller``, in the current
    Gear Phase's gear; the activation does not use up its Gear Phase (it may activate again).
    Afterwards it goes back to its keeper."""
    st = game.state
    if not v.in_play or st.finished:
        return
    hand_to_keeper(game, controller)
    v.player = controller
    phase = max(1, min(st.gear_phase, NEUTRAL_GEAR))
    if v.gear != phase:
        v.gear = phase
        game.emit("gear", source=source, page=page, vehicle=v.id, gear=phase)
    game.emit("neutral_activation", source=source, page=page, vehicle=v.id,
              player=controller, phase=st.gear_phase)
    saved = st.active
    yield from activation(game, v, free=True)
    st.active = saved
    v.player = keeper(game, controller)


def add_neutral(game: Game, v: VehicleState) -> None:
    """Put the neutral vehicle ``v`` into the game during set-up, installing the rules its
    weapons, upgrades, perks and special rules carry (journaled, so copies rebuild them)."""
    from carnage.games.refuelled.engine.rulebook import rule_ids

    v.neutral = True
    v.player = NO_KEEPER  # nobody's until the first activation hands it to a keeper
    game.state.vehicles[v.id] = v
    for family, rid in rule_ids(game, v):
        game.install_rule(family, rid, v, f"{family}:{rid}:{v.id}")
    game.emit("neutral_vehicle", source="scenario", vehicle=v.id, name=v.name,
              x=round(v.pose.x, 3), y=round(v.pose.y, 3), heading=round(v.pose.heading, 3))
