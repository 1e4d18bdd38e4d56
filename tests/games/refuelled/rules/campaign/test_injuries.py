"""Injuries (Refuelled p.163) and lasting wear (p.162) in play, through the real flow with
scripted dice and exact poses."""

from __future__ import annotations

from tests.builders import (
    HAZ,
    SHIFT,
    SPIN,
    collide,
    ev,
    move,
    play,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.damage import wreck
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.engine.votes import spend_opportunity

from .wear_builders import worn


def car(vid: str = "car", *, player: int = 0, x: float = 600, y: float = 300,
        heading: float = 90, gear: int = 2, hazards: int = 0) -> VehicleState:
    return vehicle(vid, "car", x, y, heading, player=player, gear=gear, hazards=hazards)


# -- Deathwish ------------------------------------------------------------------------------
def test_deathwish_may_not_spend_a_shift_to_change_down() -> None:
    # Gear 3, Medium Straight (trivial: one free Shift, p.40), no skid dice.
    plain = worn(table(car(gear=3)), move("car"))
    play(plain, "medium_straight", 0)
    assert "gear_down" in values(plain.pending())
    g = worn(table(car(gear=3)), move("car"), careers={"car": {"injuries": ["deathwish"]}})
    play(g, "medium_straight", 0)
    assert "gear_down" not in values(g.pending())
    assert "gear_up" in values(g.pending())


def test_deathwish_burn_rubber_offers_only_up() -> None:
    def spend(g: Game) -> Flow:
        yield from spend_opportunity(g, 0)

    g = worn(table(car(gear=3)), spend, careers={"car": {"injuries": ["deathwish"]}},
             pregame={"votes": [1, 0]})
    play(g, "burn_rubber")
    # One legal target: taken without asking (logged as a forced choice).
    assert ev(g, "forced_choice", decision="vote_target")[0]["choice"] == "car:up"
    assert g.state.vehicles["car"].gear == 4


def test_deathwish_leaves_forced_gear_changes_alone() -> None:
    g = worn(table(car(gear=3)), move("car"), careers={"car": {"injuries": ["deathwish"]}})
    v = g.state.vehicles["car"]
    assert g.effects.run_event("min_gear", 1, {"game": g, "vehicle": v}) == 3
    assert g.effects.run_event("min_gear", 1, {"game": g, "vehicle": v, "forced": True}) == 1


# -- Bad Television -------------------------------------------------------------------------
def wreck_then_spend(g: Game) -> Flow:
    yield from wreck(g, g.state.vehicles["red"])
    yield from spend_opportunity(g, 1)


def test_bad_television_respawn_costs_one_more_vote() -> None:
    # Red is wrecked (its wreck vote: +1) and has nothing in play: a Respawn is on offer.
    def game(votes: int, injured: bool) -> Game:
        red = car("red", player=1, x=320, y=450, heading=270)
        careers = {"red": {"injuries": ["bad-television"]}} if injured else {}
        return worn(table(car("blue"), red), wreck_then_spend, dice=[1], careers=careers,
                    pregame={"votes": [0, votes]})

    plain = game(2, injured=False)
    assert "respawn" in values(plain.pending())
    g = game(2, injured=True)  # 3 votes: the Respawn costs 4
    assert "respawn" not in values(g.pending())
    g = game(3, injured=True)
    assert "respawn" in values(g.pending())
    play(g, "respawn")
    assert ev(g, "votes_spent", effect="respawn")[0]["cost"] == 4
    assert g.state.votes[1] == 0
    assert g.state.vehicles["red"].in_play


# -- Crazed ---------------------------------------------------------------------------------
def test_crazed_shifts_may_not_cancel_spin_or_slide() -> None:
    plain = worn(table(car()), move("car"), dice=[SPIN, SHIFT])
    play(plain, "medium_straight", 2, "no")
    assert "cancel:0" in values(plain.pending())
    g = worn(table(car()), move("car"), dice=[SPIN, SHIFT],
             careers={"car": {"injuries": ["crazed"]}})
    play(g, "medium_straight", 2, "no")
    opts = values(g.pending())
    assert "cancel:0" not in opts and "gear_up" in opts
    assert ev(g, "injury", source="crazed")[0]["locked"] == [0]


def test_crazed_shifts_still_cancel_hazard_results() -> None:
    g = worn(table(car()), move("car"), dice=[HAZ, SHIFT],
             careers={"car": {"injuries": ["crazed"]}})
    play(g, "medium_straight", 2, "no")
    assert "cancel:0" in values(g.pending())
    assert not ev(g, "injury", source="crazed")


# -- Cowardly and Weakened chassis (a Collision, p.53) ----------------------------------------
def head_on(careers: dict[str, dict[str, object]]) -> Game:
    # Blue faces up, Red faces down, their front edges touching (cars are 60 mm long).
    blue = car("blue", y=300)
    red = car("red", player=1, y=360, heading=270)
    return worn(table(blue, red), collide("blue", "red", active="blue"), dice=[1] * 40,
                careers=careers)


def reactions(g: Game) -> list[tuple[int, object]]:
    return [(d["player"], d["choice"]) for d in ev(g, "forced_choice")
            if d["decision"] == "collision_reaction"]


def test_cowardly_must_evade_in_a_collision() -> None:
    plain = head_on({})
    d = plain.pending()
    assert d is not None and d.kind == "collision_reaction"
    g = head_on({"red": {"injuries": ["cowardly"]}})
    while (d := g.pending()) is not None and d.kind == "collision_reaction":
        assert d.player == 0  # only Blue chooses; Red's evade is forced
        g.apply("smash")
    assert reactions(g) == [(1, "evade")]


def test_weakened_chassis_adds_a_hazard_per_count_in_every_collision() -> None:
    g = head_on({"red": {"weakened_chassis": 2}})
    while (d := g.pending()) is not None and d.kind == "collision_reaction":
        g.apply("evade")
    # Both evaded: 1 Hazard each (p.54); Red's chassis adds 2.
    assert g.state.vehicles["blue"].hazards == 1
    assert g.state.vehicles["red"].hazards == 3
    assert ev(g, "wear", source="weakened_chassis")[0]["extra_hazards"] == 2


# -- Shakes ---------------------------------------------------------------------------------
def test_shakes_wipes_out_at_five_hazards() -> None:
    plain = worn(table(car(hazards=5)), wipeouts("car"), dice=[6])
    assert not ev(plain, "wipeout")
    g = worn(table(car(hazards=5)), wipeouts("car"), dice=[6],
             careers={"car": {"injuries": ["shakes"]}})
    assert ev(g, "wipeout")[0]["hazards"] == 5
    assert ev(g, "flip_check")[0]["flipped"] is False


# -- Twitch ---------------------------------------------------------------------------------
def twice(g: Game) -> Flow:
    yield from move("car")(g)
    yield from move("car")(g)


def test_twitch_an_opponent_rolls_and_resolves_once_per_game_without_push_it() -> None:
    g = worn(table(car()), twice, dice=[HAZ, SHIFT, HAZ, SHIFT],
             careers={"car": {"injuries": ["twitch"]}})
    play(g, "medium_straight", 2)
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("twitch", 1)
    play(g, "call")
    d = g.pending()
    # No Push It: the opponent spends the Shifts at once.
    assert d is not None and (d.kind, d.player) == ("spend_shift", 1)
    play(g, "discard", "done")
    assert ev(g, "injury", source="twitch", called_by=1)
    # The second move: Twitch is spent, the driver rolls and resolves as usual.
    play(g, "medium_straight", 2)
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("push_it", 0)


def test_twitch_not_called_is_offered_again() -> None:
    g = worn(table(car()), twice, dice=[HAZ, SHIFT, HAZ, SHIFT],
             careers={"car": {"injuries": ["twitch"]}})
    play(g, "medium_straight", 2, "no")
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("push_it", 0)
    play(g, "no", "done", "medium_straight", 2)
    d = g.pending()
    assert d is not None and d.kind == "twitch"


# -- Audience Favourite ---------------------------------------------------------------------
def wreck_red(g: Game) -> Flow:
    yield from wreck(g, g.state.vehicles["red"])


def test_audience_favourite_discards_three_votes_per_count_when_wrecked() -> None:
    def game(count: int, votes: int) -> Game:
        red = car("red", player=1, x=320, y=450, heading=270)
        return worn(table(car("blue"), red), wreck_red, dice=[1],
                    careers={"red": {"audience_favourite": count}},
                    pregame={"votes": [0, votes]})

    g = game(1, 5)
    assert g.state.votes[1] == 5 + 1 - 3  # the wreck's vote first (p.88)
    assert ev(g, "votes_discarded")[0]["lost"] == 3
    g = game(2, 2)
    assert g.state.votes[1] == 0
    assert ev(g, "votes_discarded")[0]["lost"] == 3


def test_injuries_outside_play_attach_nothing() -> None:
    g = worn(table(car()), move("car"), careers={"car": {
        "injuries": ["held-together-by-rust", "living-legend", "badass"], "dents": 4}})
    assert not any(h.effect.startswith("injury:") for hs in g.effects._handlers.values()
                   for h in hs)
    assert not g.state.installed or all(e[0] != "campaign_wear" for e in g.state.installed)
