"""``carnage catalog KIND``: list catalogue records."""

from __future__ import annotations

import typer


def catalog(kind: str = typer.Argument(..., help="vehicles, weapons, upgrades, perks or sponsors")) -> None:
    """List a section of the catalogue."""
    raise typer.Exit(2)
