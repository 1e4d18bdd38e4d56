"""Saturday Night Live's special prizes (Refuelled pp.133-134).

At the start of round 1, and again each time a prize is claimed, a D6 plus the current Gear
Phase plus the round picks the prize condition (3 to 15+); a result equal to the prize that was
just active is rolled again. Every condition is about the active vehicle, so only the active
vehicle's controller can meet one. Meeting it lets them claim it: 1 Audience Vote (which the
scenario turns into a Victory Point, Prizes Mean Points) and a new prize. Nobody takes two
votes from the same condition in one activation.

This module is the generator and the thirteen condition checks, as pure functions of the game's
state and of the event that just happened, plus ``install_prizes``, which watches the log for
the moments a condition is met and offers the claim at the end of the step (rulings SNL-1 to
SNL-6 in docs/rulings.md). All memory is in ``state.scenario["snl"]``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.votes import gain_votes
from carnage.geometry.shapes import Point, distance

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState

PAGE = 133
TABLE_PAGE = 134
SOURCE = "saturday_night_live"
KEY = "snl"
"""``state.scenario[KEY]``: the prizes' memory."""
CLAIM = "claim"
DECLINE = "decline"
LOWEST, HIGHEST = 3, 15
"""The prize table runs from 3 to "15+" (every result above 15 reads as 15)."""

PRIZES: dict[int, str] = {
    3: "control the active vehicle",
    4: "the active vehicle is in Gear 3 or higher",
    5: "the active vehicle's template or Final Position comes within Short of the table centre",
    6: "control the active vehicle while holding Pole Position",
    7: "the active vehicle discards its last Hazard Token without wiping out",
    8: "the active vehicle picks a Hazardous template",
    9: "the active vehicle declares a T-Bone Smash Attack",
    10: "a vehicle within Double of the active vehicle loses Hull Points",
    11: "a vehicle within Double of the active vehicle has 8 or more Hazard Tokens",
    12: "a vehicle within Double of the active vehicle fails a Flip check",
    13: "a vehicle within Double of the active vehicle is Wrecked",
    14: "a vehicle within Double of the active vehicle Explodes",
    15: "the active vehicle is in its max Gear",
}
"""Each prize condition in our words (p.134's table); every one needs the active vehicle."""

FRESH_OPTION = "fresh_prizes"
"""Scenario option (default on, ruling SNL-9): a prize that has stood unclaimed through a whole
round is replaced as the next round starts. Off: only a claim brings a new prize."""
STANDING = frozenset({3, 4, 6, 11, 15})
"""Conditions that are a state of the table (checked whenever a claim may be offered); the
others are met by a moment (an event during the activation)."""
NO_DISCARD_SOURCES = frozenset({"wipeout", "wreck_reset"})
"""Hazard losses that are not a discard for prize 7: the Wipeout's reset (ruling SNL-4) and a
wreck's."""


# -- the generator ------------------------------------------------------------------------------
def prize_for(die: int, phase: int, round_no: int) -> int:
    """The prize a roll of ``die`` gives in Gear Phase ``phase`` of round ``round_no``. Before
    the first Gear Phase has begun the phase counts as 1 (ruling SNL-1)."""
    if not 1 <= die <= 6:
        raise ValueError(f"a D6 shows 1 to 6, not {die}")
    return min(HIGHEST, die + max(1, phase) + max(1, round_no))


def generate(game: Game, reason: str, *, round_start: bool = False) -> int:
    """Roll the next prize, rolling again while it repeats the one just active (p.133), log
    it and make it current. ``round_start``: rolled as a round begins, so it stands through
    that whole round (ruling SNL-9 counts the whole rounds a prize has stood)."""
    st = game.state
    memo = prizes(st)
    last = memo.get("prize")
    # Ruling SNL-1: as a round starts no Gear Phase has begun yet; it counts as 1.
    phase = 1 if round_start else st.gear_phase
    if {prize_for(d, phase, st.round) for d in range(1, 7)} == {last}:
        # Ruling SNL-5: late in the game every face gives the same prize (15+); re-rolling
        # could never change it, so it stays and is claimable again.
        memo["facts"] = []
        memo["stands_from"] = st.round if round_start else st.round + 1
        same = int(str(last))
        game.emit("snl_prize", source=SOURCE, page=PAGE, prize=same, condition=PRIZES[same],
                  reason=f"{reason}; no other prize can come up now")
        return same
    while True:
        die = game.roll(1, "special prize", source=SOURCE, page=PAGE)[0]
        new = prize_for(die, phase, st.round)
        if new != last:
            break
    memo["prize"] = new
    memo["facts"] = []
    memo["stands_from"] = st.round if round_start else st.round + 1
    game.emit("snl_prize", source=SOURCE, page=PAGE, prize=new, condition=PRIZES[new],
              reason=reason)
    return new


