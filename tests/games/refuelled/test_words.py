"""Plain words for places, turns, grid and spawn places, seats and rulings (games/refuelled/
words.py): what a log line or a choice says in place of coordinates, codes and ids."""

from __future__ import annotations

import runpy
from pathlib import Path

from carnage.games.devilsrun.data import rule_index
from carnage.games.refuelled.text import event_text
from carnage.games.refuelled.words import (
    RULING_NAMES,
    choice_text,
    compass,
    grid_place,
    plain,
    ruling_names,
    ruling_text,
    shift_words,
    spawn_pose_words,
    table_area,
)
from carnage.kernel.events import Event

ROOT = Path(__file__).resolve().parents[3]
NAMES = {"p1-red-car": "Red Car", "seat:0": "Red", "seat:1": "Blue", "seat:2": "Green",
         "table:size": "900,1200"}


def test_headings_and_places_on_the_table() -> None:
    assert [compass(h) for h in (0, 44, 90, 136.9, 180, 270, 359)] == [
        "east", "north-east", "north", "north-west", "west", "south", "east"]
    assert table_area(NAMES, 450, 600) == "the middle of the table"
    assert table_area(NAMES, 100, 1100) == "the north-west of the table"
    assert table_area(NAMES, 850, 600) == "the east of the table"
    assert table_area(NAMES, 420, -60) == "off the south edge of the table"
    assert table_area({}, 420, 60) == "the table"  # no table size: nothing made up


def test_a_move_is_said_from_the_vehicle() -> None:
    assert shift_words(0, 150, 90) == "150 mm ahead"  # facing north, 150 mm north
    assert shift_words(0, -180, 90) == "180 mm back"
    assert shift_words(-40, 120, 90) == "120 mm ahead and 40 mm left"
    assert shift_words(2, 0, 90) == "nowhere"


def test_grid_spawn_and_table_places_in_words() -> None:
    assert grid_place("-30") == "the place 30 mm left of the grid's centre"
    assert grid_place("+75") == "the place 75 mm right of the grid's centre"
    assert grid_place("0") == "the centre of the starting grid"
    assert grid_place("r2c1") == "the second row of the grid, first place"
    assert spawn_pose_words("45:40:0") == "40 mm north-east of the spawn point, facing east"
    assert spawn_pose_words("0:0:270") == "on the spawn point, facing south"
    assert choice_text("spawn_point", "855,195", NAMES) == "a place in the south-east of the table"
    assert choice_text("cloud_place", "450,600@90", NAMES) == (
        "a place in the middle of the table, facing north")
    assert choice_text("road_block", "850,150,90", NAMES) == (
        "a place in the south-east of the table, facing north")
    assert choice_text("edge_pose", "east:590", NAMES) == (
        "the east edge of the table, 590 mm along it")
    assert choice_text("vote_target", "pole:1", NAMES) == "pole position for Blue"
    assert choice_text("vote_target", "p1-red-car:up", NAMES) == "Red Car (gear up)"
    assert choice_text("token_drop", "down:225:5", NAMES) == "set it down 5 mm to the south-west"
    assert choice_text("token_drop", "give:p1-red-car", NAMES) == "hand it to Red Car"
    assert choice_text("pivot", -84.0143, NAMES) == "a turn of 84° right"
    assert choice_text("flag_tag_range", 50.0581, NAMES) == "50"
    assert choice_text("creature_place", "+0,+240", NAMES) == "240 mm north of the table's centre"
    assert choice_text("rig_facing", "centre:east", NAMES) == (
        "the centre of the table, facing the east edge")
    assert choice_text("sandstorm", -30, NAMES) == "a turn of 30° right"
    assert choice_text("attack", "p1-red-car|125mm_cannon#0>p1-red-car", NAMES) == (
        "fire 125mm Cannon at Red Car")
    assert choice_text("collision_reaction", "evade", NAMES) == "to evade"
    assert choice_text("up_and_over", "no", NAMES) == "to stay where it stopped"
    assert choice_text("entry_edge", "west", NAMES) == "the west edge as the entry edge"
    assert choice_text("new_flag", "NE", NAMES) == "the north-east point for a new flag"
    assert choice_text("truckasaurus_facing", 90, NAMES) == "to face Truckasaurus north"
    assert choice_text("splash", "-", NAMES) == "the template over the target alone"
    assert choice_text("splash", "p1-red-car", NAMES) == (
        "the template over the target and Red Car")
    assert choice_text("war_rig_upgrade", "grease_monkey", NAMES) == (
        "the Grease Monkey upgrade")
    assert plain("spawn point 40 mm out at 270 degrees, facing 180 degrees", NAMES) == (
        "spawn point 40 mm out to the south, facing west")
    assert plain("flag-p2 and flag-p1", NAMES) == "Blue's flag and Red's flag"


