"""A JSON view of a Devil's Run game for clients (web table, API): what to draw and what to ask.

Pure: reads the game, never changes it. No engine objects leak out; everything is plain JSON.
"""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import TILE, gangs
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.render import arc_squares
from carnage.games.devilsrun.state import RUNNING, WRECK
from carnage.kernel.decisions import Decision

VIEW_FORMAT = "carnage.devilsrun.view/1"


def game_view(game: DevilsRunGame) -> dict[str, Any]:
    st = game.state
    tiles = []
    for t in st.tiles:
        lay = B.layout(st, t)
        tiles.append({
            "name": t.name, "origin": t.origin, "rows": TILE, "placed": t.placed,
            "debris": sorted([x, t.origin + r] for x, r in lay.debris),
            "impassable": sorted([x, t.origin + r] for x, r in lay.impassable),
        })
    vehicles = []
    for v in st.vehicles.values():
        vt = B.vtype(v)
        vehicles.append({
            "id": v.id, "player": v.player, "gang": v.gang, "type": vt.type,
            "status": v.status, "cp": v.cp, "max_cp": vt.cp, "mm": vt.mm, "a": vt.a, "e": vt.e,
            "bs1": vt.bs1, "bs2": vt.bs2,
            "weapons": [{"mount": f"{m.weapon.key}#{i}", "name": m.weapon.name, "slot": m.slot,
                         "range": m.weapon.range, "rof": m.weapon.rof}
                        for i, m in enumerate(vt.mounts)],
            "skills": list(vt.skills),
            "squares": [list(s) for s in B.footprint(v)] if v.status in (RUNNING, WRECK) else [],
            "carrying": v.carrying,
        })
    act = st.act
    arcs: list[dict[str, Any]] = []
    if act is not None and game.vehicle(act.vid).status == RUNNING:
        arcs = [{"square": list(sq), "mount": key, "modifier": mod, "arc": kind}
                for sq, (key, mod, kind) in sorted(arc_squares(game, act.vid).items())]
    d = game.pending()
    out = game.outcome()
    return {
        "format": VIEW_FORMAT,
        "ruleset": "devils-run",
        "mission": st.mission,
        "turn": st.turn,
        "phase": st.phase,
        "players": [{"seat": p, "gang": g, "name": gangs()[g].name,
                     "collected": st.collected[p]} for p, g in enumerate(st.gangs)],
        "board": {"width": B.WIDTH, "back_row": B.back_row(st), "front_end": B.front_end(st),
                  "tiles": tiles},
        "vehicles": vehicles,
        "stash": {"status": st.stash.status,
                  "square": list(st.stash.pos) if st.stash.pos else None,
                  "carrier": st.stash.carrier},
        "active": None if act is None else {"vehicle": act.vid, "action": act.action,
                                            "allowance": act.allowance, "spent": act.spent},
        "arcs": arcs,
        "pending": None if d is None else {
            "player": d.player, "kind": d.kind, "prompt": d.prompt, "source": d.source,
            "vehicle": d.vehicle, "target": d.target, "weapon": d.weapon,
            "options": [{"value": o.value, "label": o.label, **_option_square(game, d, o.value)}
                        for o in d.options],
        },
        "outcome": None if out is None else out.to_json(),
        "dice": [{"dice": e.data["dice"], "results": e.data["results"], "why": e.data["why"],
                  "source": e.source} for e in game.log.events[-60:] if e.kind == "roll"][-8:],
        "log_length": len(game.log),
    }


def _option_square(game: DevilsRunGame, d: Decision, value: str | int) -> dict[str, Any]:
    """Where on the road an option puts something, for the table to mark and let be tapped:
    ``square`` [x, y] (and the deployment square's ``mark``, A-D or 1-4); empty for options
    that are no place."""
    val = str(value)
    if d.kind == "deploy" and "@" in val:
        label = val.split("@", 1)[1]
        sq = game._deploy_squares(d.player).get(label)
        return {} if sq is None else {"square": list(sq), "mark": label}
    if d.kind in ("stash_square", "evade_square") and "," in val:
        x, _, y = val.partition(",")
        if x.lstrip("-").isdigit() and y.lstrip("-").isdigit():
            return {"square": [int(x), int(y)]}
    return {}


def rule_label(source: str) -> str:
    """The short label of the rule or ruling an event's ``source`` is: its name, "(our
    ruling)" after a ruling of ours ("BRAKE! (our ruling)")."""
    from carnage.games.devilsrun.data import rule_index

    entry = rule_index().get(source)
    if entry is None:
        return source
    return entry["name"] + (" (our ruling)" if entry["ruling"] else "")


def explain(source: str) -> str:
    """One line saying which rule or ruling an event's ``source`` is, by its name ("Side Swipe
    (Devil's Run rules): ...", "BRAKE! (our ruling): ..."), then what it says in our words. The
    beta rulebook prints no page numbers; the id and seed lines stay in the data."""
    from carnage.games.devilsrun.data import rule_index

    entry = rule_index().get(source)
    if entry is None:
        return f"{source}: not a Devil's Run rule id"
    name, text = entry["name"], entry["text"]
    if text.lower().startswith(name.lower() + ":"):  # "Side Swipe: ..." says its name once
        text = text[len(name) + 1:].strip()
        text = text[:1].upper() + text[1:]
    whose = "our ruling" if entry["ruling"] else "Devil's Run rules"
    return f"{name} ({whose}): {text}"
