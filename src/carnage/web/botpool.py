"""Bots off the request path: bot decisions computed in a pool of worker processes.

A human's choice is applied and answered at once; when a bot is to decide next, the session
hands the pool a ``BotJob`` of plain data (the ruleset's name, the game's snapshot, the seat's
controller, the decision's version and an rng seed) and marks itself ``thinking``. A worker
rebuilds the game from the snapshot (``Ruleset.restore``), asks a fresh bot
(``make_bot_for``) and answers the choice as JSON-able data. Back in the server the answer is
applied through the session's own path (``SeatedSession.apply_bot``) for the version it was
computed for (a stale one is dropped), saved, the next bot decision is scheduled, and the
websockets are told.

The bot's randomness is a function of the game's seed and the version alone
(``decision_seed``): the inline mode (no pool) and any worker computing the same decision use
the same rng, so a duplicate computed elsewhere is harmless (only one is applied, by version).
A bot held to wall-clock time (the search bot's levels) may still answer differently on a
busier machine; its answer is legal either way, and only the first is applied.

Of several server processes, the one that saved a version sends its bot decision; another
process that finds the game there (a request through a round-robin proxy) says the bot thinks
and sends the decision itself only if the game has not moved on ``ELSEWHERE_GRACE`` seconds
later (the saver stopped), so a decision is computed once, not once per process that reads it.

A bot that fails (raises, answers an illegal choice, a worker dies twice) is logged; the game
stays as it was before the bot's decision and the table says the bot failed
(``Thinking.failed``). It is tried again when the game is viewed ``RETRY_AFTER`` seconds later,
or loaded by another process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any

from carnage.ai.runner import bot_rng, make_bot_for
from carnage.kernel.decisions import IllegalChoice

if TYPE_CHECKING:
    from carnage.web.seated import SeatedSession

log = logging.getLogger("carnage.web.botpool")

RETRY_AFTER = 60.0
"""Seconds after a bot failed before viewing the game asks it again."""
ELSEWHERE_GRACE = 1.5
"""Seconds a process waits before it computes a bot decision at a version another process
saved: the process that saved it has sent that decision to its own workers, and answers it in
this time unless it stopped (then this one does). Without the wait, a game read through another
process while its bot thinks (a round-robin proxy) would have every decision computed twice."""
RESUBMITS = 1
BATCH = 64
"""At most this many bot decisions answered by one job."""
"""Times a job is sent again after its worker process died (the pool is restarted)."""


WORKER_NICE = 10
"""How much lower the workers' scheduling priority is than the server's (``os.nice``): on a
busy machine a person's choice is answered before a bot's thinking goes on (the bot, which
nobody waits on by the second, takes the CPU left over)."""


PRELOAD = ("carnage.web.botpool", "carnage.rulesets", "carnage.ai.search")
"""Modules the fork server imports before it forks a worker."""


def default_workers() -> int:
    """Worker processes ``carnage serve`` starts by default: two, or one on a one-core
    machine."""
    return max(1, min(2, os.cpu_count() or 1))


def decision_seed(seed: int, version: int) -> str:
    """The seed of the bot's rng for the decision at ``version`` of a game seeded ``seed``."""
    return f"{seed}:{version}"


@dataclass(frozen=True)
class BotJob:
    """One bot decision to compute, as plain data (pickled to a worker process)."""

    gid: str
    ruleset: str
    snapshot: dict[str, Any]
    """The game's ``snapshot()`` at ``version``; ``Ruleset.restore`` rebuilds it."""
    controller: str
    """The seat's bot (``make_bot_for``), e.g. ``"heuristic"`` or ``"search:hard"``."""
    seat: int
    version: int
    rng_seed: str
    """``decision_seed(game seed, version)``."""
    then: dict[int, str] = field(default_factory=dict)
    """Every bot seat's controller: after the first decision the worker goes on answering
    the decisions that follow while they are these seats' (one save for the lot, instead of
    one per decision); empty: the one decision only."""
    seed: int = 0
    """The game's seed: each following decision's rng is ``decision_seed(seed, its version)``."""
    budget: float = 0.25
    """Seconds the worker may go on answering following decisions (at least the first is
    answered; the table then shows the batch and asks for the next)."""


