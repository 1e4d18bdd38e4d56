"""Truckasaurus (Refuelled pp.152-153): set-up and victory."""

from __future__ import annotations

from collections.abc import Callable

from tests.builders import ev

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.common import score, spawn
from carnage.games.refuelled.scenarios.truckasaurus import Truckasaurus
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.kernel.dice import ScriptedDice


def set_up(players: int = 2, facing: int = 135, max_rounds: int = 40,
           before_last: Callable[[Game], None] | None = None) -> Game:
    """Pole to player 1; set-up choices the first offered; ``before_last`` changes the state
    just before the last vehicle is deployed (so the first turn sees it)."""
    dice = ScriptedDice([6] + [1] * (players - 1) + [1] * 400)
    g = build_game(GameSetup(scenario="truckasaurus", players=players, max_rounds=max_rounds),
                   dice=dice)
    while (d := g.pending()) is not None and d.kind not in ("spend_votes", "activate"):
        waiting = [v for v in g.state.vehicles.values() if v.in_team and v.pose.x < 0]
        if before_last is not None and len(waiting) == 1 and d.vehicle == waiting[0].id \
                and d.kind != "deploy":
            before_last(g)
            before_last = None
        g.apply(facing if d.kind == "truckasaurus_facing" else d.options[0].value)
    return g


def test_truckasaurus_stands_at_the_centre_facing_the_pole_holders_choice() -> None:
    assert SCENARIOS["truckasaurus"] is Truckasaurus
    g = set_up()
    t = g.state.vehicles["truckasaurus"]
    assert (t.pose.x, t.pose.y, t.pose.heading) == (*bt.centre(g.state), 135.0)
    assert t.neutral and not t.in_team
    assert ev(g, "decision", decision="truckasaurus_facing")[0]["player"] == 0
    assert set(spawn.spawn_points(g.state)) == {0, 1}


def test_three_vp_win_at_once_in_a_two_player_game() -> None:
    g = set_up()
    sc = Truckasaurus()
    sc.score(g, 1, 2, "test", 152)
    assert not g.state.finished
    sc.score(g, 1, 1, "test", 152)
    assert g.state.finished and g.state.winner == 1


def test_five_vp_needed_with_three_players() -> None:
    g = set_up(3)
    sc = Truckasaurus()
    sc.score(g, 2, 4, "test", 152)
    assert not g.state.finished
    sc.score(g, 2, 1, "test", 152)
    assert g.state.winner == 2


def test_after_three_rounds_the_players_with_most_vp_share_the_win() -> None:
    g = set_up(3)
    st = g.state
    for p, n in ((0, 2), (1, 2), (2, 1)):
        score.add(g, score.VP, n, player=p, source="test", page=153)
    while (d := g.pending()) is not None:
        g.apply("done" if d.kind == "spend_votes" else
                d.options[0].value if d.options else 0.0)
    assert st.round == 3 and st.draw
    assert ev(g, "shared_win")[0]["players"] == [0, 1]


def test_a_respawned_wreck_comes_back_at_its_spawn_point() -> None:
    from carnage.games.refuelled.engine.state import Obstacle, Status
    from carnage.geometry.shapes import Pose, distance

    def wreck_player_1(g: Game) -> None:  # as after two wrecks in mid-table
        st = g.state
        for i, v in enumerate(v for v in st.vehicles.values() if v.player == 0 and v.in_team):
            v.pose = Pose(300.0 + 150.0 * i, 700.0, 0.0)
            v.status = Status.WRECKED
            st.obstacles[f"wreck:{v.id}"] = Obstacle(f"wreck:{v.id}", v.pose, v.length,
                                                     v.width, weight=v.weight,
                                                     destructible=True, wreck_of=v.id)
            g.log.emit("wrecked", source="damage", page=43, vehicle=v.id, player=0)
        st.votes[0] = 3

    g = set_up(before_last=wreck_player_1)
    st = g.state
    mine = [v for v in st.vehicles.values() if v.player == 0 and v.in_team]
    d = g.pending()
    assert d is not None and d.kind == "spend_votes" and d.player == 0
    g.apply("respawn")
    g.apply(mine[0].id)
    d = g.pending()
    assert d is not None and d.kind == "respawn_position" and d.vehicle == mine[0].id
    poses = g.scenario.option_poses(g, d)
    assert set(poses) == {str(o.value) for o in d.options}
    g.apply(d.options[0].value)
    v = mine[0]
    assert v.pose == poses[str(d.options[0].value)]
    assert v.in_play and f"wreck:{v.id}" not in st.obstacles
    short = g.templates.ranges["short"]
    assert distance(v.polygon(), bt.disc(spawn.spawn_points(st)[0])) <= short + 1e-6
    assert ev(g, "respawn", vehicle=v.id)[0]["how"] == "wreck"


def test_in_a_team_game_the_side_scores_together_and_wins_at_five() -> None:
    dice = ScriptedDice([6, 1, 1, 1] + [1] * 400)
    g = build_game(GameSetup(scenario="truckasaurus", players=4, sides=((0, 2), (1, 3))),
                   dice=dice)
    while (d := g.pending()) is not None and d.kind not in ("spend_votes", "activate"):
        g.apply(d.options[0].value)
    sc = Truckasaurus()
    sc.score(g, 0, 3, "test", 153)
    sc.score(g, 2, 1, "test", 153)
    assert not g.state.finished and score.total(g, score.VP, 2) == 4
    sc.score(g, 2, 1, "test", 153)
    assert g.state.finished and g.state.winner == 0
