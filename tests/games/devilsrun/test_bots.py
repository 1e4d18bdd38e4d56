"""The heuristic bot's offensive advice: it weighs the damage it expects to take against its own
chassis and the target's evade, so a fragile gang races instead of trading blows it cannot
afford, and still strikes when the blow is worth both action points."""

from __future__ import annotations

import random

from tests.games.devilsrun.helpers import arranged, play

from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.game import DevilsRunGame


def _action_advice(g: DevilsRunGame, vid: str) -> str:
    play(g, vid)
    d = g.pending()
    assert d is not None and d.kind == "action"
    assert "ram_on_the_brakes" in [o.value for o in d.options]
    return str(heuristic_bot(g, d, random.Random(0)))


def test_a_damaged_bike_does_not_ram_on_the_brakes_into_a_blow_that_wrecks_it() -> None:
    # the Angels' bike (3 CP left, A1) sits two squares ahead of the Law's buggy (8 CP, A2):
    # braking into it deals about 2 + 1 + 2 = 5 but takes about 2 + 2 = 4, a wreck
    g = arranged("devils-run", {"ha-bike": (3, 5), "law-buggy": (3, 3)}, [], to_act=1)
    g.vehicle("ha-bike").cp = 3
    assert _action_advice(g, "ha-bike") == "peddle"


def test_an_even_trade_against_a_likely_evader_is_not_worth_both_action_points() -> None:
    # a healthy Angels' bike (5 CP): the same blow nets about one point before the buggy's evade
    g = arranged("devils-run", {"ha-bike": (3, 5), "law-buggy": (3, 3)}, [], to_act=1)
    assert _action_advice(g, "ha-bike") == "peddle"


def test_a_blow_that_wrecks_the_target_is_still_struck() -> None:
    # the Law's buggy (8 CP, A2) two squares ahead of the Angels' bike left with 3 CP:
    # braking into it deals about 2 + 2 + 2 = 6 and takes about 1 + 2 = 3
    g = arranged("devils-run", {"law-buggy": (3, 5), "ha-bike": (3, 3)}, [], to_act=0)
    g.vehicle("ha-bike").cp = 3
    assert _action_advice(g, "law-buggy") == "ram_on_the_brakes"
