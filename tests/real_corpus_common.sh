# Sourced by the real-corpus test scripts: REAL (the corpus's cpp/ folder), the skip rule of
# real_corpus_dir.sh, a temporary directory and the pass/fail counters. Needs SRC set.
. "$SRC/tests/real_corpus_dir.sh"
REAL=$REAL_CORPUS/cpp

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
