"""What the search bot (``ai/search.py``) needs to know of Devil's Run: its heuristic bot plays
the rollouts; a position is valued by chassis tokens, chassis points of running vehicles, and
distance up the road."""

from __future__ import annotations

from typing import Any

from carnage.ai.search import Adapter, lead_values, outcome_values
from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.state import RUNNING


class DevilsRunAdapter(Adapter):
    """Devil's Run's rollout policy and value of a position (two players, always)."""

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
        return lead_values(scores, 6.0)
