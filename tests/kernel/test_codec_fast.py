"""The quick paths of the snapshot codec, the event log's JSON and the dice check give what
the walks that name places give (the same documents, the same values, the same errors)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import carnage
from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.shapes import Pose, Rect
from carnage.kernel import codec
from carnage.kernel.codec import CodecError, decode, encode
from carnage.kernel.dice import dice_from_json
from carnage.kernel.events import Event
from carnage.kernel.game import SnapshotError


def _states(seed: int, every: int = 7) -> list[Any]:
    g = carnage.new_game(seed=seed)
    bots, rng = [HeuristicBot(), HeuristicBot()], bot_rng(seed)
    out = []
    n = 0
    while (d := g.pending()) is not None and n < 400:
        n += 1
        if n % every == 0:
            out.append(g.state)
            out.append(g.snapshot())  # a whole document: plain dicts and lists
        g.apply(bots[d.player].choose(g, d, rng))
    return out


@pytest.mark.parametrize("seed", [1, 5])
def test_fast_encode_and_decode_match_the_walks_on_played_states(seed: int) -> None:
    for value in _states(seed):
        doc = codec._encode(value)
        assert json.dumps(encode(value)) == json.dumps(doc)
        text = json.loads(json.dumps(doc))
        assert decode(text) == codec._decode(text) == value


ODD: list[Any] = [
    {"tags": {"x", "y"}, "pair": (3, 4), "by_seat": {0: "zero"}, "$key": 1,
     "pose": Pose(1.5, -2.0, 90.0), "status": Status.WRECKED, "rect": Rect(Pose(1, 2, 3), 4, 5)},
    {Status.ACTIVE: [1, 2.5, None, True]}, {(1, 2): frozenset({(3, 4), (5, 6)})},
    [[], {}, (), set()], -0.0, 2**70, "$d",
]


@pytest.mark.parametrize("value", ODD)
def test_fast_paths_match_on_odd_values(value: Any) -> None:
    doc = encode(value)
    assert json.dumps(doc) == json.dumps(codec._encode(value))
    raw = json.loads(json.dumps(doc))
    back = decode(raw)
    assert back == codec._decode(raw) == value
    assert type(back) is type(value) or isinstance(value, frozenset)


BAD_VALUES: list[Any] = [{"f": lambda: None}, [1, float("inf")], {"a": {"b": (1, object())}},
                         {"s": {float("nan")}}]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_values_that_cannot_be_saved_are_named_as_before(value: Any) -> None:
    with pytest.raises(CodecError) as fast:
        encode(value)
    with pytest.raises(CodecError) as walk:
        codec._encode(value)
    assert str(fast.value) == str(walk.value) and str(fast.value).startswith("state")


BAD_DOCS: list[Any] = [
    {"$d": "os:system", "f": {}}, {"$d": "carnage.geometry.shapes:Pose", "f": {"x": 1}},
    {"a": [{"$d": "carnage.geometry.shapes:Pose", "f": {"x": 1, "y": 2, "heading": "n"}}]},
    {"$e": "carnage.games.refuelled.engine.state:Status", "v": "asleep"},
    {"$e": "carnage.geometry.shapes:Pose", "v": 1}, {"$t": 3}, {"$s": {}}, {"$m": [[1]]},
    {"x": {"$d": "carnage.geometry.shapes:Pose", "f": []}}, {"y": b"bytes"},
]


@pytest.mark.parametrize("raw", BAD_DOCS)
def test_bad_documents_are_named_as_before(raw: Any) -> None:
    with pytest.raises(CodecError) as fast:
        decode(raw, "doc")
    with pytest.raises(CodecError) as walk:
        codec._decode(raw, "doc")
    assert str(fast.value) == str(walk.value)


def test_values_of_subclasses_decode_as_the_walk_decodes_them() -> None:
    class Text(str):
        pass

    raw = {"a": [Text("x"), True, 3]}
    assert decode(raw) == codec._decode(raw) == {"a": ["x", True, 3]}


def test_a_renamed_module_is_looked_up_anew() -> None:
    name = "carnage.geometry.shapes:Pose"
    decode({"$d": name, "f": {"x": 1.0, "y": 2.0, "heading": 3.0}})
    assert name in codec._CLASSES
    codec.module_renamed("carnage.old_place_for_tests", "carnage.geometry")
    try:
        assert not codec._CLASSES
        moved = decode({"$d": "carnage.old_place_for_tests.shapes:Pose",
                        "f": {"x": 1.0, "y": 2.0, "heading": 3.0}})
        assert moved == Pose(1.0, 2.0, 3.0)
    finally:
        codec._RENAMED.pop("carnage.old_place_for_tests")
        codec._CLASSES.clear()


@pytest.mark.parametrize("raw", [
    {"seq": 3, "kind": "roll", "source": "core", "page": 12, "data": {"dice": [1, 2]}},
    {"seq": 3, "kind": "roll"},
    {"seq": "3", "kind": "roll", "page": "12"},
    {"seq": True, "kind": "roll", "page": 2.0, "data": {}},
    {"seq": 3.7, "kind": 5, "source": 1},
])
def test_events_from_json_as_before(raw: dict[str, Any]) -> None:
    e = Event.from_json(raw)
    expected = Event(seq=int(raw["seq"]), kind=str(raw["kind"]),
                     data=dict(raw.get("data", {})), source=str(raw.get("source", "core")),
                     page=None if raw.get("page") is None else int(raw["page"]))
    assert e == expected and type(e.seq) is int and (e.page is None or type(e.page) is int)
    if "data" in raw:
        assert e.data is not raw["data"]  # a copy, as before


@pytest.mark.parametrize("raw", [{"seq": "x", "kind": "roll"}, {"kind": "roll"}, [1, 2]])
def test_malformed_events_are_refused(raw: Any) -> None:
    with pytest.raises(ValueError, match="malformed event"):
        Event.from_json(raw)


@pytest.mark.parametrize("words", [[True] * 624 + [0], [2**32] + [0] * 624, [-1] * 625,
                                   [1.0] * 625, []])
def test_bad_generator_words_are_refused(words: list[Any]) -> None:
    with pytest.raises(ValueError, match="dice: bad generator state"):
        dice_from_json({"kind": "seeded", "seed": 1, "rng": [3, words, None], "rolled": 0})


def _doc_with_a_replayed_tail(version: int) -> dict[str, Any]:
    g = carnage.new_game(seed=3)
    bots, rng = [HeuristicBot(), HeuristicBot()], bot_rng(3)
    while (d := g.pending()) is not None:
        doc: dict[str, Any] = json.loads(json.dumps(g.snapshot(version)))
        if g.state.round >= 2 and doc["checkpoint"]["log"] + 3 < len(g.log.events):
            return doc
        g.apply(bots[d.player].choose(g, d, rng))
    raise AssertionError("no snapshot with events logged since its checkpoint")


def test_a_restore_still_checks_every_event_replayed_since_the_checkpoint() -> None:
    doc = _doc_with_a_replayed_tail(1)
    assert doc["carnage_snapshot"] == 1
    assert carnage.restore(doc).log.events[-1].to_json() == doc["log"][-1]
    for change in ("data", "kind", "more", "fewer"):
        bad = json.loads(json.dumps(doc))
        last = bad["log"][-1]
        if change == "data":
            last["data"]["forged"] = 1
        elif change == "kind":
            last["kind"] = "forged"
        elif change == "more":
            bad["log"].append({**last, "seq": last["seq"] + 1})
        else:
            bad["log"].pop()
        with pytest.raises(SnapshotError, match="does not replay"):
            carnage.restore(bad)


def test_a_compact_restore_checks_every_event_replayed_since_the_checkpoint() -> None:
    doc = _doc_with_a_replayed_tail(2)
    assert doc["carnage_snapshot"] == 2
    plain = _doc_with_a_replayed_tail(1)
    assert [e.to_json() for e in carnage.restore(doc).log.events] == plain["log"]
    for change in ("data", "kind", "more", "fewer"):
        bad = json.loads(json.dumps(doc))
        lines, forms = bad["log"]["lines"], bad["log"]["forms"]
        last = lines[-1]
        if change == "data":
            assert len(last) > 1  # the last event carries data
            last[-1] = "forged"
        elif change == "kind":
            forms.append(["forged", *forms[last[0]][1:]])
            last[0] = len(forms) - 1
        elif change == "more":
            lines.append(list(last))
        else:
            lines.pop()
        with pytest.raises(SnapshotError, match="does not replay"):
            carnage.restore(bad)
