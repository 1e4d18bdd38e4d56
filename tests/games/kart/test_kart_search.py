"""The search bot in a Kart race (``games/kart/search.py``): its items shoot the rival kart
furthest along the race and its own seat starts from the grid place furthest off the centre,
in its answers and in its own rollouts; the other seats are still modelled by Refuelled's
heuristic bot."""

from __future__ import annotations

import random

from carnage.ai.search import SearchBot, adapter_for
from carnage.games.kart.search import KartAdapter
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.game import Game
from carnage.kernel.decisions import Decision, Option
from carnage.rulesets import get_ruleset


def _shots_at_two_rivals(seed: int) -> tuple[Game, Decision, str]:
    """A seeded Kart Street Race played by the heuristic bot up to the first Item Attack in
    which one weapon may shoot either rival kart and the heuristic shoots the one behind:
    the game, the decision and the heuristic's shot."""
    g = get_ruleset("kart").new_game(scenario="street-race", seed=seed)
    assert isinstance(g, Game)
    bot, rng, ad = HeuristicBot(), random.Random(seed), KartAdapter(2)
    while (d := g.pending()) is not None:
        choice = bot.choose(g, d, rng)
        pick = str(choice)
        weapon, _, target = pick.partition(">")
        if d.kind == "attack" and target:
            rivals = [g.state.vehicles[str(o.value).partition(">")[2]] for o in d.options
                      if str(o.value).startswith(weapon + ">")]
            rivals = [v for v in rivals if v.player != d.player]
            ahead = max(rivals, key=lambda v: ad._progress(g, v))
            if len(rivals) == 2 and ahead.id != target:
                return g, d, pick
        g.apply(choice)
    raise AssertionError("no such Item Attack in the game")


def test_the_kart_variant_declares_its_own_adapter() -> None:
    g = get_ruleset("kart").new_game(scenario="street-race", seed=1)
    assert type(adapter_for(g)) is KartAdapter
    assert type(SearchBot("normal").adapter(g)) is KartAdapter


def test_the_bot_shoots_the_rival_kart_furthest_along() -> None:
    # Seed 0: Red's crew handgun may shoot Blue's Kart or Blue's Racer, well ahead of it;
    # the heuristic bot shoots the Kart (the first listed of two one-die shots).
    game, d, heuristic = _shots_at_two_rivals(0)
    assert heuristic.endswith(">p2-blue-kart")
    bot = SearchBot("normal", seconds=None, seed=0)
    chosen = bot.choose(game, d, random.Random(0))
    assert chosen == heuristic.replace("p2-blue-kart", "p2-blue-racer")
    # Its own rollouts shoot the same way; the other seat's are the heuristic's.
    ad = KartAdapter(2)
    ad.me = d.player
    assert ad.policy(game, d, random.Random(0)) == chosen
    ad.me = 1 - d.player
    assert ad.policy(game, d, random.Random(0)) == heuristic


def test_a_shot_no_weapon_can_turn_is_left_as_it_is() -> None:
    game, d, _ = _shots_at_two_rivals(0)
    ad = KartAdapter(2)
    assert ad.leader_shot(game, d, "stop") == "stop"
    # A weapon with no shot at the leader keeps the heuristic's target.
    assert ad.leader_shot(game, d, "no_such_weapon>p2-blue-kart") == "no_such_weapon>p2-blue-kart"


def test_its_own_rollouts_drive_for_gear_4_not_refuelleds_5() -> None:
    # Seed 0: the first Shift where the heuristic bot aiming for gear 5 would gear up a kart
    # already in gear 4 and the plain one (gear 4) would not. Refuelled's adapter plays the
    # bot's own seat aiming for gear 5; in karts it aims for 4, as the heuristic bot does.
    g = get_ruleset("kart").new_game(scenario="street-race", seed=0)
    bot, rng = HeuristicBot(), random.Random(0)
    four, five = HeuristicBot(desired_gear=4), HeuristicBot(desired_gear=5)
    while (d := g.pending()) is not None:
        if d.kind == "spend_shift" and five.choose(g, d, random.Random(0)) == "gear_up" != (
                four.choose(g, d, random.Random(0))):
            break
        g.apply(bot.choose(g, d, rng))
    assert d is not None
    assert g.state.vehicles[d.vehicle or ""].gear == 4
    ad = KartAdapter(2)
    ad.me = d.player
    assert ad.policy(g, d, random.Random(0)) == four.choose(g, d, random.Random(0))
    assert ad.policy(g, d, random.Random(0)) != "gear_up"


