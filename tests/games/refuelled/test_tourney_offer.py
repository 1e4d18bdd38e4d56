"""Refuelled's tourney offer (``games/refuelled/tourney.py``, ``Ruleset.tourney``): damage
credited to the vehicle that dealt it, set-ups that rebuild the same game from JSON, the team
check, and values it cannot play refused with one line. The Kart variant and Legacy inherit it
as overlays of their own ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.setup import GameSetup
from carnage.games.refuelled.tourney import damage_tally
from carnage.kernel.session import SetupRefused
from carnage.kernel.tourney import Entrant
from carnage.rulesets import RULESETS, build_game
from carnage.team import load_team

TEAMS = Path(__file__).resolve().parents[3] / "examples" / "teams"
INTRO = load_team(TEAMS / "intro.yaml")
IDRIS = load_team(TEAMS / "idris_cult_of_speed.yaml")
REFUELLED = RULESETS["refuelled"]


def test_damage_is_credited_to_the_attacker_and_the_other_party_of_a_collision() -> None:
    g = build_game(GameSetup(teams=(INTRO, IDRIS)), seed=1)
    ids = list(g.state.vehicles)
    a1, a2, b1 = ids[0], ids[1], ids[len(INTRO.vehicles)]
    hull = {vid: v.hull for vid, v in g.state.vehicles.items()}
    g.log.events.clear()
    g.log.emit("activation", vehicle=a1)
    g.log.emit("declare_attack", source="attack", vehicle=a1, target=b1)
    g.log.emit("damage", source="attack", vehicle=b1, amount=3, hull_points=hull[b1] - 3)
    # A blow bigger than what is left counts only the hull points marked off.
    g.log.emit("damage", source="attack", vehicle=b1, amount=99, hull_points=0)
    g.log.emit("activation", vehicle=b1)
    g.log.emit("collision", source="collision", vehicle=b1, other=a2)
    g.log.emit("damage", source="collision", vehicle=a2, amount=2, hull_points=hull[a2] - 2)
    # Hazard-born damage (a flip) is dealt by no one.
    g.log.emit("damage", source="flip", vehicle=a1, amount=1, hull_points=hull[a1] - 1)
    dealt, taken = damage_tally(g)
    assert dealt == {a1: hull[b1], b1: 2}
    assert taken == {b1: hull[b1], a2: 2, a1: 1}


def test_a_setup_rebuilds_the_same_game_and_the_tally_lists_every_vehicle() -> None:
    offer = REFUELLED.tourney
    assert offer is not None and offer.default_scenario == "street-race"
    doc = offer.setup("street-race", (INTRO, IDRIS), 5)
    assert (doc["ruleset"], doc["scenario"], doc["max_rounds"]) == ("refuelled", "street-race", 5)
    g = offer.new_game(doc, 9)
    twin = build_game(GameSetup(teams=(INTRO, IDRIS), max_rounds=5), seed=9)
    assert g.snapshot() == twin.snapshot()
    tallies = offer.tally(g)
    assert [t.player for t in tallies] == [0] * len(INTRO.vehicles) + [1] * len(IDRIS.vehicles)
    assert all(t.survived and t.dealt == t.taken == 0 for t in tallies)


def test_the_team_check_lists_the_vehicles_and_refuses_an_illegal_team() -> None:
    offer = REFUELLED.tourney
    assert offer is not None
    assert offer.check_team(INTRO, "team A") == [
        Entrant(v.name, v.type) for v in INTRO.vehicles]
    broke = INTRO.model_copy(update={"cans": 5})
    with pytest.raises(SetupRefused, match=r"team B \(.*\): .*cans"):
        offer.check_team(broke, "team B")


def test_what_the_offer_cannot_play_is_refused_in_one_line() -> None:
    offer = REFUELLED.tourney
    assert offer is not None

    class Stranger:
        name = "not a team file"

    with pytest.raises(SetupRefused, match=r"team A: not a team file's team \(Stranger\)"):
        offer.check_team(Stranger(), "team A")
    with pytest.raises(SetupRefused, match="unknown scenario 'nowhere'"):
        offer.own_teams("nowhere")
    devils = RULESETS["devils-run"].new_game(scenario="devils-run", seed=1)
    with pytest.raises(SetupRefused, match="needs a game of the Refuelled engine"):
        offer.tally(devils)


@pytest.mark.parametrize("name", ["kart", "legacy"])
def test_overlays_inherit_the_offer_for_their_own_ruleset(name: str) -> None:
    rs = RULESETS[name]
    assert rs.tourney is not None and rs.tourney is not REFUELLED.tourney
    teams = rs.tourney.own_teams("street-race")
    doc = rs.tourney.setup("street-race", teams, 3)
    assert doc["ruleset"] == name
    g = rs.tourney.new_game(doc, 2)
    assert isinstance(g, Game) and g.ruleset is rs
