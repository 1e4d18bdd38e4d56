"""Devil's Run's observation (``games/devilsrun/observation.py``, layout in ``docs/rl.md``):
exact values of arranged positions, from each seat's side, through the real flow."""

from __future__ import annotations

import pytest
from tests.games.devilsrun.helpers import arranged, play

from carnage.games.devilsrun.observation import (
    GLOBAL,
    KINDS,
    LANES,
    MAX_VEHICLES,
    OBS_SIZE,
    ROWS,
    VEHICLE,
    encode,
)
from carnage.games.devilsrun.ruleset import DEVILS_RUN_RULESET
from carnage.games.devilsrun.state import WRECK
from carnage.kernel.observation import MAX_ACTIONS

PLANE = ROWS * LANES
ROAD = GLOBAL + MAX_VEHICLES * VEHICLE


def slot(x: list[float], i: int) -> list[float]:
    return x[GLOBAL + i * VEHICLE: GLOBAL + (i + 1) * VEHICLE]


def square(x: list[float], plane: int, lane: int, row: int) -> float:
    return x[ROAD + plane * PLANE + row * LANES + lane]


def marked(x: list[float], plane: int) -> set[tuple[int, int]]:
    """The (lane, row) squares of ``plane`` with a value, and only those."""
    return {(i % LANES, i // LANES) for i in range(PLANE) if x[ROAD + plane * PLANE + i]}


def decision(kind: str, options: int, mine: bool) -> list[float]:
    one_hot = [0.0] * (len(KINDS) + 1)
    one_hot[KINDS.index(kind)] = 1.0
    return [1.0 if mine else 0.0, 0.0, 0.0, 0.0, options / MAX_ACTIONS, *one_hot]


def test_the_ruleset_offers_it_at_its_declared_size():
    offer = DEVILS_RUN_RULESET.observation
    assert offer is not None and offer.size == OBS_SIZE == 55 + 6 * 32 + 4 * 24 * 8
    assert offer.default_scenario == "devils-run"


def test_an_arranged_position_from_both_seats():
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [])
    g.vehicle("ha-trike").status, g.vehicle("ha-trike").pos = WRECK, (0, 10)
    d = g.pending()
    assert (d.kind, d.vehicle, len(d.options)) == ("action", "law-bike", 3)
    law, ha = encode(g, 0), encode(g, 1)
    assert len(law) == len(ha) == OBS_SIZE
    no_activation = [0.0] * 13
    assert law[:GLOBAL] == [
        1 / 7, 1.0, 1.0, 0.0, 0.0, 0.0,  # turn / 7, first, to act, tokens, tiles recycled
        1.0, 0.0, 0.0,  # mission: The Devil's Run
        1.0, 0.0, 0.0,  # gang: the Law
        1.0, 0.0, 0.0, 0.0, 0.0,  # the stash is waiting
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0,  # not on the road, not carried, no disengage roll
        *no_activation[:8], 0.0, 0.0, 0.0, 0.0, 0.0,  # activating, no move chosen yet
        *decision("action", 3, mine=True)]
    assert ha[:GLOBAL] == [1 / 7, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                           *law[12:GLOBAL - len(KINDS) - 6], *decision("action", 3, mine=False)]
    bike = [1.0, 1.0, 0.0, 1.0, 0.0, 0.0,  # present, own, running
            3 / 7, 0.0, 0.5, 1.0, 0.6, 1.0, 1 / 6, 0.6, 0.7, 0.0,  # square, statline
            1.0, 1 / 3, 0.0, 0.0, 0.0, 0.0,  # a pistol, no second mount
            1.0, 0.0, 0.0,  # manoeuvrable
            0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0]  # activated, activating, the decision's
    assert slot(law, 0) == bike
    assert slot(law, 1)[:6] == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0]  # the Law's buggy: gone
    assert slot(law, 1)[6:8] == [0.0, 0.0]
    assert slot(law, 2)[:8] == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 3 / 7, 6 / 23]  # ha-bike
    assert slot(law, 2)[10:12] == [0.5, 1.0]  # chassis 5 of 5
    assert slot(law, 3)[:8] == [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 10 / 23]  # trike wreck
    assert slot(law, 3)[19:22] == [0.75, 1.0, 1.0]  # its gunner's flamer: range 3, 3 dice
    assert slot(law, 4) == slot(law, 5) == [0.0] * VEHICLE
    ha_bike = slot(law, 2)
    assert slot(ha, 0) == [*ha_bike[:1], 1.0, *ha_bike[2:]]  # own first
    assert slot(ha, 2) == [*bike[:1], 0.0, *bike[2:]]
    # the road: tile 1's debris at rows 3-6, tile 2's at 9 and 11, tile 3's at 22
    debris = {(1, 3), (4, 6), (6, 5), (1, 11), (6, 9), (1, 22)}
    assert marked(law, 0) == marked(ha, 0) == debris and marked(law, 1) == set()
    assert marked(law, 2) == marked(ha, 3) == {(3, 0)}
    assert marked(law, 3) == marked(ha, 2) == {(3, 6), (0, 10)}
    assert square(law, 3, 3, 6) == 1.0 and square(law, 3, 0, 10) == 0.5  # running, wreck


