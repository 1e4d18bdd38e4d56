"""Odds of a Devil's Run game's pending decision (games/devilsrun/pending.py), on arranged
roads through the real flow: a shot per target, the evade test, the stash pick-up, the Repair
roll."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, play
from tests.games.devilsrun.test_flow import _wrecked_buggy
from tests.games.devilsrun.test_missions import _with_stash

from carnage.games.devilsrun.odds import d10_odds, repair_odds, shoot_odds
from carnage.games.devilsrun.pending import option_odds


def test_each_target_of_a_shot_gets_its_damage_and_wreck_odds() -> None:
    # The bike's pistol (RoF 1, BS 7) at 3 squares straight ahead: -2, so BS 5, against the
    # other bike (A1, 5 CP).
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [1, 1, 5, 2])
    play(g, "law-bike", "peddle", "F", "F", "F", "stop", "shoot")
    d = g.pending()
    assert d is not None and d.kind == "shoot_target"
    odds = option_odds(g, d)
    assert set(odds) == {"ha-bike"}  # "hold" rolls nothing
    shot = odds["ha-bike"]
    assert shot == {"what": "shot", "range": 3, **shoot_odds(1, 5, 1, cp=5).to_json()}
    assert shot["exact"]["distribution"] == {"0": "7/12", "1": "1/3", "2": "1/12"}
    assert shot["p_wreck"] == 0  # at most 2 damage against 5 CP
    # nothing was rolled or changed: the same decision is pending, the shot's die still to come
    assert g.vehicle("ha-bike").cp == 5 and g.pending() == d
    play(g, "ha-bike")
    assert g.vehicle("ha-bike").cp == 4  # the scripted 5 hits, the 2 fails the save


def test_the_evade_test_of_a_rammed_vehicle() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 3, 1])
    play(g, "law-buggy", "ram", "ha-trike:0")
    d = g.pending()
    assert d is not None and d.kind == "evade"
    assert option_odds(g, d) == {"evade": {"what": "test", "test": "evade", **d10_odds(5)}}
    assert option_odds(g, d)["evade"]["p_success"] == 0.5  # the trike's E 5


def test_the_stash_pick_up_and_the_repair_roll() -> None:
    g = _with_stash({"ha-bike": (3, 15), "law-bike": (0, 0)}, [1, 1, 8])
    play(g, "ha-bike", "peddle", "F", "F", "F", "stop")
    d = g.pending()
    assert d is not None and d.kind == "second_action"
    pick = option_odds(g, d)["pickup"]
    assert pick["p_success"] == 0.8 and pick["test"] == "stash pick-up"  # E 6 + 2
    g = _wrecked_buggy([6, 2, 6])
    play(g, "law-buggy")
    d = g.pending()
    assert d is not None and [o.value for o in d.options] == ["repair", "pass"]
    assert option_odds(g, d) == {"repair": {"what": "repair", **repair_odds()}}
    g = arranged("devils-run", {"law-bike": (3, 0), "ha-bike": (3, 6)}, [])
    d = g.pending()
    assert d is not None and d.kind == "action" and option_odds(g, d) == {}  # no repair offered
