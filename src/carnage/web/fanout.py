"""Every server process hears of every game change: one PostgreSQL ``LISTEN`` connection.

A process saving a game sends ``NOTIFY carnage_games, '<id> <version>'`` in the saving
transaction (web/db.py), so the notification is delivered only if the save committed. Each
process runs one ``ChangeFeed``: a background thread holding a psycopg 3 connection that
listens on the channel and hands each notification to ``on_change`` (``Games.changed``: the
cached session refreshed, its websockets told). A dropped connection is reopened with a
growing pause; on every (re)connect ``on_connect`` runs, since notifications sent while
disconnected are lost (``Games.changed_all`` refreshes every cached session). With ``on_chat``
it also listens on the chat's channel (``NOTIFY carnage_chat, '<id>'``: web/chat.py) and hands
each game id to it. SQLite serves one process and needs no feed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from carnage.web.chat import CHAT_CHANNEL
from carnage.web.db import CHANNEL, libpq_url

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""How long one wait for notifications lasts (the thread notices ``stop`` between waits)."""
PING_SECONDS = 10.0
"""An idle connection is checked this often (a silently dropped one is noticed and reopened)."""
RETRY_SECONDS = (0.2, 5.0)
"""The first and the longest pause before reconnecting."""
APPLICATION_NAME = "carnage-listen"
"""How the listening connection names itself to the server (``pg_stat_activity``)."""


class ChangeFeed:
    """The LISTEN connection of one process, on its own daemon thread."""

    def __init__(self, url: str, on_change: Callable[[str, int], None],
                 on_connect: Callable[[], None],
                 on_chat: Callable[[str], None] | None = None) -> None:
        self.url = libpq_url(url)
        self.on_change = on_change
        self.on_connect = on_connect
        self.on_chat = on_chat
        self.problem: str | None = None
        """Why the feed is not connected now (None while it is, or before its first try)."""
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="carnage-listen", daemon=True)
        self._thread.start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Close the connection and end the thread (within about ``POLL_SECONDS``)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        pause = RETRY_SECONDS[0]
        while not self._stop.is_set():
            try:
                self._listen()
                pause = RETRY_SECONDS[0]
            except Exception as e:  # psycopg.Error, OSError: reconnect after a pause
                first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                self.problem = f"{type(e).__name__}{': ' + first if first else ''}"
                log.warning("the change listener lost its connection (%s); reconnecting",
                            self.problem)
            finally:
                self._connected.clear()
            self._stop.wait(pause)
            pause = min(pause * 2, RETRY_SECONDS[1])

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                             application_name=APPLICATION_NAME) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            if self.on_chat is not None:
                conn.execute(f"LISTEN {CHAT_CHANNEL}")
            self._connected.set()
            self.problem = None
            self.on_connect()
            checked = time.monotonic()
            while not self._stop.is_set():
                for n in conn.notifies(timeout=POLL_SECONDS):
                    if n.channel == CHAT_CHANNEL:
                        self._deliver_chat(n.payload)
                    else:
                        self._deliver(n.payload)
                if time.monotonic() - checked > PING_SECONDS:
                    conn.execute("SELECT 1")
                    checked = time.monotonic()

    def _deliver(self, payload: str) -> None:
        gid, _, version = payload.partition(" ")
        try:
            v = int(version)
        except ValueError:
            log.warning("ignored a malformed change notification %r", payload[:80])
            return
        try:
            self.on_change(gid, v)
        except Exception:
            log.exception("refreshing game %s failed", gid)

    def _deliver_chat(self, gid: str) -> None:
        if self.on_chat is None:
            return
        try:
            self.on_chat(gid)
        except Exception:
            log.exception("waking the chat of game %s failed", gid)
