"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries on a temp
folder and a free loopback port, run as an unprivileged user when the tests run as root."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


class NoPostgres(RuntimeError):
    """No PostgreSQL server can be started here (the message says why)."""


def _bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoPostgres("no initdb: install Debian's postgresql package "
                     "(scripts/prerequisites.sh test does)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    folder: Path
    port: int
    bin: Path
    user: str | None

    @property
    def url(self) -> str:
        return f"postgresql://carnage@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              cwd=self.folder, check=False)

    def start(self) -> None:
        data = self.folder / "data"
        r = self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "carnage",
                      "--auth=trust", "-E", "UTF8", "--no-sync")
        if r.returncode != 0:
            raise NoPostgres(f"initdb failed: {(r.stderr or r.stdout).strip()[:300]}")
        r = self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l",
                      str(self.folder / "log"), "-w", "-t", "60", "-o",
                      f"-p {self.port} -h 127.0.0.1 -k {self.folder} -F", "start")
        if r.returncode != 0:
            log = (self.folder / "log").read_text() if (self.folder / "log").exists() else ""
            raise NoPostgres(f"pg_ctl start failed: {(r.stderr or log).strip()[:300]}")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                  "-w", "stop")

    def fresh_database(self, name: str) -> str:
        """A new empty database on the server; its URL."""
        r = self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                      "-U", "carnage", name)
        if r.returncode != 0:
            raise NoPostgres(f"createdb failed: {r.stderr.strip()[:300]}")
        return f"postgresql://carnage@127.0.0.1:{self.port}/{name}"


def start_server() -> Server:
    """A running server on a temp folder; ``NoPostgres`` with the reason if it cannot be."""
    bindir = _bin_dir()
    user: str | None = None
    folder = Path(tempfile.mkdtemp(prefix="carnage-pg-"))
    if os.geteuid() == 0:  # initdb refuses to run as root
        user = "nobody"
        if shutil.which("runuser") is None:
            raise NoPostgres("running as root and no runuser to drop to an unprivileged user")
        shutil.chown(folder, user=user)
        os.chmod(folder, 0o700)
    server = Server(folder, _free_port(), bindir, user)
    server.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", server.port)) == 0:
                return server
        time.sleep(0.1)
    server.stop()
    raise NoPostgres("the server did not open its port within 30 s")
