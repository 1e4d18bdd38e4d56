"""The README's two set-up commands on a fresh machine: ``make test`` and ``make run`` install
the Debian packages they need themselves (scripts/prerequisites.sh), and CI runs exactly the
README's test command."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "prerequisites.sh"


def fake_machine(tmp_path: Path, *, have: set[str], root: bool) -> tuple[dict[str, str], Path]:
    """A PATH holding only bash, env, the commands in ``have`` and a recording apt-get."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("bash", "env"):
        (bin_ / tool).symlink_to(Path("/usr/bin") / tool if Path("/usr/bin", tool).exists()
                                 else Path("/bin") / tool)
    record = tmp_path / "apt.log"
    (bin_ / "apt-get").write_text(f'#!/bin/bash\necho "$*" >> {record}\n')
    (bin_ / "id").write_text(f"#!/bin/bash\necho {0 if root else 1000}\n")
    for name in have:
        (bin_ / name).write_text("#!/bin/bash\nexit 0\n")
    for f in bin_.iterdir():
        if not f.is_symlink():
            f.chmod(0o755)
    return {"PATH": str(bin_), "HOME": str(tmp_path)}, record


def run_script(env: dict[str, str], what: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), what], env=env, capture_output=True, text=True,
                          timeout=30, check=False)


def test_test_installs_chromium_when_missing_as_root(tmp_path: Path) -> None:
    env, record = fake_machine(tmp_path, have={"python3"}, root=True)
    r = run_script(env, "test")
    assert r.returncode == 0, r.stderr
    lines = record.read_text().splitlines()
    assert lines[0].startswith("update")
    assert lines[1].split()[-1] == "chromium"
    assert "gcc" in lines[1].split()  # the compiled geometry (scripts/compile.py)
    assert "python3-venv" not in lines[1]  # the fake python3 imports venv fine


def test_python_venv_and_python_are_installed_when_missing(tmp_path: Path) -> None:
    env, record = fake_machine(tmp_path, have=set(), root=True)
    r = run_script(env, "run")
    assert r.returncode == 0, r.stderr
    installed = record.read_text().splitlines()[1].split()
    assert {"python3", "python3-venv"} <= set(installed)
    assert "chromium" not in installed  # make run does not need the browser


def test_nothing_is_installed_when_everything_is_there(tmp_path: Path) -> None:
    env, record = fake_machine(tmp_path, have={"python3", "gcc", "chromium"}, root=True)
    assert run_script(env, "test").returncode == 0
    assert not record.exists()


def test_not_root_names_the_missing_packages_and_fails(tmp_path: Path) -> None:
    env, record = fake_machine(tmp_path, have={"python3"}, root=False)
    r = run_script(env, "test")
    assert r.returncode == 1
    assert "chromium" in r.stderr and "apt-get install" in r.stderr
    assert not record.exists()


def test_unknown_target_is_a_usage_error(tmp_path: Path) -> None:
    env, _ = fake_machine(tmp_path, have={"python3"}, root=True)
    r = run_script(env, "deploy")
    assert r.returncode == 2 and "usage" in r.stderr


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^    (\S.*)$", section, flags=re.M)
    assert commands == ["make run", "make test"]
    ci = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
          if ln.strip() and not ln.lstrip().startswith("#")]
    assert [c for c in ci if not c.startswith(("set ", "cd "))] == ["make test"]
    assert not any(w in ("apt-get", "pip", "apt") for c in ci for w in c.split())


@pytest.mark.parametrize("target", ["test", "run"])
def test_make_targets_install_prerequisites_first(target: str) -> None:
    """``make -n`` shows the prerequisites script running before anything else."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True,
                         timeout=30, check=True, env=env).stdout
    # Under another make (``make test`` runs the suite) make may announce its directory.
    lines = [ln for ln in out.strip().splitlines() if not ln.startswith("make[")]
    first = lines[0]
    assert first.endswith(f"scripts/prerequisites.sh {target}")
