"""SVG drawings of a Devil's Run game: the three road tiles, vehicles, road features, the stash,
a vehicle's arcs of fire as shaded squares, and printable stat cards (DR-116..118).

Pure functions of the game state: no files, no globals. Motion of play is up the page.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import TILE, VehicleType, arcs, gangs, skills
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.state import RUNNING, WRECK, VehicleState

CELL = 32
MARGIN = 24
LEFT = 52
CARD_W = 220
CARD_H = 120
GANG_COLOUR = {"law": "#2f5da8", "haul-angels": "#b23a2a"}
ARC_FILL = {"primary": "#f2c14e", "secondary": "#f7e2a6"}
Coord = Callable[[int], float]


def _rect(x: float, y: float, w: float, h: float, cls: str, fill: str, extra: str = "") -> str:
    return (f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
            f'fill="{fill}"{extra}/>')


def _text(x: float, y: float, s: str, cls: str = "label", size: int = 11,
          anchor: str = "middle") -> str:
    return (f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size}" '
            f'text-anchor="{anchor}" font-family="sans-serif">{escape(s)}</text>')


def render_board(game: DevilsRunGame, arcs_for: str | None = None, cards: bool = True) -> str:
    """The road as SVG: tiles back (bottom) to front (top), vehicles, features, stash, and the
    arcs of vehicle ``arcs_for`` shaded; stat cards down the right when ``cards``."""
    st = game.state
    rows = TILE * len(st.tiles)
    base = B.back_row(st)
    board_w = B.WIDTH * CELL
    board_h = rows * CELL
    cards_w = CARD_W + MARGIN if cards else 0
    width = LEFT + MARGIN + board_w + cards_w
    n_cards = len(st.vehicles)
    height = max(MARGIN * 2 + board_h, MARGIN * 2 + n_cards * (CARD_H + 8))

    def sx(x: int) -> float:
        return LEFT + x * CELL

    def sy(y: int) -> float:
        return MARGIN + (rows - 1 - (y - base)) * CELL

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" class="devilsrun-board">',
           _rect(0, 0, width, height, "background", "#fbfaf6")]
    for t in st.tiles:
        y0 = sy(t.origin + TILE - 1)
        out.append(f'<g class="tile" data-tile="{escape(t.name)}" data-origin="{t.origin}" '
                   f'data-placed="{t.placed}">')
        for r in range(TILE):
            for x in range(B.WIDTH):
                y = t.origin + r
                f = B.feature(st, (x, y))
                fill = {"debris": "#b9a68a", "impassable": "#3b3b3b"}.get(f or "", "#d9d6cf")
                cls = f"square {f}" if f else "square"
                out.append(_rect(sx(x) + 1, sy(y) + 1, CELL - 2, CELL - 2, cls, fill,
                                 f' data-x="{x}" data-y="{y}"'))
        out.append(_rect(sx(0), y0, board_w, TILE * CELL, "tile-edge", "none",
                         ' stroke="#555" stroke-width="2"'))
        out.append(_text(sx(0) - 4, y0 + 12, f"tile {t.name}", "tile-label", 10, "end"))
        out.append("</g>")
    if arcs_for is not None:
        out.extend(_arc_squares(game, arcs_for, sx, sy))
    s = st.stash
    if s.status == "placed" and s.pos is not None:
        cx, cy = sx(s.pos[0]) + CELL / 2, sy(s.pos[1]) + CELL / 2
        out.append(f'<circle class="stash" cx="{cx:g}" cy="{cy:g}" r="{CELL / 3:g}" '
                   f'fill="#f08a24" stroke="#7a3d00"/>')
    for v in st.vehicles.values():
        if v.status not in (RUNNING, WRECK) or v.pos is None:
            continue
        out.append(_vehicle(v, sx, sy))
    out.append(_text(LEFT + board_w / 2, MARGIN - 8, "motion of play ↑", "motion", 11))
    if cards:
        for i, v in enumerate(st.vehicles.values()):
            x = LEFT + MARGIN + board_w
            y = MARGIN + i * (CARD_H + 8)
            out.append(_card(B.vtype(v), x, y, v))
    out.append("</svg>")
    return "\n".join(out)


def _vehicle(v: VehicleState, sx: Coord, sy: Coord) -> str:
    fp = B.footprint(v)
    top = min(sy(s[1]) for s in fp)
    x = sx(fp[0][0])
    h = CELL * len(fp)
    colour = GANG_COLOUR.get(v.gang, "#777")
    wreck = v.status == WRECK
    parts = [f'<g class="vehicle{" wreck" if wreck else ""}" data-id="{escape(v.id)}">',
             _rect(x + 4, top + 4, CELL - 8, h - 8, "body", "#777" if wreck else colour,
                   ' rx="4" stroke="#111"'),
             _text(x + CELL / 2, top + 14, v.key[:2].upper(), "tag", 10)]
    if wreck:
        parts.append(f'<path class="wreck-cross" d="M{x + 6:g},{top + 6:g} L{x + CELL - 6:g},'
                     f'{top + h - 6:g} M{x + CELL - 6:g},{top + 6:g} L{x + 6:g},{top + h - 6:g}" '
                     f'stroke="#111" stroke-width="2"/>')
    if v.carrying:
        parts.append(f'<circle class="stash carried" cx="{x + CELL - 8:g}" cy="{top + 8:g}" '
                     f'r="5" fill="#f08a24"/>')
    parts.append("</g>")
    return "".join(parts)


def arc_squares(game: DevilsRunGame, vid: str) -> dict[tuple[int, int], tuple[str, int, str]]:
    """Board squares in a vehicle's arcs: square -> (mount key, BS modifier, primary/secondary)."""
    st = game.state
    v = game.vehicle(vid)
    out: dict[tuple[int, int], tuple[str, int, str]] = {}
    if v.pos is None:
        return out
    vt = B.vtype(v)
    for mi, m in enumerate(vt.mounts):
        grid = arcs()[f"{vt.type}.{m.slot}"]
        for (dx, dy), mod in grid.cells.items():
            sq = (v.pos[0] + dx, v.pos[1] + dy)
            if not B.on_board(st, sq) or B.distance(B.footprint(v), [sq]) > m.weapon.range:
                continue
            kind = "secondary" if (dx, dy) in grid.secondary else "primary"
            if sq not in out or mod > out[sq][1]:
                out[sq] = (f"{m.weapon.key}#{mi}", mod, kind)
    return out


