"""The dice as the table draws them, read from the log's events: faces of skid dice, hits on
attack dice, saves on evade dice, Push It re-rolls and spent Shifts marked, numbered from 1."""

from __future__ import annotations

import re

from tests.builders import play, run_step, table, vehicle

from carnage.games.refuelled.dicefaces import current_skid, event_dice
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.movement import movement_step
from carnage.games.refuelled.table_view import pending_view
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


# -- the Shifts the table shows are the engine's (through the real Movement Step) ------------
HAZ, SLIDE, SHIFT = 1, 3, 4


def _move_car(g: Game) -> Flow:
    yield from movement_step(g, g.state.vehicles["car"])


def _unspent_shifts(g: Game) -> int:
    d = g.pending()
    assert d is not None and d.kind == "spend_shift"
    view = pending_view(g, d)
    assert view.dice is not None
    return sum(1 for x in view.dice.dice if x.face == "shift" and x.mark == "")


def _engine_count(g: Game) -> int:
    d = g.pending()
    assert d is not None
    found = re.search(r"\((\d+) left\)", d.prompt)
    assert found, d.prompt
    return int(found.group(1))


def test_a_trivial_manoeuvres_free_shift_is_shown_beside_the_rolled_ones() -> None:
    # Refuelled p.40: the Medium Straight is trivial in gear 2, so two rolled Shifts give three
    # to spend; the table drew two and said "3 left".
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), _move_car,
                 dice=[SLIDE, SHIFT, SHIFT])
    play(g, "medium_straight", 3, "no")
    assert _engine_count(g) == _unspent_shifts(g) == 3
    d = g.pending()
    assert d is not None
    dice = pending_view(g, d).dice
    assert dice is not None
    assert [(x.number, x.face, x.free) for x in dice.dice] == [
        (1, "slide", False), (2, "shift", False), (3, "shift", False), (4, "shift", True)]
    play(g, "gear_up", "discard_hazard")
    assert _engine_count(g) == _unspent_shifts(g) == 1  # the free one: "1 left" after both
    d = g.pending()
    assert d is not None
    dice = pending_view(g, d).dice
    assert dice is not None
    assert [(x.mark, x.free) for x in dice.dice] == [
        ("", False), ("spent", False), ("spent", False), ("", True)]


def test_a_free_shift_without_dice_is_still_shown() -> None:
    # Gear 1, trivial Medium Straight, no skid dice rolled: the one Shift is the free one.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=1)), _move_car)
    play(g, "medium_straight", 0)
    assert _engine_count(g) == _unspent_shifts(g) == 1


# -- one line per roll -------------------------------------------------------------------------
def _lines_with_dice(g: Game) -> list[tuple[str, list[str]]]:
    from carnage.games.refuelled.table_view import log_lines

    return [(line.text, [d.face for d in line.dice.dice])
            for line in log_lines(g, g.log.events) if line.dice is not None]


def test_a_skid_roll_is_one_line_of_the_log_with_its_dice() -> None:
    # Two skid dice (Spin, Shift) rolled in a Movement Step: the log draws them once, on the
    # roll's line, so the companion's dice panel (the lines with dice) lists the roll once;
    # the result's line is still there (every event has its line), with no dice.
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), _move_car, dice=[2, SHIFT])
    play(g, "medium_straight", 2, "no")
    assert [e.kind for e in g.log.events].count("skid") == 1
    assert _lines_with_dice(g) == [("Car rolled 2 skid dice: Spin, Shift (p.22)",
                                    ["spin", "shift"])]
    from carnage.games.refuelled.table_view import log_lines

    said = [line for line in log_lines(g, g.log.events) if line.kind == "skid"]
    assert [(line.text, line.dice) for line in said] == [
        ("Car's skid dice show Spin, Shift (p.22)", None)]


def test_a_push_it_reroll_keeps_its_result_line() -> None:
    # Push It (p.40) re-rolls both dice: the re-roll's line shows the dice rolled, the
    # result's line the pool with the re-rolled dice marked, as before (faces alike or not).
    g = run_step(table(vehicle("car", "car", 600, 300, gear=2)), _move_car,
                 dice=[2, SHIFT, SHIFT, SHIFT])
    play(g, "medium_straight", 2, "0,1")
    lines = _lines_with_dice(g)
    assert lines == [("Car rolled 2 skid dice: Spin, Shift (p.22)", ["spin", "shift"]),
                     ("Car rolled 2 skid dice: Shift, Shift (p.22)", ["shift", "shift"]),
                     ("Car's skid dice show Shift, Shift (p.40)", ["shift", "shift"])]
