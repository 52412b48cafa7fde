#!/usr/bin/env bash
# The Python package (python/ptoverify), its pytest plugin (with pytest-xdist when installed) and the
# README's pip and pytest commands in a temporary venv, with Debian's python3-pytest and python3-venv.
# Usage: python_package.sh PTOVERIFY SOURCE_DIR
set -u
py=/usr/bin/python3
if ! "$py" -c 'import pytest' 2>/dev/null; then
  echo "SKIPPED: Debian's python3-pytest is not installed (make test installs it)"
  exit 77
fi
export PTOVERIFY="$1" PTOVERIFY_SOURCE="$2" PYTHONPATH="$2/python${PYTHONPATH:+:$PYTHONPATH}"
cd "$(mktemp -d)" && exec "$py" -m pytest -q -p pytester -p no:cacheprovider "$2/python/tests"
