"""The search bots' explanations as the table shows them (``GameView.bot_notes``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from carnage.render.table_schemas import BotNoteView

NOTES = 4
"""Explained decisions a view carries (the newest, and every seat's last one)."""


def note_of(seat: int, e: Any) -> BotNoteView:
    """A search bot's ``Explanation`` as the table shows it."""
    return BotNoteView(seat=seat, decision=e.decision, kind=e.kind, chosen=str(e.chosen),
                       lines=e.lines(), reason=e.reason(),
                       candidates=[c.to_json() for c in e.candidates])


def bot_notes(bots: Mapping[int, Any], limit: int = NOTES,
              extra: Sequence[BotNoteView] = ()) -> list[BotNoteView]:
    """The newest explanations of every bot that keeps them (the search bot), and ``extra``
    ones (computed in the bot pool's workers), newest first: each seat's last explained
    decision is always among them (its reason is the seat's), then the newest up to
    ``limit``."""
    found = list(extra)
    for seat, bot in bots.items():
        for e in list(getattr(bot, "explanations", ()))[-limit:]:
            found.append(note_of(seat, e))
    found.sort(key=lambda n: -n.decision)
    kept: list[BotNoteView] = []
    seats: set[int] = set()
    for n in found:  # each seat's newest first
        if n.seat not in seats:
            seats.add(n.seat)
            kept.append(n)
    for n in found:
        if len(kept) >= max(limit, len(seats)):
            break
        if n not in kept:
            kept.append(n)
    kept.sort(key=lambda n: -n.decision)
    return kept


def last_per_seat(bots: Mapping[int, Any]) -> list[BotNoteView]:
    """Each bot seat's last explained decision (for a worker's answer)."""
    out = []
    for seat, bot in bots.items():
        explained = getattr(bot, "explanations", ())
        if explained:
            out.append(note_of(seat, explained[-1]))
    return out
