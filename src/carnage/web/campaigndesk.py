"""Campaigns on the web table: seats and their tokens, the next event played on the table,
the decisions before and after it offered seat by seat, roster changes between games.

Every write names the campaign version the client saw. A stale version is refused with 409
before anything is done, and the store's own check refuses a write that loses a race, so two
browsers are serialised or refused, never merged. Reads bring the campaign forward as far as
it goes without a human: a finished table game's post-game sequence is recorded (bot seats
answer their own steps) the first time anyone looks.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, cast

from carnage.campaign.steps import SeasonError, StepAsk, secret
from carnage.campaign.store import Campaign, CampaignError, CampaignStore, ConflictError, Record
from carnage.kernel.session import SetupRefused
from carnage.team import TeamSpec
from carnage.web import campaigns as modes
from carnage.web.ownership import (
    CAMPAIGN_KIND,
    HEADER,
    SEAT_KIND,
    Owners,
    issue_campaign_tokens,
    seat_oid,
    split_tokens,
)
from carnage.web.schemas import Controller
from carnage.web.sessions import ApiError, Games, GameSession, Seat, draw_seed

MAX_ROUNDS = 60
"""Most rounds a campaign's table game may be given from the page."""


_oid = seat_oid


def _conflict(c: Campaign, version: int) -> ApiError:
    return ApiError(409, f"the campaign changed since you loaded it (it is at version "
                         f"{c.version}, you had {version}): reload it and try again; "
                         "nothing was changed")


@dataclass(frozen=True)
class OpenEvent:
    """An event started from the page and not yet recorded."""

    number: int
    seq: int
    """The ``web-event`` record's position."""
    seed: int
    controllers: dict[int, str]
    max_rounds: int | None
    request: dict[str, Any]
    """What the meeting decided for the mode's next event (e.g. who is present)."""
    game: str | None
    """The table game, once the pre-game decisions are made."""


def open_event(c: Campaign) -> OpenEvent | None:
    ev: Record | None = None
    game: str | None = None
    for r in c.records:
        if r.kind == "web-event":
            ev, game = r, None
        elif r.kind == "web-table" and ev is not None:
            game = str(r.data["game"])
        elif r.kind == "web-done":
            ev, game = None, None
    if ev is None:
        return None
    mr = ev.data.get("max_rounds")
    return OpenEvent(int(ev.data["event"]), ev.seq, int(ev.data["seed"]),
                     {int(k): str(v) for k, v in ev.data["controllers"].items()},
                     None if mr is None else int(mr), dict(ev.data.get("request") or {}), game)


def upto(c: Campaign, seq: int) -> Campaign:
    """The campaign as it stood before record ``seq``."""
    return replace(c, records=tuple(r for r in c.records if r.seq < seq))


def step_record(oe: OpenEvent, phase: str, ask: StepAsk, value: Any) -> Record:
    """A seat's answer, kept so the sequence replays; a secret answer only its seat may read."""
    data = {"event": oe.number, "phase": phase, "seat": ask.seat, "kind": ask.kind,
            "value": value}
    return Record("web-step", secret(data, [ask.seat], "value") if ask.secret else data)


def claimed_on_page(c: Campaign) -> set[int]:
    """Seats claimed from the page (``web-seat`` records)."""
    return {int(r.data["seat"]) for r in c.records if r.kind == "web-seat"}


