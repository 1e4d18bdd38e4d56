"""``carnage serve``: the browser table (FastAPI under uvicorn), one process or several.

Several worker processes (``--workers N``) share one port and one PostgreSQL database: the
database is the table (web/db.py, web/fanout.py). SQLite serves one process only. On SIGTERM
the server stops taking connections and lets the requests in flight (a choice being applied)
finish for up to ``GRACEFUL_SECONDS`` before it closes the listener and the database pool.
"""

from __future__ import annotations

import os

import typer

from carnage.dbconfig import default_db_url

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8666
GRACEFUL_SECONDS = 20
"""How long a stopping server waits for requests in flight (and closes websockets)."""


def serve(
    host: str = typer.Option(DEFAULT_HOST, "--host", help="address to listen on"),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=1, max=65535, help="port to listen on"),
    db: str | None = typer.Option(
        None, "--db", help="SQLAlchemy database URL (default: SQLite in the user data dir)",
        show_default=False,
    ),
    workers: int = typer.Option(
        1, "--workers", min=1, max=256,
        help="worker processes sharing the port (more than one needs PostgreSQL)"),
    bot_workers: int | None = typer.Option(
        None, "--bot-workers", min=0, show_default=False,
        help="worker processes computing the bots' decisions off the request path "
             "in each server process (default: 2, or 1 on a one-core machine, and 1 with "
             "--workers; 0: bots answer inline)"),
) -> None:
    """Serve the browser table: open the printed URL to build teams and play."""
    import uvicorn

    from carnage.web.app import BOT_WORKERS_ENV, DB_URL_ENV, create_app
    from carnage.web.botpool import default_workers
    from carnage.web.db import Store, StoreError
    from carnage.web.limits import SERVER_OPTIONS

    try:
        url = db or default_db_url()
    except OSError as e:
        typer.echo(f"cannot create the data directory: {e}", err=True)
        raise typer.Exit(2) from None
    if workers > 1 and not url.startswith("postgresql"):
        typer.echo(f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): "
                   "SQLite is served by one process only", err=True)
        raise typer.Exit(2)
    bots = bot_workers if bot_workers is not None else default_workers() if workers == 1 else 1
    try:
        if workers == 1:
            app = create_app(url, bot_workers=bots, settle=True, warm=True)
        else:  # migrate once here, and say now if the database cannot be opened
            Store(url).close()
    except StoreError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    procs = f"; {workers} worker processes" if workers > 1 else ""
    typer.echo(f"Carnage is running at http://{shown}:{port}/  (database: {url}{procs}; "
               "Ctrl+C stops)")
    ws_max = SERVER_OPTIONS["ws_max_size"]
    try:
        if workers == 1:
            uvicorn.run(app, host=host, port=port, log_level="warning",
                        timeout_graceful_shutdown=GRACEFUL_SECONDS, ws_max_size=ws_max)
        else:
            os.environ[DB_URL_ENV] = url
            os.environ[BOT_WORKERS_ENV] = str(bots)
            uvicorn.run("carnage.web.app:app_from_env", factory=True, workers=workers,
                        host=host, port=port, log_level="warning",
                        timeout_graceful_shutdown=GRACEFUL_SECONDS, ws_max_size=ws_max)
    except (OSError, SystemExit) as e:
        typer.echo(f"cannot serve on {host}:{port}: {e}", err=True)
        raise typer.Exit(2) from None
