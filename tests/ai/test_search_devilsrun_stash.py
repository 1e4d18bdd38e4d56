"""The search bot's value of a Devil's Run position counts the race to the stash (The
Devil's Run, DR-107): while it lies on the road, the gang nearer to it is better off, all
else equal; carrying it is worth more still."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged

from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.search import DevilsRunAdapter


def _stash_at(square: tuple[int, int], mission: str = "devils-run") -> DevilsRunGame:
    # the same two bikes on the same row; only the stash moves
    g = arranged(mission, {"law-bike": (1, 15), "ha-bike": (6, 15)}, [1, 1, 1, 1, 1, 1],
                 turn=3)
    s = g.state.stash
    s.status, s.pos = "placed", square
    return g


def test_the_gang_nearer_to_the_stash_on_the_road_is_valued_higher() -> None:
    ad = DevilsRunAdapter()
    near_law = ad.values(_stash_at((1, 17)))
    near_angels = ad.values(_stash_at((6, 17)))
    assert near_law[0] > near_angels[0] + 0.1
    assert near_angels[1] > near_law[1] + 0.1


def test_carrying_the_stash_beats_standing_next_to_it() -> None:
    ad = DevilsRunAdapter()
    by = _stash_at((1, 16))
    held = _stash_at((1, 16))
    s = held.state.stash
    s.status, s.pos, s.carrier = "carried", None, "law-bike"
    held.vehicle("law-bike").carrying = True
    assert ad.values(held)[0] > ad.values(by)[0]


def test_hell_on_wheels_has_no_stash_to_count() -> None:
    ad = DevilsRunAdapter()
    g = arranged("hell-on-wheels", {"law-bike": (1, 15), "ha-bike": (6, 15)}, [1] * 6, turn=3)
    before = ad.values(g)
    g.state.stash.status, g.state.stash.pos = "placed", (1, 17)  # never in this mission
    assert ad.values(g) == before
