"""Seeded dice draw exactly what ``random.Random(seed).randint(1, sides)`` draws, die by die
(the roll calls the generator's unit-step draw directly), so seeded games are unchanged."""

from __future__ import annotations

import random

import pytest

from carnage.kernel.dice import SeededDice


@pytest.mark.parametrize("seed", [0, 1, 12345, "table-7"])
def test_seeded_rolls_are_randint_draws(seed: int | str) -> None:
    dice, rng = SeededDice(seed), random.Random(seed)
    for n, sides in [(1, 6), (3, 6), (10, 6), (5, 20), (7, 2), (4, 1000), (2, 3), (0, 6)]:
        assert dice.roll(n, sides) == [rng.randint(1, sides) for _ in range(n)]
    assert dice.state()[0] == rng.getstate()


def test_bad_rolls_are_refused_as_before() -> None:
    with pytest.raises(ValueError, match="cannot roll -1 dice"):
        SeededDice(0).roll(-1)
    with pytest.raises(ValueError, match="at least 2 sides"):
        SeededDice(0).roll(1, 1)
