"""``ask``: a decision over labelled options, each an immutable ``Option`` (equal to the same
option asked again); options that differ only in type stay apart (the option 1 is never the
option True)."""

from __future__ import annotations

import pytest

from carnage.games.refuelled.engine.game import ask
from carnage.kernel.decisions import IllegalChoice, Option


def test_options_are_equal_by_value_and_keep_their_types() -> None:
    a = ask(0, "pick", "which?", [("short_straight", "Short"), (1, "one")])
    b = ask(1, "pick", "again?", [("short_straight", "Short"), (True, "one")])
    assert a.options[0] == b.options[0] == Option("short_straight", "Short")
    assert hash(a.options[0]) == hash(Option("short_straight", "Short"))
    assert a.options[1] == Option(1, "one") and type(a.options[1].value) is int
    assert type(b.options[1].value) is bool
    assert a.validate(1) == 1
    with pytest.raises(IllegalChoice):
        a.validate(True)
    assert b.validate(True) is True


def test_an_option_asked_by_turns_as_1_and_true_keeps_each_type() -> None:
    # 1 and True are equal (and hash alike): each decision still gets an option of the type it
    # asked for, however they alternate
    for value in (1, True, 1, True, True, 1):
        d = ask(0, "pick", "which?", [(value, "one"), ("x", "ex")])
        assert type(d.options[0].value) is type(value) and d.options[0] == Option(value, "one")
        assert d.validate(value) is value
        with pytest.raises(IllegalChoice):
            d.validate(not value if isinstance(value, bool) else True)
