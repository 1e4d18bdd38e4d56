"""The search bots' explanations as the table shows them (``GameView.bot_notes``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from carnage.render.table_schemas import BotNoteView

NOTES = 4
"""Explained decisions a view carries (the newest)."""


def bot_notes(bots: Mapping[int, Any], limit: int = NOTES,
              extra: Sequence[BotNoteView] = ()) -> list[BotNoteView]:
    """The newest explanations of every bot that keeps them (the search bot), and ``extra``
    ones (computed in the bot pool's workers), newest first."""
    found = list(extra[-limit:])
    for seat, bot in bots.items():
        for e in list(getattr(bot, "explanations", ()))[-limit:]:
            found.append(BotNoteView(
                seat=seat, decision=e.decision, kind=e.kind, chosen=str(e.chosen),
                lines=e.lines(), candidates=[c.to_json() for c in e.candidates]))
    found.sort(key=lambda n: -n.decision)
    return found[:limit]
