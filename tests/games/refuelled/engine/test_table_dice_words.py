"""At a real table the dice-entry prompts of an attack and its evade say in plain words who
rolls what and why (engine/attack.py, engine/damage.py, engine/combat.py through
kernel/table_dice.py): the attacker's player rolls attack dice for a named weapon at a named
target; the target's player rolls evade dice against the hits of that weapon."""

from __future__ import annotations

from tests.builders import StepScenario, armed, attack, table, values, vehicle

from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.kernel.dice import SeededDice
from carnage.kernel.table_dice import DiceEntry, TableDiceGame
from carnage.rulesets import REFUELLED


def shot_at_a_real_table() -> TableDiceGame:
    """Red Car (gear 2, a front Machine Gun) 100 mm behind Blue Car (gear 2), in its Attack
    Step, with every die rolled at the table."""
    red = armed(vehicle("red", "car", 450, 500, gear=2), ("machine_gun", "front", None))
    blue = vehicle("blue", "car", 450, 600, player=1, gear=2)
    red.name, blue.name = "Red Car", "Blue Car"
    g = Game(ruleset=REFUELLED, state=table(red, blue), scenario=StepScenario(attack("red")),
             dice=SeededDice(0), options=RuleOptions())
    return TableDiceGame(g)


def test_the_attack_and_evade_entries_say_who_rolls_what_and_why() -> None:
    g = shot_at_a_real_table()
    d = g.pending()
    assert d is not None and d.kind == "attack"
    shot = next(v for v in values(d) if str(v).startswith("machine_gun#0>"))
    g.apply(shot)
    g.apply("stop")  # the second crew member holds fire: the Machine Gun's dice are rolled
    entry = g.pending()
    assert isinstance(entry, DiceEntry) and entry.group == "attack"
    assert entry.prompt == ("Red Car's player rolls attack dice for its Machine Gun at Blue Car "
                            "(2D6): enter the faces rolled at the table")
    assert entry.player == 0
    g.apply("6,5")  # a Critical Hit (2 hits) and a hit: 3 hits
    entry = g.pending()
    assert isinstance(entry, DiceEntry) and entry.group == "evade"
    assert entry.prompt == ("Blue Car's player rolls evade dice against 3 hits from Red Car's "
                            "Machine Gun (2D6): enter the faces rolled at the table (dice "
                            "entered so far: 6, 5)")
    assert entry.then["told"] == ("Blue Car's player rolls evade dice against 3 hits from "
                                  "Red Car's Machine Gun")
    # The target's player rolls the evade, so the entry is that seat's (its phone asks it),
    # while the attack dice were the attacker's.
    assert entry.player == 1 and entry.then["player"] == 0
    g.apply("6,1")
    evade = g.log.of_kind("evade")[-1].data
    assert (evade["hits"], evade["cancelled"]) == (3, 1)
    # The words are for the people only: the logged rolls keep their short reasons.
    assert [r.data["why"] for r in g.log.of_kind("roll")] == ["attack", "evade"]


def test_weapons_rolled_together_are_named_once_each_a_repeat_counted() -> None:
    from carnage.games.refuelled.engine.combat import listed

    assert listed(["Machine Gun"]) == "Machine Gun"
    assert listed(["Handgun", "Machine Gun", "Machine Gun"]) == "Handgun and 2 Machine Guns"
    assert listed(["Handgun", "Ram", "Flamethrower"]) == "Handgun, Ram and Flamethrower"
