"""The FastAPI application: ``create_app(db_url)`` wires the store, the live games, the
routers, the static files and the error handlers (every error is ``{"detail": sentence}``).

Its lifespan starts the change listener on PostgreSQL (web/fanout.py: other processes' moves
reach this process's cached games and websockets) and, at shutdown, after uvicorn has let the
requests in flight finish, stops it and closes the database pool. ``app_from_env`` is the
factory each worker process of ``carnage serve --workers N`` builds its app with.
With ``bot_workers`` the bots decide in a pool of worker processes started and stopped with
the app (its lifespan); without, inline in the request that made them due."""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from carnage import __version__
from carnage.catalog import load_catalog
from carnage.geometry.templateset import default_template_set
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS
from carnage.web.botpool import BotPool
from carnage.web.chat import Chat, ChatHub
from carnage.web.db import Store
from carnage.web.limits import BodyGuard
from carnage.web.ownership import Owners
from carnage.web.routers import (
    catalog,
    companion,
    games,
    health,
    odds,
    pages,
    rosters,
    rulesetfiles,
    teams,
    tourney,
)
from carnage.web.routers.campaigns import router as campaigns_router
from carnage.web.routers.chat import router as chat_router
from carnage.web.routers.moved import moved_router
from carnage.web.routers.pages import STATIC
from carnage.web.routers.tools import tools_router
from carnage.web.sessions import ApiError, Games


def validation_sentence(errors: list[Any]) -> str:
    """One sentence for a request that does not match its schema."""
    if not errors:
        return "the request is malformed"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc)
    kind = first.get("type", "")
    if kind == "json_invalid":
        msg = "the request body is not valid JSON"
    elif kind == "missing" and not loc:
        msg = "the request body is missing"
    elif kind == "missing":
        msg = f"{where}: missing (required)"
    elif kind == "extra_forbidden":
        msg = f"{where}: unknown field"
    elif kind == "string_pattern_mismatch" and (first.get("ctx") or {}).get("pattern") == r"\S":
        msg = f"{where}: must not be blank"
    else:
        text = str(first.get("msg", "invalid"))
        msg = f"{where}: {text[0].lower()}{text[1:]}" if where else text
    more = len(errors) - 1
    return msg + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"detail": exc.detail}, status_code=exc.status)


async def _invalid(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": validation_sentence(list(exc.errors()))}, status_code=422)


HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
"""The methods a 405's ``Allow`` may name (OPTIONS and TRACE are answered by no route)."""


def allowed_methods(app: Any, scope: Scope) -> list[str] | None:
    """The methods the path answers, as the published schema lists them: those of its most
    specific path template (``/api/teams/import`` is not ``/api/teams/{tid}`` with the id
    "import"). None: a path the schema does not publish (static files, a 404)."""
    table: list[tuple[int, re.Pattern[str], list[str]]] | None = getattr(
        app.state, "allow_table", None)
    if table is None:
        table = []
        for template, ops in app.openapi().get("paths", {}).items():
            params = template.count("{")
            regex = re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(template))
                               + "$")
            methods = [m for m in HTTP_METHODS if m.lower() in ops]
            table.append((params, regex, methods))
        table.sort(key=lambda row: row[0])
        app.state.allow_table = table
    path = scope.get("path", "")
    for _, regex, methods in table:  # fewest parameters first: the most specific template
        if regex.match(path):
            return methods
    return None


