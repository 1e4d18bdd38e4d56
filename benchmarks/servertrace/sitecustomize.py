"""CPU by part inside a ``carnage serve`` process, for ``benchmarks/load.py --trace``.

Python imports ``sitecustomize`` at start-up from the path; ``load.py --trace DIR`` puts this
folder first on the servers' ``PYTHONPATH`` and names DIR in ``CARNAGE_TRACE``. In a server
process (not its bot workers) a thread then waits for the web modules to be imported and wraps
the methods of ``PARTS`` with thread CPU counters (``time.thread_time``), counting each part
inclusively (a part inside another counts in both) and, apart, the outermost part of each
thread ("top"), so the top parts add up to the CPU the wrapped work spent; garbage
collections are timed by generation (``gc.callbacks``), inside whatever part they fell in. Every
``EVERY`` seconds the process writes its figures, with its whole CPU time, to DIR/<pid>.json.
Nothing of this is loaded without ``CARNAGE_TRACE``; it is a benchmark's probe, never the
server's code.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import sys
import threading
import time
from collections import Counter
from typing import Any

PARTS = (
    ("carnage.web.sessions", "Games.create", "create a game"),
    ("carnage.web.sessions", "Games.get", "find the game (sync, schedule)"),
    ("carnage.web.sessions", "Games._refresh", "refresh a watched game (NOTIFY)"),
    ("carnage.web.sessions", "Games._load_once", "load a game (restore, first views)"),
    ("carnage.web.sessions", "Games.warm", "warm-up before serving (games played lately)"),
    ("carnage.web.sessions", "GameSession.decide_json", "REST choice (act and view)"),
    ("carnage.web.seated", "SeatedSession.act", "choice (act)"),
    ("carnage.web.seated", "SeatedSession.apply_bot", "bots' batch applied"),
    ("carnage.web.botpool", "BotPool._answered", "bots' answer handled"),
    ("carnage.web.botpool", "BotPool.schedule", "bot scheduled"),
    ("carnage.web.botpool", "BotPool._unanswered", "bot taken over after grace"),
    ("carnage.web.sessions", "GameSession.view_json", "view (serialised)"),
    ("carnage.web.sessions", "GameSession.view", "view"),
    ("carnage.web.sessions", "GameSession._assisted_view", "view: the table's help"),
    ("carnage.games.refuelled.table_view", "RefuelledTabletop.view", "view: built"),
    ("carnage.games.refuelled.table_view", "preview", "view: pending preview"),
    ("carnage.games.refuelled.table_view", "log_lines", "view: log lines"),
    ("carnage.web.sessions", "dump", "view: serialise"),
    ("carnage.web.sessions", "GameSession.automatic", "the table's own answers"),
    ("carnage.web.sessions", "GameSession.sync", "sync"),
    ("carnage.web.sessions", "GameSession._caught_up", "sync: catch up"),
    ("carnage.web.sessions", "GameSession._reload", "sync: reload"),
    ("carnage.web.sessions", "GameSession.snapshot", "snapshot"),
    ("carnage.web.db", "Store.save_progress", "database: save"),
    ("carnage.web.db", "Store.progress", "database: progress read"),
    ("carnage.web.db", "Store.game", "database: game read"),
    ("carnage.web.db", "Store.snapshot", "database: snapshot read"),
    ("carnage.web.db", "Store.add_game", "database: new game"),
    ("carnage.web.chat", "Chat.setting", "chat: setting read"),
    ("carnage.web.chat", "Chat.messages", "chat: messages read"),
)
"""(module, attribute path, label) of what is timed."""
EVERY = 1.0

_cpu: Counter[str] = Counter()
_calls: Counter[str] = Counter()
_local = threading.local()


def _wrap(label: str, f: Any) -> Any:
    @functools.wraps(f)
    def timed(*a: Any, **k: Any) -> Any:
        depth = getattr(_local, "depth", 0)
        _local.depth = depth + 1
        t0 = time.thread_time()
        try:
            return f(*a, **k)
        finally:
            spent = time.thread_time() - t0
            _local.depth = depth
            _cpu[label] += spent
            _calls[label] += 1
            if depth == 0:
                _cpu["top: " + label] += spent
                _calls["top: " + label] += 1
    return timed


_gc_started: dict[str, float] = {}


def _gc(phase: str, info: dict[str, Any]) -> None:
    """Garbage collections timed by generation (``gc.callbacks``): CPU of the collecting
    thread, which is all the process does meanwhile."""
    if phase == "start":
        _gc_started["t"] = time.thread_time()
        return
    label = f"garbage collection, generation {info.get('generation')}"
    _cpu[label] += time.thread_time() - _gc_started.get("t", time.thread_time())
    _calls[label] += 1


def _patch() -> None:
    pending = list(PARTS)
    while pending:
        for item in list(pending):
            module, path, label = item
            mod = sys.modules.get(module)
            if mod is None or getattr(getattr(mod, "__spec__", None), "_initializing", False):
                continue  # not imported yet, or being imported
            try:
                owner: Any = mod
                *outer, name = path.split(".")
                for part in outer:
                    owner = getattr(owner, part)
                setattr(owner, name, _wrap(label, getattr(owner, name)))
            except Exception:  # a part this tree has not: left untimed
                pass
            pending.remove(item)
        time.sleep(0.05)


def _dump(folder: str) -> None:
    while True:
        time.sleep(EVERY)
        doc = {"pid": os.getpid(), "cpu": time.process_time(), "parts": dict(_cpu),
               "calls": dict(_calls)}
        tmp = os.path.join(folder, f".{os.getpid()}.tmp")
        with open(tmp, "w") as out:
            json.dump(doc, out)
        os.replace(tmp, os.path.join(folder, f"{os.getpid()}.json"))


_folder = os.environ.get("CARNAGE_TRACE")
if _folder and "serve" in sys.argv:
    gc.callbacks.append(_gc)
    threading.Thread(target=_patch, name="carnage-trace-patch", daemon=True).start()
    threading.Thread(target=_dump, args=(_folder,), name="carnage-trace-dump",
                     daemon=True).start()
