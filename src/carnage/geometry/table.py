"""The play area and its edge (Refuelled p.87).

The table is the rectangle from (0, 0) to (width, height). A shape overlaps the edge when
some part of it lies beyond the rectangle; lying exactly along the edge is not overlapping
(vehicles are often deployed touching a table edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from carnage.geometry.shapes import Point
from carnage.geometry.surfaces import template_pieces

if TYPE_CHECKING:
    from carnage.geometry.movement import TemplatePath

EDGE_TOL: Final = 1e-6
"""How far (mm) past the edge a shape may reach and still count as on the table."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Table:
    width: float
    height: float

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ValueError(f"table size must be positive, got {self.width} x {self.height}")

    def polygon(self) -> list[Point]:
        return [(0.0, 0.0), (self.width, 0.0), (self.width, self.height), (0.0, self.height)]

    def contains(self, p: Point, tol: float = EDGE_TOL) -> bool:
        return -tol <= p[0] <= self.width + tol and -tol <= p[1] <= self.height + tol


def off_table(parts: Sequence[Sequence[Point]], table: Table, tol: float = EDGE_TOL) -> bool:
    """True when any of the convex ``parts`` reaches past the table's edge."""
    return any(not table.contains(p, tol) for part in parts for p in part)


def template_off_table(path: TemplatePath, table: Table, upto: float | None = None) -> bool:
    """Does the laid movement template (up to ``upto`` mm) overlap the table edge? Curves
    are judged on pieces inscribed in the true outline (see ``surfaces.PIECE_STEP_DEG``)."""
    return off_table(template_pieces(path, upto), table)
