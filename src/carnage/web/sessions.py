"""Live games on the server: the game, the seats and their tokens, bots, listeners.

The database is the table: a ``GameSession`` is this process's cached copy of a game, under a
per-game lock, and never the truth. Before a request uses it, it is brought to the database's
version (one indexed read; if another server process moved it, the choices it saved since
are applied to the game in memory, or the game is reloaded from the saved snapshot or choices
when memory went another way). A client acts for a seat by its secret token; each action
names the version (number of choices applied) it was made against, and a stale one is
refused. After a human
choice the session answers every bot decision until a human must decide or the game ends, then
saves the choices only if the database is still at the version it started from
(``SeatedSession.commit``), and tells its listeners (websockets). On PostgreSQL every other
process hears of the change (web/fanout.py) and refreshes its copy and its websockets.
With a bot pool (``Games(store, pool)``, web/botpool.py) the bots answer in worker processes
instead, one decision at a time, each answer taken through ``commit`` too, and the view says
which bot is thinking meanwhile.

Every ruleset's game takes the one path here: it is set up, built, stored, resumed and replayed
through its ``Ruleset`` (``Ruleset.table.setup``, ``Ruleset.restore``) and shown through its
tabletop (``Ruleset.table.tabletop``; a ruleset without one has its partial ``view`` framed by
``web/framed.py``). Nothing here imports a game package.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from carnage import bounds
from carnage.ai.runner import bot_rng, make_bot_for
from carnage.kernel.assist import (
    PREFERENCE_WORDS,
    PREFERENCES,
    TableAssist,
    automatic_answer,
    preference_of,
)
from carnage.kernel.contract import Bot
from carnage.kernel.decisions import Decision, IllegalChoice, lenient_choice
from carnage.kernel.dice import SeededDice
from carnage.kernel.game import SnapshotError
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.session import SetupRefused
from carnage.kernel.table import TableContext, TableRequest, TableSeat, TableSetup, Tabletop
from carnage.kernel.table_dice import is_entry
from carnage.render.table_schemas import BotNoteView, LogLine, ThinkingView
from carnage.rulesets import get_ruleset
from carnage.team import TeamFileError, TeamSpec, check_team, parse_team
from carnage.web.botnotes import NOTES, bot_notes
from carnage.web.botpool import BotPool, Thinking, decision_seed
from carnage.web.companion import KEY as MODE_KEY
from carnage.web.companion import TableMode, physical_setup, split_setup
from carnage.web.db import Progress, StaleSave, Store, StoredGame
from carnage.web.framed import FramedTable, own_teams_setup
from carnage.web.redact import events_for, viewer_key
from carnage.web.schemas import Controller, NewGameRequest
from carnage.web.seated import SeatedSession

MAX_CACHED = 64
"""Live sessions kept in memory; the least recently used idle ones are dropped (they reload)."""
LOG_LINES = 200
"""Log lines a ruleset's own view carries (the newest)."""
CATCH_UP = 64
"""At most this many choices another process saved are applied to the game in memory to catch
up with it; a game further behind is restored from its snapshot."""
REFRESHERS = 2
"""Threads that refresh cached games other processes changed (web/fanout.py)."""
WARM_WITHIN = 600.0
"""A restarted server process loads the games in progress saved in the last this many seconds
before it serves (``Games.warm``)."""
COLD_LOADS = 2
"""Games loaded from the store (restored, their first views built) at once; the others wait
their turn. When a process dies its websockets reconnect to another at once, each loading its
game there: taken two at a time, they are answered one after the other, the first soon,
instead of all sharing the interpreter until the last is done; and the requests for games
already in memory meanwhile share it with two of them, not with all."""
LOAD_STRIPES = 64
"""Locks a game's load from the store takes by its id's hash (two games rarely share one)."""

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error for the client: an HTTP status and one sentence."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Seat:
    seat: int
    controller: Controller
    token: str | None
    team_id: str | None
    prefs: dict[str, str] = field(default_factory=dict, compare=False)
    """How the seat wants each optional prompt asked (``kernel/assist.py``: "ask",
    "matters", "never"), by the prompt's key."""
    auto: dict[int, str] = field(default_factory=dict, compare=False)
    """The choices the table gave for the seat by itself (index -> why), for its log."""
    undo_ask: int | None = field(default=None, compare=False)
    """The version at which the seat asked to undo the last answer, waiting for the other
    seats to agree (ruling CP-20, web/companion.py); stale once the game moves on."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "controller": self.controller,
                               "token": self.token, "team_id": self.team_id}
        if self.prefs:
            out["prefs"] = dict(self.prefs)
        if self.auto:
            out["auto"] = {str(k): v for k, v in sorted(self.auto.items())}
        if self.undo_ask is not None:
            out["undo_ask"] = self.undo_ask
        return out

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Seat:
        prefs = raw.get("prefs") or {}
        auto = raw.get("auto") or {}
        if not isinstance(prefs, dict) or not isinstance(auto, dict):
            raise ValueError("a seat's prefs and auto must be objects")
        ask = raw.get("undo_ask")
        return Seat(int(raw["seat"]), cast(Controller, str(raw["controller"])),
                    raw.get("token"), raw.get("team_id"),
                    {str(k): str(v) for k, v in prefs.items()},
                    {int(k): str(v) for k, v in auto.items()},
                    ask if isinstance(ask, int) and not isinstance(ask, bool) else None)


@dataclass(eq=False)
class Listener:
    """A websocket waiting for changes: notified from any thread, read on its event loop."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int] = field(default_factory=asyncio.Queue)

    def notify(self, version: int) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: the socket is gone
            self.loop.call_soon_threadsafe(self.queue.put_nowait, version)