def prizes(state: GameState) -> dict[str, Any]:
    """The prizes' memory: ``prize`` (current, None before round 1), ``facts`` (moment prizes
    met in this activation since the prize was rolled), ``claimed`` (prizes the active
    player has taken votes from in this activation), ``log`` (every claim: player, prize)."""
    memo: dict[str, Any] = state.scenario.setdefault(KEY, {})
    memo.setdefault("prize", None)
    memo.setdefault("facts", [])
    memo.setdefault("claimed", [])
    memo.setdefault("log", [])
    return memo


# -- geometry -----------------------------------------------------------------------------------
def gap(a: VehicleState, b: VehicleState) -> float:
    """The shortest gap between two vehicles' bodies (a vehicle is at 0 from itself)."""
    if a.id == b.id:
        return 0.0
    return min(distance(ra.polygon(), rb.polygon()) for _, ra in a.bodies()
               for _, rb in b.bodies())


def within_double(game: Game, active: VehicleState, other: VehicleState) -> bool:
    """Is ``other`` within Double range of ``active`` (which is within Double of itself)? At
    a real table, as the people last said (ruling CP-23: ``near_double``)."""
    if active.id == other.id:
        return True
    if game.facts.people:
        return _pair(active.id, other.id) in game.state.scenario.get(NEAR, [])
    return gap(active, other) <= game.templates.ranges["double"] + 1e-9


# -- at a real table: who stands within Double of whom (ruling CP-23) ---------------------------
NEAR = "snl_within_double"
"""At a real table: the pairs of vehicles (``"a|b"``, ids sorted) the people last said stand
within Double of each other."""


