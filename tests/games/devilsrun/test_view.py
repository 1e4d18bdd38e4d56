"""The JSON view clients draw from."""

from __future__ import annotations

import json
import random

from tests.games.devilsrun.helpers import arranged, play

from carnage.games.devilsrun.bots import bot
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.view import game_view


def test_view_carries_board_vehicles_and_the_pending_decision() -> None:
    g = arranged("hell-on-wheels", {"law-car": (3, 6), "ha-bike": (1, 12)}, [1])
    play(g, "law-car", "peddle")
    v = game_view(g)
    assert [t["name"] for t in v["board"]["tiles"]] == ["1", "2", "3"]
    assert v["board"]["tiles"][0]["impassable"] == [[7, 1]]
    car = next(x for x in v["vehicles"] if x["id"] == "law-car")
    assert car["squares"] == [[3, 6], [3, 5]] and (car["cp"], car["a"], car["e"]) == (9, 2, 3)
    assert v["pending"]["kind"] == "step" and v["pending"]["vehicle"] == "law-car"
    assert v["active"] == {"vehicle": "law-car", "action": "peddle", "allowance": 3, "spent": 0}
    assert {a["mount"] for a in v["arcs"]} == {"pistol#0", "pistol#1"}
    assert v["dice"][-1] == {"dice": "1D3", "results": [1], "why": "movement", "source": "DR-070"}


def test_view_is_json_at_every_decision_of_a_game() -> None:
    g = DEVILS_RUN.new_game("devils-run", seed=4)
    rng = random.Random(4)
    h = bot("heuristic")
    while (d := g.pending()) is not None:
        doc = game_view(g)
        assert json.loads(json.dumps(doc)) == doc
        assert doc["pending"]["player"] == d.player
        g.apply(h(g, d, rng))
    assert game_view(g)["outcome"] is not None


def test_explain_names_the_rule_or_our_ruling_in_words() -> None:
    from carnage.games.devilsrun.view import explain

    assert explain("DR-083") == ("Immovable objects (Devil's Run rules): Against an immovable "
                                 "object the vehicle beside it is destroyed; the others take 2 "
                                 "more.")
    assert explain("DR-078").startswith("Side Swipe (Devil's Run rules): Armour + chassis")
    assert explain("DRR-31").startswith("When Disengage starts (our ruling): ")
    from carnage.games.devilsrun.view import rule_label

    assert rule_label("DR-078") == "Side Swipe"
    assert rule_label("DRR-10") == "BRAKE! (our ruling)"
    assert rule_label("core") == "core"  # not one of ours: as it is
    assert explain("core") == "core: not a Devil's Run rule id"
