"""A restored game keeps the state it resumed from as its snapshot's text (not pickled): what
it copies, snapshots and plays from that checkpoint is what a game with a pickled checkpoint
gives; a document that would not read back as the same state (a value not of exactly a JSON
type, a class named where it lived before its module moved) is kept pickled, as before."""

from __future__ import annotations

import copy
import random
from enum import StrEnum
from typing import Any

import pytest

import carnage
from carnage.ai import make_bot
from carnage.kernel import jsontext
from carnage.kernel.codec import decode, decode_exact
from carnage.kernel.game import SnapshotError


def _drive(g: Any, n: int, seed: int) -> Any:
    """``g`` after up to ``n`` more choices of the heuristic bot (its dice seeded ``seed``)."""
    rng = random.Random(seed)
    for _ in range(n):
        d = g.pending()
        if d is None:
            break
        g.apply(make_bot("heuristic").choose(g, d, rng))
    return g


def _played(seed: int, n: int) -> Any:
    return _drive(carnage.new_game(ruleset="refuelled", scenario="street-race", seed=seed),
                  n, seed)


def _play_on(g: Any, n: int, seed: int) -> list[Any]:
    return [e.to_json() for e in _drive(g, n, seed).log.events]


def test_a_restored_game_keeps_its_checkpoint_as_the_snapshots_text() -> None:
    for seed, n in ((3, 25), (5, 40), (8, 60)):
        g = _played(seed, n)
        doc = jsontext.loads(jsontext.dumps(g.snapshot()))
        r = carnage.restore(doc)
        cp = r._checkpoint
        assert cp._json is not None and cp._blob is None  # text, not a pickled copy
        assert cp.pickled  # never changed once made: a copy resumes from it as it is
        # the checkpoint's state is the document's state, not the state the replay changed
        assert cp.state == decode(doc["state"])
        first = cp.state_copy()  # decoded from the text, and pickled for the copies after it
        assert cp._blob is not None and cp._json is not None
        assert first == cp.state and first is not cp.state
        assert cp.state_copy() == first and cp.state_copy() is not first
        assert cp.state_document() == doc["state"]
        # changing the document after the restore changes nothing the game kept
        kept = copy.deepcopy(doc)
        doc["state"]["f"]["round"] = 999
        assert r.snapshot() == kept
        assert r.clone().snapshot() == kept
        # the restored game, a copy of it and the game itself play on alike
        c = r.clone()
        assert _play_on(r, 30, seed) == _play_on(c, 30, seed) == _play_on(g, 30, seed)


def test_a_state_holding_what_json_text_cannot_keep_is_pickled_as_before() -> None:
    class Mood(StrEnum):
        GRIM = "grim"

    g = _played(4, 30)
    doc = g.snapshot()
    doc["state"]["f"]["scenario"]["mood"] = Mood.GRIM  # a Python caller's document, not JSON
    state, exact = decode_exact(doc["state"])
    assert not exact and state.scenario["mood"] is Mood.GRIM
    r = carnage.restore(doc)
    cp = r._checkpoint
    assert cp._json is None  # a copy made as before, keeping the enum member
    assert cp.state.scenario["mood"] is Mood.GRIM
    assert r.clone().state.scenario["mood"] is Mood.GRIM


def test_exact_documents_are_what_the_quick_walk_reads_and_bad_ones_are_still_refused() -> None:
    g = _played(6, 30)
    doc = jsontext.loads(jsontext.dumps(g.snapshot()))
    state, exact = decode_exact(doc["state"])
    assert exact and state == decode(doc["state"])
    for field, value in (("round", "two"), ("round", True), ("width", float("nan"))):
        bad = copy.deepcopy(doc)
        bad["state"]["f"][field] = value  # refused with the place named, as before
        with pytest.raises(SnapshotError, match=f"state.{field}"):
            carnage.restore(bad)
