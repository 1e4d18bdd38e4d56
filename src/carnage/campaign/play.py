"""Playing a campaign's next event with bots on the engine, and recording it in one go.

Works for every mode through ``carnage.campaign.modes.MODES``: the mode names the next game,
offers its pre-game decisions (bots answer them), builds the game, and offers the post-game
sequence (bots answer it); the pre-game and post-game records are appended as one
transaction, refused if the campaign changed meanwhile.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from carnage.campaign.steps import SeasonError, StepAsk, extended
from carnage.campaign.store import CampaignStore
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import Status


@dataclass(frozen=True)
class EventResult:
    game_id: str
    scenario: str
    seed: int
    places: list[list[int]]
    reason: str
    rounds: int
    version: int
    kind: str = "event"
    number: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "scenario": self.scenario, "seed": self.seed,
                "places": self.places, "reason": self.reason, "rounds": self.rounds,
                "version": self.version, "kind": self.kind, "number": self.number}


def finishing_order(game: Game) -> list[list[int]]:
    """Engine seats best first, tied seats grouped. Death Race freezes its own order of places
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


def game_result(game: Game) -> tuple[str, int]:
    """Why the game ended and how many rounds it lasted."""
    o = game.outcome()
    return ("" if o is None else o.reason), (game.state.round if o is None else o.rounds)


Policy = Callable[[StepAsk], Any]


def play_next(store: CampaignStore, cid: str, bots: Sequence[str],
              seed: int | None = None, max_rounds: int | None = None,
              request: Mapping[str, Any] | None = None,
              policy: Policy | None = None) -> EventResult:
    """Play the campaign's next event with ``bots`` (one name for all, or one per seat of the
    event), answer its pre- and post-game decisions with ``policy`` (each question's default
    when None) and append them as one transaction (refused if the campaign changed).
    ``request``: the meeting's choices for the mode's ``next_event``."""
    from carnage.ai import make_bot, play_out
    from carnage.ai.runner import bot_rng
    from carnage.campaign.modes import mode_of
    from carnage.games.refuelled.setup import SetupError
    from carnage.rulesets import build_game

    c = store.get(cid)
    mode = mode_of(c.mode)
    ev = mode.next_event(c, request)
    if ev is None:
        raise SeasonError(f"campaign {cid} is over: no event is left to play")
    if not ev.seats:
        raise SeasonError(f"campaign {cid} has no teams")
    names = list(bots) if len(bots) > 1 else [bots[0]] * len(ev.seats)
    if len(names) != len(ev.seats):
        raise SeasonError(f"{len(names)} bots for {len(ev.seats)} teams")
    seed = secrets.randbits(48) if seed is None else seed
    pre = mode.pregame(c, ev).auto(policy).records()
    before = extended(c, pre)
    ev = mode.next_event(before, request) or ev  # what the pre-game decided (a Revolution)
    setup = mode.setup(before, ev)
    if max_rounds is not None:
        setup = replace(setup, max_rounds=max_rounds)
    try:
        game = build_game(setup, seed)
        play_out(game, [make_bot(b) for b in names], bot_rng(seed))
    except (SetupError, KeyError) as e:
        raise SeasonError(f"event {ev.number} ({ev.scenario}): {e}") from None
    gid = secrets.token_hex(8)
    post = mode.post_game(before, ev, game, gid, seed).auto(policy).records()
    version = store.append(cid, c.version, [*pre, *post])
    result = next((r for r in post if r.kind == "game"), None)
    places = [] if result is None else [list(g) for g in result.data.get("places", [])]
    reason, rounds = game_result(game)
    return EventResult(gid, ev.scenario, seed, places, reason, rounds, version, ev.kind,
                       ev.number)