class BotJobRefused(ValueError):
    """The job does not describe a bot decision of its game (a wrong version or seat)."""


def think(job: BotJob) -> dict[str, Any]:
    """What the bot answers to ``job`` (run in a worker process):
    ``{"version", "seat", "choice", "then", "note", "notes"}``, ``note`` the search bot's
    newest explanation as the table shows it (``BotNoteView``, with its reason) or None,
    ``notes`` every bot seat's last explained decision in the job (so each seat's reason
    reaches the table). Everything in it is JSON."""
    from carnage.rulesets import get_ruleset
    from carnage.web.botnotes import bot_notes, last_per_seat

    ruleset = get_ruleset(job.ruleset)
    game = ruleset.restore(job.snapshot)
    if len(game.choices) != job.version:
        raise BotJobRefused(f"the snapshot holds {len(game.choices)} choices, the job says "
                            f"{job.version}")
    d = game.pending()
    if d is None or d.player != job.seat:
        who = "nobody" if d is None else f"seat {d.player}"
        raise BotJobRefused(f"{who} is to decide, not seat {job.seat}")
    started = time.monotonic()
    bot = make_bot_for(ruleset, job.controller)
    choice = bot.choose(game, d, bot_rng(job.rng_seed))
    notes = bot_notes({job.seat: bot}, limit=1)
    then: list[Any] = []
    bots = {job.seat: bot}
    if job.then:
        try:
            game.apply(choice)
        except IllegalChoice:  # the server refuses it, in its own words
            budget = 0.0
        else:
            budget = job.budget
        while budget and len(then) + 1 < BATCH and time.monotonic() - started < budget:
            d = game.pending()
            if d is None or d.player not in job.then:
                break
            if d.player not in bots:
                bots[d.player] = make_bot_for(ruleset, job.then[d.player])
            nxt = bots[d.player].choose(game, d, bot_rng(decision_seed(job.seed,
                                                                      len(game.choices))))
            game.apply(nxt)
            then.append(json.loads(json.dumps(nxt)))
        notes = bot_notes(bots, limit=1) or notes
    return {"version": job.version, "seat": job.seat,
            "choice": json.loads(json.dumps(choice)), "then": then,
            "note": notes[0].model_dump(mode="json") if notes else None,
            "notes": [n.model_dump(mode="json") for n in last_per_seat(bots)]}


def _preload() -> None:
    """Run once in each worker: the heavy imports and the catalogue before the first job."""
    import carnage.rulesets  # noqa: F401
    from carnage.catalog import load_catalog

    load_catalog()


@dataclass
class Thinking:
    """A bot is to decide in a session: which seat, for which version, since when; ``failed``
    says why it could not (None: still thinking)."""

    seat: int
    version: int
    since: float = field(default_factory=time.time)
    failed: str | None = None

    def to_json(self, team: str) -> dict[str, Any]:
        return {"seat": self.seat, "team": team, "version": self.version,
                "since": datetime.fromtimestamp(self.since, UTC).isoformat(),
                "failed": self.failed}


