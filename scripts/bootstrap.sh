#!/usr/bin/env bash
# Installs the Debian packages ptoverify needs, only when something is missing: those to build
# it, and with --test also those only the test suite uses (`make test` passes it, `make run`
# does not). Safe to run repeatedly; does nothing (and needs no network) once all are present.
set -euo pipefail
LLVM_VERSION="${PTOVERIFY_LLVM_VERSION:-14}"
packages=(
  cmake make g++ lld
  "clang-${LLVM_VERSION}" "libclang-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-dev"
  libz3-dev libcli11-dev doctest-dev libyaml-cpp-dev nlohmann-json3-dev zlib1g-dev libmimalloc-dev
  help2man       # the man page, written from the CLI's --help
  dpkg-dev       # make package: dpkg-shlibdeps names the .deb's dependencies
)
if [ "${1:-}" = "--test" ]; then
  packages+=(
    git              # the --diff tests build repositories
    libxml2-utils    # xmllint: the tests validate JUnit output against its XSD
    jq               # the report tests query SARIF and JSON output
    chromium         # the HTML report test loads the page headless
    python3-pytest   # the Python package and its pytest plugin (python/)
    python3-pytest-xdist  # the plugin's batches under pytest -n
    python3-venv     # the README's pip install, run in a temporary virtual environment
    python3-yaml     # the CI recipe test reads action.yml and .pre-commit-hooks.yaml
  )
  # The tests validate SARIF with the Microsoft SARIF multitool from npm; use the machine's
  # Node.js when it has one, Debian's otherwise.
  if ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
