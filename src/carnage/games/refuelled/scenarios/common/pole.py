"""Pole Position by roll-off, passed clockwise after each Gear Phase (M-05, G-12).

Most scenarios (Street Race p.62; Arena of Death p.130 onwards) open with a roll-off for Pole
Position and pass it clockwise at the end of every Gear Phase. ``RollOffPole`` gives a
scenario both; the pass goes through ``Scenario.move_pole``, so Carpe Diem may hold it (p.90)
and a team game skips teammates (p.123).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game


def roll_off(game: Game, source: str, page: int | None,
             players: list[int] | None = None) -> int:
    """Each of ``players`` (default: every seat) rolls a die; the highest wins; tied players
    roll again. The winner is logged as a ``pole`` event (reason ``roll-off``)."""
    rolling = list(range(game.state.players)) if players is None else list(players)
    while len(rolling) > 1:
        results = {
            p: game.roll(1, "pole roll-off", source=source, page=page, player=p)[0]
            for p in rolling
        }
        top = max(results.values())
        rolling = [p for p in rolling if results[p] == top]
    game.emit("pole", source=source, page=page, player=rolling[0], reason="roll-off")
    return rolling[0]


class RollOffPole:
    """Mixin for a ``TableScenario``: ``roll_off(game)`` at set-up, and the pole passed
    clockwise after every Gear Phase (``end_of_gear_phase``)."""

    page: ClassVar[int | None]
    id: str

    @property
    def source(self) -> str:
        """The ``source`` of the scenario's events: its id in snake case."""
        return self.id.replace("-", "_")

    def roll_off(self, game: Game) -> int:
        """The roll-off for Pole Position (p.62 and every scenario after it)."""
        return roll_off(game, self.source, self.page)

    def pass_pole_clockwise(self, game: Game) -> None:
        st = game.state
        game.scenario.move_pole(game, (st.pole + 1) % st.players, "passed clockwise",
                                source=self.source, page=self.page)

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        # Through ``move_pole`` so Carpe Diem may hold it (p.90).
        self.pass_pole_clockwise(game)
        return None
