"""Devil's Run games on the server: sessions, seats, bots and their own store table.

Server-authoritative like the Refuelled table (``web/sessions.py``): a ``DrSession`` owns its
``DevilsRunGame`` and is the only thing that changes it, under a per-game lock. A client acts
for a seat by its secret token and names the version (choices applied) it saw; a stale one is
refused with 409, another seat's token with 403, an illegal choice with 422. After a human
choice the bots answer their seats until a human must decide or the game ends; then the
choices and the game's snapshot are saved in one row of ``devilsrun_games`` (a table of its
own: the Refuelled tables are untouched and list only Refuelled games). After a restart a game
resumes from its snapshot (``carnage.restore``), or is replayed from its choices when the
snapshot is missing or stale.
"""

from __future__ import annotations

import random
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Integer, String, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

import carnage
from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.bots import Bot, bot
from carnage.games.devilsrun.data import gangs
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN, replay
from carnage.games.devilsrun.pending import option_odds
from carnage.games.devilsrun.view import explain, game_view
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.game import SnapshotError
from carnage.web import drtext
from carnage.web.schemas import Controller
from carnage.web.seated import SeatedSession
from carnage.web.sessions import ApiError, Listener, Seat, draw_seed

MAX_CACHED = 64
LOG_LINES = 200
"""Log lines a view carries (the newest)."""


def _dr_bot(name: str) -> Bot:
    """A Devil's Run seat's bot: its own bots, or the search bot (same decision API)."""
    if name.startswith("search"):
        from carnage.ai.search import make_search_bot

        return cast(Bot, make_search_bot(name))  # its choices are option values here
    return bot(name)


class _Base(DeclarativeBase):
    pass


