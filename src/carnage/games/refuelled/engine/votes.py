"""Audience Votes (Refuelled pp.88-90; team games p.123).

Votes belong to players, not vehicles. They are gained through ``gain_votes`` (a wreck, a jump,
a round started with nothing in play, sponsors and scenarios) and spent when a player gets the
chance to activate, before naming a vehicle or passing (``spend_opportunity``, run by the gear
phase for every player's turn). A spend opportunity is a loop of ``spend_votes`` decisions, one
effect at a time, until the player stops or can afford nothing. An effect's target is a second
decision (``vote_target``; one legal target is taken automatically).

The six effects of p.89-90 are ``VoteEffect`` records in ``EFFECTS``. Rules add their own
effects or change costs and eligibility through hooks (docs/events.md): ``vote_effects``,
``vote_cost``, ``allies``, ``may_respawn``, ``respawned`` (flows), ``pole_moves`` (the scenario's
pole passing, ``Scenario.move_pole``), ``hazards_lost``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import Status, UpgradeMount, VehicleState, WeaponMount
from carnage.kernel.effects import CANCEL, run_flows
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.geometry.shapes import Pose

DONE = "done"
HOLD = "hold"
"""Carpe Diem target: keep Pole Position where it is the next time it would move."""
NO_ACTIVE_VOTES = 2
"""Votes for a player who starts a round with no vehicle in play (p.88)."""
INTERVENTION_HAZARDS = 5
"""Executive Intervention tops the target up to this many Hazard Tokens (p.89)."""

RULES = RuleTable()
"""The Audience Votes' and team games' installers (composed into the Refuelled ruleset)."""


# -- gaining ---------------------------------------------------------------------------------------
def gain_votes(g: Game, player: int, n: int, *, source: str, page: int | None,
               **data: Any) -> None:
    """``player`` gains ``n`` Audience Votes (logged as ``audience_vote``)."""
    if n <= 0 or not 0 <= player < g.state.players:
        return
    g.state.votes[player] += n
    g.emit("audience_vote", source=source, page=page, player=player, gained=n,
           votes=g.state.votes[player], **data)


def round_start_votes(g: Game) -> None:
    """Each player starting the round without a vehicle in play gains 2 votes (p.88). Vehicles
    that are not part of the team (an RC Car, p.79) do not count."""
    st = g.state
    for p in range(st.players):
        if not any(v.player == p and v.in_team for v in st.in_play()):
            gain_votes(g, p, NO_ACTIVE_VOTES, source="no_active_vehicles", page=88)


# -- who counts as "you" ---------------------------------------------------------------------------
def allies(g: Game, player: int) -> frozenset[int]:
    """The players whose vehicles ``player`` may treat as their own when spending votes: just
    themselves, or their whole side in a team game (p.123) through the ``allies`` hook."""
    if g.effects.idle("allies"):
        return frozenset({player})
    out = g.effects.run_event("allies", frozenset({player}), {"game": g, "player": player})
    return frozenset(out) | {player} if isinstance(out, frozenset | set) else frozenset({player})


def own_vehicles(g: Game, player: int) -> list[VehicleState]:
    """Team vehicles in play that ``player`` controls (or may treat as controlled)."""
    mine = allies(g, player)
    return [v for v in g.state.in_play() if v.player in mine and v.in_team]


# -- the effects -----------------------------------------------------------------------------------
Targets = Callable[["Game", int], list[tuple[str, str]]]
Resolve = Callable[["Game", int, str], "Flow"]


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class VoteEffect:
    """An effect a player may buy with votes: its base ``cost``, the legal ``targets`` for a
    player now (none: not offered) and how it is resolved for the chosen target."""

    id: str
    name: str
    cost: int
    page: int
    targets: Targets
    run: Resolve


def vote_cost(g: Game, player: int, effect: VoteEffect, target: str | None = None) -> int:
    """The effect's cost through the ``vote_cost`` hook (never below 0), for ``target`` when
    given (a target may cost more: Bad Television, p.163)."""
    out = g.effects.run_event("vote_cost", effect.cost,
                              {"game": g, "player": player, "effect": effect.id,
                               "target": target})
    return max(0, int(out)) if isinstance(out, int) else effect.cost


def _vehicle_label(v: VehicleState) -> str:
    return f"{v.name} (gear {v.gear}, {v.hazards} hazards, {v.hull_points} hull)"


def _burn_rubber_targets(g: Game, player: int) -> list[tuple[str, str]]:
    out = []
    for v in own_vehicles(g, player):
        low = max(1, int(g.effects.run_event("min_gear", 1, {"game": g, "vehicle": v})))
        if v.gear < g.stat(v, "max_gear"):
            out.append((f"{v.id}:up", f"{v.name}: up to gear {v.gear + 1}"))
        if v.gear > low:
            out.append((f"{v.id}:down", f"{v.name}: down to gear {v.gear - 1}"))
    return out


def _burn_rubber(g: Game, player: int, target: str) -> Flow:
    """The vehicle changes gear one up or down, gaining a Hazard as usual (p.89)."""
    vid, _, way = target.rpartition(":")
    g.add_gear(g.state.vehicles[vid], 1 if way == "up" else -1, "burn_rubber", 89)
    yield from ()


def _applause_targets(g: Game, player: int) -> list[tuple[str, str]]:
    return [(v.id, _vehicle_label(v)) for v in own_vehicles(g, player) if v.hazards > 0]


def remove_hazards(g: Game, v: VehicleState, n: int, *, source: str, page: int | None) -> int:
    """Discard up to ``n`` of ``v``'s Hazard Tokens (through ``Game.add_hazards`` and its
    ``hazards_lost`` hook); returns how many went."""
    before = v.hazards
    if min(n, before) > 0:
        g.add_hazards(v, -min(n, before), source, page)
    return before - v.hazards


def _applause(g: Game, player: int, target: str) -> Flow:
    """D6 Hazard Tokens off the vehicle (p.89)."""
    v = g.state.vehicles[target]
    die = g.roll(1, "thunderous applause", source="thunderous_applause", page=89,
                 vehicle=v.id)[0]
    remove_hazards(g, v, die, source="thunderous_applause", page=89)
    yield from ()


def _intervention_targets(g: Game, player: int) -> list[tuple[str, str]]:
    mine = allies(g, player)
    return [(v.id, _vehicle_label(v)) for v in g.state.in_play()
            if v.player not in mine and v.hazards < INTERVENTION_HAZARDS]


def _intervention(g: Game, player: int, target: str) -> Flow:
    """The opponent's vehicle gains Hazards until it has 5 (p.89)."""
    v = g.state.vehicles[target]
    g.add_hazards(v, INTERVENTION_HAZARDS - v.hazards, "executive_intervention", 89)
    yield from ()


