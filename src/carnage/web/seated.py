"""What every game session on the server shares: seats act with their tokens on the current
version, bots answer their own seats, a failing engine is rolled back, listeners (websockets)
are told of each change. ``GameSession`` (web/sessions.py) adds how a game is shown, saved and
rebuilt, through its ruleset.

Every choice, a seat's or a bot's, takes one path: ``commit``. It first brings the cached game
to the database's version (another server process may have moved it), applies the choice on
top of the version the chooser saw, lets the in-process bots answer, and saves only if the
database is still at the version it started from (compare-and-set: ``GameSession.save``). A
choice that loses a race with another process is refused as stale and the game in memory is
reloaded from the database, so memory and database never disagree.
Bots answer inline (``run_bots``, in the request that made them due) or, when the session has
a ``bot_pool`` (web/botpool.py), in worker processes: the request is answered at once with
the session ``thinking``, and each answer comes back through ``apply_bot``, the path a seat's
choice takes."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.table_dice import is_entry

if TYPE_CHECKING:
    from carnage.web.botpool import BotPool, Thinking
    from carnage.web.sessions import ApiError, Listener, Seat

MAX_BOT_CHOICES = 20_000
"""Bots stop answering after this many choices in one go (a stuck game stays in progress)."""


class SeatedSession(ABC):
    game: Any
    seats: list[Seat]
    bots: dict[int, Any]
    lock: threading.RLock
    listeners: list[Listener]
    _told: tuple[int, Any] | None = None
    """The version (and bot thinking) the listeners were last told of."""
    id: str
    seed: int
    ruleset: Any
    bot_pool: BotPool | None = None
    """Where bot decisions are computed (None: inline, in the request that made them due)."""
    thinking: Thinking | None = None
    """The bot decision scheduled in the pool (or failed there), if any."""
    closed: bool = False
    """Deleted: a bot's late answer is not applied."""
    seen_elsewhere: float | None = None
    """When (``time.monotonic``) this process found the game at a version another process
    saved (read from the database); None when this process saved the version it holds. The
    bot pool leaves a bot decision at such a version to the process that saved it for a
    while (``botpool.ELSEWHERE_GRACE``)."""

    # -- what a ruleset's session provides -------------------------------------------------------
    @abstractmethod
    def accept(self, d: Decision, choice: Any) -> Any:
        """``choice`` as the pending decision takes it; ``ApiError`` 422 if it names nothing."""

    @abstractmethod
    def refused(self, d: Decision, choice: Any, e: IllegalChoice) -> ApiError:
        """The 422 for a choice the engine refused."""

    @abstractmethod
    def seat_label(self, seat: int) -> str:
        """A seat in plain words."""

    @abstractmethod
    def bot_choice(self, d: Decision) -> Any:
        """What the bot of ``d.player`` chooses."""

    @abstractmethod
    def controller(self, seat: int) -> str:
        """The bot controlling ``seat`` by name (``make_bot_for``)."""

    @abstractmethod
    def keep_note(self, note: Any) -> None:
        """A bot's explanation computed elsewhere (``BotNoteView`` as JSON), for the view."""

    @abstractmethod
    def set_thinking(self, thinking: Thinking | None) -> None:
        """Mark (or clear) the bot decision in the pool; views made before are stale."""

    @abstractmethod
    def save(self, expected: int | None = None) -> None:
        """Save the game's progress; with ``expected``, only if the database is still at that
        version (else memory is reloaded from it and ``ApiError`` 409 stale is raised)."""

    def snapshot(self) -> dict[str, Any]:
        """The game's ``snapshot()`` now (a session may keep the one it last made)."""
        return dict(self.game.snapshot())

    @abstractmethod
    def sync(self) -> bool:
        """Bring the game in memory to the database's current version (True: it was
        reloaded); ``ApiError`` 404 if it was deleted."""

    @property
    @abstractmethod
    def saved_version(self) -> int:
        """The database's version of the game as this session last read or wrote it."""

    @abstractmethod
    def view(self, seats: list[int]) -> Any: ...

    @abstractmethod
    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        """The engine (or a bot) failed: rebuild the game as it stood after ``choices``."""

    # -- seats and tokens ------------------------------------------------------------------------
    undone: int = 0
    """How far the version runs ahead of the choices: choices taken back (web/companion.py
    ``undo``) never give a version back, so a client of the undone state is stale."""

    @property
    def version(self) -> int:
        return len(self.game.choices) + self.undone

    def seats_for(self, tokens: str | None) -> list[int]:
        """The seats whose tokens are in ``tokens`` (comma-separated); [] for a spectator."""
        from carnage.web.sessions import ApiError

        if tokens is None or not tokens.strip():
            return []
        by_token = {s.token: s.seat for s in self.seats if s.token}
        out: list[int] = []
        for t in (t.strip() for t in tokens.split(",")):
            if not t:
                continue
            if t not in by_token:
                raise ApiError(403, "that seat token does not belong to this game")
            if by_token[t] not in out:
                out.append(by_token[t])
        return out

    # -- what the table answers by itself (kernel/assist.py) ------------------------------------
    def automatic(self, d: Decision) -> tuple[Any, str] | None:
        """The answer the table gives a human seat's ``d`` without asking, and why (None:
        the seat is asked). A session without assists asks everything."""
        return None

    def mark_automatic(self, index: int, seat: int, why: str) -> None:
        """Choice ``index`` was given by the table for ``seat`` (its log says so); a session
        without assists keeps no record."""
        return None

    def expand(self, d: Decision, choice: Any, first: bool) -> Any:
        """The next engine answer a shortcut's ``choice`` stands for at ``d`` (None: it is an
        ordinary answer, or it stands for nothing more)."""
        return None

    # -- acting ----------------------------------------------------------------------------------
    def decide(self, tokens: str, version: int, choice: Any,
               then: Sequence[tuple[str, Any]] = ()) -> Any:
        """Apply a seat's choice (``act``) and return that seat's view."""
        with self.lock:
            self.act(tokens, version, choice, then)
            return self.view(self.seats_for(tokens))

    def act(self, tokens: str, version: int, choice: Any,
            then: Sequence[tuple[str, Any]] = ()) -> bool:
        """Apply a seat's choice (409 over, 403 spectator or wrong seat, 409 stale, 422
        illegal), let the bots answer, save, and tell the listeners. ``then``: (kind,
        choice) answers for the decisions of the same seats that follow, in the same action;
        each is given while the decision then pending is of that kind and theirs (the first
        that is not ends the action there). One refused answer refuses them all.

        A resend is answered as it stood: when ``choice`` is what the same seats answered at
        ``version`` (the request reached a process, which applied it, but its answer was lost
        and the client sent it again, through a proxy, perhaps to another process), nothing
        is applied and False is returned (True: applied now)."""
        from carnage.web.sessions import ApiError

        with self.lock:
            self._sync_unless_at(version)
            if version != self.version and self._resent(tokens, version, choice):
                return False
            d = self.game.pending()
            if d is None:
                raise ApiError(409, "the game is over: no decision is pending")
            seats = self.seats_for(tokens)
            if not seats:
                raise ApiError(403, "a seat token is needed to act; spectators cannot")
            self._check_current(version)
            if d.player not in seats and not is_entry(d):  # the table's dice: anyone's
                raise ApiError(403, f"{self.seat_label(seats[0])} cannot act for "
                                    f"{self.seat_label(d.player)}")
            try:
                self._commit(d, choice, bots=True, steps=then, seats=seats)
            except ApiError as e:  # lost the race: reloaded; perhaps to its own resend
                if e.status != 409 or not self._resent(tokens, version, choice):
                    raise
                return False
        self.notify()
        return True

    def _sync_unless_at(self, version: int) -> None:
        """Bring the game to the database's version, unless the client acts on the version
        this process last read or wrote: then the read is spared, and the compare-and-set
        save is the check (a game another process moved on meanwhile is refused as stale
        there, and reloaded)."""
        if version == self.version == self.saved_version:
            return
        self.sync()

    def _resent(self, tokens: str, version: int, choice: Any) -> bool:
        """Whether ``choice`` is what the seats of ``tokens`` themselves answered at
        ``version`` (not the table for them): the same request sent again. False for
        anything else, a bad token included (the ordinary checks say what is wrong), and a
        shortcut's choice that stood for other answers (``expand``: its resend is stale)."""
        from carnage.web.sessions import ApiError

        try:
            seats = self.seats_for(tokens)
        except ApiError:
            return False
        if not seats or self.undone or not 0 <= version < len(self.game.choices):
            return False
        if any(version in s.auto for s in self.seats):
            return False
        n = 0
        for e in getattr(getattr(self.game, "log", None), "events", ()):
            if e.kind != "decision":
                continue
            if n == version:
                if e.data.get("player") not in seats:
                    return False
                break
            n += 1
        else:
            return False
        taken = self.game.choices[version]
        return bool(taken == choice) or (
            isinstance(choice, str) and not isinstance(taken, bool | dict | list)
            and str(taken) == choice)

    def commit(self, version: int, player: int, choice: Any, *, bots: bool = True) -> int:
        """The one path a choice takes (``decide`` for a seat with its token, a bot pool for
        a bot's seat): on the game as the database has it now, apply ``choice`` for seat
        ``player`` made against ``version``; with ``bots``, let the in-process bots answer up
        to the next human decision; save on top of ``version`` only (compare-and-set) and tell
        the listeners. The new version. ``ApiError``: 409 the game is over, 409 stale state
        (``version`` is not current here or lost a race with another process: memory is
        reloaded from the database), 409 the decision is not ``player``'s, 422 an illegal
        choice, 500 the engine failed (rolled back), 503 the database refused the save."""
        from carnage.web.sessions import ApiError

        with self.lock:
            self.sync()
            d = self.game.pending()
            if d is None:
                raise ApiError(409, "the game is over: no decision is pending")
            self._check_current(version)
            if d.player != player:
                raise ApiError(409, f"stale state: the decision is {self.seat_label(d.player)}"
                                    f"'s, not {self.seat_label(player)}'s")
            self._commit(d, choice, bots=bots)
            out = self.version
        self.notify()
        return out

    def _check_current(self, version: int) -> None:
        from carnage.web.sessions import ApiError

        if version != self.version:
            raise ApiError(409, f"stale state: version {self.version} is current")

    def _commit(self, d: Decision, choice: Any, *, bots: bool, then: Sequence[Any] = (),
                steps: Sequence[tuple[str, Any]] = (), seats: Sequence[int] = ()) -> None:
        """Apply ``choice`` to the pending decision ``d`` (checked by the caller, under the
        lock, on a synced game), then ``steps``: (kind, choice) answers of ``seats`` for their
        decisions that follow (each while the decision pending is theirs and of that kind),
        or ``then``: the bots' answers to the decisions that follow, computed elsewhere
        (applied while a bot is to decide); the table's own answers for human seats after
        each, and with ``bots`` the bots' (inline, or scheduled in the bot pool); and save on
        top of the version the database had. One refused answer refuses them all. The shared
        apply/save path of ``decide``, ``commit`` and ``apply_bot``."""
        from carnage.web.sessions import ApiError

        before = list(self.game.choices)
        started = self.saved_version
        inline = bots and self.bot_pool is None
        try:
            self._answer(d, choice, before, inline)
            for i, (kind, step) in enumerate(steps):
                nd = self.game.pending()
                if nd is None or nd.player not in seats or nd.kind != kind:
                    break
                try:
                    self._answer(nd, step, before, inline)
                except ApiError as e:
                    raise ApiError(e.status, f"then[{i}]: {e.detail}") from None
            for nxt in then:
                nd = self.game.pending()
                if nd is None or nd.player not in self.bots:
                    break
                self._apply(nd, self.accept(nd, nxt), nxt, before)
            if then:
                self._run(before, inline)
        except ApiError:
            if list(self.game.choices) != before:
                self._rollback(before, RuntimeError("refused"))
            raise
        try:
            self.save(started)
        except ApiError:
            raise
        except Exception as e:  # the database failed: it still holds ``before``
            self._rollback(before, e)
            first = str(e).splitlines()[0][:200] if str(e) else ""
            raise ApiError(503, f"the database refused the save ({type(e).__name__}"
                                f"{': ' + first if first else ''}); the choice was not "
                                "applied") from None
        if bots and self.bot_pool is not None:
            self.bot_pool.schedule(self)

    def apply_bot(self, version: int, seat: int, choice: Any, note: Any = None,
                  then: Sequence[Any] = (), notes: Sequence[Any] = ()) -> bool:
        """A bot's answer computed elsewhere for ``version`` (and ``then``, the bots' answers to
        the decisions after it; ``note`` the newest explanation, ``notes`` each bot seat's
        last one, ``BotNoteView`` as JSON): taken through ``_commit``, the
        path a seat's choice takes (the database's version checked, compare-and-set save).
        False (dropped) if it is stale: the game moved on here or in another process, or
        another seat is to decide. ``ApiError`` if the engine refuses it (the game is left as
        it stood)."""
        from carnage.web.sessions import ApiError

        with self.lock:
            if self.closed or seat not in self.bots:
                return False
            try:
                self._sync_unless_at(version)
            except ApiError:
                return False
            d = self.game.pending()
            if d is None or version != self.version or d.player != seat:
                return False
            try:
                self._commit(d, choice, bots=False, then=then)
            except ApiError as e:
                if e.status == 409:  # lost a race with another process: it is stale
                    return False
                raise
            self.set_thinking(None)
            # each seat's last note holds the newest one too
            for n in notes or ([] if note is None else [note]):
                self.keep_note(n)
        return True

    def _answer(self, d: Decision, choice: Any, before: list[Any], inline: bool = True) -> None:
        """One answer of the seat (a shortcut's choice standing for several answers is given
        as each of them), then the bots' and the table's own answers."""
        first = self.expand(d, choice, True)
        if first is None:
            self._apply(d, self.accept(d, choice), choice, before)
            self._run(before, inline)
            return
        self._apply(d, first, choice, before)
        for _ in range(MAX_BOT_CHOICES):
            self._run(before, inline)
            nd = self.game.pending()
            if nd is None or (nd.player, nd.kind, nd.vehicle) != (d.player, d.kind, d.vehicle):
                break
            nxt = self.expand(nd, choice, False)
            if nxt is None:
                break
            self._apply(nd, nxt, choice, before)

    def _apply(self, d: Decision, value: Any, choice: Any, before: list[Any]) -> None:
        try:
            self.game.apply(value)
        except IllegalChoice as e:
            raise self.refused(d, choice, e) from None
        except Exception as e:
            raise self._rollback(before, e) from None

    def _run(self, before: list[Any], inline: bool = True) -> None:
        """The table's own answers for human seats, and with ``inline`` the bots' (without,
        it stops at a bot's decision: the bot pool answers it)."""
        try:
            self.run_bots(bots=inline)
        except Exception as e:
            raise self._rollback(before, e) from None

    def run_bots(self, bots: bool = True) -> int:
        """Answer bot decisions, and the human seats' decisions the table answers by itself
        (``automatic``), until a human must decide or the game ends. ``bots`` False: stop at
        a bot's decision instead (a preview asks no bot)."""
        n = 0
        with self.lock:
            while (d := self.game.pending()) is not None:
                if is_entry(d):  # dice rolled at the table are entered by people, a bot's too
                    break
                if n >= MAX_BOT_CHOICES:
                    break
                if d.player in self.bots:
                    if not bots:
                        break
                    self.game.apply(self.bot_choice(d))
                else:
                    auto = self.automatic(d)
                    if auto is None:
                        break
                    self.game.apply(auto[0])
                    self.mark_automatic(len(self.game.choices) - 1, d.player, auto[1])
                n += 1
        return n

    # -- listeners -------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        with self.lock:
            self.listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def notify(self) -> None:
        """Tell the listeners of the version, once per version and bot thinking state (a bot
        starting, or failing, to decide at the same version is news too)."""
        with self.lock:
            v = self.version
            told = (v, self.thinking)
            if told == self._told:
                return
            self._told = told
            listeners = list(self.listeners)
        for ls in listeners:
            ls.notify(v)
