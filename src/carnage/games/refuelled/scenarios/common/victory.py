"""Victory: round limits, scoring at the end of the game, tie-breaks, scarpering (M-09, M-11,
G-13, G-14, G-20).

**Round limit (G-14).** ``TableScenario.round_limit = N``: the game ends at the end of round
N (the end of its sixth Gear Phase), whatever ``end_checks`` says, and
``TableScenario.final_scores`` decides it (by default: the most Victory Points).

**Standings and tie-breaks (G-20; rulings SC-4, SC-5).** The book gives no generic tie-break.
``decide(game, scores, reason)`` ranks the sides by their score; ruling SC-4: sides tied on
top are separated by the scenario's ``tie_breaks`` in order (data on the scenario class; the
default is ``("vehicles_in_play", "hull_left")``: more counting vehicles in play, then more
Hull Points left on them); sides still tied share the win, which the engine records as a draw
naming the tied seats (a ``shared_win`` event). Ruling SC-5: a game the ``max_rounds``
safety net stops has no result (a draw), as before; the round limit of a scenario is its own
ending and comes first.

**Scarper (G-13).** In a scenario with ``scarper = True`` (Automated Salvage, Scavenger Party,
Zombie Bash) a disqualified vehicle is not destroyed: it keeps what it carries for scoring
(scenarios/common/tokens.py reads ``scarper``) and never respawns (the core already
allows respawning only Wrecked vehicles, p.90; ``scarpered`` lists them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.scenarios.common import score

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

TIE_BREAKS = ("vehicles_in_play", "hull_left")


def tie_break_value(game: Game, side: int, name: str) -> int:
    """One tie-break's value for a side (higher is better)."""
    st = game.state
    seats = score.side_players(game, side)
    mine = [v for v in st.in_play() if v.player in seats and game.scenario.counts(game, v)]
    if name == "vehicles_in_play":
        return len(mine)
    if name == "hull_left":
        return sum(v.hull_points for v in mine)
    raise ValueError(f"unknown tie-break {name!r}")


def standings(game: Game, scores: Mapping[int, int],
              tie_breaks: Sequence[str] = TIE_BREAKS) -> list[tuple[int, tuple[int, ...]]]:
    """Sides best first, each with its key (score, then each tie-break)."""
    keyed = [(s, (int(pts), *(tie_break_value(game, s, t) for t in tie_breaks)))
             for s, pts in scores.items()]
    return sorted(keyed, key=lambda sk: (tuple(-k for k in sk[1]), sk[0]))


def decide(game: Game, scores: Mapping[int, int], reason: str, *,
           tie_breaks: Sequence[str] = TIE_BREAKS, source: str = "scenario",
           page: int | None = None) -> None:
    """End the game: the side with the best score wins (ruling SC-4 for ties); ``reason``
    says what was counted (e.g. "most Victory Points after three rounds")."""
    if game.state.finished:
        return
    if not scores:
        game.finish(None, f"{reason}: nobody scored", draw=True)
        return
    ranked = standings(game, scores, tie_breaks)
    best = ranked[0][1]
    top = [s for s, k in ranked if k == best]
    game.emit("final_scores", source=source, page=page, reason=reason,
              scores={str(s): int(p) for s, p in scores.items()},
              order=[s for s, _ in ranked])
    if len(top) == 1:
        w = top[0]
        tied_on_score = [s for s, k in ranked if k[0] == best[0]]
        how = "" if len(tied_on_score) == 1 else " (on the tie-break, SC-4)"
        game.finish(w, f"{reason}: {score.side_label(game, w)} with {best[0]}{how}")
        return
    seats = sorted(p for s in top for p in score.side_players(game, s))
    game.emit("shared_win", source=source, page=page, players=seats, reason=reason)
    names = ", ".join(score.side_label(game, s) for s in top)
    game.finish(None, f"{reason}: shared by {names} with {best[0]}", draw=True)


def scarpered(game: Game) -> list[str]:
    """Vehicles that left the table in a scarper scenario (G-13): not destroyed."""
    return [v.id for v in game.state.vehicles.values() if v.status is Status.DISQUALIFIED]


def destroyed(status: Status) -> bool:
    """Wrecked or removed; a disqualified vehicle is not destroyed (G-13)."""
    return status in (Status.WRECKED, Status.REMOVED)
