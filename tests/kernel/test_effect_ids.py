"""Effect ids: built from their parts, read back from the text the journal and the log hold."""

from __future__ import annotations

import pytest

import carnage
from carnage.games.refuelled.engine.game import effect_label
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.rules import RULE_KEY


def test_an_effect_id_prints_the_colon_form_and_reads_back() -> None:
    cases = {
        EffectId("perk", "evasive", "p1-car"): "perk:evasive:p1-car",
        EffectId("vehicle_rule", "full_throttle", "car1"): "vehicle_rule:full_throttle:car1",
        EffectId("ruleset", "kart"): "ruleset:kart",
        EffectId("sponsor", "rutherford", "0").part("military_surplus"):
            "sponsor:rutherford:0:military_surplus",
        EffectId("perk", "rapid_fire", "car1").part("only"): "perk:rapid_fire:car1:only",
    }
    for eid, text in cases.items():
        assert str(eid) == text
        assert EffectId.parse(text) == eid
    nested = EffectId("sponsor", "x", "0", "a").part("b")
    assert str(nested) == "sponsor:x:0:a:b" and EffectId.parse(str(nested)) == nested
    back = EffectId.parse("sponsor:rutherford:1")
    assert (back.kind, back.name, back.subject, back.detail) == ("sponsor", "rutherford", "1",
                                                                   None)


def test_a_text_that_is_no_effect_id_is_refused_naming_it() -> None:
    for bad in ("perks@flip", "perk:", ":x", "perk::car1", ""):
        with pytest.raises(ValueError, match="not an effect id"):
            EffectId.parse(bad)
        assert EffectId.read(bad) is None
    with pytest.raises(ValueError, match="name 'a:b' must be a non-empty string without ':'"):
        EffectId("perk", "a:b", "car1")
    with pytest.raises(ValueError, match="a detail needs a subject"):
        EffectId("perk", "x", None, "only")
    with pytest.raises(ValueError, match="subject ''"):
        EffectId("perk", "x", "")


def test_installed_rules_keep_their_ids_and_labels() -> None:
    g = carnage.new_game(seed=1)
    journal = [str(e[-1]) for e in g.state.installed if e[0] == RULE_KEY]
    assert "weapon:machine_gun:p1-red-car" in journal  # the text saved games have always held
    rule_ids = [EffectId.parse(t) for t in journal]
    assert rule_ids and all(e.subject in g.state.vehicles for e in rule_ids)
    car = next(iter(g.state.vehicles.values()))
    weapon = car.weapons[0].weapon
    label = effect_label(g, str(EffectId("weapon", weapon, car.id)))
    assert label == f"{g.catalog.weapons.get(weapon).name} ({car.name})"
    assert effect_label(g, "perks@flip") == "perks@flip"


def test_an_installer_registered_with_its_id_gets_the_parts_not_the_text() -> None:
    from carnage.kernel.rules import RuleTable

    seen: list[EffectId] = []

    def install(game: object, vehicle: object, eid: EffectId) -> None:
        seen.append(eid)

    table = RuleTable()
    table.rule_with_id("sponsor", "x")(install)
    table.rule_with_id("sponsor", "y")(install)
    table.rule_with_id("sponsor", "x")(install)  # the same installer again: no conflict
    run = table.get("sponsor", "x")
    assert run is not None and run is table.get("sponsor", "y")
    run(None, None, "sponsor:x:1:military_surplus")
    assert seen == [EffectId("sponsor", "x", "1", "military_surplus")]
    with pytest.raises(ValueError, match="not an effect id: 'sponsor'"):
        run(None, None, "sponsor")
    with pytest.raises(ValueError, match="registered twice"):
        table.rule("sponsor", "x")(lambda game, vehicle, source: None)
