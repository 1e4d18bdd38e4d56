"""A tourney reaches its games only through the ruleset's declared offer (``Ruleset.tourney``):
a test-only ruleset added to the registry, on a game that is not Refuelled's (Devil's Run's
gangs), plays a tourney through its own offer, the same for one or two worker processes; a
ruleset that declares none is refused naming those that do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

import carnage.rulesets as registry
from carnage.analysis.tourney import Tourney, TourneyError, run_tourney, tourney_rulesets
from carnage.games.devilsrun.state import RUNNING
from carnage.kernel.contract import PlayableGame
from carnage.kernel.events import JsonValue
from carnage.kernel.session import SetupRefused
from carnage.kernel.tourney import Entrant, Tally, TourneyOffer, TourneyTeam

DEVILS_RUN = registry.RULESETS["devils-run"]


@dataclass(frozen=True)
class Gang:
    """A team of this test's ruleset: one of Devil's Run's two gangs, by key."""

    key: str
    name: str


LAW, ANGELS = Gang("law", "The Law"), Gang("haul-angels", "Haul's Angels")
CALLS: list[str] = []


def _gang(team: TourneyTeam, who: str) -> Gang:
    if not isinstance(team, Gang):
        raise SetupRefused(f"{who}: not a gang")
    return team


def _check(team: TourneyTeam, who: str) -> list[Entrant]:
    CALLS.append("check_team")
    gang = _gang(team, who)
    g: Any = DEVILS_RUN.new_game(scenario="devils-run", teams=[LAW.key, ANGELS.key], seed=0)
    return [Entrant(v.id, v.key) for v in g.state.vehicles.values() if v.gang == gang.key]


def _setup(scenario: str, teams: Sequence[TourneyTeam], max_rounds: int
           ) -> dict[str, JsonValue]:
    CALLS.append("setup")
    return {"scenario": scenario, "teams": [_gang(t, "team").key for t in teams]}


def _new_game(doc: Mapping[str, JsonValue], seed: int) -> PlayableGame:
    CALLS.append("new_game")
    teams = doc["teams"]
    assert isinstance(teams, list)
    return DEVILS_RUN.new_game(scenario=str(doc["scenario"]), teams=teams, seed=seed)


def _tally(game: PlayableGame) -> list[Tally]:
    CALLS.append("tally")
    g: Any = game
    return [Tally(v.player, v.status == RUNNING, 0, v.cp) for v in g.state.vehicles.values()]


OFFER = TourneyOffer(default_scenario="devils-run", max_rounds=0, check_team=_check,
                     setup=_setup, new_game=_new_game, tally=_tally,
                     own_teams=lambda scenario: (LAW, ANGELS))


@pytest.fixture
def gangs_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    """Devil's Run with a tourney offer, added to the registry as ``test-gangs``."""
    rs = replace(DEVILS_RUN, name="test-gangs", title="Gangs test", tourney=OFFER)
    monkeypatch.setattr(registry, "RULESETS", registry.RULESETS.with_ruleset(rs))
    CALLS.clear()


def test_a_second_rulesets_tourney_goes_through_its_declared_offer(gangs_ruleset: None) -> None:
    assert "test-gangs" in tourney_rulesets() and "devils-run" not in tourney_rulesets()
    t = Tourney(a=LAW, b=ANGELS, games=2, seed=4, ruleset="test-gangs", bots=("heuristic",
                                                                              "random"))
    one, _ = run_tourney(t)
    two, _ = run_tourney(t, workers=2)
    assert one == two
    assert one["scenario"] == "devils-run" and one["ruleset"] == "test-gangs"
    assert one["played"] == 2 and not one["errors"]
    # Who won is the game's outcome; each vehicle's row is the offer's tally.
    assert sum(one["a"][k]["count"] for k in ("win", "draw", "loss")) == 2
    law = [v for v in one["vehicles"] if v["team"] == "A"]
    assert [v["type"] for v in law] == [e.type for e in _check(LAW, "A")]
    assert all(v["games"] == 2 and v["damage_dealt"] == 0 for v in one["vehicles"])
    assert {"check_team", "setup", "new_game", "tally"} <= set(CALLS)


def test_a_team_the_offer_refuses_is_one_clear_error(gangs_ruleset: None) -> None:
    from pathlib import Path

    from carnage.team import load_team

    intro = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"
    t = Tourney(a=LAW, b=load_team(intro), games=2, ruleset="test-gangs",
                b_source="intro.yaml")
    with pytest.raises(TourneyError, match=r"team B \(intro.yaml\): not a gang"):
        run_tourney(t)


def test_a_ruleset_that_declares_no_tourney_is_refused_naming_those_that_do() -> None:
    assert DEVILS_RUN.tourney is None
    with pytest.raises(TourneyError, match=r"--ruleset devils-run: Devil's Run: Route 666 "
                       r"offers no tourney \(tourneys play: refuelled, kart, legacy\)"):
        run_tourney(Tourney(a=LAW, b=ANGELS, games=2, ruleset="devils-run"))
