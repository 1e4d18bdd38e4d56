"""The notes a view carries (web/botnotes.py): the newest, and every seat's last explained
decision, so each search seat's reason stays on the table however busy the other seat was."""

from __future__ import annotations

from carnage.render.table_schemas import BotNoteView
from carnage.web.botnotes import bot_notes


def note(seat: int, decision: int) -> BotNoteView:
    return BotNoteView(seat=seat, decision=decision, kind="template", chosen="a",
                       lines=["search (easy) weighed 2 choices", "  won 1 of 2 playouts"],
                       reason="won 1 of 2 playouts", candidates=[])


def test_each_seats_last_note_is_kept_beside_the_newest() -> None:
    extra = [note(0, 1), *(note(1, d) for d in range(2, 8))]
    kept = bot_notes({}, limit=4, extra=extra)
    assert [(n.seat, n.decision) for n in kept] == [(1, 7), (1, 6), (1, 5), (0, 1)]


def test_more_seats_than_the_limit_keep_one_note_each() -> None:
    kept = bot_notes({}, limit=2, extra=[note(s, 10 + s) for s in range(4)])
    assert sorted(n.seat for n in kept) == [0, 1, 2, 3]
