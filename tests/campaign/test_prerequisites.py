"""``make test`` installs Debian's postgresql for the campaign store tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "prerequisites.sh"


def test_the_test_prerequisites_name_postgresql_with_a_working_check() -> None:
    rows = [line.split("  #")[0].strip().strip('"') for line in SCRIPT.read_text().splitlines()
            if line.strip().startswith('"') and "|postgresql" in line]
    assert len(rows) == 1
    check = rows[0].rsplit("|", 1)[0]
    found = subprocess.run(["bash", "-c", check], capture_output=True, check=False)
    has = bool(list(Path("/usr/lib/postgresql").glob("*/bin/initdb")))
    assert (found.returncode == 0) == has
