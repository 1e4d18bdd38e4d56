"""Declared queries (``kernel/queries.py``): a parameter refuses what it does not take with a
sentence naming it, a declaration that could not be built into a command and a route is
refused when made, and a ruleset collection offers each query once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.dice_queries import SUM, dice_ruleset, reach

from carnage.kernel.queries import (
    CliFlag,
    QueryError,
    choice_param,
    flag_param,
    int_param,
    offered,
)
from carnage.rulesets import RULESETS


def test_a_parameter_names_itself_and_what_it_takes() -> None:
    dice = int_param("dice", "Dice.", low=1, high=4, required=True)
    assert dice.check(3) == 3
    with pytest.raises(QueryError, match=r"^--dice must be between 1 and 4, not 5$"):
        dice.check(5, "--dice")
    with pytest.raises(QueryError, match=r"^dice is required$"):
        dice.check(None)
    with pytest.raises(QueryError, match="whole number, not True"):
        dice.check(True)
    with pytest.raises(QueryError, match=r"^n must be at least 0, not -1$"):
        int_param("n", "N.", low=0).check(-1)
    with pytest.raises(QueryError, match=r"^n must be at most 9, not 10$"):
        int_param("n", "N.", high=9).check(10)
    assert int_param("gear", "Gear.", low=1, high=6).check(None) is None  # optional
    faces = choice_param("faces", "Faces.", ("d6", "d3"), default="d6")
    with pytest.raises(QueryError, match=r"^faces must be d6 or d3, not 'd8'$"):
        faces.check("d8")
    with pytest.raises(QueryError, match="true or false, not 'yes'"):
        flag_param("cover", "Cover.").check("yes")


def test_a_query_fills_defaults_and_refuses_what_it_does_not_take() -> None:
    assert SUM.check({"dice": 2}) == {"dice": 2, "at_least": 7, "drop_lowest": False,
                                      "faces": "d6"}
    assert SUM.json({"dice": 2}) == reach(2, 7, False, "d6")
    assert SUM.json({"dice": 2})["exact"] == "7/12"  # 21 of the 36 rolls total 7 or more
    with pytest.raises(QueryError, match="dicetest/sum takes no sides"):
        SUM.check({"dice": 2, "sides": 6})


@pytest.mark.parametrize(("change", "message"), [
    ({"params": (int_param("n", "N."),)}, "its answer takes no n"),
    ({"params": (int_param("dice", "D."), int_param("dice", "D."))}, "repeats a parameter"),
    ({"path": "games/sum"}, "not starting with one of"),
    ({"path": "Dice Sum"}, "lower-case words"),
])
def test_a_declaration_that_cannot_be_built_is_refused(change: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replace(SUM, **change)


def test_parameter_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="lower_snake_case, not a Python keyword"):
        flag_param("json", "Clashes with --json.")
    with pytest.raises(ValueError, match="lower_snake_case, not a Python keyword"):
        int_param("from", "Not a keyword argument.")
    with pytest.raises(ValueError, match="names no word"):
        choice_param("faces", "F.", ("d6",), flags=(CliFlag("d8", "d8", "Eight."),))
    with pytest.raises(ValueError, match="a required parameter has no default"):
        int_param("n", "N.", default=1, required=True)


def test_an_overlay_offering_its_parents_query_lists_it_once() -> None:
    found = {q.path: names for q, names in offered(RULESETS)}
    assert found["skid"] == ("refuelled", "kart", "legacy")
    assert found["kart/smash"] == ("kart",) and "attack" in found
    assert len(found) == sum(1 for _ in offered(RULESETS))
    every = {q.path for r in RULESETS.values() for q in r.queries if q.tool == "odds"}
    assert set(found) == every


def test_two_declarations_of_one_path_are_an_error() -> None:
    other = replace(dice_ruleset(), name="other-dice",
                    queries=(replace(SUM, answer=lambda **kw: reach(**kw)),))
    with pytest.raises(ValueError, match="'dicetest/sum' is declared differently by "
                                         "dice-test and other-dice"):
        offered(RULESETS.with_ruleset(dice_ruleset()).with_ruleset(other))
