"""Round, gear phases and activations (Refuelled pp.19-20), as generator flows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carnage.engine.effects import run_flows
from carnage.engine.game import ask

if TYPE_CHECKING:
    from carnage.engine.game import Flow, Game
    from carnage.engine.state import VehicleState


def game_flow(g: Game) -> Flow:
    yield from g.scenario.setup(g)
    g.emit("game_start", source="scenario", scenario=g.scenario.id, players=g.state.players)
    g.scenario.check_end(g)
    while not g.state.finished:
        st = g.state
        if st.round >= g.options.max_rounds:
            g.finish(None, f"no result after {st.round} rounds", draw=True)
            break
        st.round += 1
        g.emit("round_start", page=19, round=st.round, pole=st.pole)
        for v in st.vehicles.values():
            v.activated_phases.clear()
        g.effects.run_event("round_start", None, {"game": g})
        for phase in range(1, 7):
            yield from gear_phase(g, phase)
            if g.state.finished:
                break
            g.scenario.end_of_gear_phase(g)
        g.emit("round_end", page=19, round=st.round)


def qualifying(g: Game, player: int, phase: int) -> list[VehicleState]:
    """Vehicles of ``player`` that may activate now: gear >= phase, not yet activated in this
    phase. Checked when the player gets the chance, not at the phase start (p.20)."""
    return [
        v
        for v in g.state.vehicles_of(player)
        if v.gear >= phase and phase not in v.activated_phases
    ]


def gear_phase(g: Game, phase: int) -> Flow:
    st = g.state
    st.gear_phase = phase
    g.emit("gear_phase", page=19, round=st.round, phase=phase, pole=st.pole)
    player = st.pole
    passes = 0
    while passes < st.players and not st.finished:
        ready = qualifying(g, player, phase)
        if not ready:
            g.emit("pass", page=19, player=player, phase=phase)
            passes += 1
        else:
            passes = 0
            vid = yield ask(
                player, "activate", f"Gear phase {phase}: choose a vehicle to activate",
                [(v.id, v.name) for v in ready], page=20,
            )
            yield from activation(g, st.vehicles[str(vid)])
        player = (player + 1) % st.players


def activation(g: Game, v: VehicleState) -> Flow:
    from carnage.engine.attack import attack_step
    from carnage.engine.movement import movement_step
    from carnage.engine.wipeout import wipeout_step

    st = g.state
    st.active = v.id
    v.activated_phases.add(st.gear_phase)
    g.emit("activation", page=20, vehicle=v.id, player=v.player, phase=st.gear_phase)
    # Flow hooks (issue 6, docs/events.md): rules acting as the activation or a step starts
    # or ends. An ``activation_start`` flow returning True skips the Movement Step.
    ctx = {"game": g, "vehicle": v}
    st.step = "movement"
    skip = yield from run_flows(g, "activation_start", ctx)
    if not skip and v.in_play and not st.finished:
        yield from run_flows(g, "movement_start", ctx)
        if v.in_play and not st.finished:
            yield from movement_step(g, v)
        if v.in_play and not st.finished:
            yield from run_flows(g, "movement_end", ctx)
    g.scenario.check_end(g)
    if v.in_play and not st.finished:
        st.step = "attack"
        yield from run_flows(g, "attack_start", ctx)
        if v.in_play and not st.finished:
            yield from attack_step(g, v)
        g.scenario.check_end(g)
    if not st.finished:
        st.step = "wipeout"
        yield from wipeout_step(g, v)
        g.scenario.check_end(g)
    st.step = None
    g.emit("activation_end", vehicle=v.id)
    st.active = None
