"""A game can be copied and saved at any decision: ``clone``, ``snapshot`` and ``restore``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.copies import copies_diverge

import carnage
from carnage.ai import make_bot
from carnage.kernel.events import Event, log_to_lines
from carnage.kernel.game import SnapshotError
from carnage.rulesets import REFUELLED


def _played(seed: int, n: int) -> Any:
    g = carnage.new_game(seed=seed)
    bots = [make_bot("heuristic"), make_bot("random")]
    rng = random.Random(seed)
    for _ in range(n):
        d = g.pending()
        assert d is not None
        g.apply(bots[d.player].choose(g, d, rng))
    return g


def test_a_clone_is_independent_and_continues_identically() -> None:
    g = _played(3, 25)
    c = g.clone()
    assert c.pending() == g.pending() and c.state == g.state and c.state is not g.state
    before = json.dumps([e.to_json() for e in g.log.events])
    # Playing the clone on leaves the game as it was.
    bots = [make_bot("random")] * 2
    rng = random.Random(0)
    for _ in range(15):
        d = c.pending()
        if d is None:
            break
        c.apply(bots[d.player].choose(c, d, rng))
    assert json.dumps([e.to_json() for e in g.log.events]) == before
    assert copies_diverge(g, [make_bot("heuristic")] * 2, random.Random(1), steps=30) is None


@pytest.mark.parametrize("version", [1, 2])
def test_snapshot_is_versioned_json_and_restores_exactly(version: int) -> None:
    g = _played(5, 30)
    doc = json.loads(json.dumps(g.snapshot(version)))
    assert doc["carnage_snapshot"] == version and doc["ruleset"] == "refuelled"
    assert doc["config"]["scenario"] == "street-race"
    r = carnage.restore(doc)
    assert r.pending() == g.pending() and r.state == g.state
    assert [e.to_json() for e in r.log.events] == [e.to_json() for e in g.log.events]


def test_a_version_1_snapshot_restores_as_the_game_the_compact_one_does() -> None:
    """Version 1 is what snapshots wrote before the compact form: it still restores, to the
    same game, and the two documents say the same (the compact one is smaller)."""
    for seed, steps in ((5, 30), (8, 90), (2, 10)):
        g = _played(seed, steps)
        old = json.loads(json.dumps(g.snapshot(1)))
        new = json.loads(json.dumps(g.snapshot()))
        assert new["carnage_snapshot"] == 2 and len(json.dumps(new)) < len(json.dumps(old))
        a, b = carnage.restore(old), carnage.restore(new)
        assert a.pending() == b.pending() == g.pending() and a.state == b.state == g.state
        assert [e.to_json() for e in a.log.events] == [e.to_json() for e in g.log.events]
        assert a.snapshot() == b.snapshot() == g.snapshot() == new
        assert json.loads(json.dumps(b.snapshot(1))) == old
        # and a document's form must fit its version
        with pytest.raises(SnapshotError, match="log"):
            carnage.restore({**old, "carnage_snapshot": 2})
        with pytest.raises(SnapshotError, match="log"):
            carnage.restore({**new, "carnage_snapshot": 1})


def test_copies_at_every_decision_of_a_game_continue_as_it_does() -> None:
    g = carnage.new_game(seed=11)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    rng = random.Random(11)
    n = 0
    while (d := g.pending()) is not None and n < 120:
        if n % 7 == 0:
            assert copies_diverge(g, bots, random.Random(n), steps=4) is None, n
        d = g.pending()
        if d is None:
            break
        g.apply(bots[d.player].choose(g, d, rng))
        n += 1


def test_bad_snapshots_get_a_clear_error() -> None:
    doc = json.loads(json.dumps(_played(2, 10).snapshot()))
    with pytest.raises(SnapshotError, match="not a carnage snapshot"):
        carnage.restore({**doc, "carnage_snapshot": 99})
    with pytest.raises(SnapshotError, match="unknown ruleset 'croquet'"):
        carnage.restore({**doc, "ruleset": "croquet"})
    with pytest.raises(SnapshotError, match="unknown scenario"):
        carnage.restore({**doc, "config": {**doc["config"], "scenario": "nowhere"}})
    with pytest.raises(SnapshotError, match=r"do(es)? not replay"):
        carnage.restore({**doc, "choices": [*doc["choices"][:-1], doc["choices"][-2]]})
    with pytest.raises(SnapshotError):
        carnage.restore({**doc, "state": {"$d": "os:system", "f": {}}})
    with pytest.raises(SnapshotError, match="expected a JSON object"):
        carnage.restore([])  # a list is not a snapshot


def test_the_facade_plays_a_game_from_team_files() -> None:
    g = carnage.new_game(ruleset="refuelled", scenario="street-race",
                         teams=["examples/teams/intro.yaml", "examples/teams/intro.yaml"], seed=4)
    assert g.ruleset is REFUELLED and g.pending() is not None
    assert g.outcome() is None


def test_two_rulesets_side_by_side_do_not_touch_each_other() -> None:
    from carnage.rulesets import refuelled_ruleset

    quiet = refuelled_ruleset(name="no-handguns",
                              rules=REFUELLED.rules.with_rules({("weapon", "handgun"): None}))
    a = carnage.new_game(ruleset=quiet, seed=1)
    b = carnage.new_game(seed=1)
    assert a.ruleset is quiet and b.ruleset is REFUELLED
    assert REFUELLED.rules.get("weapon", "handgun") is not None
    assert a.pending() == b.pending()


def test_snapshots_of_a_game_in_play_encode_the_log_as_a_fresh_game_would() -> None:
    """A game keeps its log's compact form from one snapshot to the next (events are encoded
    once); each snapshot is still the document a fresh encoding writes, and a document
    changed by its reader does not change the next one."""
    g = carnage.new_game(seed=6)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    rng = random.Random(6)
    n = 0
    while (d := g.pending()) is not None and n < 150:
        if n % 5 == 0:
            doc: dict[str, Any] = g.snapshot()
            assert doc["log"] == log_to_lines(g.log.events)
            assert doc == json.loads(json.dumps(doc))
            doc["log"]["lines"].clear()
            doc["log"]["forms"].append(["forged", "core", None, []])
        g.apply(bots[d.player].choose(g, d, rng))
        n += 1
    assert g.snapshot()["log"] == log_to_lines(g.log.events)
    # a log whose events are replaced (not only added to) is encoded afresh
    g.log.events[:] = [Event(e.seq, e.kind, {**e.data, "again": True}, e.source, e.page)
                       for e in g.log.events]
    assert g.snapshot()["log"] == log_to_lines(g.log.events)
    fresh: Any = log_to_lines(g.log.events)
    assert all(ln[-1] is True for ln in fresh["lines"])


def test_a_copy_keeps_the_checkpoint_it_resumed_from_and_copies_of_copies_agree() -> None:
    """Re-entering the flow at the checkpoint a copy resumed from copies no state again: the
    copy holds that very checkpoint (a restored game, its own copy) until play moves on, and
    copies of copies of it continue as the game does."""
    g = _played(4, 40)
    c = g.clone()
    assert c._checkpoint is g._checkpoint
    r = carnage.restore(json.loads(json.dumps(g.snapshot())))
    rc = r._checkpoint
    assert rc is not None and (rc.log_len, rc.choices_len) == (
        g._checkpoint.log_len, g._checkpoint.choices_len)
    deep = r.clone().clone().clone()
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    for game in (g, c, r, deep):
        rng = random.Random(3)
        for _ in range(30):
            d = game.pending()
            if d is None:
                break
            game.apply(bots[d.player].choose(game, d, rng))
    assert c.state == g.state == r.state == deep.state
    assert [e.to_json() for e in deep.log.events] == [e.to_json() for e in g.log.events]
