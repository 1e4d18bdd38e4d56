"""``check_fire`` remembers its answers by their exact inputs: asking again gives the same
answer, and any change of input (a wall made Tall, a target moved, another arc) is worked
out afresh."""

from __future__ import annotations

from carnage.geometry import cover
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, FireCheck, check_fire, clear_memo
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Pose, Rect

CAR = Rect(Pose(0, 0, 0), 60, 30)
TARGET = Rect(Pose(130, 0, 0), 60, 30).polygon()
MEDIUM = shooting_template("medium")


def wall(tall: bool) -> Blocker:
    return Blocker("w", tuple(Rect(Pose(70, 0, 0), 10, 200).polygon()), tall)


def test_asking_again_is_answered_from_memory() -> None:
    clear_memo()
    first = check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(False)])
    assert first.in_range and first.cover and not first.blocked
    calls: list[int] = []
    real = cover._check_fire

    def counting(*args: object) -> FireCheck:
        calls.append(1)
        return real(*args)

    cover._check_fire = counting
    try:
        again = check_fire(CAR, list(TARGET), Arc.FRONT, MEDIUM, (wall(False),))
        assert again == first and calls == []
        # a Tall wall, another arc, a moved target: each is a new question
        tall = check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(True)])
        assert tall.blocked and len(calls) == 1
        rear = check_fire(CAR, TARGET, Arc.REAR, MEDIUM, [wall(False)])
        assert not rear.in_range and len(calls) == 2
        moved = Rect(Pose(130, 0, 0), 60, 30).polygon()
        moved[0] = (moved[0][0], moved[0][1] + 1e-7)
        check_fire(CAR, moved, Arc.FRONT, MEDIUM, [wall(False)])
        assert len(calls) == 3
        clear_memo()
        assert check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(False)]) == first
        assert len(calls) == 4
    finally:
        cover._check_fire = real


def test_outlines_that_cannot_be_hashed_are_still_answered() -> None:
    clear_memo()
    poly = [list(p) for p in TARGET]
    fc = check_fire(CAR, poly, Arc.FRONT, MEDIUM, [])
    assert fc.in_range and not fc.cover
    assert check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, []).in_range
