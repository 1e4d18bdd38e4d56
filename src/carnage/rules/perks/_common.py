"""What the perk modules share (Refuelled pp.104-115).

* ``Trigger`` and ``at``: a perk acting at a flow hook (a moment of play) registers a trigger;
  one dispatcher per moment runs the triggers that apply. When two or more apply at the same
  moment the active player picks which resolves first (p.14), one decision per pick
  (``perk_order``), and each trigger is looked at again after the others have resolved.
* Small helpers: yes/no decisions, friend and enemy (team games count allies as friends,
  through the ``allies`` hook of engine/votes.py), ranges measured all round between footprints (as
  explosions, ruling AT-6), hazard tokens gained or discarded through the engine's hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carnage.engine.decisions import Decision
from carnage.engine.game import ask
from carnage.engine.state import VehicleState
from carnage.geometry.shapes import distance

if TYPE_CHECKING:
    from carnage.engine.game import Game

PerkFlow = Generator[Decision, Any, Any]
Applies = Callable[["Game", dict[str, Any]], bool]
Runs = Callable[["Game", dict[str, Any]], PerkFlow]

YES = "yes"
NO = "no"
ORDER_PAGE = 14
"""Simultaneous effects: the active player chooses the order (p.14)."""
DISPATCH_PRIORITY = {"flip": -50}
"""Where a moment's dispatcher sits among other rules' flows (higher runs first): at a flip,
after a Roll Cage has asked its question (p.85)."""


def need(v: VehicleState | None, perk: str) -> VehicleState:
    if v is None:
        raise ValueError(f"{perk} is a perk: it needs a vehicle")
    return v


# -- moments ---------------------------------------------------------------------------------
@dataclass
class Trigger:
    effect: str
    """The perk's effect id (``perk:<id>:<vehicle>``); also the ``perk_order`` option."""
    label: str
    applies: Applies
    run: Runs
    free_order: bool = False
    """Asks nothing and changes nothing another trigger looks at (e.g. one Hazard Token for
    the active vehicle): its order never matters, so it never makes anyone choose."""


