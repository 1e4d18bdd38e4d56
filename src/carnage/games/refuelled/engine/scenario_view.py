"""What a scenario shows and reports, as plain data for any table or terminal.

A scenario describes the marks it puts on the table (``Drawable``: lines and gates crossed in a
direction, zones, tokens, spawn points, labels) and its progress (``ReportRow``: who crossed the
finish line, who holds the most tokens ...). The web board, the SVG renderer and the CLI draw and
print any scenario from these descriptions alone, knowing no scenario class. ``Drawable`` is
neutral (``carnage.render.drawable``), re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass

from carnage.render.drawable import DRAW_KINDS, Drawable, DrawKind

ReportValue = str | int | float | bool | None


@dataclass(frozen=True)
class ReportRow:
    """One line of a scenario's progress: ``key`` for programs, ``label`` and ``text`` for
    people, ``value`` the plain value (a vehicle id, a count, a distance). ``tally``: ``carnage
    simulate`` counts the games that ended with this value set (not None, False or 0)."""

    key: str
    label: str
    value: ReportValue
    text: str
    tally: bool = False

    def to_json(self) -> dict[str, ReportValue]:
        return {"key": self.key, "label": self.label, "value": self.value, "text": self.text,
                "tally": self.tally}


__all__ = ["DRAW_KINDS", "DrawKind", "Drawable", "ReportRow", "ReportValue"]
