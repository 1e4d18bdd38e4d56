"""Playing a season's next event with bots on the engine, and recording it in one go."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carnage.campaign.seasons import SeasonError, next_event, post_game_records, teams
from carnage.campaign.store import CampaignStore
from carnage.engine.game import Game
from carnage.engine.state import Status


@dataclass(frozen=True)
class EventResult:
    game_id: str
    scenario: str
    seed: int
    places: list[list[int]]
    reason: str
    rounds: int
    version: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "scenario": self.scenario, "seed": self.seed,
                "places": self.places, "reason": self.reason, "rounds": self.rounds,
                "version": self.version}


def finishing_order(game: Game) -> list[list[int]]:
    """Seats best first, tied seats grouped. Death Race freezes its own order of places
    (p.128, ``state.scenario["places"]``); every other event ranks the winner first, then
    the rest by vehicles still in play, then by Hull Points left (ruling CMP-1)."""
    st = game.state
    seats = sorted({v.player for v in st.vehicles.values() if v.player >= 0})
    raced = st.scenario.get("places") if isinstance(st.scenario, dict) else None
    if isinstance(raced, list) and raced:
        order = [int(p) for p in raced if int(p) in seats]
        rest = [s for s in seats if s not in order]
        return [[s] for s in order] + ([rest] if rest else [])

    def key(seat: int) -> tuple[int, int, int]:
        mine = [v for v in st.vehicles.values() if v.player == seat]
        alive = [v for v in mine if v.status is Status.ACTIVE]
        won = 0 if (st.winner is not None and not st.draw and st.winner == seat) else 1
        return (won, -len(alive), -sum(max(0, v.hull) for v in alive))

    groups: list[list[int]] = []
    for seat in sorted(seats, key=key):
        if groups and key(groups[-1][0]) == key(seat):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def play_next(store: CampaignStore, cid: str, bots: Sequence[str],
              seed: int | None = None, max_rounds: int | None = None) -> EventResult:
    """Play the campaign's next event with ``bots`` (one name for all, or one per seat) and
    append its post-game sequence (one transaction, refused if the campaign changed)."""
    from carnage.ai import make_bot, play_out
    from carnage.ai.runner import bot_rng
    from carnage.engine.game import RuleOptions
    from carnage.rulesets.setup import GameSetup, SetupError, build_game

    c = store.get(cid)
    ev = next_event(c)
    ts = teams(c)
    if not ts:
        raise SeasonError(f"campaign {cid} has no teams")
    names = list(bots) if len(bots) > 1 else [bots[0]] * len(ts)
    if len(names) != len(ts):
        raise SeasonError(f"{len(names)} bots for {len(ts)} teams")
    seed = secrets.randbits(48) if seed is None else seed
    setup = GameSetup(scenario=ev["scenario"],
                      teams=tuple(t.spec.model_copy(update={"cans": t.allowance}) for t in ts),
                      players=len(ts),
                      max_rounds=RuleOptions.max_rounds if max_rounds is None else max_rounds)
    try:
        game = build_game(setup, seed)
        play_out(game, [make_bot(b) for b in names], bot_rng(seed))
    except (SetupError, KeyError) as e:
        raise SeasonError(f"event {ev['game']} ({ev['scenario']}): {e}") from None
    order = finishing_order(game)
    # engine seats are team indices in seat order; record campaign seats
    seat_of = [t.seat for t in ts]
    places = [[seat_of[p] for p in g] for g in order]
    o = game.outcome()
    reason = "" if o is None else o.reason
    rounds = game.state.round if o is None else o.rounds
    gid = secrets.token_hex(8)
    records = post_game_records(c, gid, ev["scenario"], seed, places, reason, rounds)
    version = store.append(cid, c.version, records)
    return EventResult(gid, ev["scenario"], seed, places, reason, rounds, version)
