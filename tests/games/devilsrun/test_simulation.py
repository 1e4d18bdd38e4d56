"""Seeded games between the bots: invariants after every choice, exact replay, clone and
snapshot/restore at random decisions continue identically."""

from __future__ import annotations

import json
import random

import pytest

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.bots import bot
from carnage.games.devilsrun.game import DevilsRunGame, restore
from carnage.games.devilsrun.missions import DEVILS_RUN, replay
from carnage.games.devilsrun.state import RUNNING, WRECK


def check_invariants(g: DevilsRunGame) -> None:
    st = g.state
    assert len(st.tiles) == 3
    assert all(st.tiles[i + 1].origin == st.tiles[i].origin + 8 for i in range(2))
    assert sorted(t.name for t in st.tiles) == ["1", "2", "3"]
    seen: dict[tuple[int, int], str] = {}
    for v in st.vehicles.values():
        top = B.vtype(v).cp
        if v.status == RUNNING:
            assert 1 <= v.cp <= top, v
            for s in B.footprint(v):
                assert s not in seen, f"{v.id} and {seen[s]} share {s}"
                seen[s] = v.id
        if v.status == WRECK:
            assert v.cp == 0
        if v.status in (RUNNING, WRECK):
            assert all(B.on_board(st, s) for s in B.footprint(v)), v
        else:
            assert v.pos is None or v.status == "reserve"
    s = st.stash
    if s.status == "carried":
        assert s.carrier is not None and g.vehicle(s.carrier).carrying
    assert sum(v.carrying for v in st.vehicles.values()) == (1 if s.status == "carried" else 0)
    if s.status == "placed":
        assert s.pos is not None and B.on_board(st, s.pos)


def run(mission: str, seed: int, names: tuple[str, str]) -> DevilsRunGame:
    g = DEVILS_RUN.new_game(mission, seed=seed)
    rng = random.Random(seed)
    bots = [bot(names[0]), bot(names[1])]
    check_invariants(g)
    while (d := g.pending()) is not None:
        g.apply(bots[d.player](g, d, rng))
        check_invariants(g)
        assert len(g.choices) < 5000
    return g


PAIRS = [("random", "random"), ("heuristic", "random"), ("random", "heuristic"),
         ("heuristic", "heuristic")]


@pytest.mark.parametrize("mission", ["devils-run", "hell-on-wheels"])
def test_seeded_games_keep_the_invariants_replay_and_resume(mission: str) -> None:
    reasons = set()
    for seed in range(40):
        names = PAIRS[seed % 4]
        g = run(mission, seed, names)
        o = g.outcome()
        assert o is not None and 1 <= o.rounds <= 10
        reasons.add(o.reason)
        final = g.snapshot()["state"]
        again = replay(g.setup, g.choices)
        assert again.snapshot()["state"] == final
        assert [e.to_json() for e in again.log] == [e.to_json() for e in g.log]
        # resume from a random decision three ways
        k = random.Random(seed).randrange(len(g.choices))
        mid = replay(g.setup, g.choices[:k])
        twin = mid.clone()
        doc = json.loads(json.dumps(mid.snapshot()))
        back = restore(doc)
        assert back.pending() == mid.pending()
        for c in g.choices[k:]:
            mid.apply(c)
            twin.apply(c)
            back.apply(c)
        for h in (mid, twin, back):
            assert h.snapshot()["state"] == final
            assert h.outcome() == o
    assert len(reasons) >= 2


def test_clone_is_independent() -> None:
    g = DEVILS_RUN.new_game("hell-on-wheels", seed=5)
    twin = g.clone()
    g.apply(g.pending().options[0].value)
    assert twin.choices == [] and twin.state.phase == "side"
    assert len(g.choices) == 1


def test_restore_rejects_other_documents() -> None:
    with pytest.raises(ValueError, match="not a Devil's Run snapshot"):
        restore({"format": "something-else"})
    doc = DEVILS_RUN.new_game("devils-run", seed=1).snapshot()
    del doc["state"]["vehicles"]
    with pytest.raises(ValueError, match="malformed"):
        restore(doc)


def test_heuristic_beats_random_in_both_missions() -> None:
    for mission in ("devils-run", "hell-on-wheels"):
        wins = 0
        for seed in range(20):
            names = ("heuristic", "random") if seed % 2 == 0 else ("random", "heuristic")
            o = run(mission, 1000 + seed, names).outcome()
            assert o is not None
            if o.winner is not None and names[o.winner] == "heuristic":
                wins += 1
        assert wins >= 14, (mission, wins)


def test_heuristic_goes_for_the_stash() -> None:
    def pickups(names: tuple[str, str]) -> int:
        n = 0
        for seed in range(20):
            g = run("devils-run", 2000 + seed, names)
            n += any(e.kind == "stash" and e.data.get("event") == "picked up" for e in g.log)
        return n

    smart, blind = pickups(("heuristic", "heuristic")), pickups(("random", "random"))
    assert smart >= 6 and smart > 2 * blind, (smart, blind)


def test_clone_copies_every_part_of_the_state() -> None:
    # mid-activation: the activation record, stash and tiles are copies, not shared
    g = DEVILS_RUN.new_game("devils-run", seed=8)
    rng = random.Random(8)
    h = bot("heuristic")
    while g.state.act is None or g.state.turn < 2:
        d = g.pending()
        assert d is not None
        g.apply(h(g, d, rng))
    twin = g.clone()
    assert twin.state.to_doc() == g.state.to_doc()
    assert twin.state.act is not g.state.act and twin.state.stash is not g.state.stash
    assert all(a is not b for a, b in zip(twin.state.tiles, g.state.tiles, strict=True))
    assert all(twin.state.vehicles[k] is not v for k, v in g.state.vehicles.items())