@dataclass
class Moment:
    """The dispatcher of one flow hook: a handler that adds ``run`` when a trigger applies."""

    event: str
    triggers: list[Trigger] = field(default_factory=list)

    def __call__(self, flows: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        g: Game = ctx["game"]
        if any(t.applies(g, ctx) for t in self.triggers):
            return [*flows, self.run]
        return None

    def run(self, g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        done: set[str] = set()
        while not g.state.finished:
            due = [t for t in self.triggers if t.effect not in done and t.applies(g, ctx)]
            if not due:
                break
            pick = due[0]
            if sum(1 for t in due if not t.free_order) > 1:
                chosen = yield ask(
                    active_player(g, ctx), "perk_order",
                    "These effects happen at the same moment: resolve which one first?",
                    [(t.effect, t.label) for t in due], source="simultaneous",
                    page=ORDER_PAGE,
                )
                pick = next(t for t in due if t.effect == chosen)
            done.add(pick.effect)
            if (yield from pick.run(g, ctx)) is True:
                return True  # the trigger claimed the moment (a flip resolved by a perk)
        return False


def active_player(g: Game, ctx: dict[str, Any]) -> int:
    """The active vehicle's controller; between activations, the player of the vehicle the
    moment concerns (else the pole)."""
    st = g.state
    if st.active is not None and st.active in st.vehicles:
        return st.vehicles[st.active].player
    v = ctx.get("vehicle")
    return v.player if isinstance(v, VehicleState) else st.pole


def at(g: Game, event: str, trigger: Trigger) -> None:
    """Attach ``trigger`` to the flow hook ``event`` through the moment's one dispatcher."""
    name = f"perks@{event}"
    for h in g.effects.handlers(event):
        if h.effect == name and isinstance(h.fn, Moment):
            h.fn.triggers.append(trigger)
            return
    m = Moment(event, [trigger])
    g.effects.on(event, name, m, DISPATCH_PRIORITY.get(event, 0))


def own(v: VehicleState) -> Applies:
    """A trigger for moments concerning ``v`` itself (ctx "vehicle"), while it is in play."""
    return lambda g, ctx: ctx.get("vehicle") is v and v.in_play


@dataclass
class _Counter:
    n: int = 0

    def __call__(self, value: None, ctx: dict[str, Any]) -> None:
        self.n += 1


def counter(g: Game, kind: str) -> int:
    """How many ``kind`` events have been logged in this game (counted from the first call)."""
    name = f"perks@count:{kind}"
    for h in g.effects.handlers(f"logged:{kind}"):
        if h.effect == name and isinstance(h.fn, _Counter):
            return h.fn.n
    g.effects.on(f"logged:{kind}", name, _Counter(len(g.log.of_kind(kind))))
    return counter(g, kind)


def activation_serial(g: Game) -> int:
    """How many activations have started in this game (a new number for each one)."""
    return counter(g, "activation")


EXTRA_ATTACK_STEP = "extra_attack_step"
"""Logged when a perk gives a vehicle an Attack Step of its own outside the usual one (Rapid
Fire, Return Fire, p.109)."""


def attack_step_serial(g: Game) -> tuple[int, int]:
    """Changes whenever a new Attack Step may have begun."""
    return activation_serial(g), counter(g, EXTRA_ATTACK_STEP)


def once_per(g: Game, key: str) -> tuple[Callable[[], bool], Callable[[], None]]:
    """A use limited to once per round / gear phase / activation / game: ``(free, use)``;
    ``key`` names the period (``round``, ``phase``, ``activation`` or ``game``)."""
    used: dict[str, object] = {"at": None}
    if key == "activation":
        activation_serial(g)  # start counting now

    def stamp() -> object:
        st = g.state
        if key == "round":
            return st.round
        if key == "phase":
            return (st.round, st.gear_phase)
        if key == "activation":
            return activation_serial(g)
        return "game"

    def free() -> bool:
        return used["at"] != stamp()

    def use() -> None:
        used["at"] = stamp()

    return free, use


# -- decisions -------------------------------------------------------------------------------
def yes_no(player: int, kind: str, prompt: str, yes: str, no: str, *, source: str,
           page: int) -> Generator[Decision, Any, bool]:
    pick = yield ask(player, kind, prompt, [(YES, yes), (NO, no)], source=source, page=page)
    return bool(pick == YES)


# -- who and where ---------------------------------------------------------------------------
def friends(g: Game, a: VehicleState, b: VehicleState) -> bool:
    """Same controller, or allied players in a team game (the ``allies`` hook, p.123)."""
    if a.player == b.player:
        return True
    out = g.effects.run_event("allies", frozenset({a.player}), {"game": g, "player": a.player})
    return isinstance(out, frozenset | set) and b.player in out


def enemies(g: Game, a: VehicleState, b: VehicleState) -> bool:
    return not friends(g, a, b)


def gap(a: VehicleState, b: VehicleState) -> float:
    """The gap between two vehicles' footprints (a trailer is part of its vehicle, p.117)."""
    return min(distance(ra.polygon(), rb.polygon()) for _, ra in a.bodies()
               for _, rb in b.bodies())


def within(g: Game, a: VehicleState, b: VehicleState, band: str) -> bool:
    """``b`` within ``band`` range of ``a``, all round (the range ruler against the gap)."""
    return gap(a, b) <= g.templates.ranges[band] + 1e-9


def others_within(g: Game, v: VehicleState, band: str) -> list[VehicleState]:
    """Other vehicles in play within ``band`` of ``v``, in table order."""
    return [t for t in g.state.in_play() if t.id != v.id and within(g, v, t, band)]


# -- hazard tokens ---------------------------------------------------------------------------
def gain(g: Game, v: VehicleState, n: int, source: str, page: int) -> int:
    """``v`` gains ``n`` Hazard Tokens through the engine (hooks may change it); returns how
    many it actually gained."""
    before = v.hazards
    g.add_hazards(v, n, source, page)
    return v.hazards - before


def discard(g: Game, v: VehicleState, n: int, source: str, page: int) -> int:
    """``v`` discards up to ``n`` Hazard Tokens (through the ``hazards_lost`` hook); returns
    how many went."""
    before = v.hazards
    if min(n, before) > 0:
        g.add_hazards(v, -min(n, before), source, page)
    return before - v.hazards


def gain_vote(g: Game, player: int, source: str, page: int) -> None:
    """``player`` gains an Audience Vote (logged as engine/votes.py does)."""
    g.state.votes[player] += 1
    g.emit("audience_vote", source=source, page=page, player=player, gained=1,
           votes=g.state.votes[player])