class DevilsRunGameRow(_Base):
    """One Devil's Run game: what rebuilds it (mission, gangs, seed, choices), its seats, and
    its latest snapshot (``snapshot_version`` = the choices it was taken after)."""

    __tablename__ = "devilsrun_games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    mission: Mapped[str] = mapped_column(String(40))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_chosen: Mapped[bool] = mapped_column(Boolean)
    choices: Mapped[list[Any]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    snapshot_version: Mapped[int] = mapped_column(Integer, default=-1)
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class DrStored:
    id: str
    mission: str
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    seed_chosen: bool
    choices: list[Any]
    finished: bool
    turn: int
    winner: int | None
    snapshot_version: int
    snapshot: dict[str, Any] | None
    created: datetime


class DrStore:
    """The ``devilsrun_games`` table on the table's database engine (created if missing)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        _Base.metadata.create_all(engine)
        self._write = threading.Lock()

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def add(self, s: DrSession) -> None:
        now = datetime.now(UTC)
        with self._write, self._session() as db, db.begin():
            db.add(DevilsRunGameRow(
                id=s.id, mission=s.game.state.mission, setup=dict(s.game.setup),
                seats=[x.to_json() for x in s.seats], seed=s.seed, seed_chosen=s.seed_chosen,
                choices=list(s.game.choices), finished=s.finished, turn=s.game.state.turn,
                winner=s.winner, snapshot_version=len(s.game.choices),
                snapshot=s.game.snapshot(), created=s.created, updated=now))

    def save(self, s: DrSession) -> None:
        with self._write, self._session() as db, db.begin():
            row = db.get(DevilsRunGameRow, s.id)
            if row is None:
                return
            row.choices = list(s.game.choices)
            row.finished, row.turn, row.winner = s.finished, s.game.state.turn, s.winner
            row.snapshot_version, row.snapshot = len(s.game.choices), s.game.snapshot()
            row.updated = datetime.now(UTC)

    def get(self, gid: str) -> DrStored | None:
        with self._session() as db:
            row = db.get(DevilsRunGameRow, gid)
            return None if row is None else _stored(row)

    def all(self) -> list[DrStored]:
        with self._session() as db:
            rows = db.scalars(select(DevilsRunGameRow).order_by(
                DevilsRunGameRow.created.desc(), DevilsRunGameRow.id))
            return [_stored(r) for r in rows]


def _stored(r: DevilsRunGameRow) -> DrStored:
    return DrStored(r.id, r.mission, dict(r.setup), list(r.seats), r.seed, r.seed_chosen,
                    list(r.choices), r.finished, r.turn, r.winner, r.snapshot_version,
                    None if r.snapshot is None else dict(r.snapshot), r.created)


class DrSession(SeatedSession):
    game: DevilsRunGame

    def __init__(self, gid: str, game: DevilsRunGame, seed: int, seats: Sequence[Seat],
                 created: datetime, seed_chosen: bool, store: DrStore | None = None) -> None:
        self.id = gid
        self.store = store
        self.game = game
        self.seed = seed
        self.seats = list(seats)
        self.created = created
        self.seed_chosen = seed_chosen
        self.lock = threading.RLock()
        self.bots: dict[int, Bot] = {
            s.seat: _dr_bot(s.controller) for s in self.seats if s.controller != "human"}
        self.rng = random.Random(f"devilsrun-bots:{seed}:{len(game.choices)}")
        self.listeners: list[Listener] = []

    @property
    def finished(self) -> bool:
        return self.game.outcome() is not None

    @property
    def winner(self) -> int | None:
        out = self.game.outcome()
        return None if out is None else out.winner


    def view(self, seats: list[int]) -> dict[str, Any]:
        """``devilsrun.view.game_view`` plus the table's part: id, version, seats, whose turn,
        the question and its options in plain words, and the log with each line's rule."""
        with self.lock:
            g = self.game
            v = game_view(g)
            d = g.pending()
            your = d.player if d is not None and d.player in seats else (
                seats[0] if seats else None)
            if d is not None:
                v["pending"]["text"] = drtext.question(g, d, prompt=d.prompt)
                v["pending"]["why"] = explain(d.source)
                odds = option_odds(g, d)
                for o, raw in zip(v["pending"]["options"], d.options, strict=True):
                    o["text"] = drtext.option_label(g, d, raw.value)
                    if str(raw.value) in odds:
                        o["odds"] = odds[str(raw.value)]  # exact odds of what it rolls
            for veh in v["vehicles"]:
                veh["name"] = drtext.vehicle_name(g, veh["id"])
            for w in v["dice"]:
                w["text"] = f"{w['dice']} for {w['why']}: {', '.join(map(str, w['results']))}"
            lines = [(i, e) for i, e in enumerate(g.log.events) if e.kind not in drtext.QUIET]
            v.update({
                "id": self.id,
                "version": self.version,
                "status": "finished" if self.finished else "in_progress",
                "seats": [{"seat": s.seat, "controller": s.controller,
                           "gang": gangs()[g.state.gangs[s.seat]].name} for s in self.seats],
                "your_seat": your,
                "your_turn": d is not None and d.player in seats,
                "seed": self.seed if self.finished or self.seed_chosen else None,
                "log": [{"seq": i, "kind": e.kind, "text": drtext.event_text(g, e),
                         "rule": e.source, "why": explain(e.source)}
                        for i, e in lines[-LOG_LINES:]],
            })
            v["board"]["columns"] = B.WIDTH
            return v

    # -- acting ----------------------------------------------------------------------------
    def accept(self, d: Decision, choice: Any) -> Any:
        return _coerce(d.options, choice)

    def refused(self, d: Decision, choice: Any, e: IllegalChoice) -> ApiError:
        return ApiError(422, str(e))

    def seat_label(self, seat: int) -> str:
        return f"seat {seat}"

    def bot_choice(self, d: Decision) -> Any:
        return self.bots[d.player](self.game, d, self.rng)

    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        self.game = replay_game(self.game.setup, choices)
        return ApiError(500, f"the engine failed ({type(e).__name__}: {e}); the choice was "
                        "not applied")

    def save(self) -> None:
        if self.store is not None:
            self.store.save(self)


def _coerce(options: Sequence[Any], choice: Any) -> str | int:
    """The option ``choice`` names: its value, or the same value sent as text ("1" for 1), so
    browser controls need no type juggling. ``ApiError`` 422 naming the legal values."""
    for o in options:
        if o.value == choice and type(o.value) is type(choice):
            return cast("str | int", o.value)
    if isinstance(choice, str | int) and not isinstance(choice, bool):
        for o in options:
            if str(o.value) == str(choice):
                return cast("str | int", o.value)
    legal = ", ".join(repr(o.value) for o in options[:12])
    more = f" and {len(options) - 12} more" if len(options) > 12 else ""
    shown = repr(choice) if len(repr(choice)) <= 40 else repr(choice)[:37] + "..."
    raise ApiError(422, f"{shown} is not one of the options (legal: {legal}{more})")


def replay_game(setup: dict[str, Any], choices: Sequence[Any]) -> DevilsRunGame:
    try:
        return replay(setup, list(choices))
    except (IllegalChoice, KeyError, TypeError, ValueError) as e:
        raise ApiError(409, f"the saved Devil's Run game no longer replays: {e}") from None


def resume(row: DrStored) -> DevilsRunGame:
    """The saved game from its snapshot when that is current, else replayed from its choices."""
    if row.snapshot is not None and row.snapshot_version == len(row.choices):
        try:
            game = carnage.restore(row.snapshot)
        except (SnapshotError, ValueError, KeyError):
            pass
        else:
            if isinstance(game, DevilsRunGame) and game.choices == list(row.choices):
                return game
    return replay_game(row.setup, row.choices)


class DrGames:
    """Every Devil's Run game: live sessions in memory, all of them in the store."""

    def __init__(self, engine: Engine) -> None:
        self.store = DrStore(engine)
        self._sessions: OrderedDict[str, DrSession] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, mission: str, controllers: list[str], seed: int | None,
               hot_seat: bool) -> DrSession:
        try:
            DEVILS_RUN.scenario(mission)
        except ValueError as e:
            raise ApiError(422, f"mission: {e}") from None
        if len(controllers) != 2:
            raise ApiError(422, f"seats: Devil's Run has 2 seats, not {len(controllers)}")
        humans = controllers.count("human")
        chosen = seed is not None and (humans < 2 or hot_seat)
        used = seed if chosen and seed is not None else draw_seed()
        game = DEVILS_RUN.new_game(mission, seed=used)
        seats = [Seat(i, cast(Controller, c), secrets.token_urlsafe(18) if c == "human"
                      else None, None) for i, c in enumerate(controllers)]
        s = DrSession(uuid.uuid4().hex[:12], game, used, seats, datetime.now(UTC), chosen,
                      self.store)
        with s.lock:
            try:
                s.run_bots()
            except Exception as e:
                raise ApiError(500, f"the engine failed while the bots played "
                               f"({type(e).__name__}: {e})") from None
            self.store.add(s)
        with self._lock:
            self._keep(s)
        return s

    def get(self, gid: str) -> DrSession:
        with self._lock:
            s = self._sessions.get(gid)
            if s is not None:
                self._sessions.move_to_end(gid)
                return s
            row = self.store.get(gid)
            if row is None:
                raise ApiError(404, f"no Devil's Run game with id {gid!r}")
            game = resume(row)
            try:
                seats = [Seat.from_json(x) for x in row.seats]
                s = DrSession(row.id, game, row.seed, seats, row.created, row.seed_chosen,
                              self.store)
            except (KeyError, TypeError, ValueError) as e:
                raise ApiError(409, f"the saved game {gid!r} is damaged: {e}") from None
            self._keep(s)
            return s

    def _keep(self, s: DrSession) -> None:
        self._sessions[s.id] = s
        while len(self._sessions) > MAX_CACHED:
            idle = next((k for k, v in self._sessions.items()
                         if k != s.id and not v.listeners), None)
            if idle is None:
                break
            del self._sessions[idle]

    def forget(self) -> None:
        """Drop every live session (they reload from the store on demand: a restart)."""
        with self._lock:
            self._sessions.clear()
