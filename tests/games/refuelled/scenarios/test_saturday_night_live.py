"""Saturday Night Live (Refuelled pp.133-134): Screen Time, Prizes Mean Points, 15 VP, the
prizes through a whole game's flow, respawns and the table. Exact poses, scripted dice."""

from __future__ import annotations

import math
import random

from tests.builders import drive, ev, vehicle
from tests.games.refuelled.scenarios.skirmish_tables import placed

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.engine.votes import respawn_candidates
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.saturday_night_live import SaturdayNightLive
from carnage.games.refuelled.scenarios.snl_prizes import prizes
from carnage.games.refuelled.setup import GameSetup, build_game


def cars(gap: float = 200.0) -> tuple:
    """Blue (seat 0) at (300, 300) facing up; Red (seat 1) ``gap`` mm beyond its front edge."""
    return (vehicle("blue", "car", 300, 300, 90, player=0),
            vehicle("red", "car", 300, 360 + gap, 270, player=1))


def test_the_first_prize_is_rolled_as_round_1_starts_and_claiming_it_scores() -> None:
    # Round 1: prize 1+1+1 = 3 (the Gear Phase counts as 1, SNL-1). Blue claims it at once:
    # a vote, and a VP since Red is 200 mm away (Screen Time). Next prize: 2+1+1 = 4.
    g = placed(SaturdayNightLive, *cars(), dice=[1, 2])
    d = g.pending()
    assert d is not None and d.kind == "snl_prize" and d.player == 0
    g.apply("claim")
    assert g.state.votes == [1, 0]
    assert score.total(g, score.VP, 0) == 1
    assert ev(g, "score")[0]["reason"] == "Prizes Mean Points (blue on screen)"
    assert prizes(g.state)["prize"] == 4


def test_off_screen_a_vote_brings_no_victory_point() -> None:
    g = placed(SaturdayNightLive, *cars(gap=320.0), dice=[1, 2])  # Red beyond Double
    g.apply("claim")
    assert g.state.votes == [1, 0]
    assert score.total(g, score.VP, 0) == 0
    assert ev(g, "screen_time")[0]["player"] == 0


def test_fifteen_victory_points_win_at_once() -> None:
    g = placed(SaturdayNightLive, *cars(), dice=[1, 2])
    g.state.scenario["scores"] = {"vp": {"s0": 14}}
    g.apply("claim")
    out = g.outcome()
    assert out is not None and out.winner == 0 and not out.draw
    assert out.reason == "P1 holds 15 Victory Points"
    assert g.pending() is None


def test_a_vote_naming_no_vehicle_scores_if_any_of_theirs_is_on_screen() -> None:
    from carnage.games.refuelled.engine.votes import gain_votes

    # Ruling SNL-2: a vote with no vehicle (the wreck vote, the no-vehicles vote) scores when
    # one of the player's vehicles in play is within Double of an enemy.
    blue, red = cars()
    far = vehicle("red-buggy", "buggy", 800, 1100, 270, player=1)
    g = placed(SaturdayNightLive, blue, red, far, dice=[1])
    g.apply("decline")
    gain_votes(g, 1, 2, source="wrecked", page=88)
    assert score.total(g, score.VP, 1) == 2
    red.status = Status.WRECKED  # only the far buggy left in play: off screen
    gain_votes(g, 1, 1, source="no_active_vehicles", page=88)
    assert score.total(g, score.VP, 1) == 2
    assert g.state.votes[1] == 3


def test_a_disqualified_vehicle_may_respawn_at_its_spawn_point() -> None:
    blue, red = cars()
    g = placed(SaturdayNightLive, blue, red, dice=[1], spawn={0: (100.0, 100.0),
                                                            1: (800.0, 1100.0)})
    blue.status = Status.DISQUALIFIED
    assert respawn_candidates(g, 0) == [blue]  # ruling SNL-6
    poses = g.scenario.respawn_positions(g, blue)
    assert poses and all(abs(p.x - 100.0) < 150 and abs(p.y - 100.0) < 150
                         for p in poses.values())


