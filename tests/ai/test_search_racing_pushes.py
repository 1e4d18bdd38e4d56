"""The search bot's own rollouts in a race (``RefuelledAdapter.push_pick``, Refuelled's, the
Kart variant's and Legacy's Street Race): it Pushes It whenever two or more of its skid dice
came up other than a Shift, where the heuristic bot keeps them when the reroll could reach a
wipeout; and in a Kart race it spends a Shift on a gear up only with at most one Hazard
(``KartAdapter.shift_pick``). The other seats are still modelled by the heuristic bot, and
outside a race its own seat too."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from carnage.games.kart.search import KartAdapter
from carnage.games.refuelled.ai.bots import HeuristicBot, _last_event_data
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.games.refuelled.engine.game import Game
from carnage.kernel.decisions import Decision
from carnage.rulesets import get_ruleset

Found = Callable[[Game, Decision], bool]


def _first(ruleset: str, scenario: str, found: Found, seeds: range = range(40)
           ) -> tuple[Game, Decision]:
    """The first decision, over games played by the heuristic bot from ``seeds``, that
    ``found`` picks: its game (at that decision) and the decision."""
    for seed in seeds:
        g = get_ruleset(ruleset).new_game(scenario=scenario, seed=seed)
        assert isinstance(g, Game)
        bot, rng = HeuristicBot(), random.Random(seed)
        while (d := g.pending()) is not None:
            if found(g, d):
                return g, d
            g.apply(bot.choose(g, d, rng))
    raise AssertionError(f"no such decision in {ruleset} {scenario}")


def _faces(g: Game, d: Decision) -> list[str]:
    skid = _last_event_data(g, "skid", d.vehicle or "")
    assert skid is not None and isinstance(skid["faces"], list)
    return [str(f) for f in skid["faces"]]


def _heuristic(g: Game, d: Decision) -> object:
    return HeuristicBot().choose(g, d, random.Random(0))


def _declined_risky_push(g: Game, d: Decision) -> bool:
    """A Push It the heuristic bot declines with two or more dice not a Shift."""
    if d.kind != "push_it":
        return False
    bad = [f for f in _faces(g, d) if f != "shift"]
    return len(bad) >= 2 and _heuristic(g, d) == "no"


def _adapter(cls: type[RefuelledAdapter], me: int) -> RefuelledAdapter:
    ad = cls(2)
    ad.me = me
    return ad


@pytest.mark.parametrize("ruleset", ["refuelled", "kart", "legacy"])
def test_in_a_race_its_own_rollouts_push_the_dice_the_heuristic_keeps(ruleset: str) -> None:
    g, d = _first(ruleset, "street-race", _declined_risky_push)
    cls = KartAdapter if ruleset == "kart" else RefuelledAdapter
    bad = ",".join(str(i) for i, f in enumerate(_faces(g, d)) if f != "shift")
    v = g.state.vehicles[d.vehicle or ""]
    # The heuristic declined because the Hazard of the reroll and those dice could wipe out.
    assert v.hazards + 1 + bad.count(",") + 1 > 5
    assert _adapter(cls, d.player).policy(g, d, random.Random(0)) == bad
    # The other seat's rollouts are the heuristic bot's.
    assert _adapter(cls, 1 - d.player).policy(g, d, random.Random(0)) == "no"


def test_one_die_not_a_shift_is_kept() -> None:
    def one_bad(g: Game, d: Decision) -> bool:
        return d.kind == "push_it" and sum(f != "shift" for f in _faces(g, d)) == 1

    g, d = _first("refuelled", "street-race", one_bad)
    assert _adapter(RefuelledAdapter, d.player).push_pick(g, d) == "no"


def test_a_push_the_heuristic_would_make_is_the_same() -> None:
    def pushed(g: Game, d: Decision) -> bool:
        return d.kind == "push_it" and _heuristic(g, d) != "no"

    g, d = _first("refuelled", "street-race", pushed)
    assert _adapter(RefuelledAdapter, d.player).push_pick(g, d) == _heuristic(g, d)


def test_outside_a_race_its_own_seat_is_the_heuristic_bots() -> None:
    g, d = _first("refuelled", "arena-of-death", _declined_risky_push)
    ad = _adapter(RefuelledAdapter, d.player)
    assert not ad.racing(g)
    assert ad.policy(g, d, random.Random(0)) == "no"
    assert ad.push_pick(g, d) != "no"  # what it would push in a race


def _gear_up_on_hazards(g: Game, d: Decision) -> bool:
    """A Shift the heuristic bot spends on a gear up with two Hazards, where it could
    discard one."""
    v = g.state.vehicles.get(g.state.active or "")
    values = {str(o.value) for o in d.options}
    return (d.kind == "spend_shift" and v is not None and v.hazards == 2
            and "discard_hazard" in values and _heuristic(g, d) == "gear_up")


def test_in_a_kart_race_a_shift_discards_a_hazard_before_gearing_up_on_two() -> None:
    g, d = _first("kart", "street-race", _gear_up_on_hazards)
    assert _adapter(KartAdapter, d.player).policy(g, d, random.Random(0)) == "discard_hazard"
    assert _adapter(KartAdapter, 1 - d.player).policy(g, d, random.Random(0)) == "gear_up"
    # Refuelled's adapter keeps the heuristic bot's Shifts.
    assert _adapter(RefuelledAdapter, d.player).policy(g, d, random.Random(0)) == "gear_up"


def test_in_a_kart_race_a_shift_still_gears_up_on_one_hazard() -> None:
    def gear_up_on_one(g: Game, d: Decision) -> bool:
        v = g.state.vehicles.get(g.state.active or "")
        return (d.kind == "spend_shift" and v is not None and v.hazards == 1
                and _heuristic(g, d) == "gear_up")

    g, d = _first("kart", "street-race", gear_up_on_one)
    assert _adapter(KartAdapter, d.player).policy(g, d, random.Random(0)) == "gear_up"
