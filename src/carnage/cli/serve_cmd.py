"""``carnage serve``: the browser table on this machine (FastAPI under uvicorn)."""

from __future__ import annotations

import typer

from carnage.dbconfig import default_db_url

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8666


def serve(
    host: str = typer.Option(DEFAULT_HOST, "--host", help="address to listen on"),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=1, max=65535, help="port to listen on"),
    db: str | None = typer.Option(
        None, "--db", help="SQLAlchemy database URL (default: SQLite in the user data dir)",
        show_default=False,
    ),
    bot_workers: int | None = typer.Option(
        None, "--bot-workers", min=0, show_default=False,
        help="worker processes computing the bots' decisions off the request path "
             "(default: 2, or 1 on a one-core machine; 0: bots answer inline)"),
) -> None:
    """Serve the browser table: open the printed URL to build teams and play."""
    import uvicorn

    from carnage.web.app import create_app
    from carnage.web.botpool import default_workers
    from carnage.web.db import StoreError
    from carnage.web.limits import SERVER_OPTIONS

    try:
        url = db or default_db_url()
        app = create_app(url, bot_workers=default_workers() if bot_workers is None
                         else bot_workers)
    except StoreError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    except OSError as e:
        typer.echo(f"cannot create the data directory: {e}", err=True)
        raise typer.Exit(2) from None
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    typer.echo(f"Carnage is running at http://{shown}:{port}/  (database: {url}; Ctrl+C stops)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning",
                    ws_max_size=SERVER_OPTIONS["ws_max_size"])
    except (OSError, SystemExit) as e:
        typer.echo(f"cannot serve on {host}:{port}: {e}", err=True)
        raise typer.Exit(2) from None
