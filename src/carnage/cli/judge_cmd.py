"""``carnage judge SCENE.json``: answer geometry questions about a table."""

from __future__ import annotations

from pathlib import Path

import typer


def judge(scene: Path = typer.Argument(..., help="scene JSON file")) -> None:
    """Answer the scene's queries: moves, collisions, arcs, ranges, table edges."""
    raise typer.Exit(2)
