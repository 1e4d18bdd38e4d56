"""Whole-game simulation checks: the state invariants after every choice, seeded games played in
worker processes, and the verdict over their results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from carnage.analysis.workers import map_chunks
from carnage.engine.game import Game
from carnage.engine.movement import obstructions_for
from carnage.engine.state import Status
from carnage.geometry.shapes import penetration


def invariant_problems(g: Game) -> list[str]:
    """What is wrong with the state right now (empty when all is well): hazards >= 0,
    1 <= gear <= max gear, 0 <= hull points <= hull, no two deployed vehicles in play
    overlapping by more than 0.1 mm (trailers included), no trailer over its own cab, every
    wreck an obstacle until a collision clears it."""
    out: list[str] = []
    st = g.state
    # Wrecks are destructible: a collision may clear one away (p.44).
    removed = {str(e.data.get("obstacle")) for e in g.log.of_kind("obstacle_removed")}
    for v in st.vehicles.values():
        if v.hazards < 0:
            out.append(f"{v.id}: {v.hazards} hazards")
        if not 1 <= v.gear <= g.stat(v, "max_gear"):
            out.append(f"{v.id}: gear {v.gear} outside 1..{g.stat(v, 'max_gear')}")
        if not 0 <= v.hull_points <= v.hull:
            out.append(f"{v.id}: {v.hull_points} hull points of {v.hull}")
        if v.status is Status.WRECKED and not any(
            o.wreck_of == v.id for o in st.obstacles.values()
        ) and not any(o.startswith("wreck:") and o[6:].split("#")[0] == v.id for o in removed):
            out.append(f"{v.id}: wrecked but no wreck on the table (nor removed)")
    live = [v for v in st.in_play() if v.pose.x >= 0 and v.pose.y >= 0]  # deployed
    for v in live:  # a trailer never overlaps its own cab (p.119)
        bodies = v.bodies()
        if len(bodies) == 2:
            depth = penetration(bodies[0][1].polygon(), bodies[1][1].polygon())
            if depth > 0.1:
                out.append(f"{v.id}: cab and trailer overlap by {depth:.3f} mm")
    for i, a in enumerate(live):
        # Every body: the vehicle and its trailer (p.117).
        mine = [(bid, r.polygon()) for bid, r in a.bodies()]
        for b in live[i + 1:]:
            # An aircraft and what it flies over ignore each other (Airborne, p.70).
            if b.id not in {o.id for o in obstructions_for(g, a)}:
                continue
            for aid, pa in mine:
                for bid, rb in b.bodies():
                    depth = penetration(pa, rb.polygon())
                    if depth > 0.1:
                        out.append(f"{aid} and {bid} overlap by {depth:.3f} mm")
    return out


def run_in_workers(play_chunk: Callable[[list[Any]], list[dict[str, Any]]],
                   chunks: list[list[Any]], workers: int = 2) -> list[dict[str, Any]]:
    """Play seeded games chunk by chunk in forked worker processes; results in chunk order
    (the pool ``carnage tourney`` plays on)."""
    return map_chunks(play_chunk, chunks, workers)


def assert_games_clean(results: list[dict[str, Any]]) -> None:
    """No game raised, the invariants held after every choice, and every game finished.
    Each result names its ``seed`` (and ``bots`` if any), ``error``, ``problems``, ``finished``."""
    def who(r: dict[str, Any]) -> str:
        return f"seed {r['seed']}" + (f" {r['bots']}" if "bots" in r else "")

    errors = [f"{who(r)}: {r['error']}" for r in results if r["error"]]
    assert not errors, errors[:5]
    broken = [f"{who(r)}: {r['problems'][0]}" for r in results if r["problems"]]
    assert not broken, broken[:5]
    assert all(r["finished"] for r in results)
