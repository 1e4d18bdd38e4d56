"""What every game session on the server shares: seats act with their tokens on the current
version, bots answer their own seats, a failing engine is rolled back, listeners (websockets)
are told of each change. ``GameSession`` (web/sessions.py) adds how a game is shown, saved and
rebuilt, through its ruleset.

Bots answer inline (``run_bots``, in the request that made them due) or, when the session has
a ``bot_pool`` (web/botpool.py), in worker processes: the request is answered at once with
the session ``thinking``, and each answer comes back through ``apply_bot``, the path a seat's
choice takes."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from carnage.kernel.decisions import Decision, IllegalChoice

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
    id: str
    seed: int
    ruleset: Any
    bot_pool: BotPool | None = None
    """Where bot decisions are computed (None: inline, in the request that made them due)."""
    thinking: Thinking | None = None
    """The bot decision scheduled in the pool (or failed there), if any."""
    closed: bool = False
    """Deleted: a bot's late answer is not applied."""

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
    def save(self) -> None: ...

    @abstractmethod
    def view(self, seats: list[int]) -> Any: ...

    @abstractmethod
    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        """The engine (or a bot) failed: rebuild the game as it stood after ``choices``."""

    # -- seats and tokens ------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.game.choices)

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

    # -- acting ----------------------------------------------------------------------------------
    def decide(self, tokens: str, version: int, choice: Any) -> Any:
        """Apply a seat's choice (409 over, 403 spectator or wrong seat, 409 stale, 422
        illegal), let the bots answer, save, and return that seat's view."""
        from carnage.web.sessions import ApiError

        with self.lock:
            d = self.game.pending()
            if d is None:
                raise ApiError(409, "the game is over: no decision is pending")
            seats = self.seats_for(tokens)
            if not seats:
                raise ApiError(403, "a seat token is needed to act; spectators cannot")
            if version != self.version:
                raise ApiError(409, f"stale state: version {self.version} is current")
            if d.player not in seats:
                raise ApiError(403, f"{self.seat_label(seats[0])} cannot act for "
                                    f"{self.seat_label(d.player)}")
            before = list(self.game.choices)
            self._apply(d, choice)
            if self.bot_pool is None:
                try:
                    self.run_bots()
                except Exception as e:
                    raise self._rollback(before, e) from None
            self.save()
            if self.bot_pool is not None:
                self.bot_pool.schedule(self)
            view = self.view(seats)
        self.notify()
        return view

    def _apply(self, d: Decision, choice: Any) -> None:
        """``choice`` applied to the pending decision ``d`` (422 illegal; the engine failing:
        rolled back, 500)."""
        value = self.accept(d, choice)
        before = list(self.game.choices)
        try:
            self.game.apply(value)
        except IllegalChoice as e:
            raise self.refused(d, choice, e) from None
        except Exception as e:
            raise self._rollback(before, e) from None

    def apply_bot(self, version: int, seat: int, choice: Any, note: Any = None) -> bool:
        """A bot's answer computed elsewhere for ``version``: applied as a seat's choice is,
        and saved. False (dropped) if it is stale: the game moved on, or another seat is to
        decide. ``ApiError`` if the engine refuses it (the game is left as it stood)."""
        with self.lock:
            d = self.game.pending()
            if self.closed or d is None or version != self.version or d.player != seat \
                    or seat not in self.bots:
                return False
            self._apply(d, choice)
            self.set_thinking(None)
            if note is not None:
                self.keep_note(note)
            self.save()
        return True

    def run_bots(self) -> int:
        """Answer bot decisions until a human must decide or the game ends."""
        n = 0
        with self.lock:
            while (d := self.game.pending()) is not None and d.player in self.bots:
                if n >= MAX_BOT_CHOICES:
                    break
                self.game.apply(self.bot_choice(d))
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
        with self.lock:
            listeners = list(self.listeners)
            v = self.version
        for ls in listeners:
            ls.notify(v)
