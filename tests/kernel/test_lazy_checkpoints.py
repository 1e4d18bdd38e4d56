"""With ``lazy_checkpoints`` checkpoints are copied only when a copy needs them: a game nobody
copies pickles its state once, and the first copy made later copies the state at the latest
checkpoint while it replays (so later copies re-apply only the choices since it). Without it
(the default) every checkpoint is copied, so a change made to the state from outside between
two choices is kept by later copies."""

from __future__ import annotations

import json
import pickle

import carnage
from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.kernel.codec import encode


def played(seed: int, choices: int, lazy: bool = True):
    g = carnage.new_game(seed=seed)
    g.lazy_checkpoints = lazy
    bots, rng = [HeuristicBot(), HeuristicBot()], bot_rng(seed)
    while len(g.choices) < choices and (d := g.pending()) is not None:
        g.apply(bots[d.player].choose(g, d, rng))
    return g, bots, rng


def test_a_game_nobody_copies_pickles_its_state_once(monkeypatch):
    # Checkpoint copies only (Street Race's set-up check places copies of the vehicles for
    # its trial of the grid, without pickling the state).
    from carnage.kernel.game import Checkpoint

    copies = []
    real = Checkpoint.of
    monkeypatch.setattr(Checkpoint, "of",
                        staticmethod(lambda *a, **k: copies.append(1) or real(*a, **k)))
    dumps = []
    real_dumps = pickle.dumps
    monkeypatch.setattr(pickle, "dumps", lambda *a, **k: dumps.append(1) or real_dumps(*a, **k))
    played(3, 60)
    assert len(copies) == 1  # the first checkpoint, at the start
    assert len(dumps) == 1  # that copy


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


def test_by_default_every_checkpoint_is_copied_and_keeps_edits_made_from_outside():
    g, bots, rng = played(7, 10, lazy=False)
    v = next(iter(g.state.vehicles.values()))
    v.hazards = 3  # an edit from outside, as a test placing things does
    while (g._mark is None and g.since_checkpoint > 0) or len(g.choices) < 12:
        d = g.pending()
        g.apply(bots[d.player].choose(g, d, rng))
    assert g._mark is None
    c = g.clone()
    assert c.state.vehicles[v.id].hazards == g.state.vehicles[v.id].hazards


def test_the_search_bots_copies_are_lazy_and_the_real_game_keeps_its_setting():
    from carnage.ai.search import SearchBot

    g, _, _ = played(8, 8, lazy=False)
    d = g.pending()
    SearchBot("hard", iterations=3, seconds=None, horizon=30, seed=0).choose(g, d, bot_rng(0))
    assert g.lazy_checkpoints is False and g.clone().lazy_checkpoints is False
    assert g.clone(lazy=True).lazy_checkpoints is True