coerce = lenient_choice
"""``choice`` validated for a decision, a form's "2" taken for the option 2
(``kernel.decisions.lenient_choice``)."""


def seed_may_be_chosen(req: NewGameRequest) -> bool:
    """A seed given at creation is used only when at most one human plays (bots, or one
    human). With two human seats, whoever sets the seed could foresee every die, so the server
    draws it instead, hot-seat too: a hot-seat game still issues one link per seat, and its
    links can be handed to different people."""
    humans = sum(1 for s in req.seats if s.controller == "human")
    return humans < 2


def draw_seed() -> int:
    """A fresh secret seed (53 bits: too many to search from the first rolls, and a seed
    every JSON reader keeps exact, so a revealed seed can be given back: ``bounds.MAX_SEED``)."""
    return secrets.randbelow(bounds.MAX_SEED + 1)


def tabletop_of(ruleset: Ruleset) -> Tabletop:
    """How the table shows ``ruleset``'s games: its own tabletop, else its view framed."""
    return ruleset.table.tabletop or FramedTable(ruleset)


def setup_of(ruleset: Ruleset) -> TableSetup:
    """How the table sets up, stores and rebuilds ``ruleset``'s games."""
    return ruleset.table.setup or own_teams_setup(ruleset)


def ruleset_named_by(setup: Any) -> Ruleset:
    """The ruleset a set-up names (its ``ruleset`` field or key; a set-up saved before games
    named theirs: the registry's default); ``ValueError`` naming an unknown one."""
    name = setup.get("ruleset") if isinstance(setup, Mapping) else getattr(setup, "ruleset", None)
    try:
        return get_ruleset(str(name)) if name else get_ruleset()
    except KeyError as e:
        raise ValueError(str(e.args[0])) from None