def test_an_unclaimed_prize_is_replaced_after_a_whole_round_unless_switched_off() -> None:
    answers = dict(snl_prize="decline", template="short_straight", skid_dice=0,
                   spend_shift="done")
    # Round 1's prize: 6+1+1 = 8 (a Hazardous template), never met in Gear 1 on a Short
    # Straight; round 2 starts: it stood through round 1, so 1+1+2 = 4 replaces it.
    g = placed(SaturdayNightLive, *cars(gap=600.0), dice=[6, 1], max_rounds=2)
    drive(g, **answers)
    rolled = [(e["prize"], e["reason"]) for e in ev(g, "snl_prize")]
    assert rolled == [(8, "the first round starts"), (4, "nobody claimed it for a whole round")]
    g = placed(SaturdayNightLive, *cars(gap=600.0), dice=[6], max_rounds=2,
               options={"fresh_prizes": False})
    drive(g, **answers)
    assert [e["prize"] for e in ev(g, "snl_prize")] == [8]


def test_the_table_shows_spawn_points_the_centre_zone_and_the_prize() -> None:
    g = build_game(GameSetup(scenario="saturday-night-live"), 3)
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert marks["centre-short"].kind == "zone"
    while g.pending() is not None and g.pending().kind in ("spawn_point", "deploy",
                                                             "spawn_pose"):
        g.apply(g.pending().options[0].value)
    marks = {d.id: d for d in g.scenario.drawables(g)}
    assert {"spawn-1", "spawn-2"} <= set(marks)
    assert marks["special-prize"].number == prizes(g.state)["prize"]
    keys = [r.key for r in g.scenario.report(g)]
    assert keys[:2] == ["vp_p1", "vp_p2"] and "special_prize" in keys


def test_registered_with_its_metadata() -> None:
    cls = SCENARIOS["saturday-night-live"]
    assert cls is SaturdayNightLive
    assert (cls.page, cls.table, cls.table_rolls, cls.min_players) == (
        133, "Televised Event", (6,), 2)


def test_the_generated_arena_is_seeded_and_keeps_the_centre_clear() -> None:
    from carnage.games.refuelled.engine.state import GameState
    from carnage.games.refuelled.scenarios.snl_prizes import point_gap

    def arena(seed: int) -> list[tuple[float, float]]:
        st = GameState(900.0, 1200.0, 2)
        SaturdayNightLive().generate(st, random.Random(seed))
        for ob in st.obstacles.values():
            assert point_gap(ob.polygon(), (450.0, 600.0)) >= 120.0
        return [(o.pose.x, o.pose.y) for o in st.obstacles.values()]

    assert len(arena(1)) == 6 and arena(1) == arena(1) and arena(1) != arena(2)


def test_a_player_left_alone_on_the_table_has_not_won() -> None:
    # Ruling SNL-8: only 15 VP ends the game; the other player may still respawn.
    blue, red = cars()
    g = placed(SaturdayNightLive, blue, red, dice=[1])
    red.status = Status.WRECKED
    g.scenario.check_end(g)
    assert g.outcome() is None


