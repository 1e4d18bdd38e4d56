"""Persistence for the web table: saved teams and games (SQLAlchemy 2, any database URL).

A game is stored as what rebuilds it exactly: its setup (scenario and teams), its seats, its
dice seed and the list of choices applied so far; the engine replays those on load. Status,
round and winner are kept beside them only for listing games without rebuilding them.

The database is the table: any number of server processes may serve the same games. Each
game row carries its ``version`` (the number of choices applied); progress is saved only on
top of the version the saver started from (compare-and-set), so of two processes applying a
choice to the same game at once exactly one wins and the other is told ``StaleSave``. On
PostgreSQL the saving transaction also sends ``NOTIFY carnage_games, '<id> <version>'`` so
every process can refresh its cached copy and tell its websockets (web/fanout.py).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from alembic.util.exc import CommandError
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Integer,
    String,
    bindparam,
    case,
    create_engine,
    event,
    insert,
    null,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from carnage.kernel import jsontext

CHANNEL = "carnage_games"
"""The PostgreSQL notification channel of game changes: payload ``"<game id> <version>"``, the
version -1 for a deleted game."""


class StoreError(ValueError):
    """The database cannot be opened (bad URL, unwritable file); one-line message."""


class StaleSave(Exception):
    """The game moved on (or was deleted) since the saver read it: nothing was written.
    ``current`` is the database's version now, None if the game is gone."""

    def __init__(self, gid: str, expected: int, current: int | None) -> None:
        super().__init__(f"game {gid} is at version {current}, not {expected}"
                         if current is not None else f"game {gid} was deleted")
        self.current = current


def engine_url(url: str) -> str:
    """The SQLAlchemy URL to open: a plain ``postgresql://`` URL runs on psycopg 3 (the driver
    Carnage ships with), as the campaign store does."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def libpq_url(url: str) -> str:
    """``url`` as psycopg itself takes it (no SQLAlchemy driver name)."""
    return make_url(engine_url(url)).set(drivername="postgresql").render_as_string(
        hide_password=False)


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
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The number of choices applied: what a save compares and sets (migration 0005)."""
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
    version: int | None = field(default=None, compare=False)
    """The row's version as read (None: not read from the database; ``len(choices)``)."""


@dataclass(frozen=True)
class Progress:
    """A game's version in the database and, when it is not the version the reader knew,
    its choices and seats (what another process changed in a game it moved on)."""

    version: int
    choices: list[Any] | None
    seats: list[dict[str, Any]] | None


def _game(row: GameRow, dice: GameDiceRow | None) -> StoredGame:
    return StoredGame(
        id=row.id, scenario=row.scenario, setup=dict(row.setup), seats=list(row.seats),
        seed=row.seed, choices=list(row.choices), finished=row.finished, round=row.round,
        winner=row.winner, created=row.created,
        seed_chosen=True if dice is None else dice.seed_chosen, version=row.version,
    )


