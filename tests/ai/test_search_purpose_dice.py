"""The search's simulated dice keyed by a roll's purpose (``ai/search.py`` ``PurposeDice``):
the same event meets the same luck in two lines of play that rolled different dice before
it, so candidates are compared on the same luck (Devil's Run names every roll's purpose)."""

from __future__ import annotations

import random

from carnage.ai.search import CallDice, PurposeDice, SearchBot
from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.search import DevilsRunAdapter
from carnage.kernel.dice import KeyedDice, SeededDice


def test_one_purpose_gets_the_same_rolls_whatever_was_rolled_before() -> None:
    plain, shifted = PurposeDice(7), PurposeDice(7)
    shifted.roll(3, 6)
    shifted.roll_for("stash pick-up", 1, 10)
    for _ in range(3):  # the first, second and third roll for one purpose
        assert plain.roll_for("evade", 10, 10) == shifted.roll_for("evade", 10, 10)
    # The control: dice keyed by the call count alone shift with one extra roll.
    a, b = CallDice(7), CallDice(7)
    b.roll(1, 6)
    assert a.roll(10, 10) != b.roll(10, 10)


def test_purposes_and_seeds_draw_their_own_luck() -> None:
    d = PurposeDice(7)
    rolls = {tuple(d.roll_for(f"evade|{i}", 10, 10)) for i in range(20)}
    assert len(rolls) == 20
    assert PurposeDice(7).roll_for("evade", 10, 10) != PurposeDice(8).roll_for("evade", 10, 10)
    assert isinstance(d, KeyedDice) and not isinstance(SeededDice(7), KeyedDice)


def test_state_and_restore_carry_the_counts_of_each_purpose() -> None:
    d = PurposeDice(3)
    d.roll_for("evade", 1, 10)
    d.roll(2, 3)
    saved = d.state()
    ahead = [d.roll_for("evade", 5, 10), d.roll(5, 6)]
    d.restore(saved)
    assert [d.roll_for("evade", 5, 10), d.roll(5, 6)] == ahead


def test_a_fork_rolls_what_the_dice_would_roll_next_and_keeps_its_kind() -> None:
    for dice in (CallDice(4), PurposeDice(4)):
        dice.roll(2, 6)
        if isinstance(dice, PurposeDice):
            dice.roll_for("evade", 1, 10)
        twin = dice.fork()
        assert type(twin) is type(dice)
        assert twin.roll(5, 6) == dice.roll(5, 6)
        if isinstance(dice, PurposeDice) and isinstance(twin, PurposeDice):
            assert twin.roll_for("evade", 5, 10) == dice.roll_for("evade", 5, 10)


def test_a_devils_run_copy_on_purpose_dice_clones_with_them() -> None:
    g = DEVILS_RUN.new_game("devils-run", seed=2)
    g.dice = PurposeDice(6)
    twin = g.clone()  # ``copy_dice`` forks the dice
    assert type(twin.dice) is PurposeDice
    rng = random.Random(0)
    for game in (g, twin):
        while (d := game.pending()) is not None and game.state.turn < 2:
            game.apply(heuristic_bot(game, d, rng))
    assert [e.to_json() for e in g.log.events] == [e.to_json() for e in twin.log.events]


class _Told(PurposeDice):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.keys: list[str] = []

    def roll_for(self, key: str, n: int, sides: int = 6) -> list[int]:
        self.keys.append(key)
        return super().roll_for(key, n, sides)


def _at_a_move(seed: int) -> DevilsRunGame:
    """A seeded Devil's Run game at its first choice of a move by player 0."""
    g = DEVILS_RUN.new_game("devils-run", seed=seed)
    rng = random.Random(0)
    while (d := g.pending()) is not None:
        if d.kind == "action" and d.player == 0 and "peddle" in [o.value for o in d.options]:
            return g
        g.apply(heuristic_bot(g, d, rng))
    raise AssertionError("no move to choose")


def test_devils_run_names_the_rule_turn_and_vehicle_of_each_roll() -> None:
    g = _at_a_move(4)
    vid = g.state.act.vid if g.state.act is not None else ""
    copy = g.clone()
    copy.dice = _Told(11)
    copy.apply("peddle")
    turn = g.state.turn
    # The movement roll (DR-070; a bike with two D3 to keep one, DR-047) is keyed by its rule,
    # dice, turn and vehicle.
    assert copy.dice.keys[0] in (f"DR-070|1D3|{turn}|{vid}>#0", f"DR-047|2D3|{turn}|{vid}>#0")


def test_an_extra_roll_earlier_leaves_the_same_event_its_luck() -> None:
    g = _at_a_move(4)
    lines = []
    for extra in (0, 4):
        copy = g.clone()
        copy.dice = PurposeDice(11)
        copy.dice.roll(extra, 6)  # an unnamed roll: shifts a call-count stream
        copy.apply("peddle")
        lines.append([e.data["results"] for e in copy.log.events[len(g.log.events):]
                      if e.kind == "roll"])
    assert lines[0] and lines[0] == lines[1]


def test_seeded_and_scripted_dice_roll_in_order_as_always() -> None:
    a = DEVILS_RUN.new_game("devils-run", seed=5)
    b = DEVILS_RUN.new_game("devils-run", seed=5)
    rolls = SeededDice(5)
    assert next(e.data["results"] for e in a.log.events if e.kind == "roll") == rolls.roll(2, 10)
    assert a.snapshot() == b.snapshot()


def test_the_devils_run_search_plays_its_copies_on_purpose_dice() -> None:
    g = _at_a_move(4)
    sim = g.clone()
    DevilsRunAdapter.redeal(sim, 9)
    assert type(sim.dice) is PurposeDice
    bot = SearchBot("normal", iterations=6, seconds=None, horizon=8, seed=1)
    before = g.snapshot()
    choice = bot.choose(g, g.pending(), random.Random(0))
    assert choice in [o.value for o in g.pending().options]
    assert g.snapshot() == before  # the real game and its dice untouched