def _arc_squares(game: DevilsRunGame, vid: str, sx: Coord, sy: Coord) -> list[str]:
    out = [f'<g class="arcs" data-vehicle="{escape(vid)}">']
    for (x, y), (key, mod, kind) in sorted(arc_squares(game, vid).items()):
        out.append(_rect(sx(x) + 3, sy(y) + 3, CELL - 6, CELL - 6, f"arc {kind}",
                         ARC_FILL[kind], f' opacity="0.7" data-mount="{key}" data-mod="{mod}"'))
        out.append(_text(sx(x) + CELL / 2, sy(y) + CELL / 2 + 4, f"{mod:+d}" if mod else "0",
                         "arc-mod", 9))
    out.append("</g>")
    return out


def _card(vt: VehicleType, x: float, y: float, v: VehicleState | None = None) -> str:
    g = gangs()[vt.gang]
    colour = GANG_COLOUR.get(vt.gang, "#777")
    title = f"{g.short} {vt.key.title()}"
    cp = f"{v.cp}/{vt.cp}" if v is not None else str(vt.cp)
    state = f" ({v.status})" if v is not None and v.status != RUNNING else ""
    bs2 = "-" if vt.bs2 is None else str(vt.bs2)
    weapons = [f"{m.weapon.name} ({m.slot}) R{m.weapon.range} RoF{m.weapon.rof}"
               for m in vt.mounts]
    skill = _wrap(" ".join(skills()[s].split(" (")[0] for s in vt.skills) or "No special skill.",
                  44)
    lines = [*weapons, *skill][:4]
    return "".join([
        f'<g class="stat-card" data-gang="{vt.gang}" data-type="{vt.key}">',
        _rect(x, y, CARD_W, CARD_H, "card", "#fff", f' stroke="{colour}" stroke-width="2" rx="6"'),
        _text(x + 8, y + 16, title + state, "card-title", 13, "start"),
        *(_text(x + 20 + 34 * i, y + 36, head, "card-head", 10)
          for i, head in enumerate(("MM", "CP", "A", "E", "BS1", "BS2"))),
        *(_text(x + 20 + 34 * i, y + 52, val, "card-stats", 12)
          for i, val in enumerate((str(vt.mm), cp, str(vt.a), str(vt.e), str(vt.bs1), bs2))),
        *(_text(x + 8, y + 70 + 13 * i, line, "card-line", 9, "start")
          for i, line in enumerate(lines)),
        "</g>",
    ])


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def stat_cards() -> str:
    """Printable stat cards for every vehicle of both gangs (DR-115)."""
    types = [vt for g in gangs().values() for vt in g.vehicles.values()]
    cols = 2
    rows = (len(types) + cols - 1) // cols
    w = MARGIN * 2 + cols * (CARD_W + 12)
    h = MARGIN * 2 + rows * (CARD_H + 12)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" class="devilsrun-cards">']
    for i, vt in enumerate(types):
        out.append(_card(vt, MARGIN + (i % cols) * (CARD_W + 12),
                         MARGIN + (i // cols) * (CARD_H + 12)))
    out.append("</svg>")
    return "\n".join(out)
