"""The Devil's Run and Kart odds over HTTP (``/api/odds/devilsrun/...``,
``/api/odds/kart/...``): the same answers as the analysis functions, one-sentence 422s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.test_api_support import TestClient, new_client
from tests.web.test_odds_api import get

from carnage.games.devilsrun.odds import offensive_odds, repair_odds, shoot_odds
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds, wipeout_facings
from carnage.games.refuelled.odds import Side


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def test_devilsrun_queries(client: TestClient) -> None:
    assert get(client, "/api/odds/devilsrun/test", target=3)["p_success"] == pytest.approx(0.3)
    shot = get(client, "/api/odds/devilsrun/shoot", rof=1, bs=7, modifier=-2, armour=1, cp=2)
    assert shot == shoot_odds(1, 5, 1, cp=2).to_json()
    assert shot["exact"]["distribution"] == {"0": "7/12", "1": "1/3", "2": "1/12"}
    flame = get(client, "/api/odds/devilsrun/shoot", rof=3, bs=7, flamer="true", range=2)
    assert flame["dice"] == 2 and flame["saves"] is False
    ram = get(client, "/api/odds/devilsrun/offensive", attacker=3, defender=2)
    assert ram == offensive_odds("ram", 3, 2).to_json()
    assert get(client, "/api/odds/devilsrun/repair") == repair_odds()


def test_kart_queries(client: TestClient) -> None:
    out = get(client, "/api/odds/kart/attack", dice=1, hazards=4)
    assert out == kart_attack_odds(1, hazards=4).to_json()
    assert out["p_wipeout"] == pytest.approx(1 / 6)
    smash = get(client, "/api/odds/kart/smash", gear=5, other_gear=2, orientation="t_bone",
                other_weight="light", other_reaction="evade")
    assert smash == kart_smash_odds("t_bone", Side(5, 2), Side(2, 1, "evade")).to_json()
    assert smash["a"]["smash_dice"] == 6
    wall = get(client, "/api/odds/kart/smash", gear=3, obstacle="true")
    assert wall["b"]["smash_dice"] == 4 and "p_wipeout" not in wall["b"]
    assert get(client, "/api/odds/kart/wipeout") == wipeout_facings()


@pytest.mark.parametrize(("path", "params", "message"), [
    ("/api/odds/devilsrun/shoot", {"bs": 5}, "query.rof: missing (required)"),
    ("/api/odds/devilsrun/shoot", {"rof": 2, "bs": 5, "armour": 7},
     "query.armour: input should be less than or equal to 6"),
    ("/api/odds/devilsrun/offensive", {"attacker": 1, "defender": 1, "action": "jump"},
     "query.action: input should be 'ram', 't_bone', 'side_swipe' or 'ram_on_the_brakes'"),
    ("/api/odds/kart/smash", {"gear": 2, "orientation": "sideways"}, "query.orientation"),
    ("/api/odds/kart/smash", {"gear": 2, "front": "c"}, "query.front: input should be 'a' or"),
    ("/api/odds/kart/attack", {"dice": 1, "hazards": -1},
     "query.hazards: input should be greater than or equal to 0"),
])
def test_bad_queries_are_422_with_one_sentence(client: TestClient, path: str,
                                               params: dict[str, Any], message: str) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 422
    assert message in r.json()["detail"]
