"""Offensive special moves, evades, pile-ups and wipe-outs (DR-075..089)."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.state import DESTROYED, RUNNING, WIPED_OUT, WRECK


def test_ram_totals_push_and_damage() -> None:
    # DR-076: moved 3 + A2 + D3 3 = 8 against A1 + D3 1 = 2: the trike takes 6 and is a wreck
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 3, 1])
    play(g, "law-buggy")
    assert "ram" in [o.value for o in g.pending().options]
    play(g, "ram", "ha-trike:0")
    d = g.pending()
    assert d.kind == "evade" and d.player == 1
    play(g, "stay")
    t, b = g.vehicle("ha-trike"), g.vehicle("law-buggy")
    assert t.pos == (3, 8) and t.status == WRECK and t.cp == 0
    assert b.pos == (3, 7) and b.cp == 8
    tot = events(g, "offensive_totals")[-1]
    assert (tot["attacker_total"], tot["target_total"]) == (8, 2)
    # a special move uses both action points: no shooting afterwards (DR-063)
    assert g.pending().kind == "activate" and g.pending().player == 1


def test_ram_loser_is_the_attacker_when_its_total_is_lower() -> None:
    # moved 1 + A1 + 1 = 3 against A2 + 3 = 5: the bike takes 2
    g = arranged("devils-run", {"ha-bike": (3, 3), "law-buggy": (3, 4)}, [1, 1, 1, 3], to_act=1)
    play(g, "ha-bike", "ram", "law-buggy:0", "stay")
    assert g.vehicle("ha-bike").cp == 3 and g.vehicle("law-buggy").cp == 8


def test_ram_on_the_brakes_both_take_the_other_total() -> None:
    # DR-077: buggy backs 3 into the trike: 3 + 2 + 2 = 7 against 1 + 1 = 2
    g = arranged("devils-run", {"law-buggy": (3, 6), "ha-trike": (3, 3), "ha-bike": (0, 20)},
                 [1, 2, 1])
    play(g, "law-buggy", "ram_on_the_brakes", "ha-trike:0", "stay")
    assert g.vehicle("law-buggy").cp == 6 and g.vehicle("law-buggy").pos == (3, 3)
    t = g.vehicle("ha-trike")
    assert t.status == WRECK and t.pos == (3, 2)


def test_side_swipe_compares_armour_plus_chassis() -> None:
    # DR-078: 2 + 8 + 1 = 11 against 1 + 6 + 1 = 8: trike takes 3, pushed away sideways
    g = arranged("devils-run", {"law-buggy": (2, 4), "ha-trike": (3, 5), "ha-bike": (0, 20)},
                 [1, 1, 1])
    play(g, "law-buggy", "side_swipe")
    keys = [o.value for o in g.pending().options]
    assert "ha-trike:0:sr" in keys and "ha-trike:0:dr" in keys
    play(g, "ha-trike:0:sr", "stay")
    assert g.vehicle("ha-trike").pos == (4, 5) and g.vehicle("ha-trike").cp == 3
    assert g.vehicle("law-buggy").pos == (3, 5)


def test_t_bone_drives_straight_across_into_the_side() -> None:
    # DRR-13: 3 squares across + A2 + D3 2 = 7 against 1 + 2 = 3: 4 damage, pushed on across
    g = arranged("devils-run", {"law-buggy": (1, 5), "ha-trike": (4, 5), "ha-bike": (0, 20)},
                 [1, 2, 2])
    play(g, "law-buggy", "t_bone", "ha-trike:0:r3", "stay")
    assert g.vehicle("ha-trike").pos == (5, 5) and g.vehicle("ha-trike").cp == 2
    assert g.vehicle("law-buggy").pos == (4, 5)


def test_evaded_ram_runs_on_straight_into_a_new_target_that_cannot_evade() -> None:
    # DR-087/089: trike evades (4 <= E5) to (2, 4); the buggy must run on and hits the bike
    g = arranged("devils-run", {"law-buggy": (3, 2), "ha-trike": (3, 4), "ha-bike": (3, 6)},
                 [3, 4, 1, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "evade")
    assert g.pending().kind == "evade_square"
    assert [o.value for o in g.pending().options] == ["2,4", "4,4"]
    play(g, "2,4")
    assert events(g, "new_target")[-1]["target"] == "ha-bike"
    tot = events(g, "offensive_totals")[-1]
    assert tot["moved"] == 4 and tot["attacker_total"] == 7
    bike = g.vehicle("ha-bike")
    assert bike.status == WRECK and bike.pos == (3, 7)
    assert g.vehicle("law-buggy").pos == (3, 6)
    assert g.vehicle("ha-trike").cp == 6 and g.vehicle("ha-trike").pos == (2, 4)


def test_evaded_ram_with_nothing_ahead_just_uses_its_allowance() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 2), "ha-trike": (3, 4)}, [3, 1, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "evade", "4,4")
    assert g.vehicle("law-buggy").pos == (3, 7)  # 5 movement, all straight ahead
    assert events(g, "damage") == []


def test_failed_evade_is_pushed_forward() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 9, 1, 3])
    play(g, "law-buggy", "ram", "ha-trike:0", "evade")
    assert events(g, "evade_failed")
    assert g.vehicle("ha-trike").pos == (3, 8) and g.vehicle("ha-trike").cp == 4  # 6 vs 4


def test_evaded_side_swipe_takes_the_vacated_square_and_nobody_is_hurt() -> None:
    g = arranged("devils-run", {"law-buggy": (2, 4), "ha-trike": (3, 5), "ha-bike": (0, 20)},
                 [1, 2])
    play(g, "law-buggy", "side_swipe", "ha-trike:0:sr", "evade")
    assert [o.value for o in g.pending().options] == ["3,6", "3,4"]  # along the road (DRR-15)
    play(g, "3,6")
    assert g.vehicle("law-buggy").pos == (3, 5)
    assert events(g, "damage") == []


def test_no_evade_offered_without_a_free_square() -> None:
    # hemmed in on both sides the trike cannot evade (DR-085)
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "law-bike": (2, 7),
                                "ha-bike": (4, 7)}, [1, 1, 1])
    play(g, "law-buggy", "ram", "ha-trike:0")
    assert g.pending().kind == "activate"
    assert g.vehicle("ha-trike").pos == (3, 8)


def test_pile_up_pushes_the_chain_and_adds_one_damage_each() -> None:
    # DR-082: 2 + 2 + 1 = 5 against 2: trike takes 3, then +1 to all three
    g = arranged("devils-run", {"law-buggy": (3, 2), "ha-trike": (3, 4), "ha-bike": (3, 5)},
                 [1, 1, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    assert g.vehicle("ha-bike").pos == (3, 6) and g.vehicle("ha-bike").cp == 4
    assert g.vehicle("ha-trike").pos == (3, 5) and g.vehicle("ha-trike").cp == 2
    assert g.vehicle("law-buggy").pos == (3, 4) and g.vehicle("law-buggy").cp == 7
    assert events(g, "pile_up")[-1]["extra"] == 1


def test_pile_up_against_an_immovable_object_destroys_the_vehicle_beside_it() -> None:
    # DR-083: impassable (7, 11) in Hell on Wheels; the trike beside it is destroyed, +2 to others
    g = arranged("hell-on-wheels", {"law-buggy": (3, 11), "ha-bike": (5, 11), "ha-trike": (6, 11)},
                 [1, 1, 1])
    play(g, "law-buggy", "t_bone", "ha-bike:0:r2", "stay")
    assert g.vehicle("ha-trike").status == DESTROYED
    bike = g.vehicle("ha-bike")
    assert bike.pos == (6, 11) and bike.status == WRECK  # 5 - 3 - 2
    assert g.vehicle("law-buggy").cp == 6 and g.vehicle("law-buggy").pos == (5, 11)


def test_pushed_off_the_side_of_the_road_is_a_wipe_out() -> None:
    # DR-084: damage first, then out of the game (not destroyed)
    g = arranged("devils-run", {"law-buggy": (5, 4), "ha-bike": (7, 4), "ha-trike": (0, 20)},
                 [1, 1, 1])
    play(g, "law-buggy", "t_bone", "ha-bike:0:r2", "stay")
    b = g.vehicle("ha-bike")
    assert b.status == WIPED_OUT and b.cp == 2 and b.pos is None
    assert g.vehicle("law-buggy").pos == (7, 4)


def test_offensive_move_with_no_target_in_reach_becomes_a_plain_move() -> None:
    # DRR-12: declared with the target reachable on a 3, rolled a 1: peddle, and no shooting
    g = arranged("devils-run", {"law-buggy": (3, 0), "ha-trike": (3, 5)}, [1])
    play(g, "law-buggy", "ram")
    assert g.pending().kind == "step"
    assert events(g, "no_target")
    play(g, "F", "F", "F")
    # no second action after a declared special move, though the trike is in the buggy's arc
    assert events(g, "activation_end")[-1]["vehicle"] == "law-buggy"
    assert all(e["decision"] != "second_action" for e in events(g, "decision"))


def test_only_targets_in_reach_are_offered() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 0), "ha-trike": (5, 3), "ha-bike": (3, 5)}, [3])
    play(g, "law-buggy", "ram")
    # trike: 3 rows + 2 diagonals = 5 movement; bike: 5 rows = 5
    assert sorted(o.value for o in g.pending().options) == ["ha-bike:0", "ha-trike:0"]


def test_car_can_be_rammed_in_its_rear_square() -> None:
    # DR-075: the secondary square is a legal target; the car is pushed forward as a whole
    g = arranged("hell-on-wheels", {"law-buggy": (3, 2), "ha-car": (3, 5), "ha-bike": (0, 20)},
                 [1, 1, 1])
    play(g, "law-buggy", "ram")
    assert events(g, "forced_choice")[-1]["choice"] == "ha-car:1"  # the only target square
    play(g, "ha-car:1", "stay")
    assert g.vehicle("ha-car").pos == (3, 6)
    assert g.vehicle("law-buggy").pos == (3, 4)
    assert g.vehicle("ha-car").status == RUNNING


def test_pile_up_into_the_road_edge_resolves_then_wipes_out_the_far_vehicle() -> None:
    # DR-082 then DR-084: the trike at the edge is pushed off after the +1 is dealt
    g = arranged("devils-run", {"law-buggy": (4, 4), "ha-bike": (6, 4), "ha-trike": (7, 4)},
                 [1, 1, 1])
    play(g, "law-buggy", "t_bone", "ha-bike:0:r2", "stay")
    assert g.vehicle("ha-trike").status == WIPED_OUT
    assert [e["vehicle"] for e in events(g, "damage")] == ["ha-bike", "law-buggy", "ha-bike",
                                                           "ha-trike"]
    assert g.vehicle("ha-bike").pos == (7, 4) and g.vehicle("ha-bike").cp == 1
    assert g.vehicle("law-buggy").pos == (6, 4) and g.vehicle("law-buggy").cp == 7


def test_t_bone_may_first_drive_forward_to_the_targets_row() -> None:
    # DRR-13: allowance 5: two rows straight up (2), then three across (3); four is too far
    g = arranged("devils-run", {"law-buggy": (2, 2), "ha-trike": (5, 4), "ha-bike": (0, 20)},
                 [3, 1, 1])
    play(g, "law-buggy", "t_bone")
    keys = [o.value for o in g.pending().options]
    assert keys == ["ha-trike:0:r1", "ha-trike:0:r2", "ha-trike:0:r3"]
    play(g, "ha-trike:0:r3", "stay")
    assert events(g, "offensive_totals")[-1]["attacker_total"] == 6  # 3 across + 2 + 1
    assert g.vehicle("ha-trike").pos == (6, 4) and g.vehicle("ha-trike").cp == 2
    assert g.vehicle("law-buggy").pos == (5, 4)
