"""Persistence for the web table: saved teams and games (SQLAlchemy 2, any database URL).

A game is stored as what rebuilds it exactly: its setup (scenario and teams), its seats, its
dice seed and the list of choices applied so far; the engine replays those on load. Status,
round and winner are kept beside them only for listing games without rebuilding them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from alembic.util.exc import CommandError
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Integer,
    String,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class StoreError(ValueError):
    """The database cannot be opened (bad URL, unwritable file); one-line message."""


class Base(DeclarativeBase):
    pass


def _now() -> datetime:
    return datetime.now(UTC)


class TeamRow(Base):
    __tablename__ = "teams"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(80))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # server-drawn seeds have 62 bits
    choices: Mapped[list[Any]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    round: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GameDiceRow(Base):
    """How a game's dice seed was set: chosen at creation (bots, one human, hot-seat) or drawn
    by the server. Its own table, so databases made before it need no migration; a game
    without a row is taken as chosen (the cautious reading)."""

    __tablename__ = "game_dice"

    game_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    seed_chosen: Mapped[bool] = mapped_column(Boolean)


class GameSnapshotRow(Base):
    """The game as its engine saves it (``Game.snapshot()``, a versioned JSON document) after
    ``version`` choices: what the table resumes from. Its own table, so older databases need no
    migration; a game without one (or with a stale one) is rebuilt from its choices."""

    __tablename__ = "game_snapshots"

    game_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    doc: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class StoredTeam:
    id: str
    data: dict[str, Any]


@dataclass(frozen=True)
class StoredGame:
    id: str
    scenario: str
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    choices: list[Any]
    finished: bool
    round: int
    winner: int | None
    created: datetime
    seed_chosen: bool = True
    """The seed was chosen at creation (not drawn by the server)."""
    snapshot: dict[str, Any] | None = field(default=None, compare=False)
    """The game's snapshot after ``choices``, saved with it when given."""


def _game(row: GameRow, dice: GameDiceRow | None) -> StoredGame:
    return StoredGame(
        id=row.id, scenario=row.scenario, setup=dict(row.setup), seats=list(row.seats),
        seed=row.seed, choices=list(row.choices), finished=row.finished, round=row.round,
        winner=row.winner, created=row.created,
        seed_chosen=True if dice is None else dice.seed_chosen,
    )


class Store:
    """Teams and games in one database. Thread-safe: each call opens its own session."""

    def __init__(self, url: str) -> None:
        try:
            kwargs: dict[str, Any] = {}
            if url.startswith("sqlite"):
                kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            self.engine: Engine = create_engine(url, **kwargs)
            if url.startswith("sqlite"):
                event.listen(self.engine, "connect", _sqlite_pragmas)
            from carnage.campaign.migrate import upgrade

            upgrade(self.engine)  # Alembic: new databases, old ones adopted
        except (ArgumentError, OperationalError, ImportError, ValueError, CommandError) as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise StoreError(f"cannot open database {url!r}: {first}") from None
        self._write = threading.Lock()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            yield s

    def close(self) -> None:
        self.engine.dispose()

    # -- teams -----------------------------------------------------------------------------------
    def add_team(self, tid: str, data: dict[str, Any]) -> None:
        with self._write, self._session() as s:
            s.add(TeamRow(id=tid, name=str(data.get("name", ""))[:200], data=data))

    def put_team(self, tid: str, data: dict[str, Any]) -> bool:
        with self._write, self._session() as s:
            row = s.get(TeamRow, tid)
            if row is None:
                return False
            row.name = str(data.get("name", ""))[:200]
            row.data = data
            row.updated = _now()
            return True

    def delete_team(self, tid: str) -> bool:
        with self._write, self._session() as s:
            row = s.get(TeamRow, tid)
            if row is None:
                return False
            s.delete(row)
            return True

    def team(self, tid: str) -> StoredTeam | None:
        with self._session() as s:
            row = s.get(TeamRow, tid)
            return None if row is None else StoredTeam(row.id, dict(row.data))

    def teams(self) -> list[StoredTeam]:
        with self._session() as s:
            rows = s.scalars(select(TeamRow).order_by(TeamRow.created, TeamRow.id))
            return [StoredTeam(r.id, dict(r.data)) for r in rows]

    # -- games -----------------------------------------------------------------------------------
    def add_game(self, g: StoredGame) -> None:
        with self._write, self._session() as s:
            s.add(GameRow(
                id=g.id, scenario=g.scenario, setup=g.setup, seats=g.seats, seed=g.seed,
                choices=list(g.choices), finished=g.finished, round=g.round, winner=g.winner,
                created=g.created,
            ))
            s.add(GameDiceRow(game_id=g.id, seed_chosen=g.seed_chosen))
            if g.snapshot is not None:
                s.add(GameSnapshotRow(game_id=g.id, version=len(g.choices), doc=g.snapshot))

    def save_progress(
        self, gid: str, choices: list[Any], finished: bool, round_: int, winner: int | None,
        snapshot: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None,
    ) -> None:
        """The game's progress, and its snapshot with it (one transaction); ``seats``: the
        seats too (their preferences and the answers the table gave for them)."""
        with self._write, self._session() as s:
            row = s.get(GameRow, gid)
            if row is None:
                return
            if seats is not None and seats != row.seats:
                row.seats = json.loads(json.dumps(seats))
            row.choices = json.loads(json.dumps(choices))
            row.finished = finished
            row.round = round_
            row.winner = winner
            row.updated = _now()
            if snapshot is not None:
                snap = s.get(GameSnapshotRow, gid)
                if snap is None:
                    s.add(GameSnapshotRow(game_id=gid, version=len(choices), doc=snapshot))
                else:
                    snap.version, snap.doc = len(choices), snapshot

    def snapshot(self, gid: str) -> tuple[int, dict[str, Any]] | None:
        """(version, document) of the game's saved snapshot, if it has one."""
        with self._session() as s:
            snap = s.get(GameSnapshotRow, gid)
            return None if snap is None else (snap.version, dict(snap.doc))

    def delete_game(self, gid: str) -> bool:
        with self._write, self._session() as s:
            row = s.get(GameRow, gid)
            if row is None:
                return False
            s.delete(row)
            return True

    def game(self, gid: str) -> StoredGame | None:
        with self._session() as s:
            row = s.get(GameRow, gid)
            return None if row is None else _game(row, s.get(GameDiceRow, gid))

    def games(self) -> list[StoredGame]:
        with self._session() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created.desc(), GameRow.id))
            dice = {d.game_id: d for d in s.scalars(select(GameDiceRow))}
            return [_game(r, dice.get(r.id)) for r in rows]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
