"""A small chat between the seats of a game, kept with the game in the database.

Each message is a row of ``game_chat`` (the game, the seat that wrote it, the text, when);
``game_chat_public`` holds the one setting a game's chat has: whether spectators may read it.
A game's chat is private unless one of its seats makes it public (any seat may switch it
either way, and every seat sees who did): a seat always reads its game's chat, a spectator
(no token) reads it only while it is public. Only a seat may write, with its token.

Limits, each refused with a sentence: a message holds 1 to ``MAX_CHARS`` characters (after
trimming; control characters other than line breaks are refused); a seat may send at most
``RATE_COUNT`` messages in ``RATE_SECONDS`` seconds (counted in the database, so every server
process counts the same messages); a game keeps its newest ``KEEP`` messages.

New messages reach the game's websockets through ``ChatHub``: a process-local wake-up on a
post, and, for what another server process stored, on PostgreSQL a ``NOTIFY carnage_chat,
'<game id>'`` sent in the writing transaction (a message, the setting, the chat deleted) that
every process's change listener hands to its hub (web/fanout.py). A socket's chat also looks at
the database every ``POLL_SECONDS`` while no listener is connected (SQLite, or PostgreSQL
while the listener reconnects) and every ``FED_POLL_SECONDS`` while one is, in case a notice
went astray (web/sockets.py calls ``pump`` for each socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

MAX_CHARS = 300
"""Longest message, in characters."""
RATE_COUNT = 5
RATE_SECONDS = 10.0
"""A seat may send at most ``RATE_COUNT`` messages in any ``RATE_SECONDS`` seconds."""
KEEP = 500
"""Messages a game keeps (the oldest are dropped)."""
SHOWN = 200
"""Messages a read answers at most (the newest)."""
POLL_SECONDS = 2.0
"""How often a websocket looks for messages stored by another server process while no change
listener hears of them."""
FED_POLL_SECONDS = 30.0
"""How often it looks while the change listener is connected (every change is announced)."""
CHAT_CHANNEL = "carnage_chat"
"""The PostgreSQL notification channel of chat changes: payload ``"<game id>"``."""

metadata = sa.MetaData()
chat_table = sa.Table(
    "game_chat", metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(40), nullable=False, index=True),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("text", sa.String(MAX_CHARS * 4), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
public_table = sa.Table(
    "game_chat_public", metadata,
    sa.Column("game_id", sa.String(40), primary_key=True),
    sa.Column("public", sa.Boolean(), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=True),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)


class ChatRefused(ValueError):
    """A message or a setting refused: an HTTP status and one sentence."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Message:
    id: int
    seat: int
    text: str
    created: datetime

    def to_json(self, names: Callable[[int], str]) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "name": names(self.seat), "text": self.text,
                "at": self.created.isoformat()}


@dataclass(frozen=True)
class Setting:
    public: bool
    seat: int | None
    """The seat that last set it (None: never set: private)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def clean_text(raw: str) -> str:
    """The message as stored: trimmed; ``ChatRefused`` 422 naming what is wrong."""
    text = raw.strip()
    if not text:
        raise ChatRefused(422, "text: the message is empty")
    if len(text) > MAX_CHARS:
        raise ChatRefused(422, f"text: the message has {len(text)} characters; the limit is "
                               f"{MAX_CHARS}")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co")
                and c not in "\n\t"), None)
    if bad is not None:
        raise ChatRefused(422, f"text: control character U+{ord(bad):04X} is not allowed")
    return text


class Chat:
    """Every game's chat in one database (the web store's engine)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._write = threading.Lock()
        self._announced = engine.dialect.name == "postgresql"
        """Changes are announced with NOTIFY (every process's listener: web/fanout.py)."""
        self._reads = engine.execution_options(isolation_level="AUTOCOMMIT") \
            if self._announced else engine
        """Single-statement reads run without a transaction around them on PostgreSQL (no
        ``BEGIN`` and ``ROLLBACK`` round trips)."""

    def _announce(self, conn: sa.Connection, gid: str) -> None:
        """Tell every process's listener, when this transaction commits, that the game's
        chat changed (PostgreSQL)."""
        if self._announced:
            conn.execute(sa.text("SELECT pg_notify(:ch, :gid)"), {"ch": CHAT_CHANNEL,
                                                                  "gid": gid})

    # -- the setting ---------------------------------------------------------------------------
    def setting(self, gid: str) -> Setting:
        with self._reads.connect() as conn:
            row = conn.execute(sa.select(public_table.c.public, public_table.c.seat).where(
                public_table.c.game_id == gid)).first()
        return Setting(False, None) if row is None else Setting(bool(row[0]), row[1])

    def set_public(self, gid: str, seat: int, public: bool) -> Setting:
        with self._write, self.engine.begin() as conn:
            done = conn.execute(sa.update(public_table).where(
                public_table.c.game_id == gid).values(public=public, seat=seat,
                                                      updated=_now())).rowcount
            if not done:
                conn.execute(sa.insert(public_table).values(
                    game_id=gid, public=public, seat=seat, updated=_now()))
            self._announce(conn, gid)
        return Setting(public, seat)

    # -- messages ------------------------------------------------------------------------------
    def post(self, gid: str, seat: int, raw: str, now: datetime | None = None) -> Message:
        """Store ``seat``'s message; ``ChatRefused`` 422 (text) or 429 (too many, saying how
        long to wait)."""
        text = clean_text(raw)
        at = now or _now()
        with self._write, self.engine.begin() as conn:
            recent = [_aware(t) for t in conn.execute(
                sa.select(chat_table.c.created).where(
                    chat_table.c.game_id == gid, chat_table.c.seat == seat,
                    chat_table.c.created > at - timedelta(seconds=RATE_SECONDS))
                .order_by(chat_table.c.created)).scalars()]
            if len(recent) >= RATE_COUNT:
                wait = RATE_SECONDS - (at - recent[-RATE_COUNT]).total_seconds()
                raise ChatRefused(429, f"too many messages: at most {RATE_COUNT} in "
                                       f"{RATE_SECONDS:g} seconds; wait {max(1, round(wait))} "
                                       "s and send it again")
            mid = conn.execute(sa.insert(chat_table).values(
                game_id=gid, seat=seat, text=text, created=at)).inserted_primary_key
            assert mid is not None
            old = conn.execute(sa.select(chat_table.c.id).where(chat_table.c.game_id == gid)
                               .order_by(chat_table.c.id.desc()).offset(KEEP).limit(1)).scalar()
            if old is not None:
                conn.execute(sa.delete(chat_table).where(chat_table.c.game_id == gid,
                                                         chat_table.c.id <= old))
            self._announce(conn, gid)
        return Message(int(mid[0]), seat, text, at)

    def messages(self, gid: str, since: int = 0, limit: int = SHOWN) -> list[Message]:
        """The game's messages after id ``since``, oldest first (the newest ``limit``)."""
        with self._reads.connect() as conn:
            rows = conn.execute(sa.select(chat_table).where(
                chat_table.c.game_id == gid, chat_table.c.id > since)
                .order_by(chat_table.c.id.desc()).limit(limit)).mappings().all()
        return [Message(int(r["id"]), int(r["seat"]), str(r["text"]), _aware(r["created"]))
                for r in reversed(rows)]

    def forget(self, gid: str) -> None:
        """The game is deleted: its chat goes with it."""
        with self._write, self.engine.begin() as conn:
            conn.execute(sa.delete(chat_table).where(chat_table.c.game_id == gid))
            conn.execute(sa.delete(public_table).where(public_table.c.game_id == gid))
            self._announce(conn, gid)


