"""A test-only ruleset that declares one odds query of its own (``dicetest/sum``): the chance
that a few D6 reach a total, worked out by counting every roll. Tests add it to the registry
(``RULESETS.with_ruleset``) to see the command line and the web build its command and route
from the declaration alone."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

from carnage.kernel.queries import Args, Block, Query, choice_param, flag_param, int_param
from carnage.kernel.ruleset import Ruleset, Rulesets
from carnage.rulesets import RULESETS


def reach(dice: int, at_least: int, drop_lowest: bool, faces: str) -> dict[str, Any]:
    sides = {"d6": 6, "d3": 3}[faces]
    rolls = list(product(range(1, sides + 1), repeat=dice))
    hits = sum(1 for r in rolls if sum(sorted(r)[1:] if drop_lowest else r) >= at_least)
    p = Fraction(hits, len(rolls))
    return {"dice": dice, "at_least": at_least, "p": float(p), "exact": str(p)}


def report(answer: dict[str, Any], a: Args) -> list[Block]:
    return [f"P({a['dice']} dice total {a['at_least']}+) {answer['p']:.2%} ({answer['exact']})"]


SUM = Query(
    "dicetest/sum", "Test dice: chance a few dice reach a total",
    (int_param("dice", "Dice rolled.", low=1, high=4, required=True),
     int_param("at_least", "The total to reach.", low=0, high=24, default=7),
     flag_param("drop_lowest", "Leave out the lowest die."),
     choice_param("faces", "d6 or d3.", ("d6", "d3"), default="d6")),
    reach, lambda answer: answer, report,
    description="The chance a few dice reach a total (a test ruleset's query).")


def dice_ruleset() -> Ruleset:
    """A ruleset offering only ``dicetest/sum`` (otherwise Devil's Run's pieces)."""
    return replace(RULESETS["devils-run"], name="dice-test", title="Test Dice",
                   queries=(SUM,))


def with_dice() -> Rulesets:
    """The registry's rulesets and the test one."""
    return RULESETS.with_ruleset(dice_ruleset())