def test_a_move_under_way_and_the_stash_carried_onto_the_road_ahead():
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (0, 20)}, [1, 1, 3])
    g.state.stash.status, g.state.stash.pos = "placed", (4, 3)
    x = encode(g, 0)
    assert x[12:19] == [0.0, 1.0, 0.0, 0.0, 0.0, 4 / 7, 3 / 23]
    play(g, "law-bike", "peddle", "F")
    x = encode(g, 0)
    # peddle; allowance 3 + 1 = 4, one spent, at least 3; the D3 kept: 1
    assert x[23:36] == [1.0, *[0.0] * 7, 4 / 6, 1 / 6, 3 / 6, 1 / 3, 0.0]
    assert x[36 + 5 + KINDS.index("step")] == 1.0  # the decision: a step
    assert slot(x, 0)[6:8] == [3 / 7, 1 / 23]
    play(g, "F", "F", "stop", "pickup")  # a 3 against Evade 6 + 2: picked up
    law, ha = encode(g, 0), encode(g, 1)
    assert law[12:21] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert ha[12:21] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    # picked up on tile 1 (placed first): tile 2, from row 8, is where it must be carried
    assert law[21] == ha[21] == pytest.approx(8 / 23)
    assert slot(law, 0)[25] == 1.0 and slot(ha, 2)[25] == 1.0  # carries the stash


def test_hell_on_wheels_chassis_tokens_disengage_and_a_two_square_car():
    g = arranged("hell-on-wheels", {"law-bike": (3, 0), "law-car": (5, 5), "ha-bike": (3, 6)},
                 [1, 1, 5, 2], turn=7)
    play(g, "law-bike", "peddle", "F", "F", "F", "stop", "shoot", "ha-bike")
    assert g.state.collected == [1, 0]
    law, ha = encode(g, 0), encode(g, 1)
    assert law[:12] == [7 / 10, 1.0, 0.0, 1 / 20, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0]
    assert ha[3:5] == [0.0, 1 / 20]
    assert law[22] == ha[22] == 0.4  # end of turn 7: a D10 of 1-4 disengages
    assert slot(law, 3)[10:12] == [0.4, 0.8]  # ha-bike: chassis 4 of 5
    car = slot(law, 2)  # law-bike, law-buggy (removed), law-car, then the Angels
    assert car[6:10] == [5 / 7, 5 / 23, 1.0, 2 / 3]  # front square, two squares long
    assert car[14:22] == [0.6, 0.8, 1.0, 1 / 3, 0.0, 1.0, 1 / 3, 0.0]  # a gunner, two pistols
    assert marked(law, 2) == {(3, 3), (5, 5), (5, 4)}
    assert (7, 1) in marked(law, 1)  # tile 1's impassable square
