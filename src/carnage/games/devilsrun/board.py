"""Grid geometry for Devil's Run: footprints, the rolling road's bounds, features, line of sight.

Pure functions over ``GameState``; nothing here rolls dice or changes the state.
"""

from __future__ import annotations

from functools import cache

from carnage.games.devilsrun.data import TILE, Square, TileLayout, VehicleType, gangs, missions
from carnage.games.devilsrun.state import RUNNING, WRECK, GameState, TileState, VehicleState

WIDTH = 8
"""The road is one tile wide: columns 0..7 (DR-007)."""


def vtype(v: VehicleState) -> VehicleType:
    return _types()[(v.gang, v.key)]


@cache
def _types() -> dict[tuple[str, str], VehicleType]:
    return {(g, k): vt for g, gang in gangs().items() for k, vt in gang.vehicles.items()}


def footprint(v: VehicleState, pos: Square | None = None) -> list[Square]:
    """The squares a vehicle covers: primary first, then the ones trailing behind it (DRR-3)."""
    p = pos if pos is not None else v.pos
    if p is None:
        return []
    n = vtype(v).footprint
    if n == 1:
        return [p]
    x, y = p
    return [(x, y - i) for i in range(n)]


def in_play(v: VehicleState) -> bool:
    return v.status in (RUNNING, WRECK)


def back_row(st: GameState) -> int:
    return st.tiles[0].origin


def front_end(st: GameState) -> int:
    """The first row beyond the front tile."""
    return st.tiles[-1].origin + TILE


def on_board(st: GameState, sq: Square) -> bool:
    x, y = sq
    return 0 <= x < WIDTH and back_row(st) <= y < front_end(st)


def layout(st: GameState, tile: TileState) -> TileLayout:
    for t in missions()[st.mission].tiles:
        if t.name == tile.name:
            return t
    raise KeyError(tile.name)


def tile_at(st: GameState, y: int) -> TileState | None:
    for t in st.tiles:
        if t.origin <= y < t.origin + TILE:
            return t
    return None


def feature(st: GameState, sq: Square) -> str | None:
    """``debris``, ``impassable`` or None. A square just beyond the front edge shows the back
    tile's features, as that tile is the one recycled there when a vehicle crosses (DR-009)."""
    x, y = sq
    t = tile_at(st, y)
    if t is None and y >= front_end(st) and y < front_end(st) + TILE:
        t = st.tiles[0]
        local = (x, y - front_end(st))
    elif t is None:
        return None
    else:
        local = (x, y - t.origin)
    lay = layout(st, t)
    if local in lay.impassable:
        return "impassable"
    if local in lay.debris:
        return "debris"
    return None


def occupants(st: GameState, status: str = RUNNING) -> dict[Square, str]:
    out: dict[Square, str] = {}
    for v in st.vehicles.values():
        if v.status == status:
            for s in footprint(v):
                out[s] = v.id
    return out


def wreck_at(st: GameState, sq: Square) -> bool:
    return any(v.status == WRECK and sq in footprint(v) for v in st.vehicles.values())


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def distance(a: list[Square], b: list[Square]) -> int:
    return min(chebyshev(p, q) for p in a for q in b)


def impassable_squares(st: GameState) -> list[Square]:
    out = []
    for t in st.tiles:
        for x, r in layout(st, t).impassable:
            out.append((x, t.origin + r))
    return out


# --- line of sight (DR-091, ruling DRR-21) -------------------------------------------------

_INSET = 0.05
_POINTS = [(0.5, 0.5), (_INSET, _INSET), (1 - _INSET, _INSET), (_INSET, 1 - _INSET),
           (1 - _INSET, 1 - _INSET)]


def _crosses(ax: float, ay: float, bx: float, by: float, sq: Square) -> bool:
    """Does the segment a-b pass through the open interior of unit square ``sq``?"""
    x0, y0 = float(sq[0]), float(sq[1])
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x0 + 1 - ax), (-dy, ay - y0), (dy, y0 + 1 - ay)):
        if p == 0:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return t1 - t0 > 1e-9


def line_of_sight(frm: list[Square], to: Square, blockers: set[Square]) -> bool:
    """True if some line from a point in one of ``frm``'s squares to a point in ``to`` crosses
    no part of a blocking square's interior (touching an edge or corner does not block)."""
    if not blockers:
        return True
    near = [b for b in blockers if _box_between(frm, to, b)]
    if not near:
        return True
    for s in frm:
        for px, py in _POINTS:
            ax, ay = s[0] + px, s[1] + py
            for qx, qy in _POINTS:
                bx, by = to[0] + qx, to[1] + qy
                if not any(_crosses(ax, ay, bx, by, b) for b in near):
                    return True
    return False


def _box_between(frm: list[Square], to: Square, b: Square) -> bool:
    xs = [s[0] for s in frm] + [to[0]]
    ys = [s[1] for s in frm] + [to[1]]
    return min(xs) <= b[0] <= max(xs) and min(ys) <= b[1] <= max(ys)
