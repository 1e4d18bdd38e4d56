"""Shooting: arcs and BS modifiers, range, line of sight, saves, criticals, the Flamer."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.board import line_of_sight
from carnage.games.devilsrun.state import WRECK


def test_bs_test_uses_the_grid_modifier_and_a_failed_save_lets_the_hit_through() -> None:
    # DR-090/092: bike pistol at 3 squares straight ahead: -2, so BS 7 - 2 = 5; a 5 hits
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [1, 1, 5, 2])
    play(g, "law-bike", "peddle", "F", "F", "F", "stop", "shoot")
    d = g.pending()
    assert d.kind == "shoot_target" and d.weapon == "pistol#0"
    play(g, "ha-bike")
    shot = events(g, "shot")[-1]
    assert (shot["bs"], shot["modifier"], shot["hits"]) == (5, -2, 1)
    assert g.vehicle("ha-bike").cp == 4


def test_a_roll_above_the_modified_bs_misses() -> None:
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [1, 1, 6])
    play(g, "law-bike", "peddle", "F", "F", "F", "stop", "shoot", "ha-bike")
    assert events(g, "shot")[-1]["hits"] == 0 and g.vehicle("ha-bike").cp == 5


def test_arcs_range_and_blind_squares() -> None:
    # bike: nothing directly behind (DR-040); pistol range 4 (DR-033)
    g = arranged("devils-run", {"law-bike": (3, 5), "ha-bike": (3, 4), "ha-trike": (3, 10)}, [])
    assert g.weapon_targets("law-bike", 0) == []
    g = arranged("devils-run", {"law-bike": (3, 5), "ha-bike": (5, 4), "ha-trike": (3, 9)}, [])
    # (2, -1) behind: secondary arc -(2 + 1) = -3; 4 ahead: -3
    assert sorted(g.weapon_targets("law-bike", 0)) == [("ha-bike", -3, 2), ("ha-trike", -3, 4)]


def test_buggy_turret_cannot_shoot_the_adjacent_ring() -> None:
    # DR-041: the machine gun's grid leaves the squares next to the buggy blank
    g = arranged("devils-run", {"law-buggy": (3, 5), "ha-bike": (4, 6), "ha-trike": (3, 2)}, [])
    assert g.weapon_targets("law-buggy", 0) == [("ha-trike", -3, 3)]


def test_vehicles_and_wrecks_block_line_of_sight() -> None:
    # DR-091: a friendly vehicle between shooter and target blocks
    g = arranged("devils-run", {"law-bike": (3, 3), "law-buggy": (3, 5), "ha-bike": (3, 6)}, [])
    assert g.weapon_targets("law-bike", 0) == []
    g.vehicle("law-buggy").status = WRECK
    assert g.weapon_targets("law-bike", 0) == []
    g.vehicle("law-buggy").pos = (1, 1)
    assert [t[0] for t in g.weapon_targets("law-bike", 0)] == ["ha-bike"]


def test_line_of_sight_from_any_point_and_corners_do_not_block() -> None:
    # DRR-21: a diagonal past a blocker's corner is clear; a blocker squarely between is not
    assert line_of_sight([(0, 0)], (2, 2), {(1, 0), (0, 1)})
    assert not line_of_sight([(0, 0)], (2, 0), {(1, 0)})
    assert line_of_sight([(0, 0)], (2, 1), {(1, 0)})  # the line may go round through the top


def test_armour_saves_in_order_stop_at_the_first_failure() -> None:
    # DR-093: three machine-gun hits; saves 1 (saved) then 4 (fails): 2 damage, third unrolled
    g = arranged("devils-run", {"law-buggy": (3, 1), "ha-bike": (3, 6)}, [1, 2, 3, 4, 1, 4])
    play(g, "law-buggy", "peddle", "F", "F", "stop", "shoot", "ha-bike")
    assert events(g, "armour_save")[-1]["rolls"] == [1, 4]
    assert g.vehicle("ha-bike").cp == 3


def test_critical_hit_unsaved_deals_an_extra_point() -> None:
    # DR-094, DRR-22: a natural 1 is a critical; its save fails: 2 damage
    g = arranged("devils-run", {"law-buggy": (3, 1), "ha-bike": (3, 6)}, [1, 1, 9, 9, 3])
    play(g, "law-buggy", "peddle", "F", "F", "stop", "shoot", "ha-bike")
    assert events(g, "shot")[-1]["criticals"] == 1
    assert g.vehicle("ha-bike").cp == 3


def test_critical_hit_saved_does_nothing() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 1), "ha-bike": (3, 6)}, [1, 1, 9, 9, 1])
    play(g, "law-buggy", "peddle", "F", "F", "stop", "shoot", "ha-bike")
    assert g.vehicle("ha-bike").cp == 5


def test_flamer_loses_a_die_per_intervening_square_and_allows_no_save() -> None:
    # DR-053: 2 squares away -> 2 dice at BS 7 - 1; a critical and a hit: 3 damage, no saves
    g = arranged("devils-run", {"ha-trike": (3, 2), "law-bike": (4, 3)}, [1, 1, 6], to_act=1)
    play(g, "ha-trike", "peddle", "F", "F", "F", "stop", "shoot")
    d = g.pending()
    assert d.weapon == "flamer#1"  # the driver's pistol sees nothing behind
    play(g, "law-bike")
    shot = events(g, "shot")[-1]
    assert shot["rolls"] == [1, 6] and shot["bs"] == 6
    assert events(g, "armour_save") == []
    assert g.vehicle("law-bike").cp == 3


def test_every_weapon_fires_in_the_one_shoot_action() -> None:
    # DR-062: the car's driver and gunner pistols each pick a target
    g = arranged("hell-on-wheels", {"law-car": (3, 1), "ha-bike": (6, 5)}, [1, 9, 9])
    play(g, "law-car", "peddle", "F", "F", "stop", "shoot")
    assert g.pending().weapon == "pistol#0"
    play(g, "ha-bike")
    assert g.pending().weapon == "pistol#1"
    play(g, "ha-bike")
    assert len(events(g, "shot")) == 2


def test_car_has_a_blind_wedge_straight_ahead() -> None:
    # DR-042: squares ahead of the car's front need |dx| >= dy
    g = arranged("hell-on-wheels", {"law-car": (3, 3), "ha-bike": (3, 7), "ha-trike": (6, 5)}, [])
    assert [t[0] for t in g.weapon_targets("law-car", 0)] == ["ha-trike"]
    assert [t[0] for t in g.weapon_targets("law-car", 1)] == ["ha-trike"]