class Store:
    """Teams and games in one database. Thread-safe: each call opens its own session."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            kwargs: dict[str, Any] = {}
            if url.startswith("sqlite"):
                kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            else:  # a server restarted under us: stale pooled connections are replaced
                kwargs["pool_pre_ping"] = True
            # rows (snapshots above all) as JSON text through orjson (kernel/jsontext.py)
            self.engine: Engine = create_engine(engine_url(url), json_serializer=jsontext.dumps,
                                                json_deserializer=jsontext.loads, **kwargs)
            if url.startswith("sqlite"):
                event.listen(self.engine, "connect", _sqlite_pragmas)
            from carnage.campaign.migrate import upgrade

            upgrade(self.engine)  # Alembic: new databases, old ones adopted
        except (ArgumentError, OperationalError, ImportError, ValueError, CommandError) as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise StoreError(f"cannot open database {url!r}: {first}") from None
        self.postgres = self.engine.dialect.name == "postgresql"
        """Changes are announced with NOTIFY (other processes LISTEN: web/fanout.py)."""
        self._reads: Engine = self.engine.execution_options(isolation_level="AUTOCOMMIT") \
            if self.postgres else self.engine
        """Where a single statement runs: on PostgreSQL without a transaction around it (no
        ``BEGIN``, ``COMMIT`` or ``ROLLBACK`` round trips; one statement is one transaction,
        and sees one snapshot, anyway): the version read, and the progress save."""
        self.shared = self.postgres
        """Other processes may serve this database's games too (PostgreSQL: ``carnage serve
        --workers N``, several hosts); SQLite is served by one process (tests that stand two
        ``Games`` on one SQLite file for two processes say so here)."""
        self._write: AbstractContextManager[Any] = (
            nullcontext() if self.postgres else threading.Lock())
        """SQLite takes one writer at a time (this process's writers queue here, not on the
        file's lock); PostgreSQL writes different games at once (rows lock themselves)."""

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            yield s

    def close(self) -> None:
        self.engine.dispose()

    def _announce(self, s: Session | Connection, gid: str, version: int) -> None:
        """Tell every process's listener, when this transaction commits, that the game
        changed (PostgreSQL; a single SQLite process needs no telling)."""
        if self.postgres:
            s.execute(text("SELECT pg_notify(:ch, :payload)"),
                      {"ch": CHANNEL, "payload": f"{gid} {version}"})

    def ping(self) -> None:
        """One round trip to the database (raises what the driver raises)."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

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
                choices=list(g.choices), version=len(g.choices), finished=g.finished,
                round=g.round, winner=g.winner, created=g.created,
            ))
            s.add(GameDiceRow(game_id=g.id, seed_chosen=g.seed_chosen))
            if g.snapshot is not None:
                s.add(GameSnapshotRow(game_id=g.id, version=len(g.choices), doc=g.snapshot))

    def save_progress(
        self, gid: str, choices: list[Any], finished: bool, round_: int, winner: int | None,
        snapshot: dict[str, Any] | None = None, expected: int | None = None,
        seats: list[dict[str, Any]] | None = None,
        version: int | None = None,
    ) -> None:
        """The game's progress, and its snapshot with it (one transaction), announced to the
        other processes. With ``expected`` (the version the saver started from) only if the
        game is still at it: else nothing is written and ``StaleSave`` says where it is.
        ``seats``: the seats too (their preferences and the answers the table gave for them).
        ``version``: the game's new version, ``len(choices)`` unless choices were undone
        (web/companion.py: the version only grows, so a client of an undone state is stale)."""
        version = len(choices) if version is None else version
        params = {
            "gid": gid, "choices": jsontext.loads(jsontext.dumps(choices)), "version": version,
            "finished": finished, "round": round_, "winner": winner, "updated": _now(),
            **({} if expected is None else {"expected": expected}),
            **({} if seats is None else {"seats": jsontext.loads(jsontext.dumps(seats))})}
        if self.postgres:
            self._save_at_once(gid, params, snapshot, expected)
            return
        with self._write, self.engine.begin() as s:  # Core: no ORM unit of work to flush
            done = s.execute(_SAVES[expected is not None, seats is not None], params)
            if cast("CursorResult[Any]", done).rowcount != 1:  # an UPDATE's result
                if expected is None:
                    return
                now = s.scalar(select(GameRow.version).where(GameRow.id == gid))
                raise StaleSave(gid, expected, now)
            if snapshot is not None:  # replaced without reading the old one back
                moved = s.execute(_SNAPSHOT_SAVE, {"gid": gid, "version": version,
                                                   "doc": snapshot})
                if cast("CursorResult[Any]", moved).rowcount != 1:
                    s.execute(insert(GameSnapshotRow).values(
                        game_id=gid, version=version, doc=snapshot))
            self._announce(s, gid, version)

    def _save_at_once(self, gid: str, params: dict[str, Any],
                      snapshot: dict[str, Any] | None, expected: int | None) -> None:
        """``save_progress`` on PostgreSQL in one statement, so one round trip: the game's
        row updated (compare-and-set with ``expected``), its snapshot written (inserted if it
        had none), the change announced, all only if the row was updated; a statement is one
        transaction, so nothing of it is written, or announced, without the rest."""
        statement = _ONE_STATEMENT_SAVES[expected is not None, "seats" in params,
                                         snapshot is not None]
        values = {**params, "ch": CHANNEL, "payload": f"{gid} {params['version']}",
                  **({} if snapshot is None else {"doc": snapshot})}
        with self._reads.connect() as conn:
            saved = conn.execute(statement, values).scalar()
            if saved == 1 or expected is None:
                return
            now = conn.execute(select(GameRow.version).where(GameRow.id == gid)).scalar()
        raise StaleSave(gid, expected, now)

    def version(self, gid: str) -> int | None:
        """The game's version in the database now (None: no such game): one indexed read."""
        with self._reads.connect() as conn:
            found = conn.execute(select(GameRow.version).where(GameRow.id == gid)).scalar()
            return None if found is None else int(found)

    def progress(self, gid: str, known: int | None) -> Progress | None:
        """The game's version now (None: no such game) in one indexed read, with its choices
        and seats only if that is not ``known`` (the version the reader holds; None: any)."""
        with self._reads.connect() as conn:
            found = conn.execute(_PROGRESS, {"gid": gid, "known": -1 if known is None
                                             else known}).first()
        if found is None:
            return None
        version, choices, seats = found
        if int(version) == known:
            return Progress(int(version), None, None)
        return Progress(int(version), list(choices), list(seats))

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
            self._announce(s, gid, -1)
            return True

    def game(self, gid: str) -> StoredGame | None:
        with self._session() as s:
            row = s.get(GameRow, gid)
            return None if row is None else _game(row, s.get(GameDiceRow, gid))

    def recent_games(self, since: datetime, limit: int) -> list[str]:
        """The ids of the games in progress saved since ``since``, the last saved first, at
        most ``limit``: those a restarted server process loads before it serves."""
        with self._reads.connect() as conn:
            return [str(gid) for gid in conn.scalars(
                select(GameRow.id).where(GameRow.finished.is_(False), GameRow.updated >= since)
                .order_by(GameRow.updated.desc(), GameRow.id).limit(limit))]

    def games(self) -> list[StoredGame]:
        with self._session() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created.desc(), GameRow.id))
            dice = {d.game_id: d for d in s.scalars(select(GameDiceRow))}
            return [_game(r, dice.get(r.id)) for r in rows]


