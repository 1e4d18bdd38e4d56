"""The event log refuses what would not replay as JSON, with or without the quick check."""

from __future__ import annotations

import json
import math
from enum import StrEnum

import pytest

from carnage.kernel.events import EventLog


class Colour(StrEnum):
    RED = "red"


def test_plain_values_are_logged_as_given() -> None:
    log = EventLog()
    ev = log.emit("roll", source="skid", page=12, a=1, b=2.5, c="x", d=None, e=True,
                  f=math.inf, g=Colour.RED, h=[1, {"k": (2, 3)}])
    assert ev.data["g"] == "red" and len(log) == 1
    json.dumps(ev.to_json())


@pytest.mark.parametrize("bad", [{1, 2}, object(), [1, {2}], {"k": object()}, {(1, 2): 3}])
def test_values_json_cannot_hold_are_refused(bad: object) -> None:
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit("roll", value=bad)
    assert len(log) == 0


def test_a_kind_or_page_that_is_not_json_is_refused() -> None:
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit(object(), value=1)
    with pytest.raises(TypeError):
        log.emit("roll", page=object(), value=1)
    assert len(log) == 0


def test_an_int_too_long_to_print_is_refused_as_json_refuses_it() -> None:
    huge = 10 ** 5000
    with pytest.raises(ValueError):
        json.dumps(huge)
    with pytest.raises(ValueError):
        EventLog().emit("roll", value=huge)


def test_lists_of_plain_values_pass_the_quick_check_and_bad_items_are_still_refused() -> None:
    log = EventLog()
    ev = log.emit("roll", dice=[1, 6, 3], faces=["shift", "hazard"], mixed=[None, 2.5, True])
    assert ev.data["dice"] == [1, 6, 3]
    with pytest.raises(TypeError):
        log.emit("roll", dice=[1, object()])
    with pytest.raises(ValueError):
        log.emit("roll", dice=[1, 10 ** 5000])
    assert len(log) == 1