def test_bots_chase_the_prize_that_is_up() -> None:
    from carnage.games.refuelled.engine.game import ask

    blue, red = cars()
    g = placed(SaturdayNightLive, blue, red, dice=[1])
    sc = g.scenario
    g.state.active = "blue"
    memo = prizes(g.state)
    shift = ask(0, "spend_shift", "spend a Shift", [("gear_up", "up"), ("discard_hazard", "shed"),
                                                    ("done", "done")], vehicle="blue")
    memo["prize"] = 15
    assert sc.bot_choice(g, shift) == "gear_up"
    memo["prize"], blue.hazards = 7, 1
    assert sc.bot_choice(g, shift) == "discard_hazard"
    memo["prize"] = 10
    assert sc.bot_choice(g, shift) is None  # nothing to chase with a Shift: the bot decides
    react = ask(0, "collision_reaction", "react", [("smash", "smash"), ("evade", "evade")],
                vehicle="blue", target="red")
    memo["prize"], memo["orientation"] = 9, "t_bone"
    assert sc.bot_choice(g, react) == "smash"
    claim = ask(0, "snl_prize", "claim?", [("claim", "c"), ("decline", "d")], vehicle="blue")
    memo["prize"] = 3
    assert sc.bot_choice(g, claim) == "claim"  # on screen: Red is 200 mm away
    red.pose = red.pose.__class__(800, 1100, 270)
    assert sc.bot_choice(g, claim) == "decline"  # off screen, a standing prize: wait
    memo["prize"] = 13
    assert sc.bot_choice(g, claim) == "claim"  # a moment prize is claimed at once
    goal = sc.goal(g.state, blue)
    assert goal is not None and goal.a[1] > blue.pose.y  # towards Red, up the table


def test_bots_respawn_facing_the_centre() -> None:
    from carnage.games.refuelled.engine.game import ask
    from carnage.geometry.shapes import heading_diff

    blue, red = cars()
    g = placed(SaturdayNightLive, blue, red, dice=[1], spawn={0: (105.0, 105.0),
                                                            1: (800.0, 1100.0)})
    blue.status = Status.DISQUALIFIED
    poses = g.scenario.respawn_positions(g, blue)
    d = ask(0, "respawn_position", "where?", [(k, k) for k in poses], vehicle="blue")
    pick = g.scenario.bot_choice(g, d)
    p = poses[pick]
    want = math.degrees(math.atan2(600.0 - p.y, 450.0 - p.x))
    assert abs(heading_diff(p.heading, want)) <= 45.0


# -- at a real table (companion mode, ruling CP-23) --------------------------------------------
def move_then_claim(gap: float, near: list[str]) -> Game:
    """At a real table, prize 3 up (dice 1, 2): Blue declines it, moves a Short Straight, and
    the people name ``near`` as within Double of it; then Blue claims the prize at the end of
    its Movement Step. Every other table fact takes its default."""
    g = placed(SaturdayNightLive, *cars(gap=gap), dice=[1, 2] + [1] * 20, physical=True)
    said = iter([*near, "none"])
    claims = iter(["decline", "claim"])
    while (d := g.pending()) is not None and not g.state.votes[0]:
        if d.kind == "table:near_double" or d.kind == "table:near_double:more":
            assert d.page == 133 and d.vehicle == "blue"
            g.apply(next(said))
        elif d.kind == "snl_prize":
            g.apply(next(claims))
        elif d.kind == "template":
            g.apply("short_straight")
        else:
            g.apply(d.options[0].value if d.options else 0.0)
    return g


def test_at_a_real_table_a_vote_scores_when_the_people_say_an_enemy_is_within_double() -> None:
    # Red is beyond Double on the virtual table; the people say it is within Double after
    # Blue's move: the claimed prize's vote is a Victory Point (Screen Time, p.133).
    g = move_then_claim(320.0, ["red"])
    assert ev(g, "table_fact", fact="near_double")[0]["answer"] == ["red"]
    assert g.state.votes == [1, 0] and score.total(g, score.VP, 0) == 1
    assert ev(g, "screen_time") == []


def test_at_a_real_table_a_vote_scores_nothing_when_the_people_say_nobody_is_near() -> None:
    # Red is 200 mm away on the virtual table (on screen there); the people say nobody is
    # within Double: the vote brings no Victory Point.
    g = move_then_claim(200.0, [])
    assert ev(g, "table_fact", fact="near_double")[0]["answer"] == []
    assert g.state.votes == [1, 0] and score.total(g, score.VP, 0) == 0
    assert ev(g, "screen_time")[0]["player"] == 0