class BotPool:
    """Worker processes computing bot decisions, and one thread applying their answers.

    ``initializer`` runs once in each worker (after the pool's own preloading), e.g. to
    register a ruleset a test made. The executor is started by ``start`` (the app's lifespan)
    or by the first job, and ``shutdown`` stops it (jobs in flight are dropped: their games
    are scheduled again when next viewed)."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a bot pool needs at least one worker, not {workers}")
        self.workers = workers
        self.initializer = initializer
        self._executor: ProcessPoolExecutor | None = None
        self._appliers: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    # -- the executor ------------------------------------------------------------------------------
    def start(self, wait: bool = False) -> None:
        """Start the worker processes (idempotent); ``wait``: until each has preloaded (else
        their imports are under way when it returns). ``RuntimeError`` after ``shutdown``."""
        with self._lock:
            started = self._executor is not None
            executor = self._ensure()
        if not started:
            warming = [executor.submit(_warm) for _ in range(self.workers)]
            if wait:
                for f in warming:
                    f.result()

    def _ensure(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the bot pool is shut down")
        if self._executor is None:
            ctx: BaseContext
            if "forkserver" in multiprocessing.get_all_start_methods():
                server = multiprocessing.get_context("forkserver")
                # the fork server imports these once; each worker is forked from it
                server.set_forkserver_preload(list(PRELOAD))
                ctx = server
            else:
                ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=ctx, initializer=_init_worker,
                initargs=(self.initializer,))
        if self._appliers is None:
            self._appliers = ThreadPoolExecutor(1, thread_name_prefix="carnage-bot-answers")
        return self._executor

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """A worker died: a new executor replaces the broken one (once, whoever sees it)."""
        with self._lock:
            if self._executor is broken:
                self._executor = None
                broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers and the answering thread; jobs in flight are dropped."""
        with self._lock:
            self._closed = True
            executor, appliers = self._executor, self._appliers
            self._executor = self._appliers = None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        if appliers is not None:
            appliers.shutdown(wait=True)

    def submit(self, job: BotJob) -> Future[dict[str, Any]]:
        """``think(job)`` in a worker process."""
        return self._submit(job)[0]

    def _submit(self, job: BotJob) -> tuple[Future[dict[str, Any]], ProcessPoolExecutor]:
        with self._lock:
            executor = self._ensure()
        try:
            return executor.submit(think, job), executor
        except BrokenProcessPool:
            self._restart(executor)
            with self._lock:
                executor = self._ensure()
            return executor.submit(think, job), executor

    # -- sessions ----------------------------------------------------------------------------------
    def schedule(self, session: SeatedSession) -> bool:
        """If a bot of ``session`` is to decide and nothing is scheduled for it (or it failed
        more than ``RETRY_AFTER`` seconds ago), send its job to a worker and mark the session
        thinking. True if a job was sent. At a version another process saved (and this one
        found less than ``ELSEWHERE_GRACE`` seconds ago) the session is marked thinking and
        the job sent only if that process has not answered by then (``_unanswered``)."""
        with session.lock:
            d = session.game.pending()
            v = session.version
            t = session.thinking
            if d is None or d.player not in session.bots or session.closed:
                if t is not None:
                    session.set_thinking(None)
                return False
            if t is not None and t.version == v and (
                    t.failed is None or time.time() - t.since < RETRY_AFTER):
                return False
            seen = session.seen_elsewhere
            wait = 0.0 if seen is None else ELSEWHERE_GRACE - (time.monotonic() - seen)
            if wait > 0 and not self._closed:  # its saver is thinking: the view says so
                waiting = Thinking(d.player, v)
                session.set_thinking(waiting)
                timer = threading.Timer(wait, self._unanswered, (session, waiting))
                timer.daemon = True
                timer.start()
                return False
            return self._start(session, d.player, v)

    def _unanswered(self, session: SeatedSession, waiting: Thinking) -> None:
        """``ELSEWHERE_GRACE`` after this process found a bot to decide at a version another
        process saved: if the game has not moved on meanwhile (one read; it catches up if it
        has), that process stopped before answering, and the decision is sent here."""
        try:
            with session.lock:
                if self._closed or session.closed or session.thinking is not waiting:
                    return  # shut down, deleted, or already answered or sent
                session.sync()
                d = session.game.pending()
                if session.version == waiting.version and d is not None \
                        and d.player == waiting.seat:
                    session.seen_elsewhere = None  # nobody answered: it is this one's now
                    self._start(session, d.player, waiting.version)
                    return
            self.schedule(session)  # moved on: its next bot decision, if any
        except Exception as e:  # the database went away: the next view schedules again
            log.warning("game %s: the bot's decision %d was not taken over: %s", session.id,
                        waiting.version, _sentence(e))
            with session.lock:
                if session.thinking is waiting:
                    session.set_thinking(None)
        session.notify()

    def _start(self, session: SeatedSession, seat: int, v: int) -> bool:
        """Send the bot decision of ``seat`` at version ``v`` to a worker (under the session's
        lock); True if it was sent."""
        with session.lock:
            try:
                snapshot = session.snapshot()
            except Exception as e:  # the game cannot be sent: said, never a failed view
                log.error("game %s: no snapshot for the bot's decision %d", session.id, v,
                          exc_info=e)
                session.set_thinking(Thinking(seat, v, failed=(
                    f"the bot failed: the game cannot be sent to it ({_sentence(e)})")))
                return False
            job = BotJob(gid=session.id, ruleset=session.ruleset.name, snapshot=snapshot,
                         controller=session.controller(seat), seat=seat, version=v,
                         rng_seed=decision_seed(session.seed, v),
                         then={b: session.controller(b) for b in session.bots},
                         seed=session.seed)
            session.set_thinking(Thinking(seat, v))
            self._send(session, job, RESUBMITS)
            return True

    def _send(self, session: SeatedSession, job: BotJob, resubmits: int) -> None:
        try:
            fut, executor = self._submit(job)
        except RuntimeError as e:  # shut down (or the pool cannot start a worker)
            log.error("game %s: the bot's decision %d was not sent: %s", job.gid, job.version, e)
            self._failed(session, job, f"the bots are not running ({e})", notify=False)
            return
        fut.add_done_callback(lambda f: self._hand_over(session, job, f, executor, resubmits))

    def _hand_over(self, session: SeatedSession, job: BotJob, fut: Future[dict[str, Any]],
                   executor: ProcessPoolExecutor, resubmits: int) -> None:
        """From the executor's thread to the answering thread (applying saves to the
        database: not on the thread that collects every worker's results)."""
        with self._lock:
            appliers = self._appliers
        if appliers is None:
            self._dropped(session, job)
            return
        try:
            appliers.submit(self._answered, session, job, fut, executor, resubmits)
        except RuntimeError:  # shutting down
            self._dropped(session, job)

    def _answered(self, session: SeatedSession, job: BotJob, fut: Future[dict[str, Any]],
                  executor: ProcessPoolExecutor, resubmits: int) -> None:
        try:
            answer = fut.result()
        except CancelledError:
            self._dropped(session, job)
            return
        except BrokenProcessPool as e:
            if resubmits > 0 and not self._closed:
                log.warning("game %s: a bot worker died; its decision %d is sent again",
                            job.gid, job.version)
                self._restart(executor)
                self._send(session, job, resubmits - 1)
                return
            log.error("game %s: the %s bot of seat %d failed at decision %d: its worker "
                      "process died", job.gid, job.controller, job.seat, job.version)
            self._failed(session, job, f"its worker process died ({e})")
            return
        except Exception as e:
            log.error("game %s: the %s bot of seat %d failed at decision %d", job.gid,
                      job.controller, job.seat, job.version, exc_info=e)
            self._failed(session, job, _sentence(e))
            return
        try:
            applied = session.apply_bot(job.version, job.seat, answer["choice"],
                                        answer.get("note"), then=answer.get("then") or (),
                                        notes=answer.get("notes") or ())
        except Exception as e:  # refused by the engine: the game was left as it stood
            log.error("game %s: the %s bot's answer %r at decision %d was refused", job.gid,
                      job.controller, answer.get("choice"), job.version, exc_info=e)
            self._failed(session, job, _sentence(e))
            return
        if not applied:
            log.debug("game %s: a stale bot answer for decision %d was dropped", job.gid,
                      job.version)
            return
        if not self._closed:
            self.schedule(session)
        session.notify()

    def _failed(self, session: SeatedSession, job: BotJob, why: str,
                notify: bool = True) -> None:
        with session.lock:
            t = session.thinking
            if t is None or t.version != job.version or session.version != job.version:
                return
            session.set_thinking(Thinking(t.seat, t.version, failed=f"the bot failed: {why}"))
        if notify:
            session.notify()

    def _dropped(self, session: SeatedSession, job: BotJob) -> None:
        """A job that will not answer (the pool stopped): nothing is scheduled any more, so
        the next view schedules it again."""
        with session.lock:
            t = session.thinking
            if t is not None and t.version == job.version and t.failed is None:
                session.set_thinking(None)


def _warm() -> None:
    """Nothing: a job that makes the pool start a worker (which preloads) before a bot
    needs it."""


def _init_worker(initializer: Callable[[], None] | None) -> None:
    if hasattr(os, "nice"):  # not on Windows
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICE)
    _preload()
    if initializer is not None:
        initializer()


def _sentence(e: BaseException) -> str:
    detail = getattr(e, "detail", None)
    text = str(detail if detail is not None else e).splitlines()
    first = text[0][:200] if text else ""
    return f"{type(e).__name__}{': ' + first if first else ''}"
