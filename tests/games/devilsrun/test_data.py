"""The catalogue against the print-outs: statlines, weapons, arc grids (DR-040..055, DR-115)."""

from __future__ import annotations

from carnage.games.devilsrun.data import arcs, gangs, missions, weapons
from carnage.games.devilsrun.missions import DEVILS_RUN


def test_statlines_match_the_print_out_cards() -> None:
    # MM CP A E BS1 BS2 (DR-115; DRR-6 Law bike CP 6 vs Haul's Angels 5, DRR-5 buggy A 2)
    want = {
        ("haul-angels", "bike"): (3, 5, 1, 6, 7, None),
        ("haul-angels", "trike"): (3, 6, 1, 5, 7, 7),
        ("haul-angels", "car"): (2, 9, 2, 3, 6, 8),
        ("law", "bike"): (3, 6, 1, 6, 7, None),
        ("law", "buggy"): (2, 8, 2, 3, 6, None),
        ("law", "car"): (2, 9, 2, 3, 6, 8),
    }
    got = {(g, k): (v.mm, v.cp, v.a, v.e, v.bs1, v.bs2)
           for g, gang in gangs().items() for k, v in gang.vehicles.items()}
    assert got == want


def test_weapons_and_skills() -> None:
    w = weapons()
    assert (w["pistol"].range, w["pistol"].rof) == (4, 1)
    assert (w["flamer"].range, w["flamer"].rof, w["flamer"].flamer) == (3, 3, True)
    assert (w["machine_gun"].range, w["machine_gun"].rof) == (4, 3)
    law, ha = gangs()["law"].vehicles, gangs()["haul-angels"].vehicles
    assert ha["bike"].skills == ("manoeuvrable",) and law["bike"].skills == ("manoeuvrable",)
    assert ha["trike"].skills == ("hard_to_steer",)
    assert law["buggy"].skills == ("rough_rider",)
    assert [m.weapon.key for m in ha["trike"].mounts] == ["pistol", "flamer"]
    assert [m.slot for m in law["car"].mounts] == ["driver", "gunner"]


def _printed_rows(key: str, rows: range) -> list[list[int]]:
    """The numbers of each grid row in print order (blanks dropped, as the text layer does)."""
    g = arcs()[key]
    return [[g.cells[(dx, dy)] for dx in range(-4, 5) if (dx, dy) in g.cells] for dy in rows]


def test_bike_grid_reproduces_every_printed_number() -> None:
    # DR-040: seed rows 80-88 (the X row reads -3 -2 -1 0 X 0 -1 -2 -3)
    assert _printed_rows("bike.driver", range(4, -5, -1)) == [
        [-3] * 9, [-3, *[-2] * 7, -3], [-3, -2, *[-1] * 5, -2, -3],
        [-3, -2, -1, 0, 0, 0, -1, -2, -3],
        [-3, -2, -1, 0, 0, -1, -2, -3], [-5, -4, -3, -2, -2, -3, -4, -5], [-5, -4, -3, -3, -4, -5],
        [-5, -4, -4, -5], [-5, -5],
    ]


def test_buggy_grid_reproduces_every_printed_number() -> None:
    # DR-041: seed rows 90-98
    assert _printed_rows("buggy.driver", range(4, -5, -1)) == [
        [-2] * 9, [-2, *[-1] * 7, -2], [-2, -1, *[0] * 5, -1, -2], [-2, -1, 0, 0, -1, -2],
        [-2, -1, 0, 0, -1, -2], [-4, -3, -2, -2, -3, -4], [-4, -3, *[-2] * 5, -3, -4],
        [-4, *[-3] * 7, -4], [-4] * 9,
    ]


def test_car_grid_shape_and_trike_grids() -> None:
    # DR-042: seed rows 109-118 (X and G rows each have 8 numbers besides the vehicle)
    assert _printed_rows("car.gunner", range(4, -6, -1)) == [
        [-3, -3], [-3, -2, -2, -3], [-3, -2, -1, -1, -2, -3], [-3, -2, -1, 0, 0, -1, -2, -3],
        [-3, -2, -1, 0, 0, -1, -2, -3], [-3, -2, -1, 0, 0, -1, -2, -3],
        [-3, -2, -1, 0, 0, 0, -1, -2, -3], [-3, -2, *[-1] * 5, -2, -3], [-3, *[-2] * 7, -3],
        [-3] * 9,
    ]
    # DR-043: trike pistol ahead (rows 100-103) and the level pair; flamer behind (105-107)
    assert _printed_rows("trike.driver", range(4, -1, -1)) == [
        [-3] * 9, [-3, *[-2] * 7, -3], [-3, -2, *[-1] * 5, -2, -3],
        [-3, -2, -1, 0, 0, 0, -1, -2, -3], [0, 0],
    ]
    assert _printed_rows("trike.gunner", range(-1, -4, -1)) == [
        [-1, 0, 0, -1], [-1] * 5, [-2] * 7,
    ]
    assert (0, -1) not in arcs()["trike.gunner"].cells  # DRR-7: the blind square as printed


def test_secondary_arcs_are_marked() -> None:
    assert (0, -1) not in arcs()["bike.driver"].secondary
    assert (1, -1) in arcs()["bike.driver"].secondary
    assert (-1, 0) in arcs()["trike.driver"].secondary


def test_missions_gangs_and_schematics() -> None:
    m1, m2 = missions()["devils-run"], missions()["hell-on-wheels"]
    assert m1.gangs == {"law": ("bike", "buggy"), "haul-angels": ("bike", "trike")}  # DR-104
    assert m2.gangs == {"law": ("bike", "buggy", "car"),
                        "haul-angels": ("bike", "trike", "car")}  # DR-111
    # every printed symbol is kept: 6 and 7 debris, 8 deployment squares, alpha/beta/gamma
    assert sum(len(t.debris) for t in m1.tiles) == 6
    assert sum(len(t.debris) for t in m2.tiles) == 7
    assert sum(len(t.impassable) for t in m2.tiles) == 3
    assert sorted(m1.tiles[0].deploy) == ["1", "2", "3", "4", "A", "B", "C", "D"]
    assert m1.stash_arrival == {2: 8, 3: 6, 4: 4, 5: 2, 6: 1, 7: 1}  # DR-106
    assert m2.disengage == {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # DR-110


def test_ruleset_lists_both_missions() -> None:
    assert DEVILS_RUN.name == "devils-run"
    assert [(s.id, s.players) for s in DEVILS_RUN.scenarios] == [
        ("devils-run", 2), ("hell-on-wheels", 2)]
    assert all(s.description and s.lines for s in DEVILS_RUN.scenarios)


def test_bad_setup_is_a_clear_error() -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown Devil's Run mission 'nope'"):
        DEVILS_RUN.new_game("nope")
    with pytest.raises(ValueError, match="needs the two gangs"):
        DEVILS_RUN.new_game("devils-run", teams=["law", "law"])


def test_rule_index_explains_rules_and_rulings() -> None:
    from carnage.games.devilsrun.data import rule_index

    idx = rule_index()
    assert idx["DR-076"]["lines"] == "162-163"
    assert idx["DRR-13"]["text"].startswith("A special move")
