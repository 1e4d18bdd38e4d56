"""The dice as the table draws them, read from the log's events: faces of skid dice, hits on
attack dice, saves on evade dice, Push It re-rolls and spent Shifts marked, numbered from 1."""

from __future__ import annotations

from carnage.games.refuelled.dicefaces import current_skid, event_dice
from carnage.kernel.events import Event


def ev(seq: int, kind: str, source: str = "core", **data: object) -> Event:
    return Event(seq, kind, data, source=source, page=22)


def marks(view: object) -> list[tuple[int, str, str]]:
    assert view is not None
    return [(d.number, d.face, d.mark) for d in view.dice]


def test_skid_roll_is_drawn_as_faces() -> None:
    e = ev(0, "roll", "skid_dice", why="skid dice", dice=[1, 2, 3, 6], vehicle="v")
    assert marks(event_dice([e], 0)) == [(1, "hazard", ""), (2, "spin", ""), (3, "slide", ""),
                                         (4, "shift", "")]


def test_attack_dice_mark_hits_and_crits_and_penalties() -> None:
    e = ev(0, "roll", "attack", why="attack", dice=[3, 4, 6])
    assert marks(event_dice([e], 0)) == [(1, "3", "miss"), (2, "4", "hit"), (3, "6", "crit")]
    hard = ev(0, "roll", "attack", why="attack", dice=[4, 5], penalty=1)
    assert marks(event_dice([hard], 0)) == [(1, "4", "miss"), (2, "5", "hit")]


def test_evade_dice_mark_saves() -> None:
    e = ev(0, "roll", "evade", why="evade", dice=[5, 6])
    assert marks(event_dice([e], 0)) == [(1, "5", "miss"), (2, "6", "saved")]


def test_push_it_marks_the_rerolled_dice() -> None:
    events = [
        ev(0, "skid", vehicle="v", faces=["hazard", "shift", "spin"]),
        ev(1, "decision", "push_it", decision="push_it", choice="0,2", player=0),
        ev(2, "roll", "skid_dice", why="skid dice", dice=[4, 5], vehicle="v"),
        ev(3, "skid", "push_it", vehicle="v", faces=["shift", "shift", "shift"]),
    ]
    assert marks(event_dice(events, 3)) == [(1, "shift", "rerolled"), (2, "shift", ""),
                                            (3, "shift", "rerolled")]


def test_spent_shifts_and_cancelled_results_are_marked_on_the_pool() -> None:
    events = [
        ev(0, "activation", vehicle="v"),
        ev(1, "skid", vehicle="v", faces=["slide", "shift", "shift"]),
        ev(2, "decision", "shift", decision="spend_shift", choice="cancel:0", player=0),
        ev(3, "decision", "shift", decision="spend_shift", choice="gear_up", player=0),
    ]
    assert marks(current_skid(events, "v")) == [(1, "slide", "cancelled"), (2, "shift", "spent"),
                                                (3, "shift", "spent")]
    assert current_skid(events[:1], "v") is None
    assert current_skid(events, "other") is None
