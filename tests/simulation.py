"""Whole-game simulation checks: the state invariants after every choice, seeded games played in
worker processes, and the verdict over their results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.copies import SpotCheck

from carnage.ai import bot_rng, make_bot, play_out
from carnage.analysis.workers import map_chunks
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.movement import obstructions_for
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.setup import (
    GameSetup,
    log_text,
    parse_log,
    record_game,
)
from carnage.geometry.shapes import penetration
from carnage.kernel.decisions import Decision
from carnage.rulesets import build_game, replay


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


@dataclass
class CheckedGame:
    """One seeded game played by ``play_checked``: the game, what went wrong, the copy checks
    made and, if asked, whether its saved log replayed identically."""

    game: Game
    problems: list[str] = field(default_factory=list)
    error: str | None = None
    copies_checked: int = 0
    replay_identical: bool | None = None
    log: str | None = None
    """The saved log's text, when the replay was checked."""

    def result(self, **more: Any) -> dict[str, Any]:
        """The plain result ``assert_games_clean`` and the scenario tests judge."""
        out = self.game.outcome()
        return {"problems": self.problems, "error": self.error,
                "finished": out is not None, "rounds": out.rounds if out else None,
                "winner": out.winner if out else None, "draw": out.draw if out else None,
                "reason": out.reason if out else "", "copies_checked": self.copies_checked,
                "kinds": sorted({e.kind for e in self.game.log}),
                **({} if self.replay_identical is None
                   else {"replay_identical": self.replay_identical}), **more}


def play_checked(setup: GameSetup, seed: int, bots: Sequence[str], *, copies_every: int = 30,
                 copies_most: int = 2, check_replay: bool = False,
                 extra: Callable[[Game], list[str]] | None = None) -> CheckedGame:
    """Play ``setup`` from ``seed`` with one bot per seat: the invariants (and ``extra``'s
    checks) after every choice, clone and snapshot spot checks (``tests/copies.py``), and,
    if asked, an exact replay of the saved log. An exception is recorded, not raised."""
    g = build_game(setup, seed)
    players = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    checked = CheckedGame(g)
    problems = checked.problems
    copies = SpotCheck(seed, players, rng, every=copies_every, most=copies_most,
                       invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        if not problems:
            found = invariant_problems(game) + (extra(game) if extra else [])
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)

    try:
        play_out(g, players, rng, after=after)
    except Exception as e:  # reported with its seed by the test
        checked.error = f"{type(e).__name__}: {e}"
        return checked
    checked.copies_checked = copies.checked
    if check_replay:
        checked.log = log_text(record_game(g, setup, seed))
        again = replay(parse_log(checked.log))
        checked.replay_identical = again.identical and again.crash is None
    return checked
