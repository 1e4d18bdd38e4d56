"""Builders for the campaign wear tests: a game on an exact table whose vehicles carry
careers and whose setup hands it ``pregame``, installed through the real installer before the
game starts (as ``build_game`` does)."""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

from tests.builders import Step, StepScenario

from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.rules.campaign import install_campaign
from carnage.kernel.dice import ScriptedDice
from carnage.rulesets import REFUELLED
from carnage.team.model import CareerSpec


def worn(state: GameState, step: Step, dice: Iterable[int] = (),
         careers: dict[str, dict[str, Any]] | None = None,
         pregame: dict[str, Any] | None = None, options: RuleOptions | None = None) -> Game:
    """A game on ``state`` whose only flow is ``step`` (scripted ``dice``), with the careers
    (vehicle id -> CareerSpec fields) and ``pregame`` installed first; ``options`` (companion
    mode, ...) the game's rule options."""
    g = Game(ruleset=REFUELLED, state=state, scenario=StepScenario(step),
             dice=ScriptedDice(list(dice)), options=options or RuleOptions(), autostart=False)
    teams = [[(SimpleNamespace(career=CareerSpec(**c)), state.vehicles[vid])
              for vid, c in (careers or {}).items()]]
    install_campaign(g, teams, pregame or {})
    g.start()
    return g
