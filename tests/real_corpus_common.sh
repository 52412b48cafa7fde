# Sourced by the real-corpus test scripts: REAL (../shared/corpus-real/cpp beside SRC), the skip
# rule (exit 77 when it is missing, a failure under CI=true), a temporary directory and the
# pass/fail counters. Needs SRC set.
REAL=$SRC/../shared/corpus-real/cpp
if [ ! -d "$REAL" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: $REAL is missing, and under CI=true the real-corpus tests must run"
    exit 1
  fi
  echo "skipped: $REAL is not beside the project (the real upstream inputs that ../shared provides; see README)"
  exit 77
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