def test_the_hard_level_values_its_rollouts_after_40_decisions_in_karts() -> None:
    # A Kart race's outcomes are too noisy to choose by, so its hard level's rollouts stop
    # after 40 decisions and are valued as a position (the normal level's horizon), with the
    # hard level's own flat search (no tree, 5 candidates) and the bar corrected for the
    # candidates tested; Refuelled's race searches as its normal level does, with the same
    # bar. The other levels are the same.
    kart = get_ruleset("kart").new_game(scenario="street-race", seed=2)
    refuelled = get_ruleset("refuelled").new_game(scenario="street-race", seed=2)
    hard = SearchBot("hard", seconds=None, seed=2)
    lv = hard.budget(hard.adapter(kart), kart)
    assert (lv.horizon, lv.depth, lv.candidates, lv.corrected) == (40, 0, 5, True)
    lv = hard.budget(hard.adapter(refuelled), refuelled)
    assert (lv.horizon, lv.depth, lv.candidates, lv.corrected) == (40, 1, 6, True)
    # A Kart Death Race is not a race: the objective scenarios' hard level, the plain bar.
    death = get_ruleset("kart").new_game(scenario="death-race", seed=2)
    lv = hard.budget(hard.adapter(death), death)
    assert (lv.horizon, lv.depth, lv.candidates, lv.corrected) == (40, 0, 5, False)
    for level in ("easy", "normal"):
        bot = SearchBot(level, seconds=None)
        assert bot.budget(bot.adapter(kart), kart) == bot.budget(bot.adapter(refuelled),
                                                               refuelled)
    # The first decision whose search spends its 48 simulations (round 1, far from the
    # finish): no playout ends the race.
    rng = random.Random(2)
    while (d := kart.pending()) is not None:
        kart.apply(hard.choose(kart, d, rng))
        e = hard.last
        if e is not None and len(e.candidates) > 1 and e.iterations == 48:
            break
    assert e is not None and e.iterations == 48 and kart.state.round == 1
    assert all(c.ended == 0 for c in e.candidates)
    assert "scored" in e.reason()


def _first_grid(seed: int) -> tuple[Game, Decision]:
    """A seeded Kart Street Race played by the heuristic bot up to its first grid place."""
    g = get_ruleset("kart").new_game(scenario="street-race", seed=seed)
    assert isinstance(g, Game)
    bot, rng = HeuristicBot(), random.Random(seed)
    while (d := g.pending()) is not None and d.kind != "grid":
        g.apply(bot.choose(g, d, rng))
    assert d is not None, "no grid place to choose in the Kart Street Race"
    return g, d


def test_in_a_race_its_own_seat_takes_the_grid_place_furthest_off_the_centre() -> None:
    # Seed 5: the first grid place offers -75 to +75 mm in steps of 15. The heuristic bot
    # takes the centre; the search's own seat the first of the two furthest off it, in its
    # answers (a grid place is answered by the policy at once) and in its rollouts.
    g, d = _first_grid(5)
    values = [str(o.value) for o in d.options]
    assert values[0] == "-75" and values[-1] == "+75" and "+0" in values
    assert HeuristicBot().choose(g, d, random.Random(0)) == "+0"
    ad = KartAdapter(2)
    ad.me = d.player
    assert ad.policy(g, d, random.Random(0)) == "-75"
    ad.me = 1 - d.player  # another seat is modelled by the heuristic bot
    assert ad.policy(g, d, random.Random(0)) == "+0"
    hard = SearchBot("hard", seconds=None, seed=5)
    assert hard.choose(g, d, random.Random(0)) == "-75"
    # Without the rule its own seat takes the heuristic's place.
    plain = KartAdapter(2)
    plain.me = d.player
    plain.FAR_GRID = False
    assert plain.policy(g, d, random.Random(0)) == "+0"


def test_a_grid_place_that_is_not_an_offset_is_left_to_the_pick() -> None:
    _, d = _first_grid(5)
    assert KartAdapter.grid_pick(d, "+0") == "-75"
    odd = Decision(kind="grid", player=0, prompt="Where?",
                   options=(Option("left", "left"), Option("right", "right")))
    assert KartAdapter.grid_pick(odd, "right") == "right"
    mixed = Decision(kind="grid", player=0, prompt="Where?",
                     options=(Option("left", "left"), Option("+30", "+30"), Option("-45", "-45")))
    assert KartAdapter.grid_pick(mixed, "left") == "-45"
