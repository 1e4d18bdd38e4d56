"""The marks a scenario puts on the table (``Drawable``), as plain data any table or terminal
draws: lines and gates crossed in a direction, zones, tokens, spawn points, labels. Neutral:
a game's scenarios make them, the renderer and the web table draw them, knowing no game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from carnage.geometry.shapes import Point

DrawKind = Literal["line", "gate", "zone", "token", "spawn", "label"]
DRAW_KINDS: tuple[DrawKind, ...] = ("line", "gate", "zone", "token", "spawn", "label")


@dataclass(frozen=True)
class Drawable:
    """One mark a scenario puts on the table.

    ``kind``: ``line`` (a segment between two markers, ``points`` its two ends), ``gate`` (the
    same, passed through in order: ``number``), ``zone`` (an area, ``points`` its polygon),
    ``token`` (a marker at ``points[0]``, ``number`` how many or which), ``spawn`` (a place a
    vehicle may enter at ``points[0]``, facing ``direction``), ``label`` (text at ``points[0]``).
    ``direction``: unit vector, the way a line or gate is crossed or a spawn faces. ``owner``:
    the seat it belongs to, if any. ``style``: a hint for how to draw it (``start``,
    ``finish``); a table may ignore it."""

    id: str
    kind: DrawKind
    points: tuple[Point, ...]
    label: str = ""
    number: int | None = None
    direction: Point | None = None
    owner: int | None = None
    style: str = ""

    def __post_init__(self) -> None:
        if self.kind not in DRAW_KINDS:
            raise ValueError(f"drawable {self.id!r}: kind {self.kind!r} is not one of "
                             f"{', '.join(DRAW_KINDS)}")
        need = 2 if self.kind in ("line", "gate") else 3 if self.kind == "zone" else 1
        if len(self.points) < need:
            raise ValueError(f"drawable {self.id!r}: a {self.kind} needs at least {need} "
                             f"point(s), got {len(self.points)}")
