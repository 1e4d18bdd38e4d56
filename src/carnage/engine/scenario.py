"""Scenarios: set-up, deployment, pole position and victory (Refuelled pp.62, 122-151).

A scenario is installed into a game: it may register effects and it provides the set-up flow
and the end-of-phase and victory checks. Scenarios are found by id in ``SCENARIOS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carnage.engine.game import Flow, Game


class Scenario:
    """Base scenario: no deployment decisions, pole stays put, last player standing wins."""

    id = "skirmish"
    name = "Skirmish"
    page: int | None = None

    def install(self, game: Game) -> None:
        """Register the scenario's effects on the game's hooks."""

    def setup(self, game: Game) -> Flow:
        """Deployment and anything else decided before round 1."""
        yield from ()

    def end_of_gear_phase(self, game: Game) -> None:
        """Called after each gear phase (e.g. passing pole position)."""

    def check_end(self, game: Game) -> None:
        """Default victory: one player left with vehicles in play wins (p.62's last clause)."""
        st = game.state
        alive = {v.player for v in st.in_play() if v.in_team}  # not RC Cars (p.79)
        if len(alive) == 1 and st.players > 1:
            game.finish(next(iter(alive)), "last player with vehicles in play")
        elif not alive:
            game.finish(None, "no vehicles left in play", draw=True)
