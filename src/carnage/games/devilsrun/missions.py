"""The Devil's Run ruleset object: its missions and how to start a game of one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carnage.games.devilsrun.data import gangs, missions
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.kernel.dice import DiceSource, SeededDice, check_dice_source


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    page: int | None
    """The beta rulebook prints no page numbers; ``lines`` cites the seed text instead."""
    lines: str
    players: int
    description: str


DEFAULT_TEAMS = ["law", "haul-angels"]


class DevilsRunRuleset:
    name = "devils-run"
    title = "Devil's Run: Route 666"

    @property
    def scenarios(self) -> list[Scenario]:
        return [Scenario(m.key, m.name, None, m.lines, 2, m.description)
                for m in missions().values()]

    def scenario(self, scenario: str) -> Scenario:
        for s in self.scenarios:
            if s.id == scenario:
                return s
        known = ", ".join(s.id for s in self.scenarios)
        raise ValueError(f"unknown Devil's Run mission {scenario!r} (missions: {known})")

    def new_game(self, scenario: str, teams: list[Any] | None = None, seed: int = 0,
                 dice: DiceSource | None = None) -> DevilsRunGame:
        """A game of ``scenario``; ``teams`` names the gang of player 0 and player 1
        (default the Law against the Haul's Angels)."""
        self.scenario(scenario)
        check_dice_source(dice)
        chosen = [str(t) for t in (teams if teams is not None else DEFAULT_TEAMS)]
        if len(chosen) != 2 or set(chosen) != set(DEFAULT_TEAMS):
            raise ValueError(
                f"Devil's Run needs the two gangs, one each: {' and '.join(gangs())} "
                f"(got {chosen})"
            )
        setup = {"ruleset": self.name, "scenario": scenario, "teams": chosen, "seed": seed}
        return DevilsRunGame.new(scenario, chosen, dice if dice is not None else SeededDice(seed),
                                 setup)


DEVILS_RUN = DevilsRunRuleset()


def replay(setup: dict[str, Any], choices: list[Any]) -> DevilsRunGame:
    """Rebuild a seeded game from its setup and the choices made in it."""
    g = DEVILS_RUN.new_game(str(setup["scenario"]), list(setup["teams"]), int(setup["seed"]))
    for c in choices:
        g.apply(c)
    return g
