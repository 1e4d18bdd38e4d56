"""Snapshots and stored rows as JSON text through orjson (``kernel/jsontext.py``): every
document reads back as the one ``json`` would give, and what orjson cannot hold as ``json``
does is left to ``json`` rather than changed."""

from __future__ import annotations

import enum
import json
import math
import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rulesets.helpers import short_games

import carnage
from carnage.ai import bots_for
from carnage.kernel import jsontext
from carnage.rulesets import RULESETS


def _json_round_trip(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def _same(a: Any, b: Any) -> bool:
    """Equal as documents, NaN equal to NaN (compared through json's own text)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize(("name", "scenario"), [
    ("refuelled", "street-race"), ("refuelled", "death-race"), ("kart", "street-race"),
    ("legacy", "arena-of-death"), ("devils-run", "devils-run"),
])
def test_every_snapshot_of_seeded_games_reads_back_as_json_would_give_it(
        name: str, scenario: str) -> None:
    rs = RULESETS[name]
    maker = short_games(rs, scenario)
    seen = 0
    for seed in range(4):
        g = maker.new_game(seed)
        bots = bots_for(rs, ["random"] * g.players)
        rng = random.Random(seed)
        n = 0
        while (d := g.pending()) is not None and n < 400:
            n += 1
            if n % 5 == 1:
                doc = g.snapshot()
                assert jsontext.plain(doc), "a snapshot is plain JSON data: orjson writes it"
                text = jsontext.dumps(doc)
                assert text == orjson.dumps(doc).decode()
                want = _json_round_trip(doc)
                got = jsontext.loads(text)
                assert got == want
                assert jsontext.loads(json.dumps(doc)) == want  # rows json wrote before
                assert jsontext.loads(text.encode()) == want
                seen += 1
                if n % 25 == 1:  # and the game read back from the text is the game
                    again = carnage.restore(got)
                    assert again.snapshot() == doc
            g.apply(bots[d.player].choose(g, d, rng))
    assert seen >= 10


def test_nan_and_infinity_are_left_to_json_never_written_as_null() -> None:
    for bad in (math.nan, math.inf, -math.inf):
        doc = {"state": {"x": [1.5, {"y": bad}]}, "n": None}
        assert not jsontext.plain(doc)
        text = jsontext.dumps(doc)
        assert text == json.dumps(doc)  # NaN / Infinity, as json wrote them
        assert "null" in text and _same(jsontext.loads(text), doc)
    assert orjson.dumps({"x": math.nan}) == b'{"x":null}'  # what orjson alone would write


def test_integers_beyond_64_bits_stay_exact_both_ways() -> None:
    for big in (2**64, 2**64 - 1, 2**63, -(2**63) - 1, 10**29, -(10**25)):
        doc = {"seed": big, "list": [big, "x"]}
        text = jsontext.dumps(doc)
        back = jsontext.loads(text)
        assert back == doc and type(back["seed"]) is int
        assert jsontext.loads(json.dumps(doc)) == doc  # text json wrote
    # orjson alone reads an integer beyond 64 bits as a float: loads does not let it
    assert type(orjson.loads("18446744073709551616")) is float
    assert jsontext.loads("18446744073709551616") == 2**64


def test_what_orjson_refuses_is_written_as_json_writes_it() -> None:
    class Colour(enum.Enum):
        RED = 1

    class Level(enum.IntEnum):
        HIGH = 3

    assert jsontext.dumps({1: "a", None: 2}) == json.dumps({1: "a", None: 2})
    assert jsontext.dumps({"k": Level.HIGH}) == json.dumps({"k": Level.HIGH})
    assert jsontext.dumps(["\ud800"]) == json.dumps(["\ud800"])
    assert jsontext.loads(json.dumps(["\ud800"])) == ["\ud800"]
    unescaped = json.dumps(["\ud800"], ensure_ascii=False)  # the surrogate itself in the text
    assert jsontext.loads(unescaped) == json.loads(unescaped) == ["\ud800"]
    with pytest.raises(TypeError):  # json refuses it; orjson would have written 1
        jsontext.dumps({"colour": Colour.RED})
    deep: Any = []
    for _ in range(300):  # deeper than orjson writes
        deep = [deep]
    assert jsontext.loads(jsontext.dumps(deep)) == deep


def test_text_that_is_not_json_is_refused_with_jsons_error() -> None:
    for bad in ("{", '{"a": }', "", "[1, 2", b"\xff\xfe"):
        with pytest.raises(ValueError):
            jsontext.loads(bad)


_keys = st.one_of(st.text(max_size=6), st.integers(-5, 5))
_leaves = st.one_of(
    st.none(), st.booleans(), st.text(max_size=8),
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True),
)
_docs = st.recursive(
    _leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.lists(inner, max_size=3).map(tuple),
                            st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_docs)
def test_any_document_reads_back_as_json_would_give_it(doc: Any) -> None:
    text = jsontext.dumps(doc)
    assert _same(jsontext.loads(text), _json_round_trip(doc))
    assert _same(jsontext.loads(json.dumps(doc)), _json_round_trip(doc))
