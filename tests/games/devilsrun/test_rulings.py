"""Our rulings where the Devil's Run text is silent, garbled or contradicts itself (DRR-n)."""

from __future__ import annotations

from pathlib import Path

import yaml
from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.state import REMOVED, RUNNING, WRECK

ROOT = Path(__file__).resolve().parents[3]


def test_every_ruling_is_data_and_a_docs_row_and_every_cited_ruling_exists() -> None:
    rows = yaml.safe_load((ROOT / "src/carnage/games/devilsrun/data/rulings.yaml").read_text())["rulings"]
    ids = [r["id"] for r in rows]
    assert ids == [f"DRR-{i}" for i in range(1, len(ids) + 1)]
    docs = (ROOT / "docs/rulings.md").read_text()
    for r in rows:
        assert f"| {r['id']} |" in docs, r["id"]
        for t in r["tests"]:
            path, name = t.split("::")
            assert f"def {name}(" in (ROOT / path).read_text(), t
    import re

    cited = set()
    for p in (ROOT / "src/carnage/games/devilsrun").rglob("*.py"):
        cited |= set(re.findall(r"DRR-\d+", p.read_text()))
    assert cited <= set(ids)


def test_a_forward_ram_cannot_take_a_cars_front_square_its_rear_would_fill() -> None:
    # DRR-14: from diagonally behind, only the rear square is a target
    g = arranged("hell-on-wheels", {"law-buggy": (2, 3), "ha-car": (3, 5), "ha-bike": (0, 20)},
                 [3])
    play(g, "law-buggy", "ram")
    assert events(g, "forced_choice")[-1]["choice"] == "ha-car:1"


def test_an_evaded_t_bone_stops_at_the_edge_of_the_road() -> None:
    # DRR-16: it runs on straight across but does not leave the road
    g = arranged("devils-run", {"law-buggy": (4, 5), "ha-trike": (5, 5)}, [3, 1])
    play(g, "law-buggy", "t_bone", "ha-trike:0:r1", "evade", "5,6")
    assert g.vehicle("law-buggy").pos == (7, 5)
    assert events(g, "stopped_at_edge")


def test_a_basic_move_may_not_leave_the_side_of_the_road() -> None:
    # DRR-11
    g = arranged("devils-run", {"law-buggy": (0, 8), "ha-bike": (6, 20)}, [1])
    play(g, "law-buggy", "peddle")
    assert [o.value for o in g.pending().options] == ["F", "FR"]


def test_pushes_ignore_debris_and_may_land_on_a_wreck() -> None:
    # DRR-35: the trike is rammed onto (1, 3) debris... and a wreck: no terrain damage
    g = arranged("devils-run", {"law-buggy": (1, 0), "ha-trike": (1, 2), "ha-bike": (6, 20),
                                "law-bike": (1, 3)}, [1, 1, 1])
    g.vehicle("law-bike").status = WRECK
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    t = g.vehicle("ha-trike")
    assert t.pos == (1, 3) and t.status == RUNNING and t.cp == 3  # only the ram: 5 against 2
    assert [e for e in events(g, "roll") if e["why"] == "wreck damage"] == []


def test_ram_damage_takes_no_armour_save() -> None:
    # DRR-17
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 1, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    assert events(g, "armour_save") == [] and g.vehicle("ha-trike").cp == 2


def test_equal_totals_do_no_damage() -> None:
    # DRR-17: 1 + 1 + 1 = 3 against 2 + 1... buggy A2 + D3 1 = 3
    g = arranged("devils-run", {"ha-bike": (3, 3), "law-buggy": (3, 4)}, [1, 1, 1, 1], to_act=1)
    play(g, "ha-bike", "ram", "law-buggy:0", "stay")
    assert events(g, "damage") == []


def test_ram_on_the_brakes_with_a_car_leads_with_its_rear_square() -> None:
    # DRR-38: the car backs its rear square into the bike behind it
    g = arranged("hell-on-wheels", {"law-car": (3, 6), "ha-bike": (3, 3), "ha-trike": (0, 20)},
                 [1, 1, 1])
    play(g, "law-car", "ram_on_the_brakes")
    assert events(g, "forced_choice")[-1]["choice"] == "ha-bike:0"
    play(g, "ha-bike:0", "stay")
    assert g.vehicle("law-car").pos == (3, 4) and g.vehicle("ha-bike").pos == (3, 2)


def test_range_is_counted_from_the_nearer_square_of_a_car() -> None:
    # DRR-23: the bike 4 behind the car's rear square is in pistol range of the gunner
    g = arranged("hell-on-wheels", {"law-car": (3, 6), "ha-bike": (3, 1)}, [])
    assert g.weapon_targets("law-car", 1) == [("ha-bike", -3, 4)]
    assert g.weapon_targets("law-car", 0) == []  # the driver does not look back


def test_models_left_behind_with_the_back_tile_are_not_active() -> None:
    # DRR-1
    g = arranged("devils-run", {"ha-bike": (3, 22), "law-buggy": (5, 3), "law-bike": (0, 12)},
                 [1, 1], to_act=1)
    play(g, "ha-bike", "peddle", "F", "F")
    assert g.vehicle("law-buggy").status == REMOVED
    assert [v.id for v in g.active(0)] == ["law-bike"]


def test_second_action_offers_only_shooting_the_stash_or_nothing() -> None:
    # DRR-34: no upgrades or Do It! equipment exist in the beta rules
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [1, 1])
    play(g, "law-bike", "peddle", "F", "F", "F", "stop")
    assert [o.value for o in g.pending().options] == ["shoot", "pass"]


def test_every_rule_an_event_can_cite_is_indexed_with_its_lines() -> None:
    import random
    import re

    from carnage.games.devilsrun.bots import bot, play_out
    from carnage.games.devilsrun.missions import DEVILS_RUN

    rules = yaml.safe_load((ROOT / "src/carnage/games/devilsrun/data/rules.yaml").read_text())["rules"]
    rulings = {r["id"] for r in yaml.safe_load(
        (ROOT / "src/carnage/games/devilsrun/data/rulings.yaml").read_text())["rulings"]}
    cited: set[str] = set()
    for p in (ROOT / "src/carnage/games/devilsrun").glob("game.py"):
        cited |= set(re.findall(r'"(DR-\d{3})"', p.read_text()))
    assert cited <= set(rules), sorted(cited - set(rules))
    for mission in ("devils-run", "hell-on-wheels"):
        g = DEVILS_RUN.new_game(mission, seed=3)
        play_out(g, [bot("heuristic"), bot("random")], random.Random(3))
        for e in g.log:
            assert e.source in rules or e.source in rulings, e
