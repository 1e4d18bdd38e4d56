"""What the search bot (``ai/search.py``) needs to know of Devil's Run: its heuristic bot plays
the rollouts (in The Devil's Run the bot's own seat plays ``bots.racing_bot``, and the normal
level's rollouts are played to the end); the copies roll ``PurposeDice``; a position is
valued by chassis tokens, chassis points of running vehicles, distance up the road and, in The
Devil's Run, the mission: the stash (carrying it and how far its carrier still has to go;
being nearer to it than the other gang while it lies on the road, or to the centre of the tile
where it is still to come) and a gang's last active vehicle (with none it has lost)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from carnage.ai.search import Adapter, Choice, PurposeDice, lead_values, outcome_values
from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.bots import heuristic_bot, racing_bot
from carnage.games.devilsrun.data import TILE, Square
from carnage.games.devilsrun.state import RUNNING
from carnage.kernel.decisions import Decision


class DevilsRunAdapter(Adapter):
    """Devil's Run's rollout policy and value of a position (two players, always)."""

    STASH_NEAR = 0.75
    """Value lost per square between a gang's nearest running vehicle and the stash while it
    lies on the road (The Devil's Run, DR-107): ten squares nearer is worth about as much as
    carrying it (8); a gang with nothing running is as far as the road is long."""
    FAR = 24
    LAST_ACTIVE = 6.0
    """Value lost by a gang down to its last active vehicle: with none it loses The Devil's
    Run at once (DR-109; a wreck is not active, DRR-33), so the last one is worth more than
    its chassis points."""
    STASH_COMING = 1.0
    """While the stash is still to come it will be placed on the centre squares of the front
    tile (DR-106; once gone, of the next tile laid, DR-108): the distance to them counts
    this share of ``STASH_NEAR``, so getting up the road to meet it is worth more than the
    0.2 a row every running vehicle earns."""
    CARRIER_ROW = 1.0
    """Value lost per row the stash's carrier still has to drive to reach a tile placed
    after it picked the stash up (DR-109: reaching one wins)."""

    LEVELS: ClassVar[Mapping[str, Mapping[str, int]]] = {
        "normal": {"iterations": 96, "horizon": 400, "depth": 0},
        "hard": {"iterations": 144, "corrected": 1}}
    """The search levels' own settings in The Devil's Run (``budget``; Hell on Wheels keeps
    the levels as they are). A game is seven turns of a few activations, and a rollout to
    its end costs a few milliseconds, so both levels play their rollouts out and compare
    outcomes, with more simulations than elsewhere: 96 at normal, 144 at hard (48 at hard
    won 62 % on seeds 0-49, 144 won 86 %). At hard, a candidate replaces the policy's pick
    only if it clears the bar corrected for the candidates tested (``Level.corrected``): with
    144 simulations most of the five reach the test, where one of them, none better, clears
    the plain bar by luck about half the time. With the plain bar 84 (4 draws) of seeds 0-99
    and 135 (7) of 166; with the corrected bar 86 (5) of seeds 0-99 (docs/performance.md,
    "The Devil's Run at hard: the corrected bar"). Valued after 40 decisions by ``values``, the
    normal level chose worse than its own rollout policy; and with no tree below the root
    (depth 0): a node below the root picks the other gang's answers by UCB as if it searched
    too, whereas it plays the heuristic bot, which the rollouts model exactly (96
    simulations with a tree one decision deep lost 5 of seeds 0-7, which the flat search
    won 7 of). docs/performance.md, "The Devil's Run: the search's own policy and dice keyed
    by purpose"."""

    def __init__(self, players: int = 2) -> None:
        super().__init__(self._policy, players)

    def _policy(self, game: Any, d: Decision, rng: random.Random) -> Choice:
        """In The Devil's Run the bot's own seat races for the stash (``racing_bot``); the
        other gang, and every seat in Hell on Wheels, is played by the plain heuristic bot
        (the other gang: what it plays)."""
        own = d.player == self.me and game.state.mission == "devils-run"
        return (racing_bot if own else heuristic_bot)(game, d, rng)

    def budget(self, level: str, game: Any) -> Mapping[str, int]:
        return self.LEVELS.get(level, {}) if game.state.mission == "devils-run" else {}

    @staticmethod
    def redeal(game: Any, seed: int) -> None:
        """Dice keyed by each roll's purpose (``PurposeDice``; the game names it): the
        candidates meet the same evade, pick-up and movement rolls at the same events, so
        their paired comparison measures the choice, not a shifted stream of dice."""
        game.dice = PurposeDice(seed)

    def values(self, game: Any) -> list[float]:
        out = game.outcome()
        if out is not None:
            return outcome_values(out, self.players)
        st = game.state
        scores = [0.0, 0.0]
        for v in st.vehicles.values():
            if v.player not in (0, 1):
                continue
            if v.status == RUNNING:
                scores[v.player] += 2.0 * v.cp + (0.2 * v.pos[1] if v.pos is not None else 0)
                if v.carrying:
                    scores[v.player] += 8.0
        for p in (0, 1):
            scores[p] += 6.0 * int(st.collected[p])
        if st.mission == "devils-run":
            for p in (0, 1):
                if len(game.active(p)) == 1:
                    scores[p] -= self.LAST_ACTIVE
            carrier = st.stash.carrier
            if st.stash.status == "carried" and carrier is not None:
                c = game.vehicle(carrier)
                if c.status == RUNNING and c.pos is not None and c.player in (0, 1):
                    scores[c.player] -= self.CARRIER_ROW * rows_to_win(st, c.pos[1])
        stash = st.stash
        if st.mission == "devils-run" and stash.status == "placed" and stash.pos is not None:
            for p in (0, 1):
                near = squares_to(st, p, [stash.pos], missed_too=False)
                scores[p] -= self.STASH_NEAR * (self.FAR if near is None else near)
        elif st.mission == "devils-run" and stash.status in ("waiting", "reenter", "gone"):
            # It comes on the front tile, or once gone on the next tile laid (DR-108).
            front = st.tiles[-1].origin + (TILE if stash.status == "gone" else 0)
            squares = [(x, front + r) for x, r in game.mission.stash_squares]
            for p in (0, 1):
                near = squares_to(st, p, squares, missed_too=True)
                scores[p] -= self.STASH_COMING * self.STASH_NEAR * (
                    self.FAR if near is None else near)
        return lead_values(scores, 6.0)


def squares_to(st: Any, player: int, squares: list[Square], *,
               missed_too: bool) -> int | None:
    """Squares (king's moves) from ``player``'s nearest running vehicle to the nearest of
    ``squares``; None when it has none on the road. ``missed_too``: count vehicles marked as
    having missed the stash too."""
    near = [B.chebyshev(v.pos, sq) for v in st.vehicles.values()
            if v.player == player and v.status == RUNNING and v.pos is not None
            and (missed_too or not v.missed_stash) for sq in squares]
    return min(near, default=None)


def rows_to_win(st: Any, row: int) -> int:
    """Rows from ``row`` to the first tile placed after the stash was picked up (the front
    edge when none is on the road yet: driving over it brings a fresh tile)."""
    fresh = [t.origin for t in st.tiles if t.placed > st.stash.pickup_tile]
    goal = min(fresh) if fresh else B.front_end(st)
    return max(0, goal - row)
