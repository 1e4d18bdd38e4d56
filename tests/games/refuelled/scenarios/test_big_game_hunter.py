"""Big Game Hunter (Refuelled pp.143-145): set-up, herding and kills victories."""

from __future__ import annotations

import math

from tests.builders import ev

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.big_game_hunter import BigGameHunter, creatures
from carnage.games.refuelled.scenarios.common import score, spawn
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry.shapes import Pose, distance
from carnage.kernel.dice import ScriptedDice


def set_up(players: int = 2) -> Game:
    """Pole to player 1 (roll-off 6 against 1s); every set-up choice the first offered."""
    dice = ScriptedDice([6] + [1] * (players - 1) + [1] * 200)
    g = build_game(GameSetup(scenario="big-game-hunter", players=players), dice=dice)
    while (d := g.pending()) is not None and d.kind != "spend_votes" and d.kind != "activate":
        g.apply(d.options[0].value)
    return g


def test_registered_with_its_metadata() -> None:
    assert SCENARIOS["big-game-hunter"] is BigGameHunter
    assert BigGameHunter.page == 143 and BigGameHunter.table_rolls == (1,)


def test_one_creature_each_within_double_then_one_at_the_centre_and_spawns_clear_of_them() -> None:
    g = set_up(3)
    st = g.state
    cs = creatures(st)
    assert [c.id for c in cs] == ["creature-1", "creature-2", "creature-3", "creature-4"]
    cx, cy = bt.centre(st)
    double = g.templates.ranges["double"]
    assert all(math.hypot(c.pose.x - cx, c.pose.y - cy) <= double for c in cs)
    assert (cs[-1].pose.x, cs[-1].pose.y) == (cx, cy)
    placers = [e["player"] for e in ev(g, "deploy") if str(e["vehicle"]).startswith("creature")]
    assert placers == [0, 1, 2, 0]
    for p, spot in spawn.spawn_points(st).items():
        assert all(distance(bt.disc(spot), c.polygon()) > double for c in cs), p
        near = [v for v in st.vehicles.values() if v.player == p and v.in_team]
        assert all(distance(v.polygon(), bt.disc(spot)) <= g.templates.ranges["short"]
                   for v in near)
    assert all(not c.in_team for c in cs)


def test_two_creatures_within_short_of_a_spawn_point_win_at_once() -> None:
    g = set_up()
    st = g.state
    sx, sy = spawn.spawn_points(st)[1]
    dy = 1.0 if sy < st.height / 2 else -1.0
    a, b = creatures(st)[:2]
    short = g.templates.ranges["short"]
    # One creature just beyond Short of player 2's spawn point: not yet herded.
    a.pose = Pose(sx, sy + dy * (10.0 + short + 25.0), 0.0)
    b.pose = Pose(sx + 45.0, sy + dy * 50.0, 90.0)
    assert BigGameHunter().herded(g, 1) == [b.id]
    a.pose = Pose(sx - 45.0, sy + dy * 50.0, 90.0)
    assert sorted(BigGameHunter().herded(g, 1)) == sorted([a.id, b.id])
    # The next step's end check finds them: player 2 wins.
    while (d := g.pending()) is not None and not st.finished:
        g.apply(d.options[0].value if d.options else 0.0)
    assert st.finished and st.winner == 1
    assert ev(g, "herded")[0]["player"] == 1


def test_with_no_creature_left_the_most_kills_wins() -> None:
    g = set_up()
    st = g.state
    score.add(g, "kills", 2, player=0, source="test", page=145)
    score.add(g, "kills", 1, player=1, source="test", page=145)
    for c in creatures(st):
        c.status = type(c.status)("removed")
    while (d := g.pending()) is not None and not st.finished:
        g.apply(d.options[0].value if d.options else 0.0)
    assert st.winner == 0 and "kills" in st.reason


def test_equal_kills_with_no_creature_left_is_shared() -> None:
    g = set_up()
    st = g.state
    score.add(g, "kills", 1, player=0, source="test", page=145)
    score.add(g, "kills", 1, player=1, source="test", page=145)
    for c in creatures(st):
        c.status = type(c.status)("removed")
    while (d := g.pending()) is not None and not st.finished:
        g.apply(d.options[0].value if d.options else 0.0)
    assert st.draw and st.winner is None
    assert ev(g, "shared_win")[0]["players"] == [0, 1]


# -- at a real table (companion mode, ruling CP-21) --------------------------------------------
def enraged_at_table() -> Game:
    """A companion game, every first option, until Creature 1 has moved: the Red Car's
    Handgun (6: two hits) wounds it (evades 1, 1, 1), the people naming it alone in reach; its
    Acidic Ichor reaches nobody, they say; enraged, it activates for Red (player 0), no Roar,
    a Short Straight. Then the people are asked whose spawn point it stands within Short of."""
    g = build_game(GameSetup(scenario="big-game-hunter", players=2, physical=True),
                   dice=ScriptedDice([6, 1, 6] + [1] * 400))
    reach = iter(["creature-1@medium"])
    while (d := g.pending()) is not None and d.kind != "table:creature_penned":
        if d.kind == "table:in_reach":
            g.apply(next(reach, "none"))
        elif d.kind == "attack" and "handgun>creature-1" in [o.value for o in d.options] \
                and not ev(g, "attack_hits"):
            g.apply("handgun>creature-1")
        elif d.kind == "roar":
            g.apply("no")
        else:
            g.apply(d.options[0].value if d.options else 0.0)
    assert ev(g, "acidic_ichor", vehicle="creature-1")[0]["targets"] == []
    assert ev(g, "enraged")[0]["player"] == 0
    return g


def test_at_a_real_table_a_creature_the_people_say_penned_counts_for_that_player() -> None:
    g = enraged_at_table()
    d = g.pending()
    assert d is not None and d.vehicle == "creature-1" and d.page == 145
    assert [o.value for o in d.options] == ["none", "0", "1"]
    st = g.state
    c = st.vehicles["creature-1"]
    spot = spawn.spawn_point(st, 0)
    assert spot is not None and distance(c.polygon(), bt.disc(spot)) > 300.0  # far, virtually
    g.apply("0")
    sc = SCENARIOS["big-game-hunter"]()
    assert isinstance(sc, BigGameHunter)
    assert sc.herded(g, 0) == ["creature-1"] and sc.herded(g, 1) == []
    assert not st.finished  # one of three creatures home: two are needed (p.145)


def test_at_a_real_table_two_creatures_the_people_say_penned_win_at_once() -> None:
    # Creature 2 was said earlier to stand within Short of Red's spawn point; now Creature 1
    # is too: Red herded two creatures home and wins at once (p.145).
    g = enraged_at_table()
    g.state.scenario["pens"] = {"creature-2": 0}
    g.apply("0")
    assert ev(g, "herded") == [{"player": 0, "creatures": ["creature-1", "creature-2"]}]
    assert g.state.finished


def test_at_a_real_table_a_creature_the_people_say_loose_is_nobodys() -> None:
    g = enraged_at_table()
    g.state.scenario["pens"] = {"creature-2": 0, "creature-1": 0}
    g.apply("none")  # it has left Red's pen: one creature is not enough
    assert not g.state.finished and ev(g, "herded") == []