def _bound(column: Any) -> Any:
    """A parameter named and typed as ``column`` (a statement built once, bound per call)."""
    return bindparam(column.key, type_=column.type)


def _save_statement(expected: bool, seats: bool) -> Any:
    """The progress save's ``UPDATE`` (with ``expected``: only at that version; with
    ``seats``: the seats too)."""
    games = GameRow.__table__.c
    cond = [GameRow.id == bindparam("gid")]
    if expected:
        cond.append(GameRow.version == bindparam("expected"))
    cols = [games.choices, games.version, games.finished, games.round, games.winner,
            games.updated] + ([games.seats] if seats else [])
    return update(GameRow).where(*cond).values({c.key: _bound(c) for c in cols})


_SAVES = {(e, t): _save_statement(e, t) for e in (False, True) for t in (False, True)}
"""The progress saves, built once (their SQL compiled once per database dialect)."""
_SNAPSHOT_SAVE = update(GameSnapshotRow).where(
    GameSnapshotRow.game_id == bindparam("gid")).values(
    version=_bound(GameSnapshotRow.__table__.c.version),
    doc=_bound(GameSnapshotRow.__table__.c.doc))


def _one_statement_save(expected: bool, seats: bool, snapshot: bool) -> Any:
    """The progress save as one PostgreSQL statement: the row's ``UPDATE`` (with
    ``expected``: only at that version; with ``seats``: the seats too), then, only for a row
    updated, the snapshot's upsert and ``pg_notify``; it answers the number of rows updated."""
    games = GameRow.__table__.c
    cols = [games.choices, games.version, games.finished, games.round, games.winner,
            games.updated] + ([games.seats] if seats else [])
    where = "id = :gid" + (" AND version = :expected" if expected else "")
    parts = [f"g AS (UPDATE games SET {', '.join(f'{c.key} = :{c.key}' for c in cols)} "
             f"WHERE {where} RETURNING 1)"]
    if snapshot:
        parts.append("s AS (INSERT INTO game_snapshots (game_id, version, doc) "
                     "SELECT :gid, :version, :doc FROM g ON CONFLICT (game_id) DO UPDATE "
                     "SET version = excluded.version, doc = excluded.doc RETURNING 1)")
    parts.append("n AS (SELECT pg_notify(:ch, :payload) FROM g)")
    checked = ["(SELECT count(*) FROM n)"] + (["(SELECT count(*) FROM s)"] if snapshot else [])
    # the notice and the snapshot are only done if the outer query reads them
    sql = (f"WITH {', '.join(parts)} SELECT (SELECT count(*) FROM g) "
           f"WHERE {' + '.join(checked)} >= 0")
    typed = [_bound(c) for c in cols] + [bindparam("gid", type_=String())]
    if snapshot:
        typed.append(_bound(GameSnapshotRow.__table__.c.doc))
    return text(sql).bindparams(*typed)


_ONE_STATEMENT_SAVES = {(e, t, n): _one_statement_save(e, t, n)
                        for e in (False, True) for t in (False, True) for n in (False, True)}
"""``Store.save_progress``'s statements on PostgreSQL, built once."""
_SAME = GameRow.version == bindparam("known")
_PROGRESS = select(GameRow.version, *(type_coerce(case((_SAME, null()), else_=col), JSON)
                                      for col in (GameRow.choices, GameRow.seats))).where(
    GameRow.id == bindparam("gid"))
"""``Store.progress``'s read: the choices and seats only when the version is not ``known``."""


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