def _reload_targets(g: Game, player: int) -> list[tuple[str, str]]:
    out = []
    for v in own_vehicles(g, player):
        out += [(f"{v.id}|{m.key}", f"{v.name}: {m.weapon} ({m.ammo} ammo)")
                for m in v.weapons if m.ammo is not None]
        out += [(f"{v.id}|{u.key}", f"{v.name}: {u.upgrade} ({u.ammo} ammo)")
                for u in v.fitted if u.ammo is not None]
    return out


def _reload(g: Game, player: int, target: str) -> Flow:
    """One Ammo Token onto a weapon or upgrade that uses them (p.89)."""
    vid, _, key = target.partition("|")
    v = g.state.vehicles[vid]
    mounts: list[WeaponMount | UpgradeMount] = [*v.weapons, *v.fitted]
    for mount in mounts:
        if mount.key == key and mount.ammo is not None:
            mount.ammo += 1
            g.emit("ammo", source="reload", page=89, vehicle=v.id, weapon=key, ammo=mount.ammo)
    yield from ()


def _carpe_diem_targets(g: Game, player: int) -> list[tuple[str, str]]:
    st = g.state
    out = [(f"pole:{p}", f"give Pole Position to player {p + 1}")
           for p in range(st.players) if p != st.pole]
    out.append((HOLD, "Pole Position does not move the next time it would"))
    return out


def _carpe_diem(g: Game, player: int, target: str) -> Flow:
    """Pole Position to a player of the spender's choice, or held the next time it would move
    (p.90). The move itself goes through the scenario's ``move_pole`` (ruling SP-2)."""
    if target == HOLD:
        hold_pole(g, player)
    else:
        g.scenario.move_pole(g, int(target.partition(":")[2]), "carpe diem",
                             source="carpe_diem", page=90)
    yield from ()


def hold_pole(g: Game, player: int) -> None:
    """The next time Pole Position would move, it stays (Carpe Diem, p.90). Holds stack."""
    g.install(HOLD_KEY, _install_hold, player, f"carpe_diem:hold:{len(g.log)}")
    g.emit("pole_hold", source="carpe_diem", page=90, player=player)


HOLD_KEY = "carpe_diem_hold"
"""Journal entry of a Carpe Diem hold (removed from the journal when it acts)."""


