"""What makes a restore quick keeps its answers: the type check's quick walk (no path strings)
refuses exactly what the walk naming places refuses, with the same message; dice rebuilt
without seeding a generator roll as seeded ones do; the codec's remembered enums and its
one-update dataclass fields decode as the walk that names places."""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from typing import Any

import pytest

import carnage
from carnage.games.refuelled.engine.state import GameState, Status
from carnage.kernel import codec
from carnage.kernel.codec import _decode, decode, encode
from carnage.kernel.dice import SeededDice, dice_from_json, dice_to_json
from carnage.kernel.validate import Invalid, check_value, checker, json_value, run_check


def _played(seed: int, choices: int) -> Any:
    g = carnage.new_game(ruleset="refuelled", scenario="street-race", seed=seed)
    for _ in range(choices):
        d = g.pending()
        if d is None:
            break
        g.apply(d.options[-1].value if d.domain is None else d.domain.high)
    return g


def compiled_state() -> bool:
    return not str(sys.modules[GameState.__module__].__file__).endswith(".py")


def _named(value: Any, tp: Any) -> str | None:
    """The message of the walk that names places from the start, or None."""
    try:
        checker(tp)(value, "state")
    except Invalid as e:
        return str(e)
    return None


def _quick(value: Any, tp: Any) -> str | None:
    try:
        check_value(value, tp, "state")
    except Invalid as e:
        return str(e)
    return None


CHANGES: list[tuple[str, Any]] = [
    ("gear as text", lambda s: setattr(s.vehicles["p1-red-car"], "gear", "3")),
    ("hull a bool", lambda s: setattr(s.vehicles["p1-red-car"], "hull", True)),
    ("a pose's x infinite",
     lambda s: s.vehicles["p1-red-car"].__dict__.__setitem__("pose", None)),
    ("a vehicle keyed by a number", lambda s: s.vehicles.__setitem__(
        7, s.vehicles["p1-red-car"])),
    ("votes a tuple", lambda s: setattr(s, "votes", (0, 0))),
    ("memory holding 1e300", lambda s: s.memory.__setitem__("x", {"y": [1, {"z": 1e300}]})),
    ("scenario progress with a bad key", lambda s: setattr(s, "scenario", {(1, 2): 3})),
    ("a weapon mount's name a number",
     lambda s: setattr(s.vehicles["p1-red-car"].weapons[0], "weapon", 5)),
]


@pytest.mark.parametrize("change", [c for _, c in CHANGES], ids=[n for n, _ in CHANGES])
def test_the_quick_walk_refuses_as_the_walk_naming_places(change: Any) -> None:
    state = copy.deepcopy(_played(3, 25).state)
    assert _quick(state, GameState) is None and _named(state, GameState) is None
    try:
        change(state)
    except (TypeError, AttributeError):
        # a compiled (mypyc) state class refuses a value of the wrong type itself, and has no
        # ``__dict__``: only compiled, and then the state is left as it was
        assert compiled_state()
        assert _quick(state, GameState) is None
        return
    named = _named(state, GameState)
    if named is None and compiled_state():  # its int field made the flag a number (1)
        assert state.vehicles["p1-red-car"].hull == 1
        return
    assert named is not None and named.startswith("state")
    assert _quick(state, GameState) == named


def test_played_states_pass_both_walks() -> None:
    for seed, n in ((1, 10), (2, 40), (5, 80)):
        state = _played(seed, n).state
        assert _quick(state, GameState) is None
        assert _named(state, GameState) is None


def test_run_check_names_the_place_in_plain_json() -> None:
    with pytest.raises(Invalid) as e:
        run_check(json_value, [1, {"a": [2, float("nan")]}], "choices")
    assert str(e.value).startswith("choices[1].a[1]: ")
    run_check(json_value, [1, {"a": [2, 3.5]}, None, "x"], "choices")


def test_dice_built_at_a_state_roll_as_seeded_dice_restored_there() -> None:
    for seed in (0, 7, "table-3"):
        a = SeededDice(seed)
        a.roll(17)
        state = a.state()
        b = SeededDice(seed)
        b.restore(state)
        c = SeededDice.at(seed, state)
        d = a.fork()
        assert c.seed == seed and c.rolled == a.rolled == d.rolled
        assert b.roll(50) == c.roll(50) == d.roll(50) == a.roll(50)
        assert b.state() == c.state() == d.state() == a.state()


@pytest.mark.parametrize("packed", [True, False])
def test_dice_round_trip_through_json(packed: bool) -> None:
    a = SeededDice(11)
    a.roll(5)
    raw = json.loads(json.dumps(dice_to_json(a, a.state(), packed=packed)))
    b, state = dice_from_json(raw)
    assert state == a.state()
    assert b.roll(30) == a.roll(30)


@pytest.mark.parametrize("words", ["AAAA!AAA", "AAAAAAA", "AAA=AAAA", "ÄAAA", "AAAAAA=="])
def test_packed_words_not_whole_base64_words_are_refused(words: str) -> None:
    a = SeededDice(1)
    raw = dice_to_json(a, a.state(), packed=True)
    raw["rng"][1] = words
    with pytest.raises(ValueError, match="dice: bad generator state"):
        dice_from_json(raw)


def test_remembered_enums_and_dataclass_fields_decode_as_the_walk() -> None:
    state = _played(4, 30).state
    raw = json.loads(json.dumps(encode(state)))
    fast, walked = decode(raw), _decode(raw)
    assert encode(fast) == encode(walked) == raw
    for v in fast.vehicles.values():
        assert type(v.status) is Status
        twin = walked.vehicles[v.id]
        assert v == twin and all(type(getattr(v, f.name)) is type(getattr(twin, f.name))
                                 for f in dataclasses.fields(v))
    assert decode({"$e": "carnage.games.refuelled.engine.state:Status", "v": "active"}) \
        is Status.ACTIVE
    assert "carnage.games.refuelled.engine.state:Status" in codec._ENUMS


def test_an_enum_that_is_not_one_is_refused_even_when_remembered() -> None:
    decode({"$e": "carnage.games.refuelled.engine.state:Status", "v": "active"})
    with pytest.raises(codec.CodecError, match="not an enum"):
        decode({"$e": "carnage.games.refuelled.engine.state:GameState", "v": 1})
    with pytest.raises(codec.CodecError):
        decode({"$e": "carnage.games.refuelled.engine.state:Status", "v": "no such status"})