class Desk:
    """The campaign side of the web table (one per app)."""

    def __init__(self, store: CampaignStore, games: Games, owners: Owners) -> None:
        self.store = store
        self.games = games
        self.owners = owners

    # -- reading ---------------------------------------------------------------------------------
    def get(self, cid: str) -> Campaign:
        try:
            return self.store.get(cid)
        except CampaignError as e:
            raise ApiError(404, str(e)) from None

    def claimed(self, c: Campaign) -> set[int]:
        """Seats that have a player: claimed from the page, or given a token when the
        campaign was started (from the page or ``carnage campaign new``)."""
        prefix = f"{c.id}."
        given = {int(oid[len(prefix):]) for oid in self.owners.held(SEAT_KIND, prefix)
                 if oid[len(prefix):].isdigit()}
        return claimed_on_page(c) | given

    def is_owner(self, c: Campaign, header: str | None) -> bool:
        """Whether ``header`` (``X-Owner-Token``) carries the campaign's owner token."""
        tokens = split_tokens(header)
        return bool(tokens) and self.owners.owns(CAMPAIGN_KIND, c.id, tokens)

    def require_owner(self, c: Campaign, header: str | None, what: str) -> None:
        if not split_tokens(header):
            raise ApiError(403, f"{what} needs the campaign's owner token in the {HEADER} "
                                "header (printed by 'carnage campaign new', or "
                                f"'carnage campaign show {c.id} --owner-token')")
        if not self.is_owner(c, header):
            raise ApiError(403, f"{what}: the {HEADER} given is not this campaign's owner "
                                "token")

    def mine(self, header: str | None) -> list[str]:
        """Ids of the campaigns whose owner or seat tokens ``header`` carries."""
        out = set(self.owners.owned(CAMPAIGN_KIND, header))
        out |= {oid.rsplit(".", 1)[0] for oid in self.owners.owned(SEAT_KIND, header)}
        return sorted(out)

    def seat_for(self, c: Campaign, token: str | None) -> int | None:
        """The seat whose token this is (None: a spectator); 403 for a token of no seat."""
        if token is None or not token.strip():
            return None
        for seat in sorted(self.claimed(c)):
            if self.owners.owns(SEAT_KIND, _oid(c.id, seat), [token.strip()]):
                return seat
        raise ApiError(403, "that seat token does not belong to this campaign")

    def _append(self, c: Campaign, version: int, records: Sequence[Record]) -> int:
        if version != c.version:
            raise _conflict(c, version)
        try:
            return self.store.append(c.id, version, records)
        except ConflictError as e:
            raise ApiError(409, f"{e}; nothing was changed") from None
        except CampaignError as e:
            raise ApiError(404, str(e)) from None

    # -- creating and joining --------------------------------------------------------------------
    def create(self, mode: str, options: Mapping[str, Any], teams: Sequence[TeamSpec],
               public: bool = False) -> tuple[Campaign, str, dict[int, str]]:
        """A new campaign with every seat claimed; its owner token and seat tokens."""
        try:
            opts, records = modes.start(mode, options, teams)
        except SeasonError as e:
            raise ApiError(422, str(e)) from None
        records = [*records, *(Record("web-seat", {"seat": s}) for s in range(len(teams)))]
        cid = self.store.create(mode, opts, records, public=public)
        owner, tokens = issue_campaign_tokens(self.owners, cid, range(len(teams)))
        return self.get(cid), owner, tokens

    def claim(self, cid: str, seat: int, version: int,
              owner: str | None) -> tuple[Campaign, str]:
        """The owner gives a seat nobody holds yet a token (a seat whose token was lost is
        not re-issued here: ask whoever holds it); its token."""
        c = self.get(cid)
        self.require_owner(c, owner, "taking a seat")
        seats = {t["seat"] for t in modes.summary(c)["teams"]}
        if seat not in seats:
            raise ApiError(422, f"seat: campaign {cid} has no seat {seat}")
        if seat in self.claimed(c):
            raise ApiError(409, f"seat {seat} is already taken: ask its player for the link")
        self._append(c, version, [Record("web-seat", {"seat": seat})])
        return self.get(cid), self.owners.claim(SEAT_KIND, _oid(cid, seat))

    # -- between games ---------------------------------------------------------------------------
    def change_team(self, cid: str, version: int, token: str | None, seat: int,
                    team: TeamSpec, dry_run: bool) -> tuple[Campaign, modes.RosterCheck]:
        c = self.get(cid)
        you = self.seat_for(c, token)
        if you is None or you != seat:
            raise ApiError(403, f"only seat {seat}'s player may change its roster: send its "
                                "seat token")
        if open_event(c) is not None:
            raise ApiError(409, "an event is being played: rosters change between games")
        check = modes.change_team(c, seat, team)
        if dry_run or check.records is None:
            if version != c.version:
                raise _conflict(c, version)
            return c, check
        self._append(c, version, check.records)
        return self.get(cid), check

    # -- the next event --------------------------------------------------------------------------
    def start_event(self, cid: str, version: int, token: str | None,
                    controllers: Sequence[str], max_rounds: int | None,
                    seed: int | None, request: Mapping[str, Any] | None = None,
                    owner: str | None = None) -> Campaign:
        c = self.get(cid)
        you = self.seat_for(c, token)
        held = self.claimed(c)
        if you is None and not self.is_owner(c, owner):
            raise ApiError(403, "only a player or the owner of this campaign may start its "
                                f"next event: send your seat token (or the {HEADER} header)")
        oe = open_event(c)
        gone: list[Record] = []
        if oe is not None:
            if oe.game is None or self._session(oe.game) is not None:
                raise ApiError(409, "the next event has already been started; reload the "
                                    "campaign")
            # Its table game was deleted: the event is abandoned and started again (WEB-C7).
            gone = [Record("web-done", {"event": oe.number, "game": oe.game,
                                        "abandoned": True}, oe.game)]
        try:
            ev = modes.next_event(c, request)
        except SeasonError as e:
            raise ApiError(422, f"request: {e}") from None
        if ev is None:
            raise ApiError(409, "the campaign is over: there is no next event")
        seats = [t["seat"] for t in modes.summary(c)["teams"]]
        if len(controllers) != len(seats):
            raise ApiError(422, f"controllers: one per seat ({len(seats)}), not "
                                f"{len(controllers)}")
        for s, ctl in zip(seats, controllers, strict=True):
            if ctl == "human" and s not in held and s in ev.seats:
                raise ApiError(422, f"controllers.{seats.index(s)}: seat {s} has no player "
                                    "yet (claim it first, or give it a bot)")
        humans = sum(1 for s, x in zip(seats, controllers, strict=True)
                     if x == "human" and s in ev.seats)
        if seed is not None and humans > 1:
            raise ApiError(422, "seed: a seed may be chosen only when at most one human plays "
                                "(otherwise a player could foresee the dice)")
        seed = draw_seed() if seed is None else seed
        rec = Record("web-event", {"event": ev.number, "seed": seed,
                                   "max_rounds": max_rounds, "request": dict(request or {}),
                                   "controllers": {str(s): x for s, x in
                                                   zip(seats, controllers, strict=True)}})
        self._append(c, version, [*gone, rec])
        return self.advance(cid)

    def choose(self, cid: str, version: int, token: str | None, value: Any) -> Campaign:
        """A seat's answer to the step waiting for it."""
        c = self.get(cid)
        you = self.seat_for(c, token)
        if you is None:
            raise ApiError(403, "a seat token is needed to decide; spectators cannot")
        oe = open_event(c)
        if oe is None:
            raise ApiError(409, "no decision is waiting: no event is open")
        phase, steps = self._steps(c, oe)
        if steps is None:
            raise ApiError(409, "no decision is waiting: the event's game is being played")
        ask = steps.pending()
        if ask is None:
            raise ApiError(409, "no decision is waiting")
        if ask.seat != you:
            raise ApiError(403, f"the decision waiting is seat {ask.seat + 1}'s, not yours")
        if version != c.version:
            raise _conflict(c, version)
        try:
            steps.choose(you, value)
        except SeasonError as e:
            raise ApiError(422, f"value: {e}") from None
        self._append(c, version, [step_record(oe, phase, ask, steps.answers[-1]["value"])])
        return self.advance(cid)

    def _steps(self, c: Campaign, oe: OpenEvent) -> tuple[str, modes.Steps | None]:
        """The event's open step sequence with every choice made so far replayed: the
        pre-game one until the table game exists, then (once it is over) the post-game one;
        None while the game is being played."""
        at_start = upto(c, oe.seq)
        ev = modes.next_event(at_start, oe.request)
        if ev is None:
            raise ApiError(409, "the campaign's event is no longer scheduled")
        if oe.game is None:
            phase, steps = "pregame", modes.pregame(at_start, ev)
        else:
            session = self._session(oe.game)
            if session is None:  # the table game was deleted: the event is abandoned
                return "gone", None
            with session.lock:
                if not session.finished:
                    return "playing", None
                phase = "post"
                steps = modes.post_game(c, ev, session.game, oe.game, oe.seed)
        for r in c.records:
            if (r.kind == "web-step" and r.seq > oe.seq and r.data["phase"] == phase
                    and int(r.data["event"]) == oe.number):
                try:
                    steps.choose(int(r.data["seat"]), r.data["value"])
                except SeasonError as e:
                    raise ApiError(409, f"the campaign's recorded choices no longer replay: "
                                        f"{e}") from None
        return phase, steps

    def advance(self, cid: str) -> Campaign:
        """Bring the campaign forward as far as it goes without a human: bot seats answer their
        steps, the table game is set up once the pre-game decisions are made, and a finished
        game's post-game sequence is recorded. A race with another browser is harmless: the
        loser re-reads."""
        for _ in range(8):
            c = self.get(cid)
            oe = open_event(c)
            if oe is None:
                return c
            phase, steps = self._steps(c, oe)
            if steps is None:
                return c
            new: list[Record] = []
            while (ask := steps.pending()) is not None:
                if oe.controllers.get(ask.seat, "human") == "human":
                    break
                try:
                    steps.choose(ask.seat, ask.default)
                except SeasonError as e:
                    raise ApiError(500, f"a bot's campaign decision was refused: {e}") from None
                new.append(step_record(oe, phase, ask, steps.answers[-1]["value"]))
            done = steps.pending() is None
            game_id: str | None = None
            if done:
                out = steps.records()
                new += out
                if phase == "pregame":
                    game_id = self._table(modes.plus(c, new), oe)
                    new.append(Record("web-table", {"event": oe.number, "game": game_id}))
                else:
                    new.append(Record("web-done", {"event": oe.number, "game": oe.game},
                                      oe.game))
            if not new:
                return c
            try:
                self.store.append(cid, c.version, new)
            except ConflictError:
                if game_id is not None:
                    self.games.store.delete_game(game_id)
                continue
            if not done:
                return self.get(cid)
        return self.get(cid)

    def _session(self, gid: str) -> GameSession | None:
        """The event's table game; None if it has been deleted."""
        try:
            return self.games.get(gid)
        except ApiError as e:
            if e.status == 404:
                return None
            raise

    def _table(self, c: Campaign, oe: OpenEvent) -> str:
        """Set up the event's table game (bots play at once up to the first human); its id."""
        ev = modes.next_event(upto(c, oe.seq), oe.request)
        assert ev is not None
        try:
            setup = modes.setup(c, ev)
        except SeasonError as e:
            raise ApiError(422, f"the event's game cannot be set up: {e}") from None
        if oe.max_rounds is not None:
            setup = setup.with_max_rounds(oe.max_rounds)
        seats = []
        for i, cs in enumerate(ev.seats):
            ctl = cast(Controller, oe.controllers.get(cs, "heuristic"))
            seats.append(Seat(i, ctl, secrets.token_urlsafe(18) if ctl == "human" else None,
                              None))
        gid = uuid.uuid4().hex[:12]
        try:
            # The table's session takes the set-up the mode made (a Refuelled-family one
            # for every mode so far); it refuses one it cannot play with ``SetupRefused``.
            table_setup: Any = setup
            session = GameSession(gid, table_setup, oe.seed, seats, datetime.now(UTC),
                                  self.games.store, seed_chosen=False)
        except (SetupRefused, ValueError, KeyError) as e:
            raise ApiError(422, f"the event's game cannot be set up: {e}") from None
        with session.lock:
            try:
                if self.games.pool is None:  # with a bot pool, its workers play them
                    session.run_bots()
            except Exception as e:
                raise ApiError(500, f"the engine failed while the bots played "
                                    f"({type(e).__name__}: {e})") from None
            self.games.store.add_game(session.stored())
        if self.games.pool is not None:
            self.games.get(gid)  # loaded live: its first bot decision is scheduled
        return gid

    # -- what a seat sees ------------------------------------------------------------------------
    def view(self, cid: str, token: str | None, owner: str | None = None) -> dict[str, Any]:
        c = self.advance(cid)
        you = self.seat_for(c, token)
        summary = modes.summary(c, you)
        held = self.claimed(c)
        out: dict[str, Any] = {
            "id": c.id, "mode": c.mode, "mode_name": modes.mode_name(c), "version": c.version,
            "created": c.created.isoformat(), "options": c.options, "you": you,
            "owner": self.is_owner(c, owner), "public": c.public,
            "seats": [{"seat": t["seat"], "team": t["team"], "claimed": t["seat"] in held}
                      for t in summary["teams"]],
            "summary": summary, "chart": modes.chart(c), "event": None,
        }
        oe = open_event(c)
        if oe is not None:
            out["event"] = self._event_view(c, oe, you, summary)
        return out

    def _event_view(self, c: Campaign, oe: OpenEvent, you: int | None,
                    summary: Mapping[str, Any]) -> dict[str, Any]:
        names = {t["seat"]: t["team"] for t in summary["teams"]}
        ev = modes.next_event(upto(c, oe.seq), oe.request)
        phase, steps = self._steps(c, oe)
        out: dict[str, Any] = {
            "event": oe.number, "scenario": None if ev is None else ev.scenario,
            "next": None if ev is None else ev.to_json(), "phase": phase,
            "controllers": {str(k): v for k, v in oe.controllers.items()},
            "game": oe.game, "url": None, "waiting": None, "ask": None,
        }
        session = None if oe.game is None else self._session(oe.game)
        if oe.game is not None and session is None:
            out["gone"] = True
        elif oe.game is not None and session is not None:
            order = [] if ev is None else list(ev.seats)
            link = f"/games/{oe.game}?campaign={c.id}"
            if you is not None and you in order:
                mine = session.seats[order.index(you)]
                if mine.token:
                    link = f"/games/{oe.game}?token={mine.token}&campaign={c.id}"
            out["url"] = link
            out["finished"] = session.finished
        if steps is not None and (ask := steps.pending()) is not None:
            out["waiting"] = {"seat": ask.seat, "team": names.get(ask.seat, "")}
            if ask.seat == you:  # a step is shown to its own seat only
                out["ask"] = modes.ask_json(ask, names)
        return out
