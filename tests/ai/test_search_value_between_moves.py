"""The search bot's value of a Refuelled-based position (Refuelled, the Kart variant and
Legacy share ``RefuelledAdapter``) is read wherever a rollout's horizon cuts, often between
one seat's move and another's in the same Gear Phase. A vehicle's move still to come in the
phase is counted (``RefuelledAdapter.MOVE``), so the seat that has just moved is not rated the
winner for that move alone."""

from __future__ import annotations

import random

import pytest

from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.rulesets import get_ruleset


def _first_move(ruleset: str, seed: int) -> tuple[Game, HeuristicBot, random.Random]:
    """A seeded Street Race played by the heuristic bot up to its first movement decision."""
    g = get_ruleset(ruleset).new_game(scenario="street-race", seed=seed)
    assert isinstance(g, Game)
    bot, rng = HeuristicBot(), random.Random(seed)
    while (d := g.pending()) is not None and d.kind != "template":
        g.apply(bot.choose(g, d, rng))
    return g, bot, rng


@pytest.mark.parametrize("ruleset", ["refuelled", "kart", "legacy"])
@pytest.mark.parametrize("seed", [0, 2])
def test_the_seat_that_has_moved_is_not_favoured_for_its_move_alone(ruleset: str,
                                                                    seed: int) -> None:
    game, bot, rng = _first_move(ruleset, seed)
    st = game.state
    ad = RefuelledAdapter(2)
    d0 = game.pending()
    assert d0 is not None
    mover, phase = d0.player, st.gear_phase
    # The grid is level, and the active vehicle, still in its Movement Step, has its move
    # to come as much as the other seat's vehicles.
    assert st.active is not None and phase in st.vehicles[st.active].activated_phases
    assert ad.values(game) == pytest.approx([0.5, 0.5])
    # The mover's whole activation, up to the other seat's turn in the same phase.
    while (d := game.pending()) is not None and d.player == mover:
        game.apply(bot.choose(game, d, rng))
    assert st.gear_phase == phase and st.round == 1
    other = 1 - mover
    assert any(phase not in v.activated_phases for v in st.vehicles_of(other))
    # Counting the other seat's move still to come, the mover leads only by what its move
    # made beyond an expected one: it was rated 0.87 to 0.89 without it.
    assert ad.values(game)[mover] < 0.66


def _mid_phase() -> tuple[Game, RefuelledAdapter, int]:
    """Refuelled's Street Race of seed 0 after the first mover's activation in phase 1, the
    other seat's vehicles yet to move."""
    g, bot, rng = _first_move("refuelled", 0)
    d0 = g.pending()
    assert d0 is not None
    mover = d0.player
    while (d := g.pending()) is not None and d.player == mover:
        g.apply(bot.choose(g, d, rng))
    return g, RefuelledAdapter(2), mover


def test_the_move_to_come_is_worth_move_to_the_seat_yet_to_move() -> None:
    game, ad, mover = _mid_phase()
    st = game.state
    other = 1 - mover
    mid = ad.values(game)
    # The same poses once the other seat's vehicles have activated in this phase too (its
    # moves made for nothing): the mover's lead is no longer offset by a move to come.
    for v in st.vehicles_of(other):
        v.activated_phases.add(st.gear_phase)
    after = ad.values(game)
    assert after[mover] > mid[mover] + 0.2
    assert after[mover] > 0.8


def test_a_vehicle_whose_gear_is_below_the_phase_has_no_move_to_come() -> None:
    game, ad, mover = _mid_phase()
    st = game.state
    other = 1 - mover
    v = st.vehicles_of(other)[0]
    assert ad._to_come(game, v) == ad.MOVE
    st.gear_phase = v.gear + 1  # a phase its gear does not reach (p.19)
    assert ad._to_come(game, v) == 0.0
    st.gear_phase = v.gear
    v.activated_phases.add(v.gear)
    assert ad._to_come(game, v) == 0.0


def test_the_active_vehicle_in_its_movement_step_has_its_move_to_come_whatever_its_gear() -> None:
    game, _, _ = _first_move("refuelled", 0)
    st = game.state
    assert st.active is not None and st.step == "movement"
    v = st.vehicles[st.active]
    ad = RefuelledAdapter(2)
    assert ad._to_come(game, v) == ad.MOVE
    # a gear now below the phase (a shift down during the move) leaves the move to come
    st.gear_phase = v.gear + 1
    assert ad._to_come(game, v) == ad.MOVE
    st.step = "attack"  # moved: its move is made
    assert ad._to_come(game, v) == 0.0
