"""Moves: Peddle to the Metal, BRAKE!, costs, skills, road features, the rolling road."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.state import REMOVED, WRECK

FAR_HA = {"ha-bike": (6, 20)}


def test_peddle_allowance_is_mm_plus_d3_and_must_cover_the_mm() -> None:
    # DR-070: buggy MM 2 + D3 2 = 4; it may not stop before spending 2 (DR-025)
    g = arranged("devils-run", {"law-buggy": (2, 8), **FAR_HA}, [2])
    play(g, "law-buggy")
    assert [o.value for o in g.pending().options] == ["peddle", "brake"]
    play(g, "peddle")
    assert events(g, "movement_allowance")[-1]["allowance"] == 4
    assert "stop" not in [o.value for o in g.pending().options]
    play(g, "F")
    assert "stop" not in [o.value for o in g.pending().options]
    play(g, "F")
    assert "stop" in [o.value for o in g.pending().options]
    play(g, "FL")  # diagonal costs 2 (DR-071): allowance used up, move over
    assert g.vehicle("law-buggy").pos == (1, 11)
    assert events(g, "moved")[-1]["spent"] == 4
    # (1, 11) is debris, but Rough Rider keeps the buggy's modifier (DR-051)
    assert events(g, "movement_modifier_lost") == []
    assert g.pending().vehicle == "ha-bike"  # nothing to shoot: the next activation


def test_manoeuvrable_bike_rolls_two_d3_and_keeps_one() -> None:
    g = arranged("devils-run", {"ha-bike": (4, 2), "law-buggy": (4, 20)}, [1, 3], to_act=1)
    play(g, "ha-bike", "peddle")
    d = g.pending()
    assert d.kind == "keep_d3" and [o.value for o in d.options] == [1, 3]
    play(g, 3)
    assert events(g, "movement_allowance")[-1]["allowance"] == 6  # DR-048: 3 + 3


def test_hard_to_steer_trike_pays_three_for_a_diagonal() -> None:
    g = arranged("devils-run", {"ha-trike": (3, 1), "law-bike": (7, 22)}, [1], to_act=1)
    play(g, "ha-trike", "peddle")  # allowance 4
    play(g, "FL")
    assert g.vehicle("ha-trike").pos == (2, 2)
    assert [o.value for o in g.pending().options] == ["F", "stop"]  # 1 left: no diagonal


def test_bike_diagonal_costs_two() -> None:
    g = arranged("devils-run", {"ha-bike": (3, 1), "law-bike": (7, 22)}, [1, 1], to_act=1)
    play(g, "ha-bike", "peddle", "FL")
    assert [o.value for o in g.pending().options] == ["F", "FL", "FR"]


def test_brake_moves_straight_back_and_stops_at_the_back_edge() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 3), **FAR_HA}, [3])
    play(g, "law-buggy", "brake")
    assert g.vehicle("law-buggy").pos == (3, 0)
    assert events(g, "brake_stopped")  # DRR-10


def test_brake_stops_short_of_a_vehicle() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 5), "ha-bike": (3, 1)}, [3])
    play(g, "law-buggy", "brake")
    assert g.vehicle("law-buggy").pos == (3, 2)


def test_debris_cuts_the_move_to_the_d3() -> None:
    # DR-096: bike allowance 5 (3 + D3 2); entering debris at (1, 3) after 3 spent ends it
    g = arranged("devils-run", {"ha-bike": (1, 0), "law-bike": (7, 22)}, [2, 2], to_act=1)
    play(g, "ha-bike", "peddle", "F", "F", "F")
    assert g.vehicle("ha-bike").pos == (1, 3)
    assert events(g, "movement_modifier_lost")[-1]["allowance"] == 2
    assert events(g, "activation_end")[-1]["vehicle"] == "ha-bike"


def test_debris_early_leaves_the_rest_of_the_d3_and_no_minimum() -> None:
    g = arranged("devils-run", {"ha-bike": (1, 2), "law-bike": (7, 22)}, [2, 2], to_act=1)
    play(g, "ha-bike", "peddle", "F")
    assert [o.value for o in g.pending().options] == ["F", "stop"]


def test_wreck_square_costs_the_modifier_and_deals_d3_saved_as_normal() -> None:
    # DR-097: D3 move 3 (allowance 5), wreck D3 = 2, save roll 3 > A2 fails: both points through
    g = arranged("devils-run", {"law-buggy": (2, 2), "ha-trike": (2, 4), **FAR_HA}, [3, 2, 3])
    t = g.vehicle("ha-trike")
    t.status, t.cp = WRECK, 0
    play(g, "law-buggy", "peddle", "F", "F")
    v = g.vehicle("law-buggy")
    assert v.pos == (2, 4) and v.cp == 6
    assert events(g, "movement_modifier_lost")[-1]["allowance"] == 3
    assert events(g, "armour_save")[-1]["rolls"] == [3]
    assert g.pending().kind == "step"  # 1 movement left of the D3


def test_impassable_feature_wrecks_at_once_and_bars_repair() -> None:
    # DR-098: Hell on Wheels has an impassable square at (7, 1) (DRR-27)
    g = arranged("hell-on-wheels", {"law-bike": (7, 0), "law-buggy": (3, 3), "ha-bike": (0, 20)},
                 [1, 1])
    play(g, "law-bike", "peddle", "F")
    v = g.vehicle("law-bike")
    assert v.status == WRECK and v.pos == (7, 1) and v.no_repair
    assert "law-bike" not in [u.id for u in g._eligible(0)]


def test_leaving_the_front_tile_recycles_the_back_tile_and_removes_its_models() -> None:
    # DR-009: front edge at row 24; the back tile "1" goes in front, the buggy on it is removed
    g = arranged("devils-run", {"ha-bike": (3, 22), "law-buggy": (5, 3), "law-bike": (0, 12)},
                 [1, 1], to_act=1)
    play(g, "ha-bike", "peddle", "F", "F")
    st = g.state
    assert [t.name for t in st.tiles] == ["2", "3", "1"]
    assert [t.origin for t in st.tiles] == [8, 16, 24]
    assert st.tiles[-1].placed == 3
    assert g.vehicle("law-buggy").status == REMOVED
    assert g.vehicle("ha-bike").pos == (3, 24)
    assert len(st.tiles) == 3


def test_a_basic_move_cannot_enter_another_vehicle() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 3), "ha-bike": (3, 4)}, [1])
    play(g, "law-buggy", "peddle")
    assert [o.value for o in g.pending().options] == ["FL", "FR"]
