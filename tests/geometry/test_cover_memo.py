"""``check_fire`` remembers its answers by their exact inputs: asking again gives the same
answer, and any change of input (a wall made Tall, a target moved, another arc) is worked
out afresh."""

from __future__ import annotations

from carnage.geometry import cover
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, check_fire, clear_memo
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
    base = cover.worked_out()

    def calls() -> int:
        return cover.worked_out() - base

    again = check_fire(CAR, list(TARGET), Arc.FRONT, MEDIUM, (wall(False),))
    assert again == first and calls() == 0
    # a Tall wall, another arc, a moved target: each is a new question
    tall = check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(True)])
    assert tall.blocked and calls() == 1
    rear = check_fire(CAR, TARGET, Arc.REAR, MEDIUM, [wall(False)])
    assert not rear.in_range and calls() == 2
    moved = Rect(Pose(130, 0, 0), 60, 30).polygon()
    moved[0] = (moved[0][0], moved[0][1] + 1e-7)
    check_fire(CAR, moved, Arc.FRONT, MEDIUM, [wall(False)])
    assert calls() == 3
    clear_memo()
    assert check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(False)]) == first
    assert calls() == 4


def test_corners_given_as_lists_are_answered_and_remembered() -> None:
    clear_memo()
    poly = [list(p) for p in TARGET]  # corners as JSON gives them
    fc = check_fire(CAR, poly, Arc.FRONT, MEDIUM, [])
    assert fc.in_range and not fc.cover
    base = cover.worked_out()
    assert check_fire(CAR, poly, Arc.FRONT, MEDIUM, []) == fc and cover.worked_out() == base
    assert check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, []).in_range


def test_timings_record_each_answer_worked_out_and_stop_when_asked() -> None:
    clear_memo()
    cover.record_timings(True)
    try:
        check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(False)])
        check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [wall(False)])  # remembered: not timed
        check_fire(CAR, TARGET, Arc.TURRET, shooting_template("small_burst"), [wall(False)])
    finally:
        got = cover.record_timings(False)
    assert [(arc, burst) for arc, burst, _ in got] == [(Arc.FRONT, False), (Arc.TURRET, True)]
    assert all(ms >= 0.0 for _, _, ms in got)
    clear_memo()
    check_fire(CAR, TARGET, Arc.FRONT, MEDIUM, [])
    assert cover.record_timings(False) == []  # nothing is recorded unless asked
