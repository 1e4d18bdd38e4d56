"""``carnage odds ...``: the JSON answers agree with distributions derived by hand (each one's
arithmetic written out below), the tables print, and bad options are one line on stderr
naming the option."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from carnage.cli.main import app

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})

# One attack die: 1-3 miss, 4-5 one hit, 6 two hits; one evade die saves on a 6.
MISS, HIT, CRIT, SAVE, FAIL = 3 / 6, 2 / 6, 1 / 6, 1 / 6, 5 / 6


def odds_json(*args: str) -> Any:
    r = runner.invoke(app, ["odds", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def close(got: dict[str, float], want: dict[str, float]) -> None:
    assert set(got) == set(want)
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12), k


def test_attack_one_die_no_evade() -> None:
    out = odds_json("attack", "--dice", "1")
    close(out["distribution"], {"0": MISS, "1": HIT, "2": CRIT})
    assert out["expected_damage"] == pytest.approx(1 * HIT + 2 * CRIT)
    close(out["p_at_least"], {"1": HIT + CRIT, "2": CRIT})


def test_attack_two_dice_against_gear_one() -> None:
    h0, h1 = MISS * MISS, 2 * MISS * HIT
    h2, h3, h4 = HIT * HIT + 2 * MISS * CRIT, 2 * HIT * CRIT, CRIT * CRIT
    out = odds_json("attack", "--dice", "2", "--evade-gear", "1")
    want = {"0": h0 + h1 * SAVE, "1": h1 * FAIL + h2 * SAVE, "2": h2 * FAIL + h3 * SAVE,
            "3": h3 * FAIL + h4 * SAVE, "4": h4 * FAIL}
    close(out["distribution"], want)
    assert out["expected_damage"] == pytest.approx(sum(int(k) * p for k, p in want.items()))
    close(out["p_at_least"], {"1": 1 - want["0"], "2": want["2"] + want["3"] + want["4"],
                              "3": want["3"] + want["4"], "4": want["4"]})
    assert out["exact"]["distribution"]["0"] == "11/36"  # 1/4 + 1/3 * 1/6


def test_attack_cover_and_to_hit_bonus() -> None:
    # Cover: only a 5 is a plain hit (1/6), the 6 still two hits.
    close(odds_json("attack", "--dice", "1", "--cover")["distribution"],
          {"0": 4 / 6, "1": 1 / 6, "2": 1 / 6})
    # Cover and +1 to hit cancel out: back to 4+.
    close(odds_json("attack", "--dice", "1", "--cover", "--to-hit-bonus", "1")["distribution"],
          {"0": MISS, "1": HIT, "2": CRIT})
    # Headshot: a 6 is three hits.
    assert odds_json("attack", "--dice", "1", "--crit-hits", "3")["expected_damage"] == \
        pytest.approx(HIT + 3 * CRIT)


def test_skid_two_dice_with_and_without_push_it() -> None:
    # Each die is a Shift on 4-6 (1/2).
    out = odds_json("skid", "--dice", "2")
    close(out["shifts"], {"0": 1 / 4, "1": 1 / 2, "2": 1 / 4})
    close(out["spins"], {"0": (5 / 6) ** 2, "1": 2 * (1 / 6) * (5 / 6), "2": (1 / 6) ** 2})
    # Push It rerolls the non-Shifts: a die ends a Shift with 1/2 + 1/2 * 1/2 = 3/4.
    pushed = odds_json("skid", "--dice", "2", "--push-it")
    close(pushed["shifts"], {"0": (1 / 4) ** 2, "1": 2 * (3 / 4) * (1 / 4), "2": (3 / 4) ** 2})
    assert pushed["p_push"] == pytest.approx(1 - 1 / 4)


def test_skid_wipeout_from_current_hazards() -> None:
    # p.22's truck: 4 Hazards + 1 for the hazardous manoeuvre, two dice: wipes out only on
    # two non-Shifts (1/4); pushing: 1/2 * 1/2 + 1/4 * 3/4.
    out = odds_json("skid", "--dice", "2", "--hazards", "4", "--hazardous")
    assert out["p_wipeout"] == pytest.approx(1 / 4)
    close(out["hazards_after"], {"0": 0, "1": 0, "2": 0, "3": 1 / 4, "4": 0, "5": 1 / 2,
                                 "6": 0, "7": 1 / 4})
    pushed = odds_json("skid", "--dice", "2", "--hazards", "4", "--hazardous", "--push-it")
    assert pushed["p_wipeout"] == pytest.approx(1 / 2 * 1 / 2 + 1 / 4 * 3 / 4)
    # In gear 6 a Wipeout flips on 1-5: 1/4 * 5/6.
    flips = odds_json("skid", "--dice", "2", "--hazards", "4", "--hazardous", "--gear", "6")
    assert flips["p_wipeout_flip"] == pytest.approx(1 / 4 * 5 / 6)
    trivial = odds_json("skid", "--dice", "1", "--trivial")
    close(trivial["shifts"], {"0": 0, "1": 1 / 2, "2": 1 / 2})


def test_flip_and_explode() -> None:
    assert odds_json("flip", "--gear", "4") == {"p_flip": 3 / 6, "flip_hits": 2,
                                                 "exact": {"p_flip": "1/2"}}
    assert odds_json("flip", "--gear", "1")["p_flip"] == 0
    assert odds_json("explode", "--ammo", "0")["p_explode"] == pytest.approx(1 / 6)
    assert odds_json("explode", "--ammo", "3")["p_explode"] == pytest.approx(4 / 6)
    blast = odds_json("explode", "--ammo", "1", "--weight", "light")
    assert blast["explosion_dice"] == 2
    assert blast["attack"]["distribution"]["4"] == pytest.approx(CRIT * CRIT)


def test_smash_head_on_and_evades() -> None:
    # Gear 1 into gear 1, both middleweight: 2 dice each; B evading with its 1 die.
    out = odds_json("smash", "--gear", "1", "--other-gear", "1")
    assert out["a"]["smash_dice"] == out["b"]["smash_dice"] == 2
    close(out["a"]["distribution"], {"0": 1 / 4, "1": 1 / 3, "2": 5 / 18, "3": 1 / 9,
                                     "4": 1 / 36})
    assert out["a"]["hazards"] == 2
    ev = odds_json("smash", "--gear", "1", "--other-gear", "1", "--other-reaction", "evade")
    close(ev["a"]["distribution"], {"0": 1.0})
    assert ev["b"]["distribution"]["0"] == pytest.approx(1 / 4 + 1 / 3 * SAVE)
    # T-bone by a heavyweight gear 2 into a lightweight: 2 + 4 = 6 dice, the buggy's 2 - 2 = 0.
    tb = odds_json("smash", "--gear", "2", "--other-gear", "2", "--orientation", "t_bone",
                   "--weight", "heavy", "--other-weight", "light")
    assert (tb["a"]["smash_dice"], tb["b"]["smash_dice"]) == (6, 0)
    tail = odds_json("smash", "--gear", "2", "--other-gear", "4", "--orientation", "tailgate")
    assert tail["forced_evade"] and tail["a"]["hazards"] == 1
    rock = odds_json("smash", "--gear", "3", "--obstacle", "--other-weight", "heavy")
    assert rock["b"]["smash_dice"] == 3 + 0 + 2 and rock["b"]["hazards"] == 0


@pytest.mark.parametrize("args", [
    ["attack", "--dice", "2", "--evade-gear", "2"],
    ["skid", "--dice", "3", "--push-it", "--hazards", "4", "--gear", "3"],
    ["flip", "--gear", "3"],
    ["explode", "--ammo", "2", "--weight", "heavy", "--evade-gear", "2"],
    ["smash", "--gear", "3", "--other-gear", "2", "--other-reaction", "evade"],
])
def test_tables_print(args: list[str]) -> None:
    r = runner.invoke(app, ["odds", *args])
    assert r.exit_code == 0, r.output
    assert "%" in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["attack", "--dice", "-1"], "--dice must be between 0 and 60, not -1"),
    (["attack", "--dice", "2", "--evade-gear", "9"], "--evade-gear must be between 0 and 6"),
    (["skid", "--dice", "2", "--trivial", "--hazardous"], "either trivial or hazardous"),
    (["flip", "--gear", "7"], "--gear must be between 1 and 6, not 7"),
    (["explode", "--ammo", "1", "--weight", "huge"],
     "--weight must be light, middle, heavy, lightweight, middleweight, heavyweight, 1, 2 or "
     "3, not 'huge'"),
    (["smash", "--gear", "2", "--orientation", "sideways"],
     "--orientation must be head_on, t_bone or tailgate, not 'sideways'"),
    (["smash", "--gear", "2", "--reaction", "ram"], "--reaction must be smash or evade, not 'ram'"),
    (["smash", "--gear", "2", "--front", "c"], "--front must be a or b"),
])
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["odds", *args, "--json"])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert message in r.stderr and r.stderr.count("\n") == 1
