"""The Devil's Run game: an explicit, resumable state machine over ``GameState``.

``pending()`` is a pure function of the state; ``apply(choice)`` validates the choice against it
(``IllegalChoice`` leaves the game untouched), updates the state and runs every automatic step up
to the next decision. Every event names the rule (``DR-nnn`` inventory id or ``DRR-n`` ruling)
that caused it; the beta rulebook prints no page numbers, so events carry none.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import TILE, Mission, Square, arcs, gangs, missions
from carnage.games.devilsrun.state import (
    DESTROYED,
    REMOVED,
    RESERVE,
    RUNNING,
    WIPED_OUT,
    WRECK,
    Activation,
    GameState,
    TileState,
    VehicleState,
)
from carnage.kernel.decisions import Decision, IllegalChoice, Option
from carnage.kernel.dice import DiceSource, SeededDice, dice_from_json, dice_to_json
from carnage.kernel.events import Event, EventLog, JsonValue
from carnage.kernel.game import Outcome as KernelOutcome

if TYPE_CHECKING:
    from carnage.kernel.ruleset import Ruleset

FORMAT = "carnage.devilsrun/1"
OFFENSIVE = ("ram", "ram_on_the_brakes", "side_swipe", "t_bone")
STEPS: dict[str, Square] = {"F": (0, 1), "FL": (-1, 1), "FR": (1, 1)}
SWIPE_FINALS: dict[str, Square] = {"sl": (-1, 0), "sr": (1, 0), "dl": (-1, 1), "dr": (1, 1)}
DECISION_PHASES = frozenset(
    {"side", "deploy", "first", "stash_place", "activate", "action", "keep", "step", "target",
     "evade", "evade_square", "ap2", "shoot"}
)
ACTION_LABELS = {
    "peddle": "Peddle to the Metal (basic move, 1 AP)",
    "brake": "BRAKE! (basic move backwards, 1 AP)",
    "ram": "Ram (special move, 2 AP)",
    "ram_on_the_brakes": "Ram on the Brakes (special move, 2 AP)",
    "side_swipe": "Side Swipe (special move, 2 AP)",
    "t_bone": "T-Bone (special move, 2 AP)",
    "repair": "Repair the wreck (1 AP)",
    "pass": "Do nothing",
}


@dataclass(frozen=True)
class Outcome(KernelOutcome):
    """The kernel's outcome (winner, draw, reason, rounds), and the mission's scores."""

    scores: tuple[int, int] = (0, 0)
    """Chassis tokens collected by each player (Hell on Wheels)."""

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "draw": self.draw, "reason": self.reason,
                "rounds": self.rounds, "scores": list(self.scores)}


@dataclass(frozen=True)
class Plan:
    """A reachable offensive move: the step vectors (the last one enters the target's square)."""

    target: str
    square: int
    path: tuple[Square, ...]
    push: Square
    straight: Square
    moved: int
    cost: int


def _add(a: Square, b: Square) -> Square:
    return (a[0] + b[0], a[1] + b[1])


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


class DevilsRunGame:
    """One game of Devil's Run between player 0 and player 1."""

    def __init__(self, state: GameState, dice: DiceSource, setup: dict[str, Any]) -> None:
        self.state = state
        self.dice = dice
        self.setup = setup
        self.log = EventLog()
        self.choices: list[str | int] = []

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def new(cls, mission: str, teams: list[str], dice: DiceSource,
            setup: dict[str, Any]) -> DevilsRunGame:
        m = missions()[mission]
        st = GameState(mission=mission, gangs=list(teams))
        for p, gk in enumerate(teams):
            g = gangs()[gk]
            for key in m.gangs[gk]:
                vid = f"{g.short.lower()}-{key}"
                st.vehicles[vid] = VehicleState(
                    id=vid, player=p, gang=gk, key=key, cp=g.vehicles[key].cp
                )
        st.tiles = [TileState(name=t.name, origin=i * TILE, placed=i)
                    for i, t in enumerate(m.tiles)]
        game = cls(st, dice, setup)
        game._emit("setup", "DR-006", mission=mission, gangs=list(teams),
                   tiles=[t.name for t in st.tiles])
        game._run()
        return game

    # --- the controller contract ----------------------------------------------------------

    def pending(self) -> Decision | None:
        if self.state.phase not in DECISION_PHASES:
            return None
        return self._decision()

    def apply(self, choice: Any) -> None:
        d = self.pending()
        if d is None:
            raise IllegalChoice("no decision is pending: the game is over")
        value = d.validate(choice)
        assert not isinstance(value, float)
        self.choices.append(value)
        self._emit("decision", d.source, decision=d.kind, player=d.player, choice=value)
        getattr(self, "_apply_" + self.state.phase)(value)
        self._run()

    def outcome(self) -> Outcome | None:
        o = self.state.outcome
        if o is None:
            return None
        return Outcome(o["winner"], o["draw"], o["reason"], o["rounds"],
                       (int(o["scores"][0]), int(o["scores"][1])))

    @property
    def ruleset(self) -> Ruleset:
        """Devil's Run's ruleset (``ruleset.py``): what a controller that holds only the game
        asks of it (the search bot its ``Ruleset.search`` adapter)."""
        from carnage.games.devilsrun.ruleset import DEVILS_RUN_RULESET

        return DEVILS_RUN_RULESET

    @property
    def players(self) -> int:
        """Two: the Law (seat 0) and the Haul's Angels (seat 1) by default."""
        return len(self.state.gangs)

    def visible_events(self, seats: Iterable[int]) -> list[Event]:
        """The whole log: nothing in Devil's Run is hidden from a seat."""
        return list(self.log.events)

    def clone(self) -> DevilsRunGame:
        g = DevilsRunGame(self.state.copy(), copy_dice(self.dice), dict(self.setup))
        g.log = EventLog(list(self.log.events))
        g.choices = list(self.choices)
        return g

    def snapshot(self) -> dict[str, Any]:
        return {
            "carnage_snapshot": 1,
            "ruleset": "devils-run",
            "format": FORMAT,
            "setup": dict(self.setup),
            "state": self.state.to_doc(),
            "dice": dice_doc(self.dice),
            "choices": list(self.choices),
            "log": [e.to_json() for e in self.log],
        }

    # --- read helpers (bots, renderer, tests) ---------------------------------------------

    @property
    def mission(self) -> Mission:
        return missions()[self.state.mission]

    def vehicle(self, vid: str) -> VehicleState:
        try:
            return self.state.vehicles[vid]
        except KeyError:
            known = ", ".join(self.state.vehicles)
            raise KeyError(f"no vehicle {vid!r} (vehicles: {known})") from None

    def active(self, player: int) -> list[VehicleState]:
        return [v for v in self.state.vehicles.values()
                if v.player == player and v.status == RUNNING]

    def plans(self) -> dict[str, Plan]:
        """The offensive moves the active vehicle can make with its rolled allowance."""
        act = self.state.act
        if act is None or act.action not in OFFENSIVE:
            return {}
        return self._plans(self.vehicle(act.vid), act.action, act.allowance, act.d3, act.lost_mm)

    def weapon_targets(self, vid: str, mount: int) -> list[tuple[str, int, int]]:
        return self._targets(self.vehicle(vid), mount)

    # --- plumbing -------------------------------------------------------------------------

    def _emit(self, kind: str, source: str, **data: JsonValue) -> None:
        self.log.emit(kind, source=source, page=None, **data)

    def _roll(self, n: int, sides: int, why: str, source: str) -> list[int]:
        dice = self.dice
        # Dice that key rolls by purpose (the search's simulated dice) are told the rule, the
        # turn and the vehicles; seeded and scripted dice roll in order, as always.
        roll_for = None if type(dice) is SeededDice else getattr(dice, "roll_for", None)
        r = dice.roll(n, sides) if roll_for is None else roll_for(self._roll_key(n, sides, source),
                                                                   n, sides)
        self._emit("roll", source, dice=f"{n}D{sides}", results=list(r), why=why)
        return r

    def _roll_key(self, n: int, sides: int, source: str) -> str:
        """What a roll is for: its rule, dice, turn, and the activation's vehicle, target and
        weapon mount (``_roll``; the words of ``why`` carry modifiers, which may differ)."""
        st = self.state
        act = st.act
        who = f"{act.vid}>{act.target or ''}#{act.weapon}" if act is not None else ""
        return f"{source}|{n}D{sides}|{st.turn}|{who}"

    def _run(self) -> None:
        st = self.state
        for _ in range(100_000):
            if st.outcome is not None:
                st.phase = "over"
                return
            if st.phase == "over":
                return
            if st.phase in DECISION_PHASES:
                d = self._decision()
                if len(d.options) != 1:
                    return
                # no pointless questions: a single legal option is taken, not asked
                value = d.options[0].value
                self._emit("forced_choice", d.source, decision=d.kind, player=d.player,
                           choice=value)
                getattr(self, "_apply_" + st.phase)(value)
                continue
            getattr(self, "_auto_" + st.phase)()
        raise RuntimeError(f"the flow did not reach a decision (phase {st.phase})")

    def _finish(self, winner: int | None, reason: str, source: str) -> None:
        st = self.state
        if st.outcome is not None:
            return
        st.outcome = {"winner": winner, "draw": winner is None, "reason": reason,
                      "rounds": st.turn, "scores": list(st.collected)}
        self._emit("game_over", source, winner=winner, reason=reason, turn=st.turn,
                   scores=list(st.collected))

    def _d(self, player: int, kind: str, prompt: str, options: list[Option], source: str,
           vehicle: str | None = None, target: str | None = None,
           weapon: str | None = None) -> Decision:
        return Decision(player=player, kind=kind, prompt=prompt, options=tuple(options),
                        source=source, vehicle=vehicle, target=target, weapon=weapon)

    def _act(self) -> Activation:
        assert self.state.act is not None
        return self.state.act

    def _av(self) -> VehicleState:
        return self.vehicle(self._act().vid)

    # --- geometry with the state ------------------------------------------------------------

    def _skill(self, v: VehicleState, skill: str) -> bool:
        return skill in B.vtype(v).skills

    def _cost(self, v: VehicleState, vec: Square) -> int:
        if vec[0] != 0 and vec[1] != 0:
            return 3 if self._skill(v, "hard_to_steer") else 2  # DR-071, DR-049
        return 1

    def _fits(self, v: VehicleState, pos: Square, ignore: frozenset[str] = frozenset(),
              allow_front: bool = False, occ: dict[Square, str] | None = None) -> bool:
        st = self.state
        if occ is None:
            occ = B.occupants(st)
        back, front = B.back_row(st), B.front_end(st) + (1 if allow_front else 0)
        for s in B.footprint(v, pos):
            if not (0 <= s[0] < B.WIDTH and back <= s[1] < front):
                return False
            u = occ.get(s)
            if u is not None and u != v.id and u not in ignore:
                return False
        return True

    def _place(self, v: VehicleState, pos: Square) -> None:
        v.pos = pos
        if pos[1] >= B.front_end(self.state):
            self._recycle(v)  # DR-009: a model has left the front tile

    def _recycle(self, by: VehicleState) -> None:
        st = self.state
        back = st.tiles.pop(0)
        lo, hi = back.origin, back.origin + TILE
        for v in st.vehicles.values():
            if B.in_play(v) and v.id != by.id and any(lo <= s[1] < hi for s in B.footprint(v)):
                self._remove(v, REMOVED, "DR-009")
        if st.stash.status == "placed" and st.stash.pos is not None and lo <= st.stash.pos[1] < hi:
            st.stash.status, st.stash.pos = "gone", None
            self._emit("stash", "DR-108", event="left behind with the back tile")
        back.origin = st.tiles[-1].origin + TILE
        back.placed = st.next_tile
        st.next_tile += 1
        st.tiles.append(back)
        self._emit("tile_recycled", "DR-009", tile=back.name, origin=back.origin,
                   placed=back.placed, by=by.id)
        if st.stash.status == "gone":
            st.stash.status, st.stash.chooser = "reenter", by.player  # DR-108

    # --- damage, wrecks, removal --------------------------------------------------------------

    def _save_chain(self, v: VehicleState, n: int, source: str) -> list[bool]:
        """DR-093: one D6 per damage point in order; the first failure lets the rest through."""
        a = B.vtype(v).a
        out: list[bool] = []
        broken = False
        rolls: list[int] = []
        for _ in range(n):
            if broken:
                out.append(False)
                continue
            r = self.dice.roll(1, 6)[0]
            rolls.append(r)
            ok = r <= a
            broken = not ok
            out.append(ok)
        if rolls:
            self._emit("armour_save", source, vehicle=v.id, armour=a, rolls=rolls,
                       saved=sum(out), points=n)
        return out

    def _damage(self, v: VehicleState, n: int, cause: str | None, source: str,
                saveable: bool = False) -> None:
        if n <= 0 or v.status != RUNNING:
            return
        if saveable:
            n -= sum(self._save_chain(v, n, "DR-093"))
            if n <= 0:
                return
        st = self.state
        before = v.cp
        v.cp -= n
        self._emit("damage", source, vehicle=v.id, points=n, cp=v.cp, cause=cause)
        if st.mission == "hell-on-wheels" and cause is not None:
            c = self.vehicle(cause)
            if c.player != v.player:  # DR-113, DRR-29
                got = min(n, max(before, 0))
                st.collected[c.player] += got
                self._emit("chassis_collected", "DR-113", player=c.player, tokens=got,
                           total=st.collected[c.player])
        if v.cp <= 0:
            self._wreck(v, no_repair=False, source="DR-099")

    def _wreck(self, v: VehicleState, no_repair: bool, source: str) -> None:
        st = self.state
        v.status, v.cp, v.no_repair = WRECK, 0, no_repair
        self._emit("wrecked", source, vehicle=v.id, square=list(v.pos or (0, 0)),
                   repairable=not no_repair)
        if v.carrying:
            v.carrying = False
            st.stash.status, st.stash.pos, st.stash.carrier = "placed", v.pos, None
            for u in st.vehicles.values():
                u.missed_stash = False
            self._emit("stash", "DRR-26", event="dropped by a wreck", square=list(v.pos or (0, 0)))

    def _remove(self, v: VehicleState, status: str, source: str) -> None:
        st = self.state
        self._emit("removed", source, vehicle=v.id, status=status)
        v.status, v.pos = status, None
        if v.carrying:
            v.carrying = False
            st.stash.status, st.stash.pos, st.stash.carrier = "gone", None, None
            self._emit("stash", "DRR-26", event="lost with its carrier")

    def _check_carrier(self, v: VehicleState) -> None:
        """DR-109: the carrier wins on reaching a tile placed after it picked the stash up."""
        if not v.carrying or v.status != RUNNING or v.pos is None:
            return
        t = B.tile_at(self.state, v.pos[1])
        if t is not None and t.placed > self.state.stash.pickup_tile:
            self._finish(v.player, "stash carried onto a fresh tile", "DR-109")

    # --- movement -------------------------------------------------------------------------

    def _enter(self, v: VehicleState, act: Activation) -> bool:
        """Effects of the primary square entering a square during a move action (DR-096..098).
        True when the move must end."""
        st = self.state
        assert v.pos is not None
        f = B.feature(st, v.pos)
        if f == "impassable":
            self._wreck(v, no_repair=True, source="DR-098")
            return True
        wreck = B.wreck_at(st, v.pos)
        if (f == "debris" and not self._skill(v, "rough_rider")) or wreck:
            if not act.lost_mm:
                act.lost_mm = True
                act.allowance = min(act.allowance, act.d3)
                act.min_required = 0
                self._emit("movement_modifier_lost", "DR-097" if wreck else "DR-096",
                           vehicle=v.id, allowance=act.allowance, spent=act.spent)
            if wreck:
                dmg = self._roll(1, 3, "wreck damage", "DR-097")[0]
                self._damage(v, dmg, None, "DR-097", saveable=True)
                if v.status != RUNNING:
                    return True
        return act.spent >= act.allowance

    def _step_options(self) -> list[str]:
        act = self._act()
        v = self._av()
        assert v.pos is not None
        out = []
        for code, vec in STEPS.items():
            if act.spent + self._cost(v, vec) > act.allowance:
                continue
            if self._fits(v, _add(v.pos, vec), allow_front=True):
                out.append(code)
        return out

    def _monotone(self, frm: Square, to: Square) -> list[list[Square]]:
        """Forward paths of straight and diagonal steps from ``frm`` to ``to`` (DRR-11)."""
        dy, dx = to[1] - frm[1], to[0] - frm[0]
        if dy < 0 or abs(dx) > dy:
            return []
        k, sg = abs(dx), _sign(dx)
        return [[(sg, 1) if j in combo else (0, 1) for j in range(dy)]
                for combo in combinations(range(dy), k)]

    def _dry(self, v: VehicleState, steps: list[Square], target: VehicleState, lead: int,
             allowance: int, d3: int, lost: bool, occ: dict[Square, str],
             wrecks: set[Square]) -> tuple[int, int] | None:
        """Walk ``steps`` without changing anything: None if it cannot reach the target, else
        (rough squares crossed, movement spent)."""
        st = self.state
        assert v.pos is not None
        pos, spent, feats = v.pos, 0, 0
        tsq = set(B.footprint(target))
        rough = not self._skill(v, "rough_rider")
        for j, vec in enumerate(steps):
            cost = self._cost(v, vec)
            if spent + cost > allowance:
                return None
            new = _add(pos, vec)
            if j == len(steps) - 1:
                fp = B.footprint(v, new)
                if fp[lead] not in tsq:
                    return None
                for s in fp:
                    if not B.on_board(st, s):
                        return None
                    u = occ.get(s)
                    if u is not None and u != v.id and s not in tsq:
                        return None
                return (feats, spent + cost)
            if not self._fits(v, new, occ=occ):
                return None
            f = B.feature(st, new)
            if f == "impassable":
                return None
            if (f == "debris" and rough) or new in wrecks:
                feats += 1
                if not lost:
                    lost, allowance = True, min(allowance, d3)
            spent += cost
            pos = new
        return None

    def _plans(self, v: VehicleState, kind: str, allowance: int, d3: int,
               lost: bool, first_only: bool = False) -> dict[str, Plan]:
        st = self.state
        if v.pos is None or v.status != RUNNING:
            return {}
        P = v.pos
        diag = self._cost(v, (1, 1))
        occ = B.occupants(st)
        wrecks = set(B.occupants(st, WRECK))
        out: dict[str, Plan] = {}
        others = [t for t in st.vehicles.values() if t.status == RUNNING and t.id != v.id]
        for t in others:
            for i, T in enumerate(B.footprint(t)):
                cands: list[tuple[str, list[Square], Square, Square, int, int]] = []
                dx, dy = T[0] - P[0], T[1] - P[1]
                if kind == "ram":  # DR-076
                    if dy >= 1 and abs(dx) <= dy and dy + abs(dx) * (diag - 1) <= allowance:
                        for path in self._monotone(P, T):
                            cands.append((f"{t.id}:{i}", path, (0, 1), (0, 1), len(path), 0))
                elif kind == "ram_on_the_brakes":  # DR-077
                    R = B.footprint(v)[-1]
                    if T[0] == R[0] and T[1] < R[1] and R[1] - T[1] <= allowance:
                        k = R[1] - T[1]
                        lead = len(B.footprint(v)) - 1
                        cands.append((f"{t.id}:{i}", [(0, -1)] * k, (0, -1), (0, -1), k, lead))
                elif kind == "t_bone":  # DRR-13: forward to the target's row, then across
                    for sg in (-1, 1):
                        for k in range(1, allowance + 1):
                            S = (T[0] - sg * k, T[1])
                            if not 0 <= S[0] < B.WIDTH:
                                break
                            sdx, sdy = S[0] - P[0], S[1] - P[1]
                            if sdy < 0 or abs(sdx) > sdy or \
                                    sdy + abs(sdx) * (diag - 1) + k > allowance:
                                continue
                            key = f"{t.id}:{i}:{'r' if sg > 0 else 'l'}{k}"
                            for path in self._monotone(P, S):
                                cands.append((key, [*path, *[(sg, 0)] * k], (sg, 0), (sg, 0),
                                              k, 0))
                else:  # side_swipe, DR-078
                    for code, f in SWIPE_FINALS.items():
                        S = (T[0] - f[0], T[1] - f[1])
                        sdx, sdy = S[0] - P[0], S[1] - P[1]
                        low = sdy + abs(sdx) * (diag - 1) + self._cost(v, f)
                        if sdy < 0 or abs(sdx) > sdy or low > allowance:
                            continue
                        for path in self._monotone(P, S):
                            cands.append((f"{t.id}:{i}:{code}", [*path, f], (f[0], 0), f, 0, 0))
                best: dict[str, tuple[tuple[int, int], Plan]] = {}
                assert t.pos is not None
                for key, path, push, straight, moved, lead in cands:
                    end = (P[0] + sum(p[0] for p in path), P[1] + sum(p[1] for p in path))
                    if set(B.footprint(v, end)) & set(B.footprint(t, _add(t.pos, push))):
                        continue  # DRR-14: the push must clear the square the attacker takes
                    if key in best and best[key][0][0] == 0:
                        continue  # every path to a square costs the same: a clear one is best
                    r = self._dry(v, path, t, lead, allowance, d3, lost, occ, wrecks)
                    if r is None:
                        continue
                    plan = Plan(t.id, i, tuple(path), push, straight, moved, r[1])
                    if key not in best or r < best[key][0]:
                        best[key] = (r, plan)
                    if first_only:
                        return {key: plan}
                for key, (_, plan) in best.items():
                    out[key] = plan
        return out

    # --- automatic phases -----------------------------------------------------------------

    def _rolloff(self, why: str, source: str) -> int:
        while True:  # DR-013, DR-022 (ties re-rolled, DRR-9)
            a, b = self._roll(2, 10, why, source)
            if a != b:
                return 0 if a > b else 1

    def _auto_setup(self) -> None:
        st = self.state
        st.rolloff_winner = self._rolloff("deployment roll-off", "DR-013")
        self._emit("rolloff", "DR-013", winner=st.rolloff_winner)
        st.phase = "side"

    def _deploy_squares(self, player: int) -> dict[str, Square]:
        st = self.state
        side = st.sides[str(player)]
        t0 = st.tiles[0]
        lay = B.layout(st, t0)
        out = {}
        for label, (x, r) in sorted(lay.deploy.items()):
            if (label.isdigit()) == (side == "numbers"):
                out[label] = (x, t0.origin + r)
        return out

    def _deploy_fits(self, v: VehicleState, sq: Square) -> bool:
        st = self.state
        if not self._fits(v, sq):
            return False
        return all(B.feature(st, s) != "impassable" for s in B.footprint(v, sq))

    def _auto_deploy_next(self) -> None:
        st = self.state
        for p in (st.deploy_player, 1 - st.deploy_player):
            reserve = [v for v in st.vehicles.values() if v.player == p and v.status == RESERVE]
            if not reserve:
                continue
            squares = self._deploy_squares(p)
            for v in reserve:
                if not any(self._deploy_fits(v, s) for s in squares.values()):
                    self._remove(v, DESTROYED, "DR-017")
            if any(v.status == RESERVE for v in reserve):
                st.deploy_player = p
                st.phase = "deploy"
                return
        st.phase = "turn_start"

    def _auto_turn_start(self) -> None:
        st = self.state
        st.turn += 1
        st.activated = []
        self._emit("turn", "DR-022", turn=st.turn)
        st.rolloff_winner = self._rolloff("initiative roll-off", "DR-022")
        self._emit("rolloff", "DR-022", winner=st.rolloff_winner)
        st.phase = "first"

    def _stash_free(self) -> list[Square]:
        st = self.state
        front = st.tiles[-1]
        taken = {s for v in st.vehicles.values() if B.in_play(v) for s in B.footprint(v)}
        return [(x, front.origin + r) for x, r in self.mission.stash_squares
                if (x, front.origin + r) not in taken]

    def _auto_stash_roll(self) -> None:
        st = self.state
        m = self.mission
        st.phase = "next_activation"
        if not m.stash_arrival or st.stash.status != "waiting" or st.turn not in m.stash_arrival:
            return
        need = m.stash_arrival[st.turn]
        if need > 1:
            r = self._roll(1, 10, f"stash arrival (needs {need}+)", "DR-106")[0]
            if r < need:
                return
        if not self._stash_free():
            self._emit("stash", "DRR-24", event="no free centre square: it waits")
            return
        st.stash.chooser = st.rolloff_winner
        st.phase = "stash_place"

    def _eligible(self, player: int) -> list[VehicleState]:
        st = self.state
        out = []
        for v in st.vehicles.values():
            if v.player != player or v.id in st.activated:
                continue
            if v.status == RUNNING or (v.status == WRECK and not v.no_repair):
                out.append(v)
        return out

    def _auto_next_activation(self) -> None:
        st = self.state
        if st.stash.status == "reenter" and self._stash_free():
            st.phase = "stash_place"
            return
        p = st.to_act
        if self._eligible(p):
            st.phase = "activate"
        elif self._eligible(1 - p):
            st.to_act = 1 - p
            st.phase = "activate"
        else:
            st.phase = "turn_end"

    def _auto_move_roll(self) -> None:
        act, v = self._act(), self._av()
        n = 2 if self._skill(v, "manoeuvrable") else 1
        act.dice = self._roll(n, 3, "movement", "DR-047" if n == 2 else "DR-070")
        if n == 2 and act.dice[0] != act.dice[1]:
            self.state.phase = "keep"
        else:
            self._start_move(act.dice[0])

    def _start_move(self, d3: int) -> None:
        act, v = self._act(), self._av()
        vt = B.vtype(v)
        act.d3 = d3
        act.allowance = vt.mm + d3
        act.min_required = vt.mm
        self._emit("movement_allowance", "DR-070", vehicle=v.id, mm=vt.mm, d3=d3,
                   allowance=act.allowance)
        if act.action == "peddle":
            self.state.phase = "step_check"
        elif act.action == "brake":
            self.state.phase = "brake"
        else:
            self.state.phase = "target_check"

    def _auto_step_check(self) -> None:
        self.state.phase = "step" if self._step_options() else "move_done"

    def _auto_move_done(self) -> None:
        act, v = self._act(), self._av()
        self._emit("moved", "DR-070", vehicle=v.id, spent=act.spent, squares=act.moved,
                   square=list(v.pos) if v.pos else None)
        if act.special or v.status != RUNNING:
            self.state.phase = "activation_end"
        else:
            self.state.phase = "ap2_check"

    def _auto_brake(self) -> None:
        act, v = self._act(), self._av()  # DR-072, DRR-10
        while act.spent < act.allowance and v.status == RUNNING and v.pos is not None:
            new = _add(v.pos, (0, -1))
            if not self._fits(v, new):
                self._emit("brake_stopped", "DRR-10", vehicle=v.id, square=list(v.pos))
                break
            self._place(v, new)
            act.spent += 1
            act.moved += 1
            if self._enter(v, act):
                break
        self.state.phase = "move_done"

    def _auto_target_check(self) -> None:
        act, v = self._act(), self._av()
        if self.plans():
            self.state.phase = "target"
            return
        self._emit("no_target", "DRR-12", vehicle=v.id, action=act.action)
        act.action = "peddle"
        self.state.phase = "step_check"

    def _auto_approach(self) -> None:
        act, v = self._act(), self._av()
        assert v.pos is not None
        for vec in act.path[:-1]:
            self._place(v, _add(v.pos, vec))
            act.spent += self._cost(v, vec)
            self._enter(v, act)
            self._check_carrier(v)
            if v.status != RUNNING:
                self.state.phase = "activation_end"
                return
        t = self.vehicle(act.target or "")
        act.evade_squares = self._evade_squares(t, act.action, act.target_square)
        self.state.phase = "evade" if act.evade_squares else "hit"

    def _evade_squares(self, t: VehicleState, kind: str, square: int) -> list[Square]:
        """DR-085/086, DRR-15: sideways against rams, along the road against side hits."""
        st = self.state
        assert t.pos is not None
        if kind in ("ram", "ram_on_the_brakes"):
            vecs: list[Square] = [(-1, 0), (1, 0)]
        elif kind == "side_swipe" and square > 0:
            vecs = [(0, 1)]
        else:
            vecs = [(0, 1), (0, -1)]
        out = []
        for vec in vecs:
            new = _add(t.pos, vec)
            if self._fits(t, new) and all(B.feature(st, s) != "impassable"
                                          for s in B.footprint(t, new)):
                out.append(new)
        return out

    def _evade_to(self, sq: Square) -> None:
        act = self._act()
        t = self.vehicle(act.target or "")
        self._emit("evaded", "DR-087", vehicle=t.id, square=list(sq))
        self._place(t, sq)
        self._check_carrier(t)
        self.state.phase = "evaded"

    def _auto_evaded(self) -> None:
        act, v = self._act(), self._av()
        assert v.pos is not None
        self.state.phase = "activation_end"
        last = act.path[-1]
        into = _add(v.pos, last)
        if not self._fits(v, into):
            return
        self._place(v, into)
        act.spent += self._cost(v, last)
        if act.action == "side_swipe":  # DR-087: it just takes the vacated square
            return
        if self._enter(v, act) or v.status != RUNNING:
            return
        # DR-087: a ram that misses must use its whole allowance in a straight line
        while True:
            vec = act.straight
            cost = self._cost(v, vec)
            if act.spent + cost > act.allowance:
                return
            new = _add(v.pos, vec)
            fp = B.footprint(v, new)
            if any(not (0 <= s[0] < B.WIDTH) or s[1] < B.back_row(self.state) for s in fp):
                self._emit("stopped_at_edge", "DRR-16", vehicle=v.id)
                return
            occ = B.occupants(self.state)
            hit = [occ[s] for s in fp if s in occ and occ[s] != v.id]
            if hit:
                act.target = hit[0]
                act.path = [vec]
                act.push = vec
                act.spent += cost
                act.moved += 1
                self._emit("new_target", "DR-087", vehicle=v.id, target=hit[0])
                self.state.phase = "hit"
                return
            self._place(v, new)
            act.spent += cost
            act.moved += 1
            self._check_carrier(v)
            if self._enter(v, act) or v.status != RUNNING:
                return

    def _auto_hit(self) -> None:
        st = self.state
        act, att = self._act(), self._av()
        tgt = self.vehicle(act.target or "")
        assert att.pos is not None
        st.phase = "activation_end"
        vec, push = act.path[-1], act.push
        new_att = _add(att.pos, vec)
        occ = B.occupants(st)
        chain: list[str] = []
        for s in B.footprint(att, new_att):
            u = occ.get(s)
            if u is not None and u != att.id and u not in chain:
                chain.append(u)
        if tgt.id not in chain:
            chain.insert(0, tgt.id)
        immovable: str | None = None
        i = 0
        while i < len(chain):  # DR-082/083: the knock-on chain
            c = self.vehicle(chain[i])
            assert c.pos is not None
            cnew = B.footprint(c, _add(c.pos, push))
            if any(B.feature(st, s) == "impassable" for s in cnew):
                immovable = c.id
                chain = chain[: i + 1]
                break
            for s in cnew:
                u = occ.get(s)
                if u is not None and u not in chain and u != att.id:
                    chain.append(u)
            i += 1
        pile = len(chain) >= 2 or immovable is not None
        # totals (DR-076..078, DRR-13)
        da = self._roll(1, 3, "attacker total", "DR-079")[0]
        dd = self._roll(1, 3, "defender total", "DR-079")[0]
        va, vd = B.vtype(att), B.vtype(tgt)
        if act.action == "side_swipe":
            ta, td = va.a + att.cp + da, vd.a + tgt.cp + dd
        else:
            ta, td = act.moved + va.a + da, vd.a + dd
        self._emit("offensive_totals", "DR-079", action=act.action, attacker=att.id,
                   target=tgt.id, attacker_total=ta, target_total=td, moved=act.moved)
        # moves: the vehicle against an immovable object is destroyed, the rest are pushed
        if immovable is not None:
            self._emit("crushed", "DR-083", vehicle=immovable)
            self._remove(self.vehicle(immovable), DESTROYED, "DR-083")
        wiped: list[VehicleState] = []
        moved_ids = [c for c in chain if c != immovable]
        for cid in reversed(moved_ids):
            c = self.vehicle(cid)
            assert c.pos is not None
            npos = _add(c.pos, push)
            fp = B.footprint(c, npos)
            if any(not (0 <= s[0] < B.WIDTH) or s[1] < B.back_row(st) for s in fp):
                wiped.append(c)  # DR-084: resolved after the pile-up
                continue
            self._emit("pushed", "DR-088", vehicle=c.id, square=list(npos))
            self._place(c, npos)
        if att.status == RUNNING:
            self._place(att, new_att)
        # damage
        src = {"ram": "DR-076", "ram_on_the_brakes": "DR-077", "side_swipe": "DR-078",
               "t_bone": "DRR-13"}[act.action]
        if act.action == "ram_on_the_brakes":
            self._damage(tgt, ta, att.id, src)
            self._damage(att, td, tgt.id, src)
        elif ta > td:
            self._damage(tgt, ta - td, att.id, src)
        elif td > ta:
            self._damage(att, td - ta, tgt.id, src)
        if pile:
            extra = 2 if immovable is not None else 1
            self._emit("pile_up", "DR-083" if immovable else "DR-082", vehicles=list(moved_ids),
                       extra=extra)
            self._damage(att, extra, None, "DR-082")
            for cid in moved_ids:
                self._damage(self.vehicle(cid), extra, att.id, "DR-082")
        for c in wiped:
            self._remove(c, WIPED_OUT, "DR-084")
        for cid in [att.id, *moved_ids]:
            self._check_carrier(self.vehicle(cid))

    def _auto_ap2_check(self) -> None:
        self.state.phase = "ap2" if len(self._ap2_options()) > 1 else "activation_end"

    def _ap2_options(self) -> list[str]:
        v = self._av()
        out = []
        if any(self._targets(v, i) for i in range(len(B.vtype(v).mounts))):
            out.append("shoot")
        if self._can_pickup(v):
            out.append("pickup")
        out.append("pass")
        return out

    def _can_pickup(self, v: VehicleState) -> bool:
        st = self.state
        s = st.stash
        if s.status != "placed" or s.pos is None or v.missed_stash or v.status != RUNNING:
            return False
        return B.distance(B.footprint(v), [s.pos]) <= 1  # DRR-25

    def _auto_shoot_check(self) -> None:
        act, v = self._act(), self._av()
        mounts = B.vtype(v).mounts
        while act.weapon < len(mounts):
            if v.status == RUNNING and self._targets(v, act.weapon):
                self.state.phase = "shoot"
                return
            act.weapon += 1
        self.state.phase = "activation_end"

    def _targets(self, v: VehicleState, mi: int) -> list[tuple[str, int, int]]:
        """(target id, best BS modifier, range) for every enemy the mount can shoot (DR-091/092)."""
        st = self.state
        if v.pos is None or v.status != RUNNING:
            return []
        vt = B.vtype(v)
        mount = vt.mounts[mi]
        grid = arcs()[f"{vt.type}.{mount.slot}"]
        mine = B.footprint(v)
        P = v.pos
        base: set[Square] = set(B.impassable_squares(st))
        for u in st.vehicles.values():
            if B.in_play(u) and u.id != v.id:
                base.update(B.footprint(u))
        out = []
        for t in st.vehicles.values():
            if t.status != RUNNING or t.player == v.player:
                continue
            tsq = B.footprint(t)
            blockers = base - set(tsq)
            best: tuple[int, int] | None = None
            for s in tsq:
                m = grid.modifier(s[0] - P[0], s[1] - P[1])
                if m is None:
                    continue
                d = B.distance(mine, [s])
                if d > mount.weapon.range or (best is not None and m <= best[0]):
                    continue
                if B.line_of_sight(mine, s, blockers):
                    best = (m, d)
            if best is not None:
                out.append((t.id, best[0], best[1]))
        return out

    def _shoot(self, v: VehicleState, mi: int, tid: str) -> None:
        vt = B.vtype(v)
        mount = vt.mounts[mi]
        w = mount.weapon
        t = self.vehicle(tid)
        found = [x for x in self._targets(v, mi) if x[0] == tid]
        _, mod, d = found[0]
        bs = vt.bs(mount.slot) + mod
        rof = w.rof - (d - 1) if w.flamer else w.rof  # DR-053, DR-057
        key = f"{w.key}#{mi}"
        if rof <= 0:
            self._emit("shot", "DR-053", vehicle=v.id, weapon=key, target=tid, dice=0)
            return
        rolls = self._roll(rof, 10, f"{w.name} BS {bs}", "DR-090")
        crits = [r == 1 for r in rolls if r == 1 or r <= bs]  # DR-094, DRR-22
        self._emit("shot", "DR-090", vehicle=v.id, weapon=key, target=tid, bs=bs,
                   modifier=mod, range=d, rolls=list(rolls), hits=len(crits),
                   criticals=sum(crits))
        if not crits:
            return
        # DR-053: no armour saves against flame
        saved = [False] * len(crits) if w.flamer else self._save_chain(t, len(crits), "DR-093")
        total = sum(0 if ok else (2 if crit else 1) for ok, crit in zip(saved, crits, strict=True))
        self._damage(t, total, v.id, "DR-094" if any(crits) and total else "DR-090")

    def _auto_activation_end(self) -> None:
        st = self.state
        act = self._act()
        v = self.vehicle(act.vid)
        self._emit("activation_end", "DR-023", vehicle=v.id)
        st.act = None
        st.to_act = 1 - v.player
        st.phase = "next_activation"
        s = st.stash
        if s.status == "placed" and s.pos is not None:
            running = [u for u in st.vehicles.values() if u.status == RUNNING]
            if running and all(min(q[1] for q in B.footprint(u)) > s.pos[1] for u in running):
                s.status, s.pos = "gone", None  # DR-108, DRR-28
                self._emit("stash", "DR-108", event="passed by every vehicle")
        if st.mission == "devils-run":
            self._zero_active_check("DR-109")

    def _zero_active_check(self, source: str) -> bool:
        a0, a1 = len(self.active(0)), len(self.active(1))
        if a0 and a1:
            return False
        if not a0 and not a1:
            self._finish(None, "no active vehicles on either side", source)
        else:
            self._finish(0 if a0 else 1, "opponent has no active vehicles", source)
        return True

    def _auto_turn_end(self) -> None:
        st = self.state
        m = self.mission
        self._emit("turn_end", "DR-023", turn=st.turn)
        st.phase = "turn_start"
        if st.mission == "devils-run":
            if self._zero_active_check("DR-109"):
                return
            if st.turn >= m.turns:
                self._finish(None, "seven turns without a winner", "DRR-30")
            return
        if self._zero_active_check("DR-114"):
            return
        if st.turn in m.disengage:
            top = m.disengage[st.turn]
            ends = top >= 10 or self._roll(1, 10, f"disengage (1-{top})", "DR-110")[0] <= top
            if ends:
                a, b = st.collected
                winner = None if a == b else (0 if a > b else 1)
                why = ("disengage: most chassis tokens collected" if winner is not None
                       else "disengage: equal chassis tokens")
                self._finish(winner, why, "DR-114")

    # --- decisions ------------------------------------------------------------------------

    def _decision(self) -> Decision:
        st = self.state
        ph = st.phase
        gname = [gangs()[g].name for g in st.gangs]
        if ph == "side":
            return self._d(st.rolloff_winner, "deploy_side", "Deploy on letters or numbers?",
                           [Option("letters", "A-D"), Option("numbers", "1-4")], "DR-013")
        if ph == "deploy":
            p = st.deploy_player
            opts = []
            squares = self._deploy_squares(p)
            for v in st.vehicles.values():
                if v.player == p and v.status == RESERVE:
                    for label, sq in squares.items():
                        if self._deploy_fits(v, sq):
                            opts.append(Option(f"{v.id}@{label}", f"{v.id} on {label} {sq}"))
            return self._d(p, "deploy", "Place a vehicle on a deployment square", opts, "DR-017")
        if ph == "first":
            return self._d(st.rolloff_winner, "first_player", "Who activates first this turn?",
                           [Option(0, gname[0]), Option(1, gname[1])], "DR-022")
        if ph == "stash_place":
            return self._d(st.stash.chooser or 0, "stash_square", "Place the stash",
                           [Option(f"{x},{y}", f"({x},{y})") for x, y in self._stash_free()],
                           "DRR-24")
        if ph == "activate":
            return self._d(st.to_act, "activate", "Activate a vehicle",
                           [Option(v.id, f"{v.id} ({v.status})")
                            for v in self._eligible(st.to_act)],
                           "DR-023")
        act = self._act()
        v = self.vehicle(act.vid)
        if ph == "action":
            return self._d(v.player, "action", f"{v.id}: choose its move",
                           [Option(a, ACTION_LABELS[a]) for a in self._action_options(v)],
                           "DR-063", vehicle=v.id)
        if ph == "keep":
            vals = sorted(set(act.dice))
            return self._d(v.player, "keep_d3", f"{v.id}: keep which D3?",
                           [Option(x, str(x)) for x in vals], "DR-047", vehicle=v.id)
        if ph == "step":
            opts = [Option(c, c) for c in self._step_options()]
            if act.spent >= act.min_required:
                opts.append(Option("stop", "end the move"))
            return self._d(v.player, "step",
                           f"{v.id}: {act.allowance - act.spent} movement left "
                           f"(at least {max(0, act.min_required - act.spent)} more)",
                           opts, "DR-071", vehicle=v.id)
        if ph == "target":
            return self._d(v.player, "offensive_target", f"{v.id}: {act.action} which square?",
                           [Option(k, k) for k in sorted(self.plans())], "DR-075", vehicle=v.id)
        if ph == "evade":
            t = self.vehicle(act.target or "")
            return self._d(t.player, "evade", f"{t.id}: evade the {act.action}?",
                           [Option("evade", f"roll E {B.vtype(t).e}"), Option("stay", "take it")],
                           "DR-085", vehicle=t.id, target=v.id)
        if ph == "evade_square":
            t = self.vehicle(act.target or "")
            return self._d(t.player, "evade_square", f"{t.id}: evade into which square?",
                           [Option(f"{x},{y}", f"({x},{y})") for x, y in act.evade_squares],
                           "DRR-15", vehicle=t.id, target=v.id)
        if ph == "ap2":
            return self._d(v.player, "second_action", f"{v.id}: second action point",
                           [Option(a, a) for a in self._ap2_options()], "DR-061", vehicle=v.id)
        assert ph == "shoot"
        mount = B.vtype(v).mounts[act.weapon]
        opts = [Option(tid, f"{tid} (BS {B.vtype(v).bs(mount.slot) + m:+d}, range {d})")
                for tid, m, d in self._targets(v, act.weapon)]
        opts.append(Option("hold", "hold fire"))
        return self._d(v.player, "shoot_target", f"{v.id}: {mount.weapon.name} ({mount.slot})",
                       opts, "DR-062", vehicle=v.id, weapon=f"{mount.weapon.key}#{act.weapon}")

    def _action_options(self, v: VehicleState) -> list[str]:
        st = self.state
        if v.status == WRECK:
            taken = {s for u in st.vehicles.values() if u.status == RUNNING for s in B.footprint(u)}
            if any(s in taken for s in B.footprint(v)):
                return ["pass"]  # DRR-19
            return ["repair", "pass"]
        out = ["peddle", "brake"]
        mm = B.vtype(v).mm
        for kind in OFFENSIVE:
            if self._plans(v, kind, mm + 3, 3, False, first_only=True):
                out.append(kind)
        return out

    # --- applying decisions ---------------------------------------------------------------

    def _apply_side(self, value: str | int) -> None:
        st = self.state
        w = st.rolloff_winner
        st.sides = {str(w): str(value), str(1 - w): "numbers" if value == "letters" else "letters"}
        st.deploy_player = w
        st.phase = "deploy_next"

    def _apply_deploy(self, value: str | int) -> None:
        st = self.state
        vid, label = str(value).split("@")
        v = self.vehicle(vid)
        sq = self._deploy_squares(v.player)[label]
        v.status = RUNNING
        v.pos = sq
        self._emit("deployed", "DR-017", vehicle=vid, label=label, square=list(sq))
        st.deploy_player = 1 - v.player
        st.phase = "deploy_next"

    def _apply_first(self, value: str | int) -> None:
        st = self.state
        st.first_player = int(value)
        st.to_act = int(value)
        st.phase = "stash_roll"

    def _apply_stash_place(self, value: str | int) -> None:
        st = self.state
        x, y = (int(c) for c in str(value).split(","))
        st.stash.status, st.stash.pos, st.stash.chooser = "placed", (x, y), None
        for u in st.vehicles.values():
            u.missed_stash = False
        self._emit("stash", "DR-106", event="placed", square=[x, y])
        st.phase = "next_activation"

    def _apply_activate(self, value: str | int) -> None:
        st = self.state
        st.activated.append(str(value))
        st.act = Activation(vid=str(value))
        self._emit("activation", "DR-023", vehicle=str(value), turn=st.turn)
        st.phase = "action"

    def _apply_action(self, value: str | int) -> None:
        st = self.state
        act, v = self._act(), self._av()
        act.action = str(value)
        if value == "pass":
            st.phase = "activation_end"
        elif value == "repair":
            self._repair(v)
        else:
            act.special = value in OFFENSIVE
            st.phase = "move_roll"

    def _repair(self, v: VehicleState) -> None:
        st = self.state
        act = self._act()
        rolls = self._roll(3, 6, "repair", "DR-068")
        sixes = rolls.count(6)
        st.phase = "activation_end"
        if sixes < 2:
            self._emit("repair", "DR-068", vehicle=v.id, repaired=False)
            return
        v.status = RUNNING
        v.cp = 3 if sixes == 3 else 1
        self._emit("repair", "DR-068", vehicle=v.id, repaired=True, cp=v.cp)
        act.special = True  # its one action point is spent
        if sixes == 3:
            act.action = "peddle"
            st.phase = "move_roll"
            return
        vt = B.vtype(v)  # DRR-20: exactly two sixes: straight ahead its movement modifier
        act.allowance = act.min_required = vt.mm
        for _ in range(vt.mm):
            assert v.pos is not None
            new = _add(v.pos, (0, 1))
            if not self._fits(v, new, allow_front=True):
                break
            self._place(v, new)
            act.spent += 1
            act.moved += 1
            if self._enter(v, act) or v.status != RUNNING:
                break
        self._check_carrier(v)

    def _apply_keep(self, value: str | int) -> None:
        self._start_move(int(value))

    def _apply_step(self, value: str | int) -> None:
        st = self.state
        act, v = self._act(), self._av()
        if value == "stop":
            st.phase = "move_done"
            return
        assert v.pos is not None
        vec = STEPS[str(value)]
        act.spent += self._cost(v, vec)
        act.moved += 1
        self._place(v, _add(v.pos, vec))
        stop = self._enter(v, act)
        self._check_carrier(v)
        st.phase = "move_done" if stop or v.status != RUNNING else "step_check"

    def _apply_target(self, value: str | int) -> None:
        act = self._act()
        plan = self.plans()[str(value)]
        act.target, act.target_square = plan.target, plan.square
        act.path, act.push, act.straight = list(plan.path), plan.push, plan.straight
        act.moved = plan.moved
        self._emit("offensive_declared", "DR-075", vehicle=act.vid, action=act.action,
                   target=plan.target, square=plan.square)
        self.state.phase = "approach"

    def _apply_evade(self, value: str | int) -> None:
        act = self._act()
        t = self.vehicle(act.target or "")
        if value == "stay":
            self.state.phase = "hit"
            return
        e = B.vtype(t).e
        r = self._roll(1, 10, f"evade (E {e})", "DR-085")[0]
        if r > e:
            self._emit("evade_failed", "DR-088", vehicle=t.id)
            self.state.phase = "hit"
        elif len(act.evade_squares) > 1:
            self.state.phase = "evade_square"
        else:
            self._evade_to(act.evade_squares[0])

    def _apply_evade_square(self, value: str | int) -> None:
        x, y = (int(c) for c in str(value).split(","))
        self._evade_to((x, y))

    def _apply_ap2(self, value: str | int) -> None:
        st = self.state
        act, v = self._act(), self._av()
        if value == "shoot":
            act.weapon = 0
            st.phase = "shoot_check"
            return
        st.phase = "activation_end"
        if value == "pickup":
            e = B.vtype(v).e + self.mission.pickup_bonus
            r = self._roll(1, 10, f"stash pick-up (E {e})", "DR-107")[0]
            if r <= e:
                v.carrying = True
                t = B.tile_at(st, (v.pos or (0, 0))[1])
                st.stash.status, st.stash.pos, st.stash.carrier = "carried", None, v.id
                st.stash.pickup_tile = t.placed if t else -1
                self._emit("stash", "DR-107", event="picked up", vehicle=v.id)
            else:
                v.missed_stash = True  # DRR-25
                self._emit("stash", "DR-107", event="missed", vehicle=v.id)

    def _apply_shoot(self, value: str | int) -> None:
        act, v = self._act(), self._av()
        if value != "hold":
            self._shoot(v, act.weapon, str(value))
        act.weapon += 1
        self.state.phase = "shoot_check"


# --- snapshots ----------------------------------------------------------------------------

def copy_dice(dice: DiceSource) -> DiceSource:
    """An independent dice source that rolls exactly what ``dice`` would roll next."""
    fork = getattr(dice, "fork", None)
    return fork() if callable(fork) else copy.deepcopy(dice)


def dice_doc(dice: DiceSource) -> dict[str, Any]:
    """The kernel's JSON form of the dice, where they stand now."""
    state = getattr(dice, "state", None)
    if not callable(state):
        raise ValueError(f"cannot snapshot dice of type {type(dice).__name__}")
    return dice_to_json(dice, state())


def dice_from_doc(doc: dict[str, Any]) -> DiceSource:
    return dice_from_json(doc)[0]


def restore(doc: dict[str, Any]) -> DevilsRunGame:
    """Rebuild a game from ``snapshot()``: same pending decision, same future."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise ValueError(f"not a Devil's Run snapshot (format {got!r}, expected {FORMAT!r})")
    from carnage.games.devilsrun.check import check_devilsrun_doc, check_devilsrun_state
    from carnage.kernel.game import check_script
    from carnage.kernel.validate import Invalid

    try:
        check_devilsrun_doc(doc)
        state = GameState.from_doc(doc["state"])
        check_devilsrun_state(state, PHASES)
        dice = dice_from_doc(doc["dice"])
        check_script(dice, MAX_FACES)
        g = DevilsRunGame(state, dice, dict(doc["setup"]))
        g.choices = list(doc["choices"])
        g.log = EventLog([Event.from_json(e) for e in doc["log"]])
    except Invalid as e:
        raise ValueError(str(e)) from None
    except (KeyError, TypeError) as e:
        raise ValueError(f"malformed Devil's Run snapshot: {e}") from e
    try:
        g.pending()  # the decision it waits for must be one it can ask
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError) as e:
        raise ValueError(f"state: its pending decision cannot be made "
                         f"({type(e).__name__}: {e})") from None
    return g


MAX_FACES = 10
"""The largest die Devil's Run rolls (a D10)."""
PHASES = DECISION_PHASES | {"over"} | frozenset(
    name.removeprefix("_auto_") for name in dir(DevilsRunGame) if name.startswith("_auto_"))
"""Every phase the state machine has a step for."""
