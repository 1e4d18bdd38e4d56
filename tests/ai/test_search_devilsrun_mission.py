"""The search bot's value of a Devil's Run position knows more of The Devil's Run than the
stash on the road: where the stash is still to come (DR-106, DR-108), that a gang with no
active vehicle has lost (DR-109, DRR-33), and how far its carrier still has to drive to win
(DR-109)."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged

from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.search import DevilsRunAdapter, rows_to_win
from carnage.games.devilsrun.state import WRECK


def _cp(g: DevilsRunGame, **cps: int) -> DevilsRunGame:
    for vid, cp in cps.items():
        g.vehicle(vid.replace("_", "-")).cp = cp
    return g


def test_the_gang_nearer_the_front_tile_where_the_stash_will_come_is_valued_higher() -> None:
    # The stash has not come yet; it will be placed on the centre of the front tile (rows
    # 19-20 of the road laid out at the start). The Law's bike, a chassis point down, waits
    # there; the Angels' bike is eight rows behind.
    g = _cp(arranged("devils-run", {"law-bike": (3, 19), "ha-bike": (3, 11)}, [1] * 6,
                     turn=2), law_bike=4, ha_bike=5)
    assert g.state.stash.status == "waiting"
    law, angels = DevilsRunAdapter().values(g)
    assert law > angels + 0.2


def test_a_gone_stash_is_met_on_the_next_tile_laid() -> None:
    # The stash was left behind; it comes back on the centre of the next tile laid (rows
    # 27-28). The Law's bike, a chassis point down, is four rows nearer to it.
    g = _cp(arranged("devils-run", {"law-bike": (3, 22), "ha-bike": (3, 18)}, [1] * 6,
                     turn=4), law_bike=4, ha_bike=5)
    g.state.stash.status = "gone"
    law, angels = DevilsRunAdapter().values(g)
    assert law > angels + 0.1


def test_a_gang_down_to_its_last_active_vehicle_is_worse_off_than_its_chassis_says() -> None:
    # The same chassis points left (6 each) on the same row: the Angels' trike alone, the
    # Law's bike and buggy with 3 each. One more wreck loses the Angels the mission.
    g = _cp(arranged("devils-run", {"law-bike": (2, 12), "law-buggy": (5, 12),
                                    "ha-trike": (3, 12), "ha-bike": (4, 12)}, [1] * 6,
                     turn=3), law_bike=3, law_buggy=3, ha_trike=6)
    wreck = g.vehicle("ha-bike")
    wreck.status, wreck.cp = WRECK, 0
    law, angels = DevilsRunAdapter().values(g)
    assert law > angels + 0.2


def test_the_carrier_nearer_a_fresh_tile_is_worth_more_than_two_chassis_points() -> None:
    ad = DevilsRunAdapter()

    def carried(row: int, cp: int) -> DevilsRunGame:
        g = _cp(arranged("devils-run", {"law-bike": (3, row), "ha-bike": (3, 6)}, [1] * 6,
                         turn=4), law_bike=cp)
        s = g.state.stash
        s.status, s.carrier, s.pickup_tile = "carried", "law-bike", 1
        g.vehicle("law-bike").carrying = True
        return g

    near, far = carried(12, 4), carried(8, 6)
    assert rows_to_win(near.state, 12) == 4  # the tile placed after pick-up starts at 16
    assert ad.values(near)[0] > ad.values(far)[0]