def may_read(setting: Setting, seats: Sequence[int]) -> bool:
    """A seat reads its game's chat; a spectator only while it is public."""
    return bool(seats) or setting.public


# -- delivery to websockets ----------------------------------------------------------------------
class ChatHub:
    """Wakes this process's websockets of a game when its chat changes. ``fed`` says whether
    the change listener is connected now (then every change is announced to ``changed`` and
    the sockets look at the database only every ``FED_POLL_SECONDS``)."""

    def __init__(self, fed: Callable[[], bool] | None = None) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.fed = fed if fed is not None else (lambda: False)

    def poll_seconds(self) -> float:
        """How long a socket waits for a wake-up before it looks at the database anyway."""
        return FED_POLL_SECONDS if self.fed() else POLL_SECONDS

    def changed_all(self) -> None:
        """Every game's chat may have changed unheard (the listener reconnected)."""
        with self._lock:
            games = list(self._waiting)
        for gid in games:
            self.changed(gid)

    def changed(self, gid: str) -> None:
        with self._lock:
            waiting = list(self._waiting.get(gid, ()))
        for loop, event in waiting:
            with contextlib.suppress(RuntimeError):  # a closed loop: the socket is gone
                loop.call_soon_threadsafe(event.set)

    def _join(self, gid: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            self._waiting.setdefault(gid, []).append(entry)

    def _leave(self, gid: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            left = [e for e in self._waiting.get(gid, []) if e is not entry]
            if left:
                self._waiting[gid] = left
            else:
                self._waiting.pop(gid, None)

    async def pump(self, chat: Chat, gid: str, seats: Sequence[int],
                   names: Callable[[int], str],
                   send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        """Send ``{"type": "chat", "public", "messages": [...]}`` to one socket whenever the
        chat of ``gid`` changes, as ``seats`` may read it (runs until cancelled)."""
        from starlette.concurrency import run_in_threadpool

        entry = (asyncio.get_running_loop(), asyncio.Event())
        self._join(gid, entry)
        try:
            # What the socket's page already read (GET .../chat): nothing is sent for it.
            setting = await run_in_threadpool(chat.setting, gid)
            shown = may_read(setting, seats)
            newest = await run_in_threadpool(chat.messages, gid, 0, 1)
            last = newest[-1].id if newest else 0
            public = setting.public
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(entry[1].wait(), self.poll_seconds())
                entry[1].clear()  # before reading: a change while it reads wakes it again
                setting = await run_in_threadpool(chat.setting, gid)
                readable = may_read(setting, seats)
                new: list[Message] = []
                if readable:  # just made readable (public): the whole chat, else what is new
                    new = await run_in_threadpool(chat.messages, gid, last if shown else 0)
                if new:
                    last = new[-1].id
                if new or readable != shown or setting.public != public:
                    await send({"type": "chat", "public": setting.public, "readable": readable,
                                "messages": [m.to_json(names) for m in new]})
                    shown, public = readable, setting.public
        finally:
            self._leave(gid, entry)