class GameSession(SeatedSession):
    """A live game of any ruleset: ``setup`` is the ruleset's set-up object
    (``Ruleset.table.setup``), ``game`` its game; built from them when not given."""

    def __init__(
        self,
        gid: str,
        setup: Any,
        seed: int,
        seats: Sequence[Seat],
        created: datetime,
        store: Store,
        game: Any = None,
        seed_chosen: bool = True,
        ruleset: Ruleset | None = None,
        assisted: bool = True,
        mode: TableMode | None = None,
    ) -> None:
        self.id = gid
        self.mode = mode if mode is not None else TableMode()
        """How the game is played (web/companion.py): companion, hot-seat, table dice."""
        self.assisted = assisted
        """The table answers what cannot matter and what the seats' preferences say, and
        offers shortcuts (``kernel/assist.py``); False: every question is asked."""
        self.ruleset = ruleset if ruleset is not None else ruleset_named_by(setup)
        self.table: Tabletop = tabletop_of(self.ruleset)
        self.setups: TableSetup = setup_of(self.ruleset)
        self.seed_chosen = seed_chosen
        self.setup = setup
        self.seed = seed
        self.seats = list(seats)
        self.created = created
        self.store = store
        self.lock = threading.RLock()
        self.game = game if game is not None else self.mode.build(self.setups, setup, seed)
        begun = 0 if game is _NOT_YET else len(self.game.choices)
        self._saved = begun
        self._told = (begun, None)
        self.bots: dict[int, Bot] = {
            s.seat: make_bot_for(self.ruleset, s.controller)
            for s in self.seats if s.controller != "human"
        }
        self.notes: list[BotNoteView] = []
        """Explanations of the bots' decisions computed in the pool, newest last."""
        self.listeners: list[Listener] = []
        self._views: dict[tuple[int, int | None, tuple[int, ...]], Any] = {}
        self._json: dict[tuple[int, int | None, tuple[int, ...]], bytes] = {}
        self._snapshot: tuple[Any, int, dict[str, Any]] | None = None
        """(game, choices, document) of the last ``snapshot``."""
        self._logs: dict[tuple[int, ...], dict[int, Any]] = {}
        """Log lines already written, per set of viewing seats (secrets differ by seat)."""

    # -- building --------------------------------------------------------------------------------
    def rebuild(self, choices: Sequence[Any]) -> Any:
        """The game from its set-up and seed with ``choices`` applied in order; ``ApiError``
        409 if they no longer replay (e.g. the engine changed under a saved game)."""
        try:
            game = self.mode.build(self.setups, self.setup, self.seed)
        except (ValueError, KeyError, TypeError) as e:
            raise ApiError(409, f"the saved game cannot be set up again: {e}") from None
        for i, c in enumerate(choices):
            if game.pending() is None:
                raise ApiError(409, f"the saved game ended before its choice {i + 1}")
            try:
                game.apply(c)
            except IllegalChoice as e:
                raise ApiError(409, f"the saved game's choice {i + 1} no longer replays: "
                                    f"{e}") from None
        return game

    def fresh(self) -> Any:
        """The game as it started (same set-up, same seed), no choice applied."""
        return self.rebuild([])

    def resume(self, row: StoredGame) -> None:
        """The saved game: from its snapshot when it has a current one, else rebuilt by
        replaying its choices (a game saved before snapshots, or a snapshot that no longer
        restores: damaged or tampered with, refused by restore's checks). The table saves only
        seeded dice, so a snapshot with any other dice is not its own either. Nothing is
        written here: the next move saves a fresh snapshot."""
        before = getattr(self.game, "choices", None)
        # the saved game is the one in memory played on: its log begins with this one's
        went_on = before is not None and list(row.choices[:len(before)]) == list(before)
        game = None
        saved = self.store.snapshot(row.id)
        at = len(row.choices) if row.version is None else row.version
        if saved is not None and saved[0] == at and not self.mode.table_dice \
                and saved[1].get("ruleset") == self.ruleset.name:
            try:
                restored = self.ruleset.restore(saved[1])
            except (SnapshotError, ValueError, KeyError, TypeError):
                pass
            else:
                if isinstance(getattr(restored, "dice", None), SeededDice) \
                        and list(restored.choices) == list(row.choices):
                    game = restored
        self.game = game if game is not None else self.rebuild(row.choices)
        self._saved = at
        # Another process may owe this version's bot decision only where several serve one
        # database (PostgreSQL); SQLite is served by one process, so a game it loads (after
        # a restart, say) is its own at once.
        self.seen_elsewhere = time.monotonic() if self.store.shared else None
        self.undone = max(0, at - len(row.choices))
        with contextlib.suppress(KeyError, TypeError, ValueError):  # the seats' preferences
            self.seats = [Seat.from_json(x) for x in row.seats]  # and the table's answers
        if went_on:  # the log lines written stay true (a line says what its event and those
            self._views.clear()  # before it do, and the engine replays choices exactly)
            self._json.clear()
        else:
            self._forget_views()

    @property
    def saved_version(self) -> int:
        return self._saved

    def sync(self) -> bool:
        """Bring the game to the database's version: one indexed read, and a reload (from the
        saved snapshot or choices) only if another process moved it, its listeners then told.
        True if it was reloaded; ``ApiError`` 404 if the game was deleted meanwhile."""
        with self.lock:
            known = self._saved if self.version == self._saved else None
            now = self.store.progress(self.id, known)
            if now is None:
                raise ApiError(404, f"no game with id {self.id!r}")
            if now.version == known:
                return False
            if not self._caught_up(now):
                self._reload()
        self.notify()
        return True

    def _caught_up(self, now: Progress) -> bool:
        """Bring the game in memory to ``now`` by applying the choices saved after its own,
        when the saved game is the one in memory played on (its choices begin with memory's)
        by at most ``CATCH_UP`` choices: what replaying them from the start or restoring the
        snapshot would give (the engine replays choices exactly), without reading or
        restoring the snapshot. False (memory untouched, or broken and to be reloaded) when
        it is not so: a lost race, undone choices, too many choices, a choice refused."""
        choices = now.choices
        before = list(self.game.choices)
        if choices is None or now.seats is None or self.undone or now.version != len(choices) \
                or not 0 < len(choices) - len(before) <= CATCH_UP \
                or choices[:len(before)] != before:
            return False
        try:
            for c in choices[len(before):]:
                self.game.apply(c)
        except Exception:  # the game in memory is half moved: _reload replaces it, and
            self._forget_views()  # the lines written of it go
            return False
        self._saved = now.version
        self.seen_elsewhere = time.monotonic()
        with contextlib.suppress(KeyError, TypeError, ValueError):  # the seats' preferences
            self.seats = [Seat.from_json(x) for x in now.seats]  # and the table's answers
        self._views.clear()  # the log lines written stay true, as in ``resume``
        self._json.clear()
        return True

    def _reload(self) -> None:
        """The game as the database has it now (``ApiError`` 404 if it is gone)."""
        row = self.store.game(self.id)
        if row is None:
            raise ApiError(404, f"no game with id {self.id!r}")
        self.resume(row)

    def forget_views(self) -> None:
        """Views made before are stale (the game was rebuilt in place: web/companion.py)."""
        self._forget_views()

    def _forget_views(self) -> None:
        self._logs.clear()
        self._views.clear()
        self._json.clear()

    def set_thinking(self, thinking: Thinking | None) -> None:
        with self.lock:
            self.thinking = thinking
            self._json.clear()  # the views built stay: ``view`` tells them who thinks

    def thinking_json(self) -> dict[str, Any] | None:
        """Which bot the game waits for (``GameView.thinking``), or None."""
        t = self.thinking
        if t is None or t.version != self.version:
            return None
        names = self.ruleset.table.seat_names
        team = next((s.team for s in self.seat_controls() if s.seat == t.seat and s.team),
                    names[t.seat] if t.seat < len(names) else self.seat_label(t.seat))
        return t.to_json(team)

    # -- seats and tokens ------------------------------------------------------------------------
    def seat_controls(self) -> list[TableSeat]:
        teams = getattr(self.setup, "teams", ())
        return [TableSeat(s.seat, s.controller,
                          str(getattr(teams[s.seat], "name", "")) if s.seat < len(teams) else "")
                for s in self.seats]

    def _your_seat(self, game: Any, seats: Sequence[int]) -> int | None:
        d = game.pending()
        if d is not None and d.player in seats:
            return int(d.player)
        return seats[0] if seats else None

    # -- reading ---------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.outcome() is not None

    @property
    def winner(self) -> int | None:
        out = self.game.outcome()
        return None if out is None else cast("int | None", out.winner)

    @property
    def round(self) -> int:
        st = self.game.state
        return int(getattr(st, "round", getattr(st, "turn", 0)))

    def _log_cache(self, seats: Sequence[int]) -> dict[int, Any]:
        return self._logs.setdefault(viewer_key(seats), {})

    def context(self, game: Any, seats: Sequence[int], **kw: Any) -> TableContext:
        """What the tabletop is told of a view of ``game`` for ``seats``."""
        return TableContext(gid=self.id, seats=tuple(self.seat_controls()),
                            viewers=tuple(seats), your_seat=self._your_seat(game, seats),
                            seed=self.seed, seed_chosen=self.seed_chosen, **kw)

    def view(self, seats: list[int]) -> Any:
        """What ``seats`` see of the game now: built once per version and set of viewing
        seats (a bot starting, or failing, to think at that version changes only what the
        view says of it), then told which bot is thinking."""
        with self.lock:
            key = (self.version, self._your_seat(self.game, seats), viewer_key(seats))
            cached = self._views.get(key)
            if cached is None:
                if self._views and next(iter(self._views))[0] != self.version:
                    self._views.clear()
                cached = self._assisted_view(self.table.view(self.game, self.context(
                    self.game, seats, log_cache=self._log_cache(seats),
                    bot_notes=bot_notes(self.bots, extra=self.notes))), seats)
                self._views[key] = cached
            shown = _with_thinking(cached, self.thinking_json())
            if self.undone:  # the version only grows (web/companion.py)
                shown = _with_version(shown, self.version)
            asked = [x.seat for x in self.seats if x.undo_ask == self.version]
            if asked:  # waiting for the other players to agree (ruling CP-20)
                shown = _with_undo_asked(shown, asked)
            return shown

    def view_json(self, seats: list[int]) -> bytes:
        """``view(seats)`` serialised (cached per version and seat, like the view)."""
        with self.lock:
            key = (self.version, self._your_seat(self.game, seats), viewer_key(seats))
            out = self._json.get(key)
            if out is None:
                if self._json and next(iter(self._json))[0] != self.version:
                    self._json.clear()
                out = dump(self.view(seats))
                self._json[key] = out
            return out

    def log_lines(self, since: int = 0, seats: Sequence[int] = ()) -> list[LogLine]:
        """Every log line from sequence number ``since`` on, exactly as the table shows them
        to ``seats`` (none: a spectator; other seats' secrets redacted)."""
        with self.lock:
            shown = events_for(self.game, self.game.log.events[since:], seats)
            lines = list(self.table.log_lines(self.game, shown, self._log_cache(list(seats))))
            marks = {k: v for s in self.seats for k, v in s.auto.items()}
            return self.marked_lines(lines, marks) if marks else lines

    def replay_json(self, step: int | None, seats: Sequence[int]) -> bytes:
        """The game as ``seats`` saw it after ``step`` choices, or (None) every step: the
        start and after each choice, each step's log holding the events since the one
        before."""
        with self.lock:
            choices = list(self.game.choices)
        if step is not None and step > len(choices):
            raise ApiError(422, f"step must be between 0 and {len(choices)}, not {step}")
        if step is not None:
            game = self.rebuild(choices[:step])
            return dump(self.table.view(game, self.context(
                game, seats, replay=(step, len(choices)))))
        game = self.fresh()
        steps: list[bytes] = []
        seen = 0
        for i in range(len(choices) + 1):
            if i:
                try:
                    game.apply(choices[i - 1])
                except IllegalChoice as e:
                    raise ApiError(409, f"the saved game no longer replays: {e}") from None
            new = game.log.events[seen:]
            seen = len(game.log.events)
            steps.append(dump(self.table.view(game, self.context(
                game, seats, events=new, with_preview=False))))
        return b'{"steps":[' + b",".join(steps) + b"]}"

    def svg(self) -> str:
        with self.lock:
            return self.table.board_svg(self.game, f"Carnage game {self.id}")

    # -- acting ----------------------------------------------------------------------------------
    def decide_json(self, tokens: str, version: int, choice: Any,
                    then: Sequence[tuple[str, Any]] = ()) -> bytes:
        """``decide``, answered with the acting seat's view serialised."""
        with self.lock:
            self.decide(tokens, version, choice, then)
            return self.view_json(self.seats_for(tokens))

    def accept(self, d: Decision, choice: Any) -> Any:
        try:
            if is_entry(d):  # faces in any order, listed or not (kernel/table_dice.py)
                return d.validate(choice)
            return self.table.accept(d, choice)
        except IllegalChoice as e:
            raise self.refused(d, choice, e) from None

    def refused(self, d: Decision, choice: Any, e: IllegalChoice) -> ApiError:
        return ApiError(422, self.table.refused(self.game, d, choice, str(e)))

    def seat_label(self, seat: int) -> str:
        return self.table.seat_label(seat)

    def bot_choice(self, d: Decision) -> Any:
        """The bot's choice, its rng seeded by the game's seed and the version alone (as a
        worker of the bot pool seeds it: ``botpool.decision_seed``)."""
        rng = bot_rng(decision_seed(self.seed, self.version))
        return self.bots[d.player].choose(self.game, d, rng)

    def controller(self, seat: int) -> str:
        return str(next(s.controller for s in self.seats if s.seat == seat))

    def keep_note(self, note: Any) -> None:
        self.notes.append(BotNoteView.model_validate(note))
        # the newest, and each seat's last (its reason stays on the table)
        self.notes = bot_notes({}, limit=NOTES, extra=self.notes)

    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        """The engine (or a bot) failed: rebuild the game as it stood after ``choices``."""
        self.game = self.rebuild(choices)
        for seat in self.seats:
            for k in [k for k in seat.auto if k >= len(choices)]:
                del seat.auto[k]
        self._forget_views()
        return ApiError(
            500, f"the engine failed ({type(e).__name__}: {e}); the choice was not applied"
        )

    def save(self, expected: int | None = None) -> None:
        """Save the game's progress (and snapshot); with ``expected``, only on top of that
        version: if another process saved first, the game in memory is reloaded from the
        database and the choice refused as stale (409)."""
        try:
            self.store.save_progress(self.id, list(self.game.choices), self.finished,
                                     self.round, self.winner, snapshot=self.snapshot(),
                                     expected=expected, version=self.version,
                                     seats=[s.to_json() for s in self.seats])
        except StaleSave as e:
            if e.current is None:
                raise ApiError(404, f"no game with id {self.id!r}: it was deleted") from None
            self._reload()
            self.notify()
            raise ApiError(409, f"stale state: version {self.version} is current (another "
                                "server saved a choice first)") from None
        self._saved = self.version
        self.seen_elsewhere = None

    def snapshot(self) -> dict[str, Any]:
        """The game's snapshot now, made once per game and version (the save writes it, the
        bot pool's job carries the same document)."""
        with self.lock:
            n = len(self.game.choices)
            kept = self._snapshot
            if kept is not None and kept[0] is self.game and kept[1] == n:
                return kept[2]
            doc: dict[str, Any] = self.game.snapshot()
            self._snapshot = (self.game, n, doc)
            return doc

    def save_new(self) -> None:
        """Add the game to the database (a new game, at its version)."""
        with self.lock:
            self.store.add_game(self.stored())
            self._saved = self.version
            self.seen_elsewhere = None
            self._told = (self.version, self.thinking)

    # -- what the table answers by itself (kernel/assist.py) ------------------------------------
    @property
    def assist(self) -> TableAssist | None:
        return self.ruleset.table.assist if self.assisted else None

    def _seat(self, seat: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def automatic(self, d: Decision) -> tuple[Any, str] | None:
        seat = self._seat(d.player)
        if not self.assisted or seat is None:
            return None
        return automatic_answer(self.assist, self.game, d, seat.prefs)

    def mark_automatic(self, index: int, seat: int, why: str) -> None:
        s = self._seat(seat)
        if s is not None:
            s.auto[index] = why

    def expand(self, d: Decision, choice: Any, first: bool) -> Any:
        assist = self.assist
        return None if assist is None else assist.expand(self.game, d, choice, first)

    def set_preference(self, tokens: str, key: str, value: str) -> bytes:
        """A seat's preference for an optional prompt (``key``: the prompt's, as the pending
        decision's ``preference`` names it); the table then answers by it at once if the
        prompt is pending. Answers the seat's view."""
        if value not in PREFERENCES:
            raise ApiError(422, f"value must be one of {', '.join(PREFERENCES)}, not "
                                f"{value[:40]!r}")
        if not key or len(key) > 60:
            raise ApiError(422, "key must name an optional prompt (1 to 60 characters)")
        with self.lock:
            self.sync()
            seats = self.seats_for(tokens)
            if not seats:
                raise ApiError(403, "a seat token is needed to set a preference")
            before = list(self.game.choices)
            started = self.saved_version
            for n in seats:
                seat = self._seat(n)
                if seat is not None:
                    seat.prefs[key] = value
            inline = self.bot_pool is None
            if self.game.pending() is not None:
                self._run(before, inline)
            self.save(started)
            if not inline and self.bot_pool is not None:
                self.bot_pool.schedule(self)
            out = self.view_json(seats)
        self.notify()
        return out

    def preview_json(self, tokens: str, version: int, choice: Any) -> bytes:
        """The seat's view as it would be after ``choice`` (and the table's own answers),
        nothing applied: so a vehicle's templates can be shown once it is picked, and the
        vehicle, its template and its skid dice sent in one action. Refused (409) when the
        answer would roll dice or let another seat answer on the way: a preview never
        shows what is not yet known."""
        with self.lock:
            d = self.game.pending()
            seats = self.seats_for(tokens)
            if d is None:
                raise ApiError(409, "the game is over: no decision is pending")
            if not seats or d.player not in seats:
                raise ApiError(403, "only the seat that decides may preview its answer")
            if version != self.version:
                raise ApiError(409, f"stale state: version {self.version} is current")
            value = self.accept(d, choice)
            real, marks = self.game, {s.seat: dict(s.auto) for s in self.seats}
            trial = real.clone()
            seen = len(trial.log.events)
            self.game = trial
            try:
                try:
                    trial.apply(value)
                    self.run_bots(bots=False)
                except IllegalChoice as e:
                    raise self.refused(d, choice, e) from None
                new = trial.log.events[seen:]
                nd = trial.pending()
                if (nd is not None and nd.player not in seats) or any(
                        e.kind == "roll" or (e.kind == "decision"
                                             and e.data.get("player") not in seats)
                        for e in new):
                    raise ApiError(409, "that answer rolls dice or hands the game to another "
                                        "seat: it cannot be previewed")
                view = self._assisted_view(self.table.view(trial, self.context(
                    trial, seats, log_cache={}, with_preview=True)), seats)
                return dump(view)
            finally:
                self.game = real
                for seat in self.seats:
                    seat.auto.clear()
                    seat.auto.update(marks[seat.seat])

    def _assisted_view(self, view: Any, seats: Sequence[int]) -> Any:
        """The view with the table's help for the viewing seat's pending decision (shortcuts,
        the question answerable with it, the prompt's preference) and the log saying which
        answers the table gave by itself."""
        pending = getattr(view, "pending", None)
        marks = {k: v for s in self.seats for k, v in s.auto.items()}
        if marks and isinstance(getattr(view, "log", None), list):
            view.log = self.marked_lines(view.log, marks)
        assist = self.assist
        d = self.game.pending()
        if assist is None or pending is None or d is None or d.player not in seats \
                or not hasattr(pending, "shortcuts"):
            return view
        from carnage.render.table_schemas import (
            FollowUpView,
            PreferenceView,
            ShortcutView,
            StepView,
        )

        try:
            shortcuts = list(assist.shortcuts(self.game, d))
            follow = assist.follow_up(self.game, d)
        except (IllegalChoice, ValueError, KeyError):  # help that cannot be worked out
            shortcuts, follow = [], None                 # leaves the question as it is
        pending.shortcuts = [
            ShortcutView(label=sc.label, choice=sc.choice, intent=sc.intent,
                         then=[StepView(kind=st.kind, choice=st.choice) for st in sc.then])
            for sc in shortcuts]
        if follow is not None:
            pending.follow_up = FollowUpView(kind=follow.kind, options=list(follow.options),
                                             prompt=follow.prompt)
        prompt = assist.optional(self.game, d)
        seat = self._seat(d.player)
        if prompt is not None and seat is not None:
            pending.preference = PreferenceView(
                key=prompt.key, label=prompt.label,
                value=preference_of(seat.prefs, prompt.key),
                choices=dict(PREFERENCE_WORDS))
        return view

    def marked_lines(self, lines: Sequence[Any], marks: dict[int, str]) -> list[Any]:
        """Log lines, a decision the table answered by itself saying so (and why)."""
        index = self._decision_index()
        out = []
        for ln in lines:
            i = index.get(getattr(ln, "seq", -1)) if getattr(ln, "kind", "") == "decision" \
                else None
            why = None if i is None else marks.get(i)
            out.append(ln if why is None else ln.model_copy(
                update={"text": f"{ln.text} (answered by the table: {why})"}))
        return out

    def _decision_index(self) -> dict[int, int]:
        """Sequence number of each ``decision`` event -> the index of its choice."""
        out: dict[int, int] = {}
        n = 0
        for e in self.game.log.events:
            if e.kind == "decision":
                out[e.seq] = n
                n += 1
        return out

    def stored(self) -> StoredGame:
        doc = self.setups.to_json(self.setup)
        if self.mode != TableMode():
            doc[MODE_KEY] = self.mode.to_json()
        return StoredGame(
            id=self.id, scenario=str(doc["scenario"]), setup=doc,
            seats=[s.to_json() for s in self.seats], seed=self.seed,
            choices=list(self.game.choices), finished=self.finished, round=self.round,
            winner=self.winner, created=self.created, seed_chosen=self.seed_chosen,
            snapshot=self.snapshot(),
        )


def dump(view: Any) -> bytes:
    """A view as JSON: a pydantic model by its own serialiser, a mapping by ``json``."""
    if isinstance(view, Mapping):
        return json.dumps(view).encode()
    return cast(str, view.model_dump_json()).encode()


def _with_thinking(view: Any, thinking: dict[str, Any] | None) -> Any:
    """``view`` saying which bot the game waits for (None: nobody)."""
    if isinstance(view, Mapping):
        return {**view, "thinking": thinking}
    if thinking is None:
        return view
    return view.model_copy(update={"thinking": ThinkingView.model_validate(thinking)})


def _with_version(view: Any, version: int) -> Any:
    """``view`` at the session's ``version`` (the choices plus those undone)."""
    if isinstance(view, Mapping):
        return {**view, "version": version}
    return view.model_copy(update={"version": version})


def _with_undo_asked(view: Any, seats: list[int]) -> Any:
    """``view`` saying which seats asked to undo the last answer (web/companion.py)."""
    if isinstance(view, Mapping):
        return {**view, "undo_asked": seats}
    return view.model_copy(update={"undo_asked": seats})


def _idle(s: GameSession) -> bool:
    """No websocket is watching it, no request is using it right now, and no bot decision
    of it is in the pool."""
    t = s.thinking
    if t is not None and t.failed is None:
        return False
    if s.listeners or not s.lock.acquire(blocking=False):
        return False
    s.lock.release()
    return True


def option_named(d: Decision, choice: Any) -> Any:
    """The option ``choice`` names: its value, or the same value sent as text ("1" for 1), so
    browser controls need no type juggling. ``ApiError`` 422 naming the legal values."""
    options = d.options
    for o in options:
        if o.value == choice and type(o.value) is type(choice):
            return o.value
    if isinstance(choice, str | int) and not isinstance(choice, bool):
        for o in options:
            if str(o.value) == str(choice):
                return o.value
    legal = ", ".join(repr(o.value) for o in options[:12])
    more = f" and {len(options) - 12} more" if len(options) > 12 else ""
    shown = repr(choice) if len(repr(choice)) <= 40 else repr(choice)[:37] + "..."
    raise ApiError(422, f"{shown} is not one of the options (legal: {legal}{more})")


SeatedGame = GameSession
"""A live game of any ruleset."""

_NOT_YET: Any = object()
"""A session whose game ``resume`` sets (it is not built twice)."""


class Games:
    """Every game: live sessions in memory, the rest in the store. With a ``pool`` the bots
    decide in its worker processes; without, inline."""

    def __init__(self, store: Store, pool: BotPool | None = None,
                 assisted: bool = True) -> None:
        self.store = store
        self.pool = pool
        self.assisted = assisted
        """New and loaded sessions answer by themselves what they may (``GameSession``)."""
        self._sessions: OrderedDict[str, SeatedGame] = OrderedDict()
        self._lock = threading.Lock()
        self._loads = [threading.Lock() for _ in range(LOAD_STRIPES)]
        """Loads from the store, one at a time per game (``_load_once``)."""
        self._closing = threading.Event()
        """Set when the server shuts down: ``warm`` stops."""
        self._cold = threading.BoundedSemaphore(COLD_LOADS)
        """Loads under way at once (``COLD_LOADS``)."""
        self._refresher: ThreadPoolExecutor | None = None
        self._due: dict[str, int | None] = {}
        """Games whose refresh is queued (a burst of changes refreshes each once), with the
        newest version announced (None: whatever it is, after a reconnect)."""

    def get(self, gid: str, sync: bool = True) -> SeatedGame:
        """The game, as the database has it now (a cached one is synced first: another
        process may have moved it); ``ApiError`` 404 if there is none. With a pool, a bot left
        to decide with nothing scheduled (its process stopped) is scheduled. ``sync`` False:
        a cached one as it is (for a choice: ``SeatedSession.act`` syncs it when it must)."""
        with self._lock:
            s = self._sessions.get(gid)
            if s is not None:
                self._sessions.move_to_end(gid)
        if s is not None and sync:
            try:
                s.sync()
            except ApiError as e:
                if e.status == 404:
                    self.drop(gid)
                raise
        elif s is None:
            s = self._load_once(gid)
        if s.bot_pool is not None:
            s.bot_pool.schedule(s)
        return s

    def _load_once(self, gid: str) -> SeatedGame:
        """The game read and restored from the store, and kept: one load at a time per game
        (a second request for it waits and takes the first one's session), none holding the
        cache's lock meanwhile, so requests for cached games, and loads of other games, go on
        beside it (after a process dies, its websockets reconnect to another process at once,
        each loading its game there); ``ApiError`` 404 if there is none."""
        with self._loads[hash(gid) % LOAD_STRIPES]:
            with self._lock:
                s = self._sessions.get(gid)
            if s is not None:  # loaded while this request waited
                return s
            with self._cold:
                row = self.store.game(gid)
                if row is None:
                    raise ApiError(404, f"no game with id {gid!r}")
                s = self._load(row)
                self._first_views(s)
            with self._lock:
                self._keep(s)
            return s

    def _first_views(self, s: SeatedGame) -> None:
        """Each human seat's view of a game just loaded, built with its load (``_cold``):
        what the request that loads it shows next (a websocket's first frame), or the log
        lines of the view it shows after a choice (the costliest part of a first view: its
        last ``LOG_LINES`` lines written; each later view writes only the new ones). A view
        that fails here fails again, and is answered, in the request that asks for it."""
        for seat in s.seats:
            if seat.controller != "human":
                continue
            try:
                s.view_json([seat.seat])
            except Exception as e:
                log.info("game %s: the view of seat %s was not built ahead: %s: %s",
                         s.id, seat.seat, type(e).__name__, e)

    def recent(self, within: float = WARM_WITHIN) -> list[str]:
        """The games in progress saved in the last ``within`` seconds, the last saved first,
        as many as the cache keeps: those a starting process loads ahead (``warm``)."""
        since = datetime.now(UTC) - timedelta(seconds=within)
        return self.store.recent_games(since, MAX_CACHED)

    def warm(self, ids: Sequence[str], until: float | None = None) -> int:
        """Load the games ``ids`` (``recent``) not in memory yet, each with its human seats'
        views (``_load_once``), in order: what a starting process does, so the first request
        for each finds its game restored and its log written (a first view's costliest part)
        instead of doing that work then. Stops at ``until`` (``time.monotonic``) or when the
        games are closed. Nothing is written and no bot is scheduled: a game used later
        is synced with the database first, as every cached game is. The number loaded."""
        loaded = 0
        for gid in ids:
            if self._closing.is_set() or (until is not None and time.monotonic() >= until):
                break
            with self._lock:
                if gid in self._sessions:
                    continue
            try:
                self._load_once(gid)
            except Exception as e:  # a game that does not load is told of when it is used
                log.info("game %s was not loaded ahead: %s: %s", gid, type(e).__name__, e)
                continue
            loaded += 1
        return loaded

    def drop(self, gid: str) -> None:
        """Forget the cached session of ``gid`` (deleted, or to be reloaded on demand)."""
        with self._lock:
            self._sessions.pop(gid, None)

    # -- what other processes changed (web/fanout.py) --------------------------------------------
    def changed(self, gid: str, version: int) -> None:
        """Another process (or this one) saved ``gid`` at ``version`` (-1: deleted): a cached
        session of it that websockets watch is refreshed and they are told, off the caller's
        thread (an unwatched one is synced by the next request that uses it). A session that
        already holds ``version`` or a later one, as this process last read or wrote it (the
        notice of its own save, or older news), has nothing to catch up: it is left alone."""
        self._changed(gid, version)

    def changed_all(self) -> None:
        """Every cached session may be behind (the listener reconnected and may have missed
        notifications): refresh them all."""
        with self._lock:
            cached = list(self._sessions)
        for gid in cached:
            self._changed(gid, None)

    def _changed(self, gid: str, version: int | None) -> None:
        """``changed``; ``version`` None: whatever the session holds (refreshed if watched)."""
        with self._lock:
            s = self._sessions.get(gid)
            if s is None:
                return
            if version is not None and version < 0:
                self._sessions.pop(gid, None)
                return
            if not s.listeners:  # nobody watching: the next request syncs it anyway
                return
            if version is not None and version <= s.saved_version:
                return  # its own save, or a version it has read since: nothing new
            if gid in self._due:
                was = self._due[gid]
                if was is not None:
                    self._due[gid] = None if version is None else max(was, version)
                return
            self._due[gid] = version
            if self._refresher is None:
                self._refresher = ThreadPoolExecutor(REFRESHERS, "carnage-refresh")
            pool = self._refresher
        try:
            pool.submit(self._refresh, s)
        except RuntimeError:  # shutting down
            with self._lock:
                self._due.pop(gid, None)

    def _refresh(self, s: SeatedGame) -> None:
        """Bring a watched session to the database's version and tell its websockets; nothing
        is read when, once any choice in flight in this process has finished (the session's
        lock), the session holds the version announced (a notice of its own save can arrive
        before the saving thread has noted it saved)."""
        with self._lock:
            version = self._due.pop(s.id, None)
        try:
            with s.lock:
                if version is not None and version <= s.saved_version:
                    return
                s.sync()
            s.notify()
        except ApiError as e:
            if e.status == 404:
                self.drop(s.id)
            else:
                log.warning("game %s could not be refreshed: %s", s.id, e.detail)
        except Exception as e:  # the database went away: the next request syncs again
            log.warning("game %s could not be refreshed: %s: %s", s.id, type(e).__name__, e)

    def close(self) -> None:
        """Stop refreshing and loading ahead (the server is shutting down)."""
        self._closing.set()
        with self._lock:
            pool, self._refresher = self._refresher, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _load(self, row: StoredGame) -> SeatedGame:
        try:
            ruleset = ruleset_named_by(row.setup)
            raw, mode = split_setup(row.setup)
            setup = setup_of(ruleset).from_json(raw)
            seats = [Seat.from_json(x) for x in row.seats]
            session = GameSession(row.id, setup, row.seed, seats, row.created, self.store,
                                  game=_NOT_YET, seed_chosen=row.seed_chosen, ruleset=ruleset,
                                  assisted=self.assisted, mode=mode)
        except (KeyError, TypeError, ValueError) as e:
            raise ApiError(409, f"the saved game {row.id!r} is damaged: {e}") from None
        session.resume(row)
        session.bot_pool = self.pool_for(session)
        return session

    def pool_for(self, session: SeatedGame) -> BotPool | None:
        """Where ``session``'s bots decide: the pool, or inline for a game with table dice
        (its workers restore rulesets' snapshots: web/companion.py)."""
        return None if session.mode.table_dice else self.pool

    def _keep(self, s: SeatedGame) -> None:
        self._sessions[s.id] = s
        while len(self._sessions) > MAX_CACHED:
            idle = next((k for k, v in self._sessions.items() if k != s.id and _idle(v)), None)
            if idle is None:
                break
            del self._sessions[idle]

    def delete(self, gid: str, tokens: str | None) -> None:
        """Abandon (in progress) or delete (finished) a game: one of its seats' tokens is
        needed when it has human seats; a game of bots only may be deleted by anyone."""
        s = self.get(gid)
        if any(x.token for x in s.seats) and not s.seats_for(tokens):
            raise ApiError(403, "only a player of this game may delete it: send a seat token")
        self.drop(gid)
        with s.lock:
            s.closed = True
            self.store.delete_game(gid)

    def forget(self) -> None:
        """Drop every live session (they reload from the store on demand)."""
        with self._lock:
            self._sessions.clear()

    def create(self, req: NewGameRequest) -> SeatedGame:
        chosen = req.seed is not None and seed_may_be_chosen(req)
        seed = req.seed if chosen and req.seed is not None else draw_seed()
        ruleset = get_ruleset(req.ruleset)
        try:
            tabletop_of(ruleset)
        except ValueError as e:  # neither a tabletop nor a view: the table cannot show it
            raise ApiError(422, f"ruleset: {e}") from None
        setups = setup_of(ruleset)
        request = TableRequest(
            scenario=req.scenario, team_ids=tuple(s.team_id for s in req.seats),
            sides=tuple(tuple(side) for side in req.sides or ()), seed=seed,
            saved_team=self.saved_team)
        mode = TableMode(physical=req.physical, hot_seat=req.hot_seat, dice=req.dice,
                         screen=tuple(req.screen_dice), setup_dice=req.dice == "table")
        if mode.table_dice and not any(s.controller == "human" for s in req.seats):
            raise ApiError(422, "dice: real dice need a person to enter them, and every seat "
                                "is a bot (roll the dice on screen)")
        try:
            setup = physical_setup(ruleset, setups.new(request), mode.physical)
        except ValueError as e:
            raise ApiError(422, str(e)) from None
        try:
            game = mode.build(setups, setup, seed)
        except (ValueError, RuntimeError) as e:
            raise ApiError(422, f"the game cannot be set up: {e}") from None
        seats = [
            Seat(i, s.controller, secrets.token_urlsafe(18) if s.controller == "human" else None,
                 s.team_id)
            for i, s in enumerate(req.seats)
        ]
        session = GameSession(uuid.uuid4().hex[:12], setup, seed, seats, datetime.now(UTC),
                              self.store, game, seed_chosen=chosen, ruleset=ruleset,
                              assisted=self.assisted, mode=mode)
        return self._keep_new(session)

    def saved_team(self, seat: int, team_id: str) -> TeamSpec:
        """The saved team ``team_id`` for ``seat``, checked legal; ``SetupRefused`` naming the
        seat and what is wrong."""
        stored = self.store.team(team_id)
        if stored is None:
            raise SetupRefused(f"seat {seat}: no saved team with id {team_id!r}")
        try:
            spec = parse_team(stored.data, f"team {team_id}")
        except TeamFileError as e:
            raise SetupRefused(f"seat {seat}: {e.problems[0]}") from None
        report = check_team(spec)
        if not report.valid:
            first = "; ".join(v.message for v in report.errors[:3])
            more = len(report.errors) - 3
            tail = f" (and {more} more)" if more > 0 else ""
            raise SetupRefused(f"seat {seat}: team {spec.name!r} is not legal: {first}{tail}")
        if not report.vehicles:
            raise SetupRefused(f"seat {seat}: team {spec.name!r} has no vehicles")
        return spec

    def _keep_new(self, session: SeatedGame) -> SeatedGame:
        """A new game: the bots play up to the first human decision, then it is saved. With a
        pool, it is saved at once and its first bot decision scheduled."""
        session.bot_pool = self.pool_for(session)
        with session.lock:
            try:  # with a pool, only the table's own answers here: the pool answers the bots
                session.run_bots(bots=session.bot_pool is None)
            except Exception as e:
                raise ApiError(
                    500, f"the engine failed while the bots played ({type(e).__name__}: "
                         f"{e})") from None
            session.save_new()
        with self._lock:
            self._keep(session)
        if session.bot_pool is not None:
            session.bot_pool.schedule(session)
        return session
