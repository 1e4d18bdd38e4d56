"""Compile Carnage's hot modules with mypyc, in place (see ``carnage/compiled.py``).

    .venv/bin/python scripts/compile.py            build (nothing to do if the build is current)
    .venv/bin/python scripts/compile.py --clean    remove the build: plain Python again
    .venv/bin/python scripts/compile.py --require  fail (exit 1) instead of falling back

Needs mypyc (part of mypy, in the ``fast`` and ``dev`` extras), a C compiler and Python's
headers (Debian: gcc, python3-dev; ``scripts/prerequisites.sh`` installs them). Without them it
says why and leaves Carnage as plain Python, which gives the same answers, only slower.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))

from carnage.compiled import COMPILED, STAMP, digest, recorded, source  # noqa: E402


def built_files() -> list[Path]:
    """Every extension file in the source tree (Carnage has none but its builds: one per
    compiled module, also of modules no longer listed) and mypyc's shared library."""
    out = [p for suf in importlib.machinery.EXTENSION_SUFFIXES
           for p in (SRC / "carnage").rglob(f"*{suf}")]
    out += [p for p in SRC.glob("*__mypyc*") if p.is_file()]
    return sorted(set(out))


def clean() -> None:
    for p in built_files():
        p.unlink()
    STAMP.unlink(missing_ok=True)
    shutil.rmtree(SRC / "build", ignore_errors=True)


def missing_tools() -> str | None:
    """Why a build cannot be made here, or None."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(str(cc).split()[0]) is None and shutil.which("gcc") is None:
        return "no C compiler (Debian: apt-get install gcc)"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include}; Debian: apt-get install python3-dev)"
    return None


def current() -> bool:
    want = {name: digest(name) for name in COMPILED}
    return recorded() == want and len(built_files()) == len(COMPILED) + 1


def build() -> str | None:
    """Build every module of ``COMPILED``; None on success, else why not."""
    clean()  # a failed build must not leave half of one behind
    paths = [str(source(name).relative_to(SRC)) for name in COMPILED]
    digests = {name: digest(name) for name in COMPILED}
    run = subprocess.run([sys.executable, "-m", "mypyc", *paths], cwd=SRC,
                         capture_output=True, text=True, check=False)
    shutil.rmtree(SRC / "build", ignore_errors=True)
    if run.returncode != 0:
        clean()
        tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-15:])
        return f"mypyc failed:\n{tail}"
    if {name: digest(name) for name in COMPILED} != digests:
        clean()
        return "the sources changed during the build: run it again"
    STAMP.write_text(json.dumps({"modules": digests}, indent=1, sort_keys=True) + "\n",
                     encoding="utf-8")
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clean", action="store_true", help="remove the build")
    ap.add_argument("--require", action="store_true",
                    help="exit 1 when the modules cannot be compiled")
    a = ap.parse_args()
    if a.clean:
        clean()
        print("compiled modules removed: Carnage runs as plain Python")
        return 0
    if current():
        print(f"compiled modules are current ({len(COMPILED)} modules)")
        return 0
    why = missing_tools()
    if why is None:
        print(f"compiling {len(COMPILED)} modules with mypyc (a minute or two) ...", flush=True)
        why = build()
    if why is not None:
        print(f"not compiled: {why}\nCarnage runs as plain Python (the same answers, slower).",
              file=sys.stderr)
        return 1 if a.require else 0
    print(f"compiled {len(COMPILED)} modules with mypyc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
