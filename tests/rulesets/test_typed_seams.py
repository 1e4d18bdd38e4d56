"""The seams of ``Ruleset`` that only a ruleset's own game reads (catalogue, templates,
scenarios, game) are typed per game; these check at run time what mypy checks statically:
each registered scenario keeps ``ScenarioEntry``, and Refuelled's set-up refuses, by name, a
ruleset that is not on its engine instead of calling into another game's parts."""

from __future__ import annotations

import dataclasses

import pytest

from carnage.games.devilsrun.ruleset import DEVILS_RUN_RULESET
from carnage.games.refuelled.ruleset import REFUELLED, on_refuelled_engine
from carnage.games.refuelled.scenarios import StreetRace
from carnage.games.refuelled.setup import GameSetup, SetupError, build_game, checked_team
from carnage.rulesets import RULESETS


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_registered_scenario_names_itself_by_its_key(name: str) -> None:
    for sid, entry in RULESETS[name].scenarios.items():
        assert entry.id == sid
        assert isinstance(entry.name, str) and entry.name
        assert entry.page is None or isinstance(entry.page, int)


def test_the_refuelled_family_is_on_refuelleds_engine_and_devils_run_is_not() -> None:
    on = {name for name, rs in RULESETS.items() if on_refuelled_engine(rs)}
    assert on == {"refuelled", "kart", "legacy"}


def test_a_ruleset_with_a_foreign_scenario_is_not_on_refuelleds_engine() -> None:
    mixed = dataclasses.replace(REFUELLED, scenarios={
        "street-race": StreetRace, "devils-run": DEVILS_RUN_RULESET.scenarios["devils-run"]})
    assert not on_refuelled_engine(mixed)


def test_refuelleds_set_up_refuses_another_games_ruleset_by_name() -> None:
    setup = GameSetup(scenario="devils-run", ruleset="devils-run")
    with pytest.raises(SetupError, match="'devils-run' does not play on Refuelled's engine"):
        build_game(setup, 1, ruleset=DEVILS_RUN_RULESET)
    team = StreetRace().default_teams(2)[0]
    with pytest.raises(SetupError, match="'devils-run'"):
        checked_team(team, "player 1", DEVILS_RUN_RULESET)
