"""Horror perks (Refuelled p.108), each with and without the perk."""

from __future__ import annotations

from tests.builders import activate, attack, drive, ev, perked, run_step, table, vehicle

from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, ask
from carnage.games.refuelled.engine.state import Obstacle, Status
from carnage.games.refuelled.engine.votes import respawn


def test_purifying_flames_burns_itself_to_repair_a_friend() -> None:
    def play(perks: tuple[str, ...], **answers: object) -> tuple[int, int, bool]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        f = vehicle("f", "car", 800, 300)
        f.damage = 3
        g = run_step(table(v, f, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
        assert drive(g, template="short_straight", **answers) is None
        return v.damage, f.damage, "on_fire" in v.conditions

    assert play(("purifying_flames",), purifying_flames="f",
                purifying_flames_damage=2) == (2, 1, True)
    assert play(("purifying_flames",), purifying_flames="no") == (0, 3, False)
    assert play(()) == (0, 3, False)


def test_purifying_flames_never_repairs_above_the_hull_value() -> None:
    v = perked(vehicle("v", "car", 600, 300), "purifying_flames")
    f = vehicle("f", "car", 800, 300)
    f.damage = 1
    g = run_step(table(v, f, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
    assert drive(g, template="short_straight", purifying_flames="f") is None
    # Only one point was missing: 1 was the only amount, taken without asking.
    assert ev(g, "forced_choice", decision="purifying_flames_damage")[0]["choice"] == 1
    assert (v.damage, f.damage) == (1, 0)


def test_ecstatic_visions_takes_hazards_from_friends() -> None:
    def play(perks: tuple[str, ...], picks: list[str]) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        f = vehicle("f", "car", 800, 300, hazards=2)
        g = run_step(table(v, f, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
        assert drive(g, template="short_straight", ecstatic_visions=picks) is None
        return v.hazards, f.hazards

    assert play(("ecstatic_visions",), ["f", "f"]) == (2, 0)  # f calm: no third question
    assert play(("ecstatic_visions",), ["f", "no"]) == (1, 1)
    assert play((), []) == (0, 2)


def test_sympathy_for_the_devil_shares_the_evade_and_the_damage() -> None:
    def play(perks: tuple[str, ...], pick: str | None, dice: list[int]) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 400, gear=1), *perks)
        f = vehicle("f", "car", 700, 400, gear=3)
        e = vehicle("e", "car", 600, 300, player=1)
        g = run_step(table(v, f, e), attack("e"), dice)
        answers: dict[str, object] = {"attack": ["handgun>v", "handgun>v"]}
        if pick is not None:
            answers["sympathy_for_the_devil"] = pick
        assert drive(g, **answers) is None
        return v.damage, f.damage

    # Two Handguns roll 6, 6: four hits. Evading with gear 1 + 3 = 4 dice: 6, 1, 1, 1.
    assert play(("sympathy_for_the_devil",), "f", [6, 6, 6, 1, 1, 1]) == (3, 3)
    # Alone, one die (gear 1): 6 cancels one; nobody else is hurt.
    assert play((), None, [6, 6, 6]) == (3, 0)
    assert play(("sympathy_for_the_devil",), "no", [6, 6, 1]) == (4, 0)


def test_highway_to_hell_leaves_napalm_on_the_road_until_its_next_activation() -> None:
    def twice(g: Game) -> Flow:
        g.state.gear_phase = 1
        yield from activation(g, g.state.vehicles["v"])
        yield ask(0, "pause", "between activations", [("on", "go on"), ("stop", "-")])
        g.state.gear_phase = 2
        yield from activation(g, g.state.vehicles["v"])

    v = perked(vehicle("v", "car", 600, 300, gear=2), "highway_to_hell")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), twice)
    d = drive(g, template=["medium_straight"], highway_to_hell="yes",
              highway_to_hell_napalm="yes")
    assert d is not None and d.kind == "pause"
    assert v.damage == 2 and "on_fire" in v.conditions
    [napalm] = g.state.dropped.values()
    assert napalm.kind == "napalm_dropper" and napalm.template == "medium"
    # Laid where the Medium Straight was: from the car's old front edge, northwards.
    assert (napalm.pose.x, napalm.pose.y, napalm.pose.heading) == (600, 330, 90)
    g.apply("on")  # its next activation starts: the template goes
    assert not g.state.dropped


def test_highway_to_hell_needs_a_straight() -> None:
    v = perked(vehicle("v", "car", 600, 300, gear=2), "highway_to_hell")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
    assert drive(g, template="turn") is None
    assert v.damage == 0 and not ev(g, "decision", decision="highway_to_hell")


def test_violent_manifestation_blasts_everything_near_when_respawned() -> None:
    def play(perks: tuple[str, ...]) -> tuple[int, int, bool]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        v.status, v.damage = Status.WRECKED, v.hull
        n = vehicle("n", "car", 700, 300, player=1)
        st = table(v, n)
        st.obstacles["wreck:v"] = Obstacle("wreck:v", v.pose, v.length, v.width,
                                           destructible=True, wreck_of="v")

        def step(g: Game) -> Flow:
            yield from respawn(g, g.state.vehicles["v"], 0, source="respawn", page=90)

        # Four dice (a car): 6, 6, 4, 1 -> five hits; the evade (gear 1) rolls 1.
        g = run_step(st, step, [6, 6, 4, 1, 1])
        assert drive(g) is None
        return n.damage, n.hazards, "on_fire" in n.conditions

    assert play(("violent_manifestation",)) == (5, 5, True)  # Blast: a Hazard per hit
    assert play(()) == (0, 0, False)


def test_angel_of_death_pays_hull_for_attack_dice() -> None:
    def play(perks: tuple[str, ...], answer: int | None) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        t = vehicle("t", "car", 600, 400, player=1)
        g = run_step(table(v, t), attack("v"), [4, 4, 4, 1])
        answers: dict[str, object] = {"attack": ["handgun>t", "stop"]}
        if answer is not None:
            answers["angel_of_death"] = answer
        assert drive(g, **answers) is None
        return v.damage, int(str(ev(g, "attack_hits", vehicle="v")[0]["hits"]))

    assert play(("angel_of_death",), 2) == (2, 3)  # three dice, all hit
    assert play(("angel_of_death",), 0) == (0, 1)
    assert play((), None) == (0, 1)
