"""The campaign store: every campaign change is an appended record (SQLAlchemy 2).

A campaign is a header (mode, options, a version number) and an ordered list of records, each
saying what happened, when, and in which game. Nothing is ever updated in place but the
version: standings, allowances and the schedule are derived from the records by the
campaign's mode (``carnage.campaign.modes``, declared by its ruleset). ``append`` writes a
whole post-game sequence in one transaction and only if the caller saw the newest version;
otherwise it raises ``ConflictError``, so two editors are serialised, never merged silently.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from alembic.util.exc import CommandError
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from carnage.campaign.migrate import upgrade
from carnage.kernel import jsontext


class CampaignError(ValueError):
    """A campaign cannot be opened or changed (bad database, unknown id); one-line message."""


class ConflictError(CampaignError):
    """The campaign changed since the caller read it: re-read and try again."""


class _Base(DeclarativeBase):
    pass


def _now() -> datetime:
    return datetime.now(UTC)


class CampaignRow(_Base):
    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    mode: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed to everyone (otherwise only to whoever sends one of its tokens)."""


class RecordRow(_Base):
    __tablename__ = "campaign_records"

    campaign_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("campaigns.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Record:
    """One thing that happened to a campaign. ``seq`` and ``at`` are set by the store."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    seq: int = -1
    at: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "game": self.game_id,
                "at": None if self.at is None else self.at.isoformat(), "data": self.data}


@dataclass(frozen=True)
class Campaign:
    id: str
    mode: str
    options: dict[str, Any]
    version: int
    created: datetime
    records: tuple[Record, ...]
    public: bool = False


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # an acknowledged result survives a crash
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _utc(t: datetime) -> datetime:
    """SQLite hands back naive datetimes; the store writes only UTC."""
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class CampaignStore:
    """Campaigns in one database (SQLite file or PostgreSQL by URL), migrated on open."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            kwargs: dict[str, Any] = {}
            sqlite = url.startswith("sqlite")
            if sqlite:
                kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            elif url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            self.engine: Engine = create_engine(url, json_serializer=jsontext.dumps,
                                                json_deserializer=jsontext.loads, **kwargs)
            if sqlite:
                event.listen(self.engine, "connect", _sqlite_pragmas)
            upgrade(self.engine)
        except (ArgumentError, OperationalError, ImportError, ValueError, SQLAlchemyError,
                CommandError) as e:
            raise CampaignError(f"cannot open database {self.url!r}: {_first_line(e)}") from None

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        try:
            with Session(self.engine, expire_on_commit=False) as s, s.begin():
                yield s
        except OperationalError as e:
            raise CampaignError(f"database error: {_first_line(e)}") from None

    def create(self, mode: str, options: dict[str, Any], records: Sequence[Record],
               public: bool = False) -> str:
        """A new campaign with its first records (one transaction); its id. Its owner and
        seat tokens are the caller's to issue (web/ownership.py ``issue_campaign_tokens``)."""
        cid = secrets.token_hex(6)
        now = _now()
        with self._session() as s:
            s.add(CampaignRow(id=cid, mode=mode, options=options, version=1,
                              created=now, public=public))
            s.flush()
            for i, r in enumerate(records):
                s.add(RecordRow(campaign_id=cid, seq=i, kind=r.kind, game_id=r.game_id,
                                data=r.data, at=now))
        return cid

    def get(self, cid: str) -> Campaign:
        with self._session() as s:
            row = s.get(CampaignRow, cid)
            if row is None:
                raise CampaignError(f"no campaign with id {cid!r}")
            rows = s.scalars(select(RecordRow).where(RecordRow.campaign_id == cid)
                             .order_by(RecordRow.seq))
            records = tuple(Record(r.kind, dict(r.data), r.game_id, r.seq, _utc(r.at))
                            for r in rows)
            return Campaign(row.id, row.mode, dict(row.options), row.version,
                            _utc(row.created), records, bool(row.public))

    def ids(self) -> list[str]:
        with self._session() as s:
            return list(s.scalars(select(CampaignRow.id).order_by(CampaignRow.created)))

    def listed(self, mine: Sequence[str], limit: int = 200) -> list[str]:
        """The newest ``limit`` campaigns that are public or among ``mine``, oldest first."""
        with self._session() as s:
            q = select(CampaignRow.id).order_by(CampaignRow.created.desc()).limit(limit)
            cond = (CampaignRow.public.is_(True) | CampaignRow.id.in_(list(mine))) if mine \
                else CampaignRow.public.is_(True)
            return list(reversed(list(s.scalars(q.where(cond)))))

    def append(self, cid: str, expected_version: int, records: Sequence[Record]) -> int:
        """Append ``records`` as one transaction if the campaign is still at
        ``expected_version``; the new version. ``ConflictError`` if someone else wrote first."""
        now = _now()
        try:
            with self._session() as s:
                bumped = s.execute(
                    update(CampaignRow)
                    .where(CampaignRow.id == cid, CampaignRow.version == expected_version)
                    .values(version=CampaignRow.version + 1))
                if bumped.rowcount != 1:  # type: ignore[attr-defined]
                    row = s.get(CampaignRow, cid)
                    if row is None:
                        raise CampaignError(f"no campaign with id {cid!r}")
                    raise ConflictError(
                        f"campaign {cid} changed (version {row.version}, you had "
                        f"{expected_version}): reload it and try again")
                last = s.scalar(select(func.max(RecordRow.seq))
                                .where(RecordRow.campaign_id == cid))
                start = -1 if last is None else last
                for i, r in enumerate(records, start=start + 1):
                    s.add(RecordRow(campaign_id=cid, seq=i, kind=r.kind, game_id=r.game_id,
                                    data=r.data, at=now))
        except IntegrityError:
            raise ConflictError(f"campaign {cid} changed while writing: reload it and try "
                                "again") from None
        return expected_version + 1
