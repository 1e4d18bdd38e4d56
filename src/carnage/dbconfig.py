"""Where Carnage keeps its database by default: one place the CLI, the web table and the
campaign store all ask."""

from __future__ import annotations

from pathlib import Path


def default_db_url() -> str:
    """SQLite in the user's data directory (created if needed): the web table's games and the
    campaigns share it."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("carnage"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'carnage.db'}"
