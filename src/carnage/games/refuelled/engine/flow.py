"""Round, gear phases and activations (Refuelled pp.19-20), as generator flows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.votes import round_start_votes, spend_opportunity
from carnage.kernel.effects import run_flows

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState


def game_flow(g: Game) -> Flow:
    """The whole game, resuming wherever ``state.flow`` says (engine/state.py
    ``FlowPosition``): everything the flow needs to carry on is in the state, so a copy of the
    state at a checkpoint continues exactly as the game would."""
    st = g.state
    fl = st.flow
    if fl.stage == "setup":
        rolled = st.scenario.get("scenario_roll")
        if rolled:  # the scenario was rolled on a table of p.122 (G-03)
            g.emit("scenario_roll", source="scenario_selection", page=122, **rolled)
        yield from g.scenario.setup(g)
        g.emit("game_start", source="scenario", scenario=g.scenario.id, players=st.players)
        # ``game_start`` flow hook: after deployment, before the first Gear Phase (the
        # Highway Patrol's bogey p.98, Beverly's Graveyard Shift p.100).
        if not st.finished:
            yield from run_flows(g, "game_start", {"game": g})
        g.scenario.check_end_at(g, "step")
        fl.stage = "round"
    while not st.finished:
        if fl.stage == "round":
            if st.round >= g.options.max_rounds:
                g.finish(None, f"no result after {st.round} rounds", draw=True)
                break
            st.round += 1
            g.emit("round_start", page=19, round=st.round, pole=st.pole)
            for v in st.vehicles.values():
                v.activated_phases.clear()
            g.effects.run_event("round_start", None, {"game": g})
            round_start_votes(g)  # a player with nothing in play gains 2 votes (p.88)
            st.gear_phase = 0
            fl.stage = "phase"
        if fl.stage == "phase":
            start_gear_phase(g, st.gear_phase + 1)
            yield from gear_phase_opening(g)
        if not st.finished:
            yield from gear_phase_turns(g)
        if not st.finished:
            out = g.scenario.end_of_gear_phase(g)
            if out is not None:  # a scenario's end of phase may ask decisions
                yield from out
            # ``gear_phase_end`` notice: effects lasting to the end of the Gear Phase end here
            # (Gas Grenades, p.77).
            g.effects.run_event("gear_phase_end", None, {"game": g, "phase": st.gear_phase})
            g.scenario.check_end_at(g, "gear_phase_end")
        if st.finished or st.gear_phase >= 6:
            g.emit("round_end", page=19, round=st.round)
            fl.stage = "round"
        else:
            fl.stage = "phase"


def qualifying(g: Game, player: int, phase: int) -> list[VehicleState]:
    """Vehicles of ``player`` that may activate now: gear >= phase, not yet activated in this
    phase. Checked when the player gets the chance, not at the phase start (p.20)."""
    return [
        v
        for v in g.state.vehicles_of(player)
        if v.gear >= phase and phase not in v.activated_phases
    ]


def start_gear_phase(g: Game, phase: int) -> None:
    """Gear Phase ``phase`` begins: the pole acts first (p.19)."""
    st = g.state
    st.gear_phase = phase
    g.emit("gear_phase", page=19, round=st.round, phase=phase, pole=st.pole)
    st.flow.turn, st.flow.passes = st.pole, 0
    st.flow.stage = "turns"


def gear_phase_opening(g: Game) -> Flow:
    """As the Gear Phase begins, before the pole acts: the ``gear_phase_start`` flow hook,
    then the scenario's own start of phase, then its start-of-phase end check (M-10). The
    pole acts first even if these moved it."""
    st = g.state
    yield from run_flows(g, "gear_phase_start", {"game": g, "phase": st.gear_phase})
    if not st.finished:
        out = g.scenario.gear_phase_start(g)
        if out is not None:
            yield from out
    g.scenario.check_end_at(g, "gear_phase_start")
    st.flow.turn, st.flow.passes = st.pole, 0


def gear_phase(g: Game, phase: int) -> Flow:
    """One whole Gear Phase (for a step of its own, e.g. in tests)."""
    start_gear_phase(g, phase)
    yield from gear_phase_opening(g)
    yield from gear_phase_turns(g)


def gear_phase_turns(g: Game) -> Flow:
    """The players' chances to act in the current Gear Phase, clockwise from ``flow.turn``,
    until every player in a row has passed (p.19). Each chance starts at a checkpoint."""
    st = g.state
    fl = st.flow
    phase = st.gear_phase
    while fl.passes < st.players and not st.finished:
        player = fl.turn
        g.checkpoint()
        # Audience Votes may be spent before activating or passing (p.88).
        yield from spend_opportunity(g, player)
        if st.finished:
            break
        ready = qualifying(g, player, phase)
        if not ready:
            g.emit("pass", page=19, player=player, phase=phase)
            fl.passes += 1
        else:
            fl.passes = 0
            vid = yield ask(
                player, "activate", f"Gear phase {phase}: choose a vehicle to activate",
                [(v.id, v.name) for v in ready], page=20,
            )
            yield from activation(g, st.vehicles[str(vid)])
        fl.turn = (player + 1) % st.players


def activation(g: Game, v: VehicleState, *, free: bool = False) -> Flow:
    """One activation; ``free``: an extra one that does not count as the vehicle's activation
    in this Gear Phase (Slip Away, p.66)."""
    from carnage.games.refuelled.engine.attack import attack_step
    from carnage.games.refuelled.engine.movement import movement_step
    from carnage.games.refuelled.engine.wipeout import wipeout_step

    st = g.state
    st.active = v.id
    if not free:
        v.activated_phases.add(st.gear_phase)
    if free:
        g.emit("activation", page=20, vehicle=v.id, player=v.player, phase=st.gear_phase,
               free=True)
    else:
        g.emit("activation", page=20, vehicle=v.id, player=v.player, phase=st.gear_phase)
    # Flow hooks (docs/events.md): rules acting as the activation or a step starts
    # or ends. An ``activation_start`` flow returning True skips the Movement Step. A hook
    # nothing is attached to is passed by (``_idle``): running it would do nothing.
    ctx = {"game": g, "vehicle": v}
    st.step = "movement"
    skip = False
    if not _idle(g, "activation_start"):
        skip = yield from run_flows(g, "activation_start", ctx)
    if not skip and v.in_play and not st.finished:
        if not _idle(g, "movement_start"):
            yield from run_flows(g, "movement_start", ctx)
        if v.in_play and not st.finished:
            yield from movement_step(g, v)
        if v.in_play and not st.finished and not _idle(g, "movement_end"):
            yield from run_flows(g, "movement_end", ctx)
    if not st.finished and not _idle(g, "step_end"):
        # ``step_end`` flows: the end of each step, whatever became of the active vehicle
        # (Splashback, p.106).
        yield from run_flows(g, "step_end", {**ctx, "step": "movement"})
    g.scenario.check_end_at(g, "step")
    if v.in_play and not st.finished:
        st.step = "attack"
        if not _idle(g, "attack_start"):
            yield from run_flows(g, "attack_start", ctx)
        if v.in_play and not st.finished:
            yield from attack_step(g, v)
        if v.in_play and not st.finished and not _idle(g, "attack_end"):
            # ``attack_end`` flows: "at the end of the Attack Step" (Raiders p.97,
            # Siren p.98, Party Hard p.102).
            yield from run_flows(g, "attack_end", ctx)
        if not st.finished and not _idle(g, "step_end"):
            yield from run_flows(g, "step_end", {**ctx, "step": "attack"})
        g.scenario.check_end_at(g, "step")
    if not st.finished:
        st.step = "wipeout"
        if v.in_play and not _idle(g, "wipeout_step_start"):
            # ``wipeout_step_start`` flows: as the Wipeout Step begins (Live Fast).
            yield from run_flows(g, "wipeout_step_start", ctx)
        yield from wipeout_step(g, v)
        if not st.finished and not _idle(g, "step_end"):
            yield from run_flows(g, "step_end", {**ctx, "step": "wipeout"})
        g.scenario.check_end_at(g, "step")
    st.step = None
    g.emit("activation_end", vehicle=v.id)
    # ``activation_end`` notice: effects lasting "until the end of the vehicle's next
    # activation" end here (Grav Gun, Magnetic Jammer, pp.73-74).
    g.effects.run_event("activation_end", None, {"game": g, "vehicle": v})
    st.active = None
    if not st.finished and not _idle(g, "after_activation"):
        # ``after_activation`` flows run once the activation is complete (Slip Away, p.66).
        yield from run_flows(g, "after_activation", {"game": g, "vehicle": v})


def _idle(g: Game, event: str) -> bool:
    """Nothing is attached to the flow hook ``event`` (a declared one: ``watched`` refuses
    any other) and hook contexts are not being checked (the test suite checks them): running
    it would only find no flow to run."""
    fx = g.effects
    return not fx.checking and not fx.watched(event)
