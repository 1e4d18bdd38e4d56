"""Deployment, turn order, action points, wrecks and repair."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.state import DESTROYED, RUNNING, WRECK
from carnage.kernel.dice import ScriptedDice


def test_deployment_roll_off_rerolls_ties_and_the_winner_picks_a_side_and_places_first() -> None:
    # DR-013: 5-5 is re-rolled; 3-7 gives player 1 the choice
    g = DEVILS_RUN.new_game("devils-run", dice=ScriptedDice([5, 5, 3, 7]))
    d = g.pending()
    assert d.kind == "deploy_side" and d.player == 1
    play(g, "letters")
    d = g.pending()
    assert d.kind == "deploy" and d.player == 1
    assert {str(o.value).split("@")[1] for o in d.options} == {"A", "B", "C", "D"}
    play(g, "ha-bike@C")
    d = g.pending()
    assert d.player == 0 and {str(o.value).split("@")[1] for o in d.options} == {"1", "2", "3", "4"}
    play(g, "law-bike@1", "ha-trike@A")
    assert g.vehicle("ha-bike").pos == (4, 4) and g.vehicle("ha-bike").status == RUNNING
    assert g.pending().player == 0  # alternate until all are placed


def test_a_car_needs_room_behind_its_deployment_square() -> None:
    # DR-017: a car on "3" (1, 5) needs (1, 4) free too
    g = DEVILS_RUN.new_game("hell-on-wheels", dice=ScriptedDice([7, 3]))
    play(g, "numbers")
    ha = g.vehicle("ha-bike")
    ha.status, ha.pos = RUNNING, (1, 4)
    opts = [o.value for o in g.pending().options]
    assert "law-car@3" not in opts and "law-bike@3" in opts and "law-car@2" in opts


def test_a_vehicle_with_no_viable_deployment_square_is_destroyed() -> None:
    g = DEVILS_RUN.new_game("hell-on-wheels", dice=ScriptedDice([7, 3]))
    play(g, "numbers")  # player 0 deploys on 1-4: fill them all but the car
    for vid, sq in (("law-bike", (1, 5)), ("law-buggy", (3, 5)), ("ha-bike", (4, 2)),
                    ("ha-trike", (7, 4))):
        v = g.vehicle(vid)
        v.status, v.pos = RUNNING, sq
    g.state.phase = "deploy_next"
    g._run()
    assert g.vehicle("law-car").status == DESTROYED
    assert events(g, "removed")[-1] == {"vehicle": "law-car", "status": DESTROYED}
    d = g.pending()
    assert d.player == 1 and all(str(o.value).startswith("ha-car@") for o in d.options)


def test_initiative_roll_off_winner_chooses_who_goes_first_and_players_alternate() -> None:
    # DR-022/023: the side with more vehicles activates its remaining ones at the end
    g = arranged("devils-run", {"law-bike": (0, 0), "law-buggy": (7, 0), "ha-bike": (3, 20)},
                 [1, 1, 1, 1, 1, 4, 4, 9, 2], turn=1)
    play(g, "law-bike", "brake", "ha-bike", "brake", "law-buggy", "brake")
    assert [e["vehicle"] for e in events(g, "activation")] == ["law-bike", "ha-bike", "law-buggy"]
    assert events(g, "turn_end")[-1]["turn"] == 1
    d = g.pending()
    assert d.kind == "first_player" and d.player == 0  # 4-4 re-rolled, then 9 beats 2
    assert g.state.turn == 2


def test_activation_choice_lists_only_vehicles_not_yet_activated() -> None:
    g = arranged("devils-run", {"law-bike": (0, 0), "law-buggy": (7, 0), "ha-bike": (3, 20)},
                 [1, 1, 1, 1])
    assert [o.value for o in g.pending().options] == ["law-bike", "law-buggy"]
    play(g, "law-bike", "brake", "ha-bike", "brake")
    # the buggy is the only one left: the engine activates it without asking
    assert events(g, "forced_choice")[-1]["choice"] == "law-buggy"
    assert g.pending().vehicle == "law-buggy"


def test_becoming_a_wreck_at_zero_chassis() -> None:
    # DR-099: 0 CP, stays in play as a wreck with one action point for repair only
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 3, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    t = g.vehicle("ha-trike")
    assert t.status == WRECK and t.cp == 0 and t.pos == (3, 8)
    play(g, "ha-trike")
    assert [o.value for o in g.pending().options] == ["repair", "pass"]


def _wrecked_buggy(dice: list[int]) -> DevilsRunGame:
    g = arranged("devils-run", {"law-buggy": (3, 3), "ha-bike": (6, 20)}, dice)
    b = g.vehicle("law-buggy")
    b.status, b.cp = WRECK, 0
    return g


def test_repair_with_two_sixes_regains_one_and_moves_the_modifier_forward() -> None:
    g = _wrecked_buggy([6, 2, 6])
    play(g, "law-buggy", "repair")
    b = g.vehicle("law-buggy")
    assert b.status == RUNNING and b.cp == 1 and b.pos == (3, 5)
    assert g.pending().vehicle == "ha-bike"  # the buggy's activation is over


def test_repair_with_three_sixes_regains_three_and_moves_as_normal() -> None:
    g = _wrecked_buggy([6, 6, 6, 2])
    play(g, "law-buggy", "repair")
    b = g.vehicle("law-buggy")
    assert b.status == RUNNING and b.cp == 3
    assert g.pending().kind == "step"
    assert events(g, "movement_allowance")[-1]["allowance"] == 4


def test_repair_with_fewer_than_two_sixes_fails() -> None:
    g = _wrecked_buggy([6, 1, 5])
    play(g, "law-buggy", "repair")
    assert g.vehicle("law-buggy").status == WRECK


def test_no_repair_while_a_running_vehicle_sits_on_the_wreck() -> None:
    # DRR-19
    g = arranged("devils-run", {"law-buggy": (3, 3), "law-bike": (3, 3), "ha-bike": (6, 20)}, [])
    g.vehicle("law-buggy").status = WRECK
    play(g, "law-buggy")
    assert {"decision": "action", "player": 0, "choice": "pass"} in events(g, "forced_choice")


def test_illegal_choice_names_the_legal_ones_and_changes_nothing() -> None:
    import pytest

    from carnage.kernel.decisions import IllegalChoice

    g = arranged("devils-run", {"law-bike": (0, 0), "law-buggy": (7, 0), "ha-bike": (3, 20)},
                 [1, 1])
    before = g.snapshot()
    with pytest.raises(IllegalChoice, match="legal: 'law-bike', 'law-buggy'"):
        g.apply("ha-bike")
    assert g.snapshot() == before


def test_the_roll_off_winner_may_send_the_opponent_first() -> None:
    g = arranged("devils-run", {"law-bike": (0, 0), "law-buggy": (7, 0), "ha-bike": (3, 20),
                                "ha-trike": (5, 20)}, [8, 3])
    g.state.phase = "turn_start"
    g.state.turn = 0
    g._run()
    d = g.pending()
    assert d.kind == "first_player" and d.player == 0
    play(g, 1)
    assert g.pending().kind == "activate" and g.pending().player == 1
