"""Dice entered from the real table (kernel/table_dice.py): a roll with no faces entered
becomes a decision, the faces entered replay exactly, copies keep a pending entry, and the
path is the same for every ruleset."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.builders import race, vehicle

from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import SeededDice
from carnage.kernel.table_dice import (
    ENTRY_KIND,
    SKID_DICE,
    DiceEntry,
    DiceWanted,
    TableDice,
    TableDiceGame,
    is_entry,
    roll_entry,
)
from carnage.rulesets import get_ruleset


def _race(seed: int = 3, screen: tuple[str, ...] = ()) -> TableDiceGame:
    red = vehicle("red", "car", 450, 500, player=0, gear=2)
    blue = vehicle("blue", "car", 700, 300, player=1, gear=2)
    return TableDiceGame(race(red, blue, seed=seed), screen=screen)


def _log(g: Any) -> list[dict[str, Any]]:
    return [e.to_json() for e in g.log.events]


def _any(d: Any, rng: random.Random) -> Any:
    """A random answer: faces for an entry, an option, or the low end of a domain."""
    if isinstance(d, DiceEntry):
        return roll_entry(d, rng)
    return rng.choice(d.options).value if d.options else d.domain.low


def _skid(g: TableDiceGame, n: int) -> None:
    """The first vehicle (blue, seed 3) picks a Medium Straight and declares ``n`` skid dice."""
    d = g.pending()
    assert d is not None and d.kind == "template" and d.vehicle == "blue"
    g.apply("medium_straight")
    g.apply(n)


def test_a_skid_roll_entered_as_6_and_4_is_two_shifts_and_no_hazard() -> None:
    g = _race()
    _skid(g, 2)
    d = g.pending()
    assert isinstance(d, DiceEntry) and d.kind == ENTRY_KIND
    assert (d.n, d.sides, d.group, d.player) == (2, 6, SKID_DICE, 1)
    assert "skid dice" in d.prompt and d.then["kind"] == "skid_dice" and d.then["choice"] == 2
    assert not g.log.of_kind("roll")[2:]  # nothing rolled yet: the game is as it was
    g.apply("6,4")
    assert g.choices == ["medium_straight", 2, "6,4"]
    skid = g.log.of_kind("roll")[-1]
    assert skid.data["why"] == "skid dice" and skid.data["dice"] == [6, 4]
    blue = g.state.vehicles["blue"]
    assert blue.hazards == 0  # p.21: 4-6 are Shifts, no Hazard face
    d = g.pending()
    assert d is not None and d.kind == "push_it"
    g.apply("no")
    d = g.pending()  # two rolled Shifts and the Medium Straight's free one (trivial, p.22)
    assert d is not None and d.kind == "spend_shift" and "(3 left)" in d.prompt


def test_a_hazard_face_entered_is_a_hazard() -> None:
    g = _race()
    _skid(g, 2)
    g.apply([1, 4])  # p.21: 1 is the Hazard face, 4 a Shift
    assert g.log.of_kind("roll")[-1].data["dice"] == [1, 4]
    g.apply("no")
    d = g.pending()  # one rolled Shift and the free one; the Hazard may be cancelled
    assert d is not None and "(2 left)" in d.prompt and "cancel:0" in [o.value for o in d.options]
    g.apply("done")  # the uncancelled Hazard is taken (p.22)
    assert g.state.vehicles["blue"].hazards == 1
    assert g.log.of_kind("skid_hazards")[-1].data == {"vehicle": "blue", "gained": 1}


def test_entered_faces_are_checked_and_a_refusal_changes_nothing() -> None:
    g = _race()
    _skid(g, 2)
    before = (list(g.choices), _log(g))
    for bad in ("6", "6,7", "6,4,4", "a,b", True, 3.5, [0, 4]):
        with pytest.raises(IllegalChoice):
            g.apply(bad)
    assert (g.choices, _log(g)) == before and is_entry(g.pending())


def test_the_choices_with_their_entries_rebuild_the_game_exactly() -> None:
    g = _race()
    rng = random.Random(7)
    for _ in range(40):
        d = g.pending()
        if d is None:
            break
        g.apply(_any(d, rng))
    assert any(isinstance(c, str) and "," in c for c in g.choices)
    again = _race()
    again.replay(g.choices)
    assert _log(again) == _log(g) and again.choices == g.choices


def test_a_copy_with_dice_wanted_goes_on_as_the_original() -> None:
    g = _race()
    _skid(g, 2)
    copy = g.clone()
    assert is_entry(copy.pending()) and copy.choices == g.choices
    for x in (g, copy):
        x.apply("5,1")
        x.apply("no")
        x.apply("done")
    assert _log(copy) == _log(g)
    assert g.state.vehicles["blue"].hazards == copy.state.vehicles["blue"].hazards == 1


def test_skid_dice_kept_on_screen_roll_from_the_seed() -> None:
    g = _race(screen=(SKID_DICE,))
    _skid(g, 2)
    d = g.pending()
    assert d is not None and d.kind == "push_it"  # rolled on screen, nothing asked
    plain = race(vehicle("red", "car", 450, 500, player=0, gear=2),
                 vehicle("blue", "car", 700, 300, player=1, gear=2), seed=3)
    plain.apply("medium_straight")
    plain.apply(2)
    assert g.log.of_kind("roll")[-1].data == plain.log.of_kind("roll")[-1].data


def test_a_table_source_rolls_its_tape_then_wants_more() -> None:
    dice = TableDice(SeededDice(1), tape=[3, 5], live=True)
    assert dice.roll(1) == [3]
    with pytest.raises(DiceWanted) as got:
        dice.roll(3)
    assert (got.value.n, got.value.sides) == (2, 6)  # one face is still on the tape
    dice.tape.extend([2, 2])
    assert dice.roll(3) == [5, 2, 2]
    with pytest.raises(IllegalChoice):
        TableDice(SeededDice(1), tape=[7], live=True).roll(1)


@pytest.mark.parametrize("name", ["kart", "devils-run"])
def test_every_ruleset_takes_the_same_path(name: str) -> None:
    rs = get_ruleset(name)
    g = TableDiceGame(rs.new_game(seed=5))
    rng = random.Random(1)
    entries = 0
    for _ in range(120):
        d = g.pending()
        if d is None:
            break
        entries += isinstance(d, DiceEntry)
        g.apply(_any(d, rng))
    assert entries > 0
    again = TableDiceGame(rs.new_game(seed=5))
    again.replay(g.choices)
    assert _log(again) == _log(g)


def test_a_group_named_by_its_words_stays_on_screen() -> None:
    dice = TableDice(SeededDice(4), screen=frozenset({"attack"}), live=True)
    on_screen = SeededDice(4).roll(3)
    assert dice.roll_as(3, 6, "machine_gun", "attack") == on_screen  # by its words
    with pytest.raises(DiceWanted):
        dice.roll_as(1, 6, "evade", "evade")


def _street_race(dice: TableDice) -> Any:
    from carnage.games.refuelled.setup import GameSetup, build_game

    return build_game(GameSetup(scenario="street-race", players=2), 11, dice, start=False)


def test_the_roll_off_for_pole_position_is_asked_at_the_table() -> None:
    """A game wrapped before it starts asks its set-up's rolls: each seat's die of the
    roll-off for Pole Position (Street Race p.62) is an entry, a tie is rolled again, and the
    faces entered decide who has the pole; the entries replay exactly, a copy too."""
    g = TableDiceGame.unstarted(_street_race, 11)
    asked: list[tuple[int, str]] = []
    for faces in ("3", "3", "2", "5"):
        d = g.pending()
        assert is_entry(d) and d is not None and d.n == 1 and d.then["kind"] == "setup"
        assert "pole roll-off" in d.prompt
        asked.append((d.player, d.prompt))
        if faces == "2":  # a copy made while the set-up waits for dice goes on alike
            twin = g.clone()
        g.apply(faces)
    assert [p for p, _ in asked] == [0, 1, 0, 1]  # each seat rolls in turn; the tie again
    rolls = [e.data["dice"] for e in g.log.events
             if e.kind == "roll" and e.data.get("why") == "pole roll-off"]
    assert rolls == [[3], [3], [2], [5]]
    pole = [e.data["player"] for e in g.log.events if e.kind == "pole"]
    assert pole == [1] and g.state.pole == 1
    d = g.pending()
    assert d is not None and d.kind == "deploy" and d.player == 1
    assert g.choices == ["3", "3", "2", "5"]
    twin.apply("2")
    twin.apply("5")
    assert _log(twin) == _log(g)
    again = TableDiceGame.unstarted(_street_race, 11)
    again.replay(g.choices)
    assert _log(again) == _log(g) and again.state.pole == 1
    with pytest.raises(IllegalChoice):
        TableDiceGame.unstarted(_street_race, 11).apply("7")


def test_a_game_wrapped_after_it_started_rolled_its_roll_off_on_screen() -> None:
    """The older path (a ruleset that cannot build a game unstarted): the roll-off was rolled
    on screen and the first question is the game's own."""
    from carnage.games.refuelled.setup import GameSetup, build_game

    g = TableDiceGame(build_game(GameSetup(scenario="street-race", players=2), 11))
    d = g.pending()
    assert d is not None and d.kind == "deploy"