def test_seats_sides_and_rulings_in_a_reason() -> None:
    assert plain("most zombies: P1 with 3 (on the tie-break, SC-4)", NAMES) == (
        "most zombies: Red with 3 (on the tie-break, our ruling on ties)")
    assert plain("shared by Side P1+P3, P2 with 2", NAMES) == (
        "shared by the side of Red and Green, Blue with 2")
    assert plain("toxic_cloud:2 and crate-1", NAMES) == "toxic cloud 2 and crate 1"
    assert ruling_text("SC-3") == "our ruling on deployment at a spawn point"
    assert ruling_text("XX-1") is None


def test_ruling_names_are_the_topics_of_docs_rulings() -> None:
    script = runpy.run_path(str(ROOT / "scripts" / "ruling_names.py"))
    docs = (ROOT / "docs" / "rulings.md").read_text()
    assert RULING_NAMES.read_text() == script["render"](script["ruling_names"](docs)), (
        "run python scripts/ruling_names.py after changing docs/rulings.md")
    assert ruling_names()["SC-4"] == "Ties" and all(ruling_names().values())


def test_every_devils_run_rule_and_ruling_has_a_name() -> None:
    index = rule_index()
    assert all(e["name"] and not e["name"].startswith("DR") for e in index.values())
    assert {k for k, e in index.items() if e["ruling"]} == {
        k for k in index if k.startswith("DRR-")}


def test_a_scenarios_rule_is_named_as_the_book_names_the_scenario() -> None:
    from carnage.games.refuelled.words import rule_name

    assert rule_name("death_race") == "Death Race"
    assert rule_name("scenario:capture_the_flag") == "Capture the Flag"
    assert rule_name("movement") == "Movement"  # not a scenario: its words, capitalised


def test_a_collision_ends_in_words_and_says_why_only_when_cut_short() -> None:
    names = {"p1-red-car": "Red Car", "p2-blue-car": "Blue Car"}
    said = [event_text(Event(1, "collision_end", {"vehicle": "p1-red-car",
                                                  "other": "p2-blue-car", "reason": r},
                             source="collision", page=52), names)
            for r in ("resolved", "volatile obstacle exploded")]
    assert said == ["The collision of Red Car and Blue Car is over (p.52)",
                    "The collision of Red Car and Blue Car is over: the volatile obstacle "
                    "exploded (p.52)"]


def test_a_reaction_to_a_collision_in_words() -> None:
    names = {"p1-red-car": "Red Car", "p2-blue-car": "Blue Car"}

    def said(**data: str) -> str:
        return event_text(Event(1, "reaction", {"vehicle": "p1-red-car", "other": "p2-blue-car",
                                                **data}, source="collision", page=53), names)

    assert said(reaction="evade") == "Red Car reacts to Blue Car by evading (p.53)"
    assert said(reaction="smash") == "Red Car reacts to Blue Car with a Smash Attack (p.53)"
    assert said(reaction="smash", declared="piledriver") == (
        "Red Car reacts to Blue Car with Piledriver (a Smash Attack) (p.53)")
