"""Bringing a database to the newest schema with Alembic, from code (no ``alembic.ini``).

The web store and the campaign store both call ``upgrade``. A database made before migrations
existed has no ``alembic_version`` table: the first migration creates only the tables it lacks,
so such a database is adopted with its data untouched.
"""

from __future__ import annotations

import threading
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

SCRIPTS = Path(__file__).with_name("alembic")
HEAD = "0006"
_lock = threading.Lock()
_PG_LOCK = 0x6361726E616765  # "carnage": the advisory lock migrations hold


def upgrade(engine: Engine) -> None:
    """Run every migration the database has not had yet (one transaction per migration run)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    with _lock, engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # two processes opening a new database at once
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
