"""Checkpoints are copied only when a copy needs them: a game nobody copies pickles its state
once, and the first copy made later copies the state at the latest checkpoint while it replays
(so later copies re-apply only the choices since it)."""

from __future__ import annotations

import json
import pickle

import carnage
from carnage.ai import HeuristicBot, bot_rng
from carnage.kernel.codec import encode


def played(seed: int, choices: int):
    g = carnage.new_game(seed=seed)
    bots, rng = [HeuristicBot(), HeuristicBot()], bot_rng(seed)
    while len(g.choices) < choices and (d := g.pending()) is not None:
        g.apply(bots[d.player].choose(g, d, rng))
    return g, bots, rng


def test_a_game_nobody_copies_pickles_its_state_once(monkeypatch):
    dumps = []
    real = pickle.dumps
    monkeypatch.setattr(pickle, "dumps", lambda *a, **k: dumps.append(1) or real(*a, **k))
    played(3, 60)
    assert len(dumps) == 1  # the first checkpoint, at the start


def test_the_first_copy_takes_the_latest_checkpoint_and_later_ones_replay_little():
    g, _, _ = played(4, 60)
    assert g._mark is not None and g.since_checkpoint == 60  # only the start is copied
    c = g.clone()
    assert g._mark is None and g.since_checkpoint < 60  # the clone copied the latest one
    tail = g.since_checkpoint
    again = g.clone()
    assert again.since_checkpoint == tail
    for copy in (c, again):
        assert json.dumps(encode(copy.state)) == json.dumps(encode(g.state))
        assert [e.to_json() for e in copy.log.events] == [e.to_json() for e in g.log.events]


def test_copies_and_snapshots_of_an_uncopied_game_play_on_exactly_like_it():
    for seed in (5, 6):
        g, bots, rng = played(seed, 45)
        doc = json.loads(json.dumps(g.snapshot()))  # made before any clone
        assert doc["checkpoint"]["choices"] > 0  # at the latest checkpoint, not the start
        r = carnage.restore(doc)
        c = g.clone()
        games = [g, c, r]
        for _ in range(20):
            d = g.pending()
            if d is None:
                break
            choice = bots[d.player].choose(g, d, rng)
            for x in games:
                x.apply(choice)
        views = {json.dumps([encode(x.state), [e.to_json() for e in x.log.events]])
                 for x in games}
        assert len(views) == 1
