"""What the search bot needs to know of a Kart race: Refuelled's adapter
(``games/refuelled/ai/search_adapter.py``) with the bot's own rollout policy fitted to karts.

In karts a hit never damages: every hit is a Hazard (MK-20), and a kart on 6 wipes out, down to
gear 1 and turned to a random facing (MK-23, MK-24), which in a race of two rounds or so is
usually the race lost for that kart. So whom an item shoots is a racing choice, and the kart
that matters is the rival kart furthest along. Refuelled's heuristic bot shoots the target it
can roll the most dice at, the first one listed on a tie: with a Kart and a Racer each
carrying a machine gun and a crew handgun, its handgun shot always went at the rival's Kart,
though the Racer won most races. Refuelled's adapter answers whom to shoot with that pick
unsearched, and plays the bot's own rollouts with it.

Here the bot's own shots, when it answers and in its own rollouts, go at the rival vehicle
furthest along (``leader_shot``); the other seats are still modelled by the plain heuristic
bot, which is what they play. And its own rollouts drive for gear 4 as the heuristic bot does,
not Refuelled's gear 5 (``OWN_GEAR``). Measured in heuristic games (docs/performance.md, "The
Kart variant's Street Race: whom the items shoot, and the bot's gear"). Its hard level values
its rollouts after 40 decisions instead of playing them to the end, with the root's bar
corrected for the candidates tested (``RACE_LEVELS``; "The Kart variant's hard level:
outcomes or a horizon", "The hard level in a race").
In a race its own rollouts also spend a Shift on a gear up only with at most one Hazard
(``shift_pick``), beside Refuelled's adapter's Push It (``push_pick``): "Races: the search's
own Push It, and the Kart variant's Shifts". And its own seat takes the starting-grid place
furthest off the grid's centre (``grid_pick``, ``FAR_GRID``): "The Kart race: the starting
grid's far places".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from carnage.ai.search import Choice
from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter
from carnage.kernel.decisions import Decision


class KartAdapter(RefuelledAdapter):
    """Refuelled's adapter for a Kart race: the bot's items shoot the leading rival kart."""

    LEADER_SHOTS = True
    """The bot's own shots (its answers and its own rollouts) go at the rival vehicle
    furthest along (False: the heuristic bot's target, as Refuelled's adapter plays)."""
    OWN_GEAR = 4
    """The gear the bot's own rollout policy drives for. Refuelled's 5 won 60 % of
    Refuelled's Street Races against the plain heuristic bot but 95 of 200 of the Kart
    variant's (seeds 2000-2099, each seat); with the leader shots, gear 4 won 392 of 700
    against the plain bot and gear 5 362 of 700 (seeds 2000-2149 and 3000-3199)."""

    RACE_LEVELS: ClassVar[Mapping[str, Mapping[str, int]]] = {
        "hard": {"horizon": 40, "corrected": 1}}
    """The search levels in a Kart race (Refuelled's ``budget``; its other scenarios take
    Refuelled's ``LEVELS``). Played out to the end, a Kart race's outcomes (two rounds,
    decided by a few skids, smashes and wipeouts) let a candidate that won two more of 8
    shared playouts than the pick replace it: 71 of 100 seeded races, no better than the
    normal level. So the hard level's rollouts stop after 40 decisions, as the normal
    level's do, and are valued as a position (78 of 100 on the same seeds, at two thirds of
    the CPU: docs/performance.md, "The Kart variant's hard level: outcomes or a horizon"). It
    keeps its own flat search (no tree, 5 candidates) and, as Refuelled's race does, asks a
    candidate to clear the bar corrected for the candidates tested: 85 and 83 of seeds
    0-99 and 100-199, against 82 and 80 with the plain bar ("The hard level in a race: the
    normal level's search, a bar corrected for the candidates"; Refuelled's race search won
    80 of 100 here with 64 simulations and the plain bar, and 164 of 200 with its own 48 and
    the corrected bar)."""

    GEAR_UP_HAZARDS = 1
    """In a race the bot's own rollouts spend a Shift on a gear up only with at most this
    many Hazards (the heuristic bot: 2); otherwise on discarding a Hazard (``shift_pick``).
    With the Push it won 605 and 617 of 1,000 heuristic Kart races against 593 and 589 with
    the Push alone (seeds 2000-2499, 5000-5499); in Refuelled and Legacy it lost ground."""

    FAR_GRID = True
    """In a race the bot's own seat takes the starting-grid place furthest off the grid's
    centre (``grid_pick``; the heuristic bot takes the nearest). In heuristic Kart races it
    won 681 of 1,000 against 617 (seeds 5000-5499, each seat); the search with it won 356 of
    400 races at hard (89 %; 174 of seeds 0-199 against 168 without, 91 of 200-299 against
    78) and 101 of 120 at normal (against 92): docs/performance.md, "The Kart race: the
    starting grid's far places". A grid place is answered by the policy at once (``QUICK``),
    so this is the search's own answer too. Refuelled's and Legacy's adapters keep the
    heuristic bot's place (Refuelled's race at normal lost games with the far one)."""

    def _policy(self, game: Any, d: Decision, rng: random.Random) -> Choice:
        pick = super()._policy(game, d, rng)
        if d.player != self.me:
            return pick
        if d.kind == "grid" and self.FAR_GRID and self.racing(game):
            return self.grid_pick(d, pick)
        if d.kind == "spend_shift" and self.racing(game):
            return self.shift_pick(game, d, pick)
        if self.LEADER_SHOTS and d.kind == "attack":
            return self.leader_shot(game, d, pick)
        return pick

    @staticmethod
    def grid_pick(d: Decision, pick: Choice) -> Choice:
        """The grid place (an offset in mm from the grid's centre, p.62) furthest off the
        centre, the first listed on a tie; ``pick`` if no option is an offset."""
        best: tuple[float, Choice] | None = None
        for o in d.options:
            try:
                off = abs(float(str(o.value)))
            except ValueError:
                continue
            if best is None or off > best[0]:
                best = (off, o.value)
        return pick if best is None else best[1]

    def shift_pick(self, game: Any, d: Decision, pick: Choice) -> Choice:
        """``pick`` (the heuristic bot's Shift) with its gear up held to ``GEAR_UP_HAZARDS``:
        a gear up on more Hazards discards one instead (else the Shift is done)."""
        v = game.state.vehicles.get(game.state.active or "")
        if pick != "gear_up" or v is None or v.hazards <= self.GEAR_UP_HAZARDS:
            return pick
        values = {str(o.value) for o in d.options}
        for instead in ("discard_hazard", "done"):
            if instead in values:
                return instead
        return pick

    def leader_shot(self, game: Any, d: Decision, pick: Choice) -> Choice:
        """``pick`` (a shot ``weapon>target``) turned on the rival vehicle in play that is
        furthest along (the value's own ``_progress``: its distance to the goal, gear and
        Hazards), if the same weapon has a shot at it; else ``pick`` (holding fire stays)."""
        weapon, sep, _ = str(pick).partition(">")
        if not sep:
            return pick
        st = game.state
        shooter = st.vehicles.get(d.vehicle or "")
        best: tuple[float, Choice] | None = None
        for o in d.options:
            w, s, t = str(o.value).partition(">")
            v = st.vehicles.get(t)
            if not s or w != weapon or v is None or not v.in_play:
                continue
            if shooter is not None and v.player == shooter.player:
                continue
            ahead = self._progress(game, v)
            if best is None or ahead > best[0]:
                best = (ahead, o.value)
        return pick if best is None else best[1]
