#!/usr/bin/env bash
# Installs the Debian packages Carnage needs on a fresh machine, then returns.
#
#   scripts/prerequisites.sh run     what `make run` needs (python3 with venv)
#   scripts/prerequisites.sh test    what `make test` needs (also Debian's chromium for the
#                                    browser tests)
#
# Every prerequisite is one row of the tables below: a check (a shell test that succeeds when
# the thing is already there) and the Debian package that provides it. Add a row to extend the
# suite's needs (a database server, ...); Python packages belong in pyproject.toml instead.
# Packages are installed with apt-get only when a check fails and only as root (otherwise the
# script says what to install and fails).
set -euo pipefail

# check | Debian package
RUN_NEEDS=(
    "command -v python3|python3"
    "python3 -c 'import venv, ensurepip'|python3-venv"
    # scripts/compile.py builds the hot modules with mypyc: a C compiler and Python's headers
    "command -v gcc|gcc"
    "python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()[\"include\"], \"Python.h\")))'|python3-dev"
)
TEST_NEEDS=(
    "${RUN_NEEDS[@]}"
    "compgen -G '/usr/lib/postgresql/*/bin/initdb'|postgresql"  # the campaign store tests
    "command -v chromium|chromium"
)

what="${1:-test}"
case "$what" in
    run) needs=("${RUN_NEEDS[@]}") ;;
    test) needs=("${TEST_NEEDS[@]}") ;;
    *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

missing=()
for row in "${needs[@]}"; do
    check="${row%|*}"
    package="${row##*|}"
    if ! bash -c "$check" >/dev/null 2>&1; then
        missing+=("$package")
    fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "Carnage needs these Debian packages: ${missing[*]}" >&2
    echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "Carnage needs ${missing[*]}, and this machine has no apt-get to install them" >&2
    exit 1
fi
echo "Installing ${missing[*]} (Debian packages Carnage needs)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
