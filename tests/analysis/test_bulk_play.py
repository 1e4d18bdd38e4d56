"""``bulk_play``: the collector settings for playing many games, put back afterwards, with
garbage cycles still collected and games played the same."""

from __future__ import annotations

import gc
import weakref

from carnage.analysis.tourney import play_chunk
from carnage.analysis.workers import BULK_GEN0, bulk_play


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_settings_apply_inside_and_are_put_back() -> None:
    before = gc.get_threshold()
    with bulk_play():
        assert gc.get_threshold() == (BULK_GEN0, before[1], before[2])
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_cycles_made_inside_are_still_collected() -> None:
    with bulk_play():
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        # young collections run once that many more objects are alive (a freed one counts
        # its allocation off again)
        kept = [_Node() for _ in range(3 * BULK_GEN0)]
        assert gone() is None  # by the collector's own young passes, nobody called collect
        assert len(kept) == 3 * BULK_GEN0


def test_games_played_in_bulk_are_the_games_played_plainly() -> None:
    from tests.analysis.test_tourney import IDRIS, INTRO

    from carnage.analysis.tourney import Tourney, play_game

    job = Tourney(a=INTRO, b=IDRIS, games=2, seed=7).job()
    assert play_chunk(job, [0, 1]) == [play_game(job, 0), play_game(job, 1)]
