"""``carnage team ...``: check and show team files."""

from __future__ import annotations

import typer

app = typer.Typer(help="Build, validate and print teams.", no_args_is_help=True)