class MethodGuard:
    """405 with the path's ``Allow`` for a method its most specific template does not take,
    before routing could hand the request to a looser template (``GET /api/teams/import``
    would otherwise be ``GET /api/teams/{tid}``, a 404 about a team called "import")."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "app" in scope:
            allowed = allowed_methods(scope["app"], scope)
            if allowed is not None and scope["method"] not in allowed:
                methods = ", ".join(allowed)
                response = JSONResponse(
                    {"detail": f"{scope['method']} is not allowed on {scope['path']} "
                               f"(allowed: {methods})"},
                    status_code=405, headers={"Allow": methods})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals as sentences; a 405 names the methods of the path's most
    specific template (``allowed_methods``)."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code != 405:
        return await http_exception_handler(request, exc)
    allowed = allowed_methods(request.app, request.scope)
    methods = ", ".join(allowed or []) or (exc.headers or {}).get("Allow", "")
    return JSONResponse(
        {"detail": f"{request.method} is not allowed on {request.url.path} (allowed: "
                   f"{methods})"}, status_code=405, headers={"Allow": methods})


async def _crash(_request: Request, exc: Exception) -> JSONResponse:
    first = str(exc).splitlines()[0][:200] if str(exc) else ""
    return JSONResponse(
        {"detail": f"internal error ({type(exc).__name__}{': ' + first if first else ''})"},
        status_code=500,
    )


YOUNG_COLLECTIONS = 10_000
"""A server process's threshold of the garbage collector's youngest generation (Python's
default 700): a request makes and drops thousands of objects (a view, a snapshot), nearly all
freed by their reference counts; collecting the young ones less often spares walking the same
survivors again and again."""


def settle_heap() -> None:
    """For a server process about to serve: what start-up built (modules, the catalogue,
    templates, the app) lives as long as the process, so the garbage collector is told to
    leave it out of its walks (``gc.freeze``; a full collection walked all of it, 100 ms and
    more of plain Python on a busy machine, holding every request up meanwhile), and the
    youngest generation is collected less often (``YOUNG_COLLECTIONS``)."""
    import gc

    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTIONS, older, oldest)


WARM_SECONDS = 5.0
"""The longest a starting server process spends loading the games played lately
(``warm_up``) before it serves."""
WARM_NICENESS = 10
"""How much lower than the process's the CPU priority of that loading is (Linux: a thread's
own), so it does not slow the other processes serving meanwhile on the same machine."""


async def warm_up(games: Games, seconds: float = WARM_SECONDS) -> int:
    """Before a server process serves: the games in progress played lately loaded, with
    their human seats' views (``Games.recent``, ``Games.warm``), in a thread of lower CPU
    priority, for at most ``seconds``. Uvicorn listens only once the app's lifespan has
    started, so meanwhile connections are refused and clients keep to the other processes;
    the first requests then find their games restored and their logs written, and the
    first-time work of loading a game and building a view (lazy imports, the catalogue's and
    templates' first use) done. (Loading them beside the first requests instead measured
    worse: the requests shared the interpreter with it just as the clients came back.) The
    number of games loaded."""
    import asyncio
    import time

    loop = asyncio.get_running_loop()
    done: asyncio.Future[int] = loop.create_future()
    until = time.monotonic() + seconds

    def run() -> None:
        with contextlib.suppress(OSError, AttributeError):  # only this thread (Linux)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                           os.getpriority(os.PRIO_PROCESS, 0) + WARM_NICENESS)
        try:
            n = games.warm(games.recent(), until)
        except Exception:  # the database went away: the requests will load what they need
            n = 0
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shut down)
            loop.call_soon_threadsafe(done.set_result, n)

    threading.Thread(target=run, name="carnage-warm", daemon=True).start()
    return await done


def create_app(db_url: str, odds_rulesets: Mapping[str, Ruleset] | None = None,
               bot_workers: int = 0, bot_pool: BotPool | None = None,
               settle: bool = False, warm: bool = False) -> FastAPI:
    """The whole web table on the database at ``db_url`` (any SQLAlchemy URL); the odds
    routes are those of ``odds_rulesets`` (by default the registry's). ``bot_workers``: worker
    processes computing bot decisions (0: the bots answer inline, before a request returns);
    or a ``bot_pool`` made by the caller. ``settle``: a server process's own app, which
    settles the process's heap once started (``settle_heap``; not for an app among others,
    as in the tests). ``warm``: before it serves, the app loads the games played lately
    (``warm_up``: a server process restarted among others)."""
    if bot_workers < 0:
        raise ValueError(f"bot_workers must be 0 or more, not {bot_workers}")
    pool = bot_pool if bot_pool is not None else BotPool(bot_workers) if bot_workers else None

    @asynccontextmanager
    async def lifespan(app_: FastAPI) -> AsyncIterator[None]:
        async with _lifespan(app_):  # the change listener and the database around the bots
            if pool is not None:
                await run_in_threadpool(pool.start)
            if settle:
                settle_heap()
            if warm:
                await warm_up(app_.state.games)
            try:
                yield
            finally:
                if pool is not None:
                    await run_in_threadpool(pool.shutdown)

    app = FastAPI(
        title="Carnage",
        version=__version__,
        description="Play Gaslands: Refuelled on a server-authoritative virtual table.",
        lifespan=lifespan,
    )
    load_catalog()  # parse the catalogue and templates now, not in the first request
    default_template_set()
    store = Store(db_url)
    app.state.store = store
    app.state.db_url = db_url  # the campaign store opens the same database
    app.state.games = Games(store, pool)
    app.state.feed = None
    app.state.owners = Owners(store.engine)
    app.add_middleware(BodyGuard)
    app.add_middleware(MethodGuard)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _crash)
    app.include_router(health.router)
    app.include_router(catalog.router)
    app.include_router(rosters.router)
    app.include_router(teams.router)
    app.include_router(games.router)
    app.include_router(companion.router)
    app.include_router(chat_router)
    app.include_router(pages.router)
    app.include_router(odds.router if odds_rulesets is None else odds.odds_router(odds_rulesets))
    app.include_router(tourney.router)
    app.include_router(moved_router(RULESETS.values()))
    app.include_router(campaigns_router)
    app.include_router(tools_router(RULESETS if odds_rulesets is None else odds_rulesets))
    app.include_router(rulesetfiles.router)
    taken = {getattr(route, "path", "") for route in app.routes}
    app.include_router(rulesetfiles.alias_router(RULESETS.values(), taken))
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    _document_errors_as_sentences(app)
    return app


DB_URL_ENV = "CARNAGE_DB_URL"
"""The database URL a worker process of ``carnage serve --workers N`` reads."""
BOT_WORKERS_ENV = "CARNAGE_BOT_WORKERS"
"""How many bot worker processes each server process of ``--workers N`` starts (0: inline)."""
LISTENER_WAIT_SECONDS = 10.0
"""How long startup waits for the change listener's first connection (it keeps trying after;
``/readyz`` says not ready until it is connected)."""


def app_from_env() -> FastAPI:
    """The app on the database named by ``CARNAGE_DB_URL`` (uvicorn's factory for workers)."""
    url = os.environ.get(DB_URL_ENV)
    if not url:
        raise RuntimeError(f"{DB_URL_ENV} is not set: the worker does not know its database")
    bots = os.environ.get(BOT_WORKERS_ENV, "0")
    if not bots.isdigit():
        raise RuntimeError(f"{BOT_WORKERS_ENV} must be a whole number, not {bots!r}")
    return create_app(url, bot_workers=int(bots), settle=True, warm=True)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the change listener (PostgreSQL); at shutdown stop it, the refreshers and the
    database pool, once uvicorn has let the requests in flight finish."""
    import asyncio

    from carnage.web.fanout import ChangeFeed

    store: Store = app.state.store
    games_: Games = app.state.games
    feed: ChangeFeed | None = None
    def chat_hub() -> ChatHub | None:
        got: tuple[Chat, ChatHub] | None = getattr(app.state, "chat", None)
        return None if got is None else got[1]  # none opened: no socket waits for a chat

    def chat_changed(gid: str) -> None:
        hub = chat_hub()
        if hub is not None:
            hub.changed(gid)

    def connected() -> None:
        games_.changed_all()
        hub = chat_hub()
        if hub is not None:
            hub.changed_all()

    if store.postgres:
        feed = ChangeFeed(store.url, games_.changed, connected, on_chat=chat_changed)
        feed.start()
        app.state.feed = feed
        await asyncio.to_thread(feed.wait_connected, LISTENER_WAIT_SECONDS)
    try:
        yield
    finally:
        if feed is not None:
            await asyncio.to_thread(feed.stop)
        await asyncio.to_thread(games_.close)
        store.close()


def _document_errors_as_sentences(app: FastAPI) -> None:
    """Every error answer is ``{"detail": sentence}`` (the handlers above); the published
    schema says so too, instead of FastAPI's default list of validation errors. Built once,
    with every route in place; FastAPI serves the cached schema from then on."""
    schema = app.openapi()
    sentence = {"type": "object", "title": "Message", "required": ["detail"],
                "properties": {"detail": {"type": "string", "title": "Detail"}}}
    schema.setdefault("components", {}).setdefault("schemas", {})[
        "HTTPValidationError"] = sentence
    app.openapi_schema = schema
