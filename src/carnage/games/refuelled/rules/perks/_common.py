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

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState
from carnage.geometry.shapes import distance
from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

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
    about: VehicleState | None = None
    """When set, the trigger looks only at moments whose context's ``vehicle`` is this one
    (the perk's own vehicle); ``applies`` is not even asked at the others."""

    def due(self, g: Game, ctx: dict[str, Any]) -> bool:
        """Does the trigger apply at this moment?"""
        return (self.about is None or ctx.get("vehicle") is self.about) and self.applies(g, ctx)


@dataclass
class Moment:
    """The dispatcher of one flow hook: a handler that adds ``run`` when a trigger applies."""

    event: str
    triggers: list[Trigger] = field(default_factory=list)

    def __call__(self, flows: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        g: Game = ctx["game"]
        if any(t.due(g, ctx) for t in self.triggers):
            return [*flows, self.run]
        return None

    def run(self, g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        done: set[str] = set()
        while not g.state.finished:
            due = [t for t in self.triggers if t.effect not in done and t.due(g, ctx)]
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
    return g.active_player(ctx)


def at(g: Game, event: str, trigger: Trigger) -> None:
    """Attach ``trigger`` to the flow hook ``event`` through the moment's one dispatcher."""
    name = f"perks@{event}"
    for h in g.effects.handlers(event):
        if h.effect == name and isinstance(h.fn, Moment):
            h.fn.triggers.append(trigger)
            return
    m = Moment(event, [trigger])
    g.effects.on(event, name, m, DISPATCH_PRIORITY.get(event, 0))


def has_trigger(g: Game, event: str, effect: str) -> bool:
    """Is a trigger of ``effect`` already attached to ``event``?"""
    return any(isinstance(h.fn, Moment) and any(t.effect == effect for t in h.fn.triggers)
               for h in g.effects.handlers(event))


def anytime(g: Game, ctx: dict[str, Any]) -> bool:
    """A trigger that applies at every occurrence of its moment (narrowed by its ``about``)."""
    return True


def own(v: VehicleState) -> Applies:
    """A trigger for moments concerning ``v`` itself (ctx "vehicle"), while it is in play."""
    return lambda g, ctx: ctx.get("vehicle") is v and v.in_play


def counter(g: Game, kind: str) -> int:
    """How many ``kind`` events have been logged in this game (kept in the state)."""
    return g.count(kind)


def activation_serial(g: Game) -> int:
    """How many activations have started in this game (a new number for each one)."""
    return counter(g, "activation")


EXTRA_ATTACK_STEP = "extra_attack_step"
"""Logged when a perk gives a vehicle an Attack Step of its own outside the usual one (Rapid
Fire, Return Fire, p.109)."""


def attack_step_serial(g: Game) -> tuple[int, int]:
    """Changes whenever a new Attack Step may have begun."""
    return activation_serial(g), counter(g, EXTRA_ATTACK_STEP)


def once_per(g: Game, key: str, effect: str) -> tuple[Callable[[], bool], Callable[[], None]]:
    """A use of ``effect`` limited to once per round / gear phase / activation / game:
    ``(free, use)``; ``key`` names the period (``round``, ``phase``, ``activation`` or
    ``game``). When it was last used is kept in the game's state."""
    used: dict[str, object] = g.memory(effect, f"once_per:{key}", {"at": None})
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
           page: int, vehicle: str | None = None, target: str | None = None,
           weapon: str | None = None) -> Generator[Decision, Any, bool]:
    pick = yield ask(player, kind, prompt, [(YES, yes), (NO, no)], source=source, page=page,
                     vehicle=vehicle, target=target, weapon=weapon)
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


# -- distances at a real table (companion mode, ruling CP-18) --------------------------------
def maybe_within(g: Game, a: VehicleState, b: VehicleState, band: str) -> bool:
    """For a trigger's ``applies``, which cannot ask: at a real table ``b`` may be within
    ``band`` of ``a`` (the people are asked when the trigger runs); on the exact table,
    whether it is."""
    return bool(g.facts.people) or within(g, a, b, band)


def near_told(g: Game, v: VehicleState, band: str, candidates: list[VehicleState], *,
              page: int, why: str) -> Generator[Decision, Any, list[VehicleState]]:
    """Which of ``candidates`` are within ``band`` of ``v`` all round (the gap between the
    footprints, a trailer included): named by ``v``'s controller at a real table, "none"
    the default (ruling CP-18); measured on the exact table, in ``candidates``' order.
    Nothing is asked when there is no candidate."""
    from carnage.games.refuelled.engine.table_facts import reached

    got = yield from reached(
        g, v.player, f"within_{band}", f"{v.name} ({why}): which of these are within "
        f"{band.title()} range of it?", [(t.id, t.name) for t in candidates],
        lambda: [t.id for t in candidates if within(g, v, t, band)], page=page, vehicle=v.id)
    return [g.state.vehicles[i] for i in got]


def is_within(g: Game, v: VehicleState, t: VehicleState, band: str, *, page: int, why: str
              ) -> Generator[Decision, Any, bool]:
    """Whether ``t`` is within ``band`` of ``v`` all round: asked of ``t``'s controller at a
    real table, "no" the default (ruling CP-18); measured on the exact table."""
    from carnage.games.refuelled.engine.table_facts import judged

    got = yield from judged(
        g, t.player, f"within_{band}", f"{t.name} ({why}): is it within {band.title()} "
        f"range of {v.name}?", lambda: within(g, v, t, band), page=page, vehicle=t.id,
        target=v.id)
    return got


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


# -- flips (Barrel Roll p.106, Rocket Thrusters p.114) --------------------------------------
FLIP_EDGES = ("front", "left", "right", "rear")
FLIP_TEMPLATES = ("medium_straight", "long_straight", "veer", "gentle")
"""Rocket Thrusters may swap the Flip's Medium Straight for these (p.114)."""
FLIP_TURN = {"front": 0.0, "left": 90.0, "right": -90.0, "rear": 180.0}
"""Which way the Flip template points from the vehicle's heading, for each edge."""


def install_flip_choices(g: Game, v: VehicleState) -> None:
    """One flip trigger per vehicle for Barrel Roll (which edge the Flip template touches) and
    Rocket Thrusters (which template): asked as the vehicle flips; anything but the front edge
    and the Medium Straight resolves the Flip here (2 hits through ``flip_hits``, then the
    forced move ignoring obstructions). A vehicle rolled sideways keeps its facing (ruling
    PK-6); an articulated vehicle may only use its front or rear edge."""
    from carnage.games.refuelled.engine.damage import suffer_damage
    from carnage.games.refuelled.engine.movement import forced_move, template_value
    from carnage.games.refuelled.engine.wipeout import FLIP_HITS
    from carnage.geometry.shapes import Pose, Rect, norm_heading

    effect = f"perks@flip:{v.id}"
    if any(h.effect == effect for h in g.effects.handlers("moving_body")):
        return
    side: dict[str, float | None] = g.memory(effect, "side", {"turn": None})

    def edges() -> list[str]:
        if "barrel_roll" not in v.perks:
            return ["front"]
        return ["front", "rear"] if v.trailer is not None else list(FLIP_EDGES)

    def templates() -> list[tuple[str, bool]]:
        if "rocket_thrusters" not in v.perks:
            return [("medium_straight", False)]
        out = []
        for t in FLIP_TEMPLATES:
            out += [(t, False)] if t.endswith("straight") else [(t, False), (t, True)]
        return out

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return len(edges()) > 1 or len(templates()) > 1

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        edge = "front"
        if len(edges()) > 1:
            edge = str((yield ask(
                v.player, "barrel_roll", f"{v.name} flips: lay the Flip template at which edge?",
                [(e, f"{e} edge") for e in edges()], source="perk:barrel_roll", page=106,
                vehicle=v.id)))
        tid, mirror = "medium_straight", False
        if len(templates()) > 1:
            pick = str((yield ask(
                v.player, "rocket_thrusters", f"{v.name} flips: which template?",
                [(template_value(t, m, False), f"{t}{' (left)' if m else ''}")
                 for t, m in templates()], source="perk:rocket_thrusters", page=114, vehicle=v.id)))
            tid, mirror = pick.split("/")[0], pick.endswith("/left")
        if edge == "front" and tid == "medium_straight":
            return False  # the ordinary Flip
        game.emit("perk", perk="barrel_roll" if edge != "front" else "rocket_thrusters",
                  source=effect, page=106 if edge != "front" else 114, vehicle=v.id,
                  edge=edge, template=tid, mirror=mirror)
        out = game.effects.run_event("flip_hits", FLIP_HITS, {"game": game, "vehicle": v})
        hits = max(0, int(out)) if isinstance(out, int) else FLIP_HITS
        game.emit("flip", source="flip", page=35, vehicle=v.id, hits=hits)
        yield from suffer_damage(game, v, hits, source="flip", page=35)
        if not v.in_play or game.state.finished:
            return True
        side["turn"] = FLIP_TURN[edge] if edge in ("left", "right") else None
        try:
            yield from forced_move(game, v, tid, source="flip", page=35,
                                   ignore_obstructions=True, reverse=edge == "rear",
                                   mirror=mirror)
        finally:
            side["turn"] = None
        return True

    def body(value: Any, ctx: dict[str, Any]) -> Any:
        turn = side["turn"]
        if turn is None:
            return None
        p = v.pose
        return Rect(Pose(p.x, p.y, norm_heading(p.heading + turn)), v.width, v.length)

    def placed(value: Any, ctx: dict[str, Any]) -> None:
        turn = side["turn"]
        if turn is not None:
            p = v.pose
            v.pose = Pose(p.x, p.y, norm_heading(p.heading - turn))

    at(g, "flip", Trigger(effect, f"Flip ({v.name})", applies, run, about=v))
    g.effects.on("moving_body", effect, body, priority=100, about=v)
    g.effects.on("vehicle_placed", effect, placed, priority=100, about=v)


# -- skid dice -------------------------------------------------------------------------------
def drop_face(sk: Any, i: int) -> None:
    """Take skid die ``i`` out of a ``SkidResolution`` before any Shift is spent, keeping the
    other dice's marks (``locked``, ``no_hazard``, ``cancelled``) on the right dice."""
    del sk.faces[i]
    for marks in (sk.locked, sk.no_hazard, sk.cancelled):
        kept = {j - (j > i) for j in marks if j != i}
        marks.clear()
        marks.update(kept)


def face_label(sk: Any, i: int) -> str:
    return f"die {i + 1}: {sk.faces[i].value}"
