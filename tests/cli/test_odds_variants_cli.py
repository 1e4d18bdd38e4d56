"""``carnage odds devilsrun ...`` and ``carnage odds kart ...``: JSON answers derived by hand,
the tables print, bad options are one line on stderr with exit 2."""

from __future__ import annotations

import pytest
from tests.cli.test_odds_cli import close, odds_json, runner

from carnage.cli.main import app


def test_devilsrun_d10_test() -> None:
    assert odds_json("devilsrun", "test", "--target", "6")["p_success"] == pytest.approx(0.6)
    assert odds_json("devilsrun", "test", "--target", "11")["p_success"] == 1.0


def test_devilsrun_shot_with_a_grid_modifier_and_armour() -> None:
    # A bike's pistol (RoF 1, BS 7) at -2: BS 5. 1: a critical; 2-5: a hit; 6-10: a miss.
    # Armour 1 saves on a 1 (1/6): damage 1 = 4/10 * 5/6, damage 2 = 1/10 * 5/6.
    out = odds_json("devilsrun", "shoot", "--rof", "1", "--bs", "7", "--modifier", "-2",
                    "--armour", "1", "--cp", "2")
    close(out["distribution"], {"0": 1 - 4 / 12 - 1 / 12, "1": 4 / 12, "2": 1 / 12})
    close(out["hits"], {"0": 0.5, "1": 0.5})
    close(out["criticals"], {"0": 0.9, "1": 0.1})
    assert out["bs"] == 5 and out["saves"] is True
    assert out["p_wreck"] == pytest.approx(1 / 12)
    assert out["exact"]["distribution"] == {"0": "7/12", "1": "1/3", "2": "1/12"}


def test_devilsrun_flamer_loses_dice_with_range_and_allows_no_saves() -> None:
    # RoF 3 at range 3: one die, BS 7: 1 a critical (2), 2-7 a hit, 8-10 a miss.
    out = odds_json("devilsrun", "shoot", "--rof", "3", "--bs", "7", "--armour", "6",
                    "--flamer", "--range", "3")
    close(out["distribution"], {"0": 0.3, "1": 0.6, "2": 0.1})
    assert (out["dice"], out["saves"]) == (1, False)


def test_devilsrun_offensive_and_repair() -> None:
    out = odds_json("devilsrun", "offensive", "--attacker", "3", "--defender", "2")
    close(out["target"]["distribution"], {"0": 3 / 9, "1": 3 / 9, "2": 2 / 9, "3": 1 / 9})
    close(out["attacker"]["distribution"], {"0": 8 / 9, "1": 1 / 9})
    brakes = odds_json("devilsrun", "offensive", "--attacker", "0", "--defender", "0",
                       "--action", "ram_on_the_brakes")
    close(brakes["target"]["distribution"], {"0": 0, "1": 1 / 3, "2": 1 / 3, "3": 1 / 3})
    rep = odds_json("devilsrun", "repair")
    assert rep["p_repaired"] == pytest.approx(16 / 216)
    assert rep["exact"]["chassis_points"]["3"] == "1/216"


def test_kart_attack_gives_hazards() -> None:
    # One die, no evade: 1/2 none, 1/3 one, 1/6 two; from 4 Hazards a Wipeout needs two.
    out = odds_json("kart", "attack", "--dice", "1", "--hazards", "4")
    close(out["distribution"], {"0": 1 / 2, "1": 1 / 3, "2": 1 / 6})
    assert out["p_wipeout"] == pytest.approx(1 / 6)
    assert out["exact"]["p_wipeout"] == "1/6"


def test_kart_smash_both_evade_and_a_t_bone() -> None:
    both = odds_json("kart", "smash", "--gear", "3", "--other-gear", "2", "--reaction",
                     "evade", "--other-reaction", "evade")
    close(both["a"]["distribution"], {"0": 0, "1": 1})
    assert both["a"]["flat_hazards"] == 1
    # A car (middle) in gear 5 T-bones a buggy (light): 6 dice; the buggy smashes back with
    # 1 (gear 2 - 1).
    tb = odds_json("kart", "smash", "--gear", "5", "--other-gear", "2", "--orientation",
                   "sideswipe", "--other-weight", "light", "--other-hazards", "5")
    assert (tb["orientation"], tb["a"]["smash_dice"], tb["b"]["smash_dice"]) == ("t_bone", 6, 1)
    assert tb["b"]["p_wipeout"] == 1.0  # 5 + the flat Hazard


def test_kart_wipeout_facings() -> None:
    out = odds_json("kart", "wipeout")
    assert len(out["headings"]) == 36 and out["exact"]["150"] == "1/36"


@pytest.mark.parametrize("args", [
    ["devilsrun", "test", "--target", "4"],
    ["devilsrun", "shoot", "--rof", "3", "--bs", "6", "--armour", "2", "--cp", "4"],
    ["devilsrun", "offensive", "--attacker", "4", "--defender", "2", "--action", "t_bone"],
    ["devilsrun", "repair"],
    ["kart", "attack", "--dice", "2", "--evade-gear", "2", "--hazards", "3"],
    ["kart", "smash", "--gear", "3", "--obstacle"],
    ["kart", "wipeout"],
])
def test_tables_print(args: list[str]) -> None:
    r = runner.invoke(app, ["odds", *args])
    assert r.exit_code == 0, r.output
    assert "%" in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["devilsrun", "shoot", "--rof", "-1", "--bs", "5"], "--rof must be between 0 and 30"),
    (["devilsrun", "shoot", "--rof", "1", "--bs", "5", "--armour", "9"],
     "--armour must be between 0 and 6, not 9"),
    (["devilsrun", "offensive", "--attacker", "1", "--defender", "1", "--action", "jump"],
     "--action must be ram, t_bone, side_swipe or ram_on_the_brakes, not 'jump'"),
    (["kart", "attack", "--dice", "1", "--hazards", "-2"], "--hazards must be between 0 and 99"),
    (["kart", "smash", "--gear", "2", "--orientation", "sideways"],
     "--orientation must be head_on, t_bone, tailgate or sideswipe, not 'sideways'"),
    (["kart", "smash", "--gear", "2", "--weight", "huge"], "--weight must be light, middle, heavy"),
    (["kart", "smash", "--gear", "2", "--reaction", "ram"],
     "--reaction must be smash or evade, not 'ram'"),
])
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["odds", *args, "--json"])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert message in r.stderr and r.stderr.count("\n") == 1