def _install_hold(g: Game, player: int, effect: str) -> None:
    def hold(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        game.effects.remove_effect(effect)
        game.forget(HOLD_KEY, player, effect)
        game.emit("pole_held", source="carpe_diem", page=90, player=game.state.pole,
                  held_by=player, reason=str(ctx.get("reason", "")))
        return CANCEL

    # Holds made earlier act first (lower registration order at equal priority).
    g.effects.on("pole_moves", effect, hold, priority=-100)


RULES.named[HOLD_KEY] = _install_hold


# -- Respawn (p.90) --------------------------------------------------------------------------------
def was_wrecked(g: Game, v: VehicleState) -> bool:
    """Has ``v`` been Wrecked during this game (death-ray removals count, p.73)?"""
    return any(e.kind == "wrecked" and e.data.get("vehicle") == v.id for e in g.log.events)


def wreck_of(g: Game, v: VehicleState) -> list[str]:
    """Ids of the wrecks ``v`` left on the table (a War Rig may leave two, p.117)."""
    return [oid for oid, ob in g.state.obstacles.items() if ob.wreck_of == v.id]


def respawn_candidates(g: Game, player: int) -> list[VehicleState]:
    """Vehicles ``player`` may respawn now: theirs, Wrecked this game, out of play, and only
    while they have no vehicle in play (p.90); the ``may_respawn`` hook may widen or forbid it
    (Inexorable p.101, scenarios that ban respawning)."""
    mine = allies(g, player)
    team = [v for v in g.state.vehicles.values() if v.player in mine and v.in_team]
    in_play = any(v.in_play for v in team)
    out = []
    for v in team:
        if v.in_play:
            continue
        ok = not in_play and v.status in (Status.WRECKED, Status.REMOVED) and was_wrecked(g, v)
        ok = g.effects.run_event("may_respawn", ok, {"game": g, "vehicle": v, "player": player,
                                                      "in_play": in_play}) is True
        if ok and ((wreck_of(g, v) and g.scenario.respawns_where_wrecked)
                   or respawn_positions(g, v)):
            out.append(v)
    return out


AT_TABLE = "where the scenario's rule says, at the table"
"""The one place a real table offers a respawned vehicle: the people's placement (CP-7)."""


def respawn_positions(g: Game, v: VehicleState) -> dict[str, Pose]:
    """Where ``v`` may be placed as it comes back: the scenario's rule, judged as if its own
    wrecks were already cleared away (they go as it comes back, ruling SC-45)."""
    if g.facts.people:  # a real table: the people place it as the rule says (ruling CP-7)
        return {AT_TABLE: v.pose}
    st = g.state
    lifted = {oid: st.obstacles.pop(oid) for oid in wreck_of(g, v)}
    try:
        return dict(g.scenario.respawn_positions(g, v))
    finally:
        st.obstacles.update(lifted)


def _respawn_targets(g: Game, player: int) -> list[tuple[str, str]]:
    return [(v.id, f"{v.name} ({'its wreck' if wreck_of(g, v) else 'placed by the scenario'})")
            for v in respawn_candidates(g, player)]


def _respawn(g: Game, player: int, target: str) -> Flow:
    yield from respawn(g, g.state.vehicles[target], player, source="respawn", page=90)


def respawn(g: Game, v: VehicleState, player: int, *, source: str, page: int) -> Flow:
    """Bring ``v`` back (p.90): a wreck on the table is turned back over where it lies;
    otherwise its controller places it where the scenario allows. A scenario that says where
    every respawned vehicle must come back (``respawns_where_wrecked`` False, ruling SC-45)
    has it placed there, its wreck cleared away, in this one flow. It comes back with half its
    Hull Value (rounded down, at least 1), in gear 1 with no Hazards, keeping the ammo it had
    (FAQ) and the gear phases it already activated in (FAQ)."""
    st = g.state
    wrecks = wreck_of(g, v)
    if wrecks and g.scenario.respawns_where_wrecked:
        pose = st.obstacles[wrecks[0]].pose
        for oid in wrecks:
            del st.obstacles[oid]
            g.emit("obstacle_removed", source=source, page=page, obstacle=oid)
        how = "wreck"
    else:
        spots = respawn_positions(g, v)
        if not spots:
            return
        for oid in wrecks:
            del st.obstacles[oid]
            g.emit("obstacle_removed", source=source, page=page, obstacle=oid,
                   reason="cleared: the vehicle comes back where the scenario says (SC-45)")
        pick = yield ask(
            player, "respawn_position", f"{v.name}: where does it come back?",
            [(k, k) for k in spots], source=source, page=page, vehicle=v.id,
        )
        pose = spots[str(pick)]
        how = "placed"
    v.pose = pose
    v.status = Status.ACTIVE
    v.damage = v.hull - max(1, v.hull // 2)
    v.gear = 1
    v.hazards = 0
    v.reversing = False
    g.emit("respawn", source=source, page=page, vehicle=v.id, player=v.player, how=how,
           x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3),
           hull_points=v.hull_points)
    # ``respawned`` flow hook: rules acting as a vehicle comes back (Violent Manifestation,
    # p.110; At the Crossroads, p.101).
    yield from run_flows(g, "respawned", {"game": g, "vehicle": v, "player": player,
                                          "source": source})


EFFECTS: tuple[VoteEffect, ...] = (
    VoteEffect("burn_rubber", "Burn Rubber", 1, 89, _burn_rubber_targets, _burn_rubber),
    VoteEffect("thunderous_applause", "Thunderous Applause", 1, 89, _applause_targets,
               _applause),
    VoteEffect("executive_intervention", "Executive Intervention", 2, 89,
               _intervention_targets, _intervention),
    VoteEffect("reload", "Reload", 2, 89, _reload_targets, _reload),
    VoteEffect("carpe_diem", "Carpe Diem", 2, 90, _carpe_diem_targets, _carpe_diem),
    VoteEffect("respawn", "Respawn", 3, 90, _respawn_targets, _respawn),
)
"""The six Audience Vote effects (pp.89-90), in book order."""


def effects_for(g: Game, player: int) -> list[VoteEffect]:
    """The effects on offer in this game: the six, plus any a rule adds (``vote_effects``)."""
    out = g.effects.run_event("vote_effects", list(EFFECTS), {"game": g, "player": player})
    return list(out) if isinstance(out, list) else list(EFFECTS)


def offers(g: Game, player: int) -> list[tuple[VoteEffect, int, list[tuple[str, str]]]]:
    """Each effect ``player`` can afford now and has a legal target for."""
    votes = g.state.votes[player]
    out = []
    for e in effects_for(g, player):
        cost = vote_cost(g, player, e)
        if cost > votes:
            continue
        targets = [t for t in e.targets(g, player) if vote_cost(g, player, e, t[0]) <= votes]
        if targets:
            out.append((e, cost, targets))
    return out


# -- spending --------------------------------------------------------------------------------------
def spend_opportunity(g: Game, player: int) -> Flow:
    """A chance to spend votes (p.88), given as the player is about to activate or pass: any
    number of effects, one decision each, until the player is done or can afford nothing."""
    st = g.state
    # ``vote_opportunity`` flows: rules acting at a moment votes may be spent (p.160).
    yield from run_flows(g, "vote_opportunity", {"game": g, "player": player})
    while not st.finished and st.votes[player] > 0:
        on_offer = offers(g, player)
        if not on_offer:
            return
        by_id = {e.id: (e, cost, targets) for e, cost, targets in on_offer}
        pick = yield ask(
            player, "spend_votes",
            f"Spend Audience Votes ({st.votes[player]} left)?",
            [(DONE, "spend no (more) votes")]
            + [(e.id, f"{e.name} ({cost} vote{'s' if cost != 1 else ''})")
               for e, cost, _ in on_offer],
            source="audience_votes", page=88,
        )
        if pick == DONE:
            return
        effect, cost, targets = by_id[str(pick)]
        target = yield ask(player, "vote_target", f"{effect.name}: choose", targets,
                           source=effect.id, page=effect.page)
        cost = vote_cost(g, player, effect, str(target))
        st.votes[player] -= cost
        g.emit("votes_spent", source=effect.id, page=effect.page, player=player,
               effect=effect.id, cost=cost, target=str(target), votes=st.votes[player])
        yield from effect.run(g, player, str(target))


# -- team games (p.123) ----------------------------------------------------------------------------
@RULES.journaled("team_game")
def install_team_game(g: Game, sides: Sequence[Sequence[int]]) -> None:
    """Team play (p.123): teammates' vehicles count as one's own when spending votes; Pole
    Position never passes to a teammate (it goes on to the next seat of another side); a
    teammate never turns a vehicle that loses control; the last side with vehicles in play
    wins (``Scenario.check_end`` reads the same ``allies`` hook)."""
    side = {p: i for i, s in enumerate(sides) for p in s}
    n = g.state.players

    def same(a: int, b: int) -> bool:
        return a in side and side.get(a) == side.get(b)

    def next_opponent(after: int, of: int) -> int:
        for k in range(1, n + 1):
            p = (after + k - 1) % n
            if not same(p, of):
                return p
        return after

    def ally(value: Any, ctx: dict[str, Any]) -> Any:
        p = int(ctx["player"])
        return frozenset(value) | {q for q in side if same(q, p)}

    def pole(value: Any, ctx: dict[str, Any]) -> Any:
        if value is CANCEL or not isinstance(value, int):
            return None
        holder = ctx["game"].state.pole
        return next_opponent(value, holder) if same(value, holder) else None

    def chooser(value: Any, ctx: dict[str, Any]) -> Any:
        v: VehicleState = ctx["vehicle"]
        return next_opponent(int(value), v.player) if same(int(value), v.player) else None

    g.effects.on("allies", "team_game", ally)
    g.effects.on("pole_moves", "team_game", pole, priority=100)
    g.effects.on("lose_control_chooser", "team_game", chooser)
