"""Sabotage Tokens (Refuelled p.160) through the real flow: the four tokens, the revealed
Resistance Points, the loss of Audience Votes after the first token, and the secrets."""

from __future__ import annotations

from tests.builders import activate, ev, play, table, values, vehicle, wipeouts

from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.engine.votes import gain_votes, spend_opportunity
from carnage.games.refuelled.rules.campaign.sabotage import tokens
from carnage.kernel.secrets import redacted, secret
from carnage.web.redact import secret_views

from .wear_builders import worn


def car(vid: str, player: int, x: float, y: float, heading: float = 90, gear: int = 2,
        hazards: int = 0) -> VehicleState:
    return vehicle(vid, "car", x, y, heading, player=player, gear=gear, hazards=hazards)


def three() -> list[VehicleState]:
    # Red 100 mm ahead of Blue (within Medium, 120 mm, of each other); Far across the table.
    return [car("blue", 0, 600, 300), car("red", 1, 600, 400, 270), car("far", 1, 100, 1100)]


def spend_then_gain(g: Game) -> Flow:
    yield from spend_opportunity(g, 0)
    gain_votes(g, 0, 2, source="test", page=None)
    yield from spend_opportunity(g, 0)


def test_hidden_explosives_blast_everything_within_medium_of_the_point() -> None:
    # Red: 4 dice 6,4,1,1 = 3 hits, evades 1,1; Blue: 4 dice of 1 = no hits.
    g = worn(table(*three()), spend_then_gain, dice=[6, 4, 1, 1, 1, 1, 1, 1, 1, 1] + [1] * 6,
             pregame={"sabotage": [1, 0], "resistance": [4, 0], "votes": [2, 0]})
    d = g.pending()
    assert d is not None and (d.kind, d.player, d.hidden) == ("sabotage", 0, True)
    play(g, "hidden_explosives")
    d = g.pending()
    assert d is not None and d.kind == "explosives_point"
    assert set(values(d)) == {"vehicle:blue", "vehicle:red", "vehicle:far", "centre"}
    play(g, "vehicle:red")
    used = ev(g, "sabotage_token", token="hidden_explosives")[0]
    assert used["targets"] == ["red", "blue"]  # nearest first; Far is out of reach
    red, blue, far = (g.state.vehicles[k] for k in ("red", "blue", "far"))
    assert (red.damage, red.hazards) == (3, 3)  # Blast: a Hazard per hit (p.81)
    assert (blue.damage, far.damage) == (0, 0)
    # The RP are revealed at the first token; the tokens are spent.
    assert ev(g, "secret_revealed", key="resistance:0")[0]["value"] == 4
    assert tokens(g, 0) == 0
    # From now on player 1 can neither gain nor spend votes: the 2 held stay unspendable,
    # the 2 gained are refused, and no spend decision was offered.
    assert ev(g, "votes_locked", player=0)
    assert ev(g, "votes_refused", player=0)[0]["refused"] == 2
    assert g.state.votes[0] == 2
    assert g.pending() is None
    assert not ev(g, "decision", decision="spend_votes")


def test_without_a_token_votes_are_spent_as_usual() -> None:
    g = worn(table(*three()), spend_then_gain, pregame={"sabotage": [0, 1], "votes": [2, 0]})
    d = g.pending()
    assert d is not None and d.kind == "spend_votes"


