"""Playing a campaign's next event with bots on the engine, and recording it in one go.

Works for every mode through ``carnage.campaign.modes.MODES``: the mode names the next game,
offers its pre-game decisions (bots answer them), builds the game (``Mode.new_game``), and
offers the post-game sequence (bots answer it); the pre-game and post-game records are
appended as one transaction, refused if the campaign changed meanwhile.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carnage.campaign.steps import SeasonError, StepAsk, extended
from carnage.campaign.store import CampaignStore


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
        setup = setup.with_max_rounds(max_rounds)
    try:
        game = mode.new_game(setup, seed)
        play_out(game, [make_bot(b) for b in names], bot_rng(seed))
    except (SeasonError, KeyError) as e:
        raise SeasonError(f"event {ev.number} ({ev.scenario}): {e}") from None
    gid = secrets.token_hex(8)
    post = mode.post_game(before, ev, game, gid, seed).auto(policy).records()
    version = store.append(cid, c.version, [*pre, *post])
    result = next((r for r in post if r.kind == "game"), None)
    places = [] if result is None else [list(g) for g in result.data.get("places", [])]
    o = game.outcome()  # the game is over: the bots played it out
    reason, rounds = ("", 0) if o is None else (o.reason, o.rounds)
    return EventResult(gid, ev.scenario, seed, places, reason, rounds, version, ev.kind,
                       ev.number)
