"""What every game session on the server shares: seats act with their tokens on the current
version, bots answer their own seats, a failing engine is rolled back, listeners (websockets)
are told of each change. ``GameSession`` (web/sessions.py) adds how a game is shown, saved and
rebuilt, through its ruleset."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from carnage.kernel.decisions import Decision, IllegalChoice

if TYPE_CHECKING:
    from carnage.web.sessions import ApiError, Listener, Seat

MAX_BOT_CHOICES = 20_000
"""Bots stop answering after this many choices in one go (a stuck game stays in progress)."""


class SeatedSession(ABC):
    game: Any
    seats: list[Seat]
    bots: dict[int, Any]
    lock: threading.RLock
    listeners: list[Listener]

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
        """Apply a seat's choice (409 over, 403 spectator or wrong seat, 409 stale, 422
        illegal), let the bots answer, save, and return that seat's view. ``then``: (kind,
        choice) answers for the decisions of the same seats that follow, in the same action;
        each is given while the decision then pending is of that kind and theirs (the first
        that is not ends the action there). One refused answer refuses them all."""
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
            rng = getattr(self, "rng", None)  # the bots' randomness: a refused action uses none
            luck = rng.getstate() if rng is not None else None
            try:
                self._answer(d, choice, before)
                for i, (kind, step) in enumerate(then):
                    nd = self.game.pending()
                    if nd is None or nd.player not in seats or nd.kind != kind:
                        break
                    try:
                        self._answer(nd, step, before)
                    except ApiError as e:
                        raise ApiError(e.status, f"then[{i}]: {e.detail}") from None
            except ApiError:
                if list(self.game.choices) != before:
                    self._rollback(before, RuntimeError("refused"))
                if rng is not None:
                    rng.setstate(luck)
                raise
            self.save()
            view = self.view(seats)
        self.notify()
        return view

    def _answer(self, d: Decision, choice: Any, before: list[Any]) -> None:
        """One answer of the seat (a shortcut's choice standing for several answers is given
        as each of them), then the bots' and the table's own answers."""
        first = self.expand(d, choice, True)
        if first is None:
            self._apply(d, self.accept(d, choice), choice, before)
            self._run(before)
            return
        self._apply(d, first, choice, before)
        for _ in range(MAX_BOT_CHOICES):
            self._run(before)
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

    def _run(self, before: list[Any]) -> None:
        try:
            self.run_bots()
        except Exception as e:
            raise self._rollback(before, e) from None

    def run_bots(self, bots: bool = True) -> int:
        """Answer bot decisions, and the human seats' decisions the table answers by itself
        (``automatic``), until a human must decide or the game ends. ``bots`` False: stop at
        a bot's decision instead (a preview asks no bot)."""
        n = 0
        with self.lock:
            while (d := self.game.pending()) is not None:
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
        with self.lock:
            listeners = list(self.listeners)
            v = self.version
        for ls in listeners:
            ls.notify(v)
