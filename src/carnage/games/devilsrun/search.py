"""What the search bot (``ai/search.py``) needs to know of Devil's Run: its heuristic bot plays
the rollouts; a position is valued by chassis tokens, chassis points of running vehicles,
distance up the road and, in The Devil's Run, the stash: carrying it, or being nearer to it
than the other gang while it lies on the road (grabbing it is how that mission is won)."""

from __future__ import annotations

from typing import Any

from carnage.ai.search import Adapter, lead_values, outcome_values
from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.state import RUNNING


class DevilsRunAdapter(Adapter):
    """Devil's Run's rollout policy and value of a position (two players, always)."""

    STASH_NEAR = 0.75
    """Value lost per square between a gang's nearest running vehicle and the stash while it
    lies on the road (The Devil's Run, DR-107): ten squares nearer is worth about as much as
    carrying it (8); a gang with nothing running is as far as the road is long."""
    FAR = 24

    def __init__(self, players: int = 2) -> None:
        super().__init__(heuristic_bot, players)

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
        stash = st.stash
        if st.mission == "devils-run" and stash.status == "placed" and stash.pos is not None:
            for p in (0, 1):
                near = [B.chebyshev(v.pos, stash.pos) for v in st.vehicles.values()
                        if v.player == p and v.status == RUNNING and v.pos is not None
                        and not v.missed_stash]
                scores[p] -= self.STASH_NEAR * min(near, default=self.FAR)
        return lead_values(scores, 6.0)