def _pair(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def on_table(v: VehicleState) -> bool:
    """A vehicle whose place on the table counts for Double: in play, or its wreck."""
    return v.status.value in ("active", "wrecked")


def ask_near(game: Game, v: VehicleState, others: Sequence[VehicleState]) -> Flow:
    """Which of ``others`` stand within Double of ``v`` (the gap between bodies): named by
    ``v``'s controller at a real table, measured on the exact table (and noted); the people's
    answer replaces what they said before of those pairs."""
    from carnage.games.refuelled.engine.table_facts import reached

    if not others:
        return
    double = game.templates.ranges["double"] + 1e-9
    near = yield from reached(
        game, v.player, "near_double", f"{v.name}: which of these vehicles are within Double "
        "of it now (Screen Time, the prizes)?", [(o.id, o.name) for o in others],
        _measured(v, others, double), page=PAGE, vehicle=v.id)
    if game.facts.people:
        pairs: list[str] = game.state.scenario.setdefault(NEAR, [])
        asked = {_pair(v.id, o.id) for o in others}
        pairs[:] = [q for q in pairs if q not in asked] + sorted(_pair(v.id, o) for o in near)


def _measured(v: VehicleState, others: Sequence[VehicleState], reach: float
              ) -> Callable[[], list[str]]:
    return lambda: [o.id for o in others if gap(v, o) <= reach]


def near_after_motion(game: Game, v: VehicleState) -> Flow:
    """After ``v`` moved, was forced to move, pivoted or came back: who is within Double."""
    if on_table(v) and not game.state.finished:
        yield from ask_near(game, v, [o for o in game.state.vehicles.values()
                                      if o.id != v.id and on_table(o)])


def near_at_deployment(game: Game) -> Flow:
    """Once every vehicle is deployed: who is within Double of whom, each vehicle asked about
    those deployed after it."""
    placed = [v for v in game.state.vehicles.values() if on_table(v)]
    for i, v in enumerate(placed):
        yield from ask_near(game, v, placed[i + 1:])


def point_gap(poly: Sequence[Point], p: Point) -> float:
    """Distance from point ``p`` to the convex polygon ``poly`` (0 inside)."""
    n = len(poly)
    inside = True
    sign = 0.0
    best = math.inf
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        if abs(cross) > 1e-12:
            if sign == 0.0:
                sign = math.copysign(1.0, cross)
            elif math.copysign(1.0, cross) != sign:
                inside = False
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll < 1e-12 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return 0.0 if inside else best


def table_centre(state: GameState) -> Point:
    return (state.width / 2.0, state.height / 2.0)


def near_centre(game: Game, pieces: Sequence[Sequence[Point]]) -> bool:
    """Does any of ``pieces`` (a move's template pieces and Final Position) fall within Short
    range of the centre point of the table?"""
    c = table_centre(game.state)
    reach = game.templates.ranges["short"] + 1e-9
    return any(point_gap(p, c) <= reach for p in pieces)


# -- the thirteen conditions --------------------------------------------------------------------
def standing_met(game: Game, prize: int, active: VehicleState) -> bool:
    """Is the standing condition ``prize`` (3, 4, 6, 11, 15) true of the table now, for the
    active vehicle ``active``? False for the moment conditions."""
    st = game.state
    if prize == 3:
        return True
    if prize == 4:
        return active.in_play and active.gear >= 3
    if prize == 6:
        return st.pole == active.player
    if prize == 11:
        return any(v.hazards >= 8 and within_double(game, active, v) for v in st.in_play())
    if prize == 15:
        return active.in_play and active.gear >= game.stat(active, "max_gear")
    return False


def moment_met(game: Game, kind: str, data: dict[str, Any], active: VehicleState) -> set[int]:
    """The moment conditions (7 to 14) the logged event ``kind`` with ``data`` meets for the
    active vehicle ``active``, judged on the table as it is when the event is logged."""
    st = game.state
    out: set[int] = set()
    subject = st.vehicles.get(str(data.get("vehicle", data.get("origin", ""))))
    if kind == "hazards" and subject is not None:
        change = int(data.get("change", 0))
        if (subject.id == active.id and change < 0 and int(data.get("hazards", 0)) == 0
                and str(data.get("why", "")) not in NO_DISCARD_SOURCES):
            out.add(7)
        if int(data.get("hazards", 0)) >= 8 and within_double(game, active, subject):
            out.add(11)
    elif kind == "template" and subject is not None:
        if subject.id == active.id and data.get("use") == "H":
            out.add(8)
    elif kind == "reaction" and subject is not None:
        orientation = prizes(st).get("orientation")
        if (subject.id == active.id and orientation == "t_bone"
                and data.get("reaction") in ("smash", "piledriver")):
            out.add(9)
    elif kind == "damage" and subject is not None:
        if int(data.get("amount", 0)) > 0 and within_double(game, active, subject):
            out.add(10)
    elif kind == "flip_check" and subject is not None:
        if data.get("flipped") and within_double(game, active, subject):
            out.add(12)
    elif kind == "wrecked" and subject is not None:
        if within_double(game, active, subject):
            out.add(13)
    elif kind == "explosion":
        # A vehicle exploding (p.44); a Volatile obstacle's blast is no vehicle's.
        boom = st.vehicles.get(str(data.get("origin", "")))
        if boom is not None and within_double(game, active, boom):
            out.add(14)
    return out


def claimable(game: Game, active: VehicleState) -> int | None:
    """The current prize if the active vehicle's controller may claim it now: met (as a
    standing condition now, or by a moment since it was rolled) and not already paid to this
    player in this activation."""
    memo = prizes(game.state)
    prize = memo.get("prize")
    if prize is None or prize in memo["claimed"]:
        return None
    if prize in STANDING and standing_met(game, prize, active):
        return int(prize)
    if prize in memo["facts"]:
        return int(prize)
    return None


# -- wiring into a game -------------------------------------------------------------------------
WATCHED = ("hazards", "template", "reaction", "damage", "flip_check", "wrecked", "explosion")


def install_prizes(game: Game, effect: str) -> None:
    """Attach the special prizes to ``game`` under effect id ``effect`` (call from the
    scenario's installer)."""

    def round_start(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        st = g.state
        memo = prizes(st)
        if memo.get("prize") is None:
            generate(g, "the first round starts", round_start=True)
        elif (st.scenario.get("options", {}).get(FRESH_OPTION, True)
              and st.round > int(memo.get("stands_from", st.round))):
            # Ruling SNL-9: a prize nobody claimed through a whole round is replaced.
            generate(g, "nobody claimed it for a whole round", round_start=True)

    def activation_begins(value: Any, ctx: dict[str, Any]) -> None:
        memo = prizes(ctx["game"].state)
        memo["claimed"] = []
        memo["facts"] = []

    def watcher(kind: str) -> Any:
        def seen(value: Any, ctx: dict[str, Any]) -> None:
            g: Game = ctx["game"]
            st = g.state
            data: dict[str, Any] = ctx["data"]
            if kind == "collision":
                prizes(st)["orientation"] = data.get("orientation")
                return
            active = st.vehicles.get(st.active or "")
            if active is None or prizes(st).get("prize") is None:
                return
            data = dict(data)
            if kind == "hazards":
                data["why"] = _last_source(g, "hazards")
            met = moment_met(g, kind, data, active)
            facts = prizes(st)["facts"]
            for p in sorted(met):
                if p not in facts:
                    facts.append(p)
        return seen

    def moved(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.geometry.surfaces import move_pieces

        st = g.state
        v: VehicleState = ctx["vehicle"]
        memo = prizes(st)
        if (v.id == st.active and v.in_contention and memo.get("prize") == 5
                and 5 not in memo["facts"]):
            if g.facts.people:  # a real table: the people say whether it came near the centre
                from carnage.games.refuelled.engine.table_facts import ask_yes_no

                near = yield from ask_yes_no(
                    g, v.player, "near_centre", f"{v.name}: did its move's template or final "
                    "position come within Short of the centre of the table?", page=TABLE_PAGE,
                    vehicle=v.id)
            else:
                near = near_centre(g, move_pieces(ctx["result"]))
                g.facts.note("near_centre", near)
            if near:
                memo["facts"].append(5)
        yield from ()

    def offer(g: Game, ctx: dict[str, Any]) -> Flow:
        yield from offer_claims(g, ctx["vehicle"])

    def motion_asked(g: Game, v: VehicleState) -> Flow:
        yield from near_after_motion(g, v)

    def motion_noted(g: Game, v: VehicleState, since: int) -> None:
        for _ in near_after_motion(g, v):  # the exact table asks nothing: it notes
            raise AssertionError("the exact table asked who is within Double")

    def here(g: Game, ctx: dict[str, Any]) -> Flow:
        """As a vehicle comes back, or as a move that met something stops for its
        collisions: who is within Double of it there."""
        yield from near_after_motion(g, ctx["vehicle"])

    from carnage.games.refuelled.scenarios.common.motion import motion_facts

    motion_facts(game, effect + ":near", motion_asked, motion_noted)
    game.effects.add_flow("respawned", effect + ":near", lambda ctx: here, priority=1000)
    # A move that met something: asked before its collisions too (a Wreck there gains votes).
    game.effects.add_flow("move_contact", effect + ":near", lambda ctx: here,
                          priority=1000)
    game.effects.on("round_start", effect, round_start)
    game.effects.on("logged:activation", effect, activation_begins)
    for kind in (*WATCHED, "collision"):
        game.effects.on(f"logged:{kind}", effect, watcher(kind))
    game.effects.add_flow("move_window", effect, lambda ctx: moved)
    game.effects.add_flow("activation_start", effect, lambda ctx: offer, priority=-50)
    game.effects.add_flow("step_end", effect, lambda ctx: offer, priority=-50)


def _last_source(game: Game, kind: str) -> str:
    e = game.log.events[-1] if game.log.events else None
    return e.source if e is not None and e.kind == kind else ""


def offer_claims(game: Game, active: VehicleState) -> Flow:
    """While the current prize is claimable, its claimant (the active vehicle's controller)
    chooses to claim it (a vote, a new prize) or leave it for now (ruling SNL-3: it is offered
    again at the end of the next step, while still met)."""
    st = game.state
    memo = prizes(st)
    while not st.finished and (prize := claimable(game, active)) is not None:
        pick = yield ask(
            active.player, "snl_prize",
            f"Special prize {prize}: {PRIZES[prize]}. Claim it for 1 Audience Vote?",
            [(CLAIM, "claim the prize (1 Audience Vote, and a new prize)"),
             (DECLINE, "leave it")], source=SOURCE, page=PAGE, vehicle=active.id)
        if pick != CLAIM:
            return  # left for now: offered again at the next moment it may be claimed
        memo["claimed"].append(prize)
        memo["log"].append([active.player, prize])
        game.emit("snl_claim", source=SOURCE, page=PAGE, player=active.player,
                  vehicle=active.id, prize=prize)
        gain_votes(game, active.player, 1, source=SOURCE, page=PAGE, vehicle=active.id)
        if st.finished:
            return
        generate(game, f"player {active.player + 1} claimed prize {prize}")