def test_do_not_adjust_your_set_triggers_a_vote_effect_for_a_token() -> None:
    def once(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    g = worn(table(*three()), once, pregame={"sabotage": [2, 0]})
    play(g, "do_not_adjust_your_set")
    d = g.pending()
    assert d is not None and d.kind == "free_vote_effect"
    assert "respawn" not in values(d)  # no wrecked vehicle: not a legal target (WR-8)
    play(g, "executive_intervention", "red")
    assert g.state.vehicles["red"].hazards == 5
    assert g.state.votes[0] == 0 and not ev(g, "votes_spent")
    assert tokens(g, 0) == 1
    d = g.pending()  # a second token may follow at the same moment
    assert d is not None and d.kind == "sabotage"
    play(g, "no")
    assert g.pending() is None


def test_fix_your_brakes_flips_without_a_flip_check() -> None:
    blue = car("blue", 0, 600, 300, gear=3, hazards=6)
    g = worn(table(blue, car("red", 1, 600, 900)), wipeouts("blue"), dice=[1] * 10,
             pregame={"sabotage": [0, 1]})
    d = g.pending()
    assert d is not None and (d.kind, d.player, d.hidden) == ("fix_your_brakes", 1, True)
    play(g, "flip")
    assert not [e for e in g.log.of_kind("roll") if e.data["why"] == "flip check"]
    assert ev(g, "flip_check", source="fix_your_brakes")[0]["flipped"] is True
    assert ev(g, "flip", vehicle="blue")
    assert g.state.vehicles["blue"].damage == 2  # a flip's 2 hits (p.35)


def test_fix_your_brakes_declined_rolls_as_usual() -> None:
    blue = car("blue", 0, 600, 300, gear=3, hazards=6)
    g = worn(table(blue, car("red", 1, 600, 900)), wipeouts("blue"), dice=[6] * 10,
             pregame={"sabotage": [0, 1]})
    play(g, "no")
    assert ev(g, "flip_check", source="flip_check")[0]["flipped"] is False
    assert tokens(g, 1) == 1


def test_resistance_cache_gives_the_active_vehicle_grenades() -> None:
    g = worn(table(car("blue", 0, 600, 300), car("red", 1, 600, 500, 270)), activate("blue"),
             pregame={"sabotage": [1, 0], "resistance": [3, 0]})
    d = g.pending()
    assert d is not None and (d.kind, d.player, d.vehicle) == ("resistance_cache", 0, "blue")
    play(g, "cache")
    blue = g.state.vehicles["blue"]
    assert [(m.key, m.weapon, m.ammo) for m in blue.weapons] == [("grenades#cache0",
                                                                  "grenades", 5)]
    assert ["rule", "weapon", "grenades", "blue", "weapon:grenades:blue"] in g.state.installed
    # A copy of the game rebuilds the cache and continues alike.
    copy = g.clone()
    assert copy.state.vehicles["blue"].weapons == blue.weapons
    assert copy.pending() == g.pending()
    again = g.restored(g.snapshot())
    assert again.state.vehicles["blue"].weapons == blue.weapons


def test_tokens_and_rp_are_secrets_of_their_seat() -> None:
    g = worn(table(*three()), spend_then_gain, pregame={"sabotage": [1, 0],
                                                        "resistance": [5, 0]})
    shown = [e for e in g.log.of_kind("secret") if e.data["key"] == "sabotage:0"]
    assert shown and shown[0].data["value"] == 1
    assert redacted(shown[0], [1]).data["value"] is None
    assert redacted(shown[0], [0]).data["value"] == 1
    assert {s.key for s in secret_views(g, [0])} == {"sabotage:0", "resistance:0"}
    assert secret_views(g, [1]) == []
    assert secret(g, "resistance:0") is not None
    play(g, "no")
    choice = next(e for e in g.log.of_kind("decision") if e.data["decision"] == "sabotage")
    assert redacted(choice, [1]).data["choice"] is None


def test_at_a_real_table_hidden_explosives_blast_whom_the_holder_names() -> None:
    # Far stands across the virtual table; the holder says it alone is within Medium of the
    # point under Red: Far takes the 4D6 (6,4,1,1: 3 hits, evades 1,1), Red none (p.160).
    g = worn(table(*three()), spend_then_gain, dice=[6, 4, 1, 1, 1, 1] + [1] * 6,
             pregame={"sabotage": [1, 0], "resistance": [4, 0], "votes": [2, 0]},
             options=RuleOptions(physical=True))
    play(g, "hidden_explosives", "vehicle:red")
    d = g.pending()
    assert d is not None and d.kind == "table:explosives_reach" and d.player == 0
    assert d.page == 160 and values(d) == ["none", "blue", "red", "far"]
    play(g, "far", "none")
    assert ev(g, "sabotage_token", token="hidden_explosives")[0]["targets"] == ["far"]
    red, far = g.state.vehicles["red"], g.state.vehicles["far"]
    assert (far.damage, far.hazards) == (3, 3) and red.damage == 0
