#!/usr/bin/env bash
# tests/pto_isa_tree_mutants.sh can fail: on a row whose original text is not in its file exactly
# once (before anything runs), and on a caught rate under the floor. Each case runs the runner on a
# table made here from rows of tests/mutants/pto-isa-tree-mutants.tsv.
#   pto_isa_tree_mutants_selftest.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"
[ -d "$REAL/pto-isa_3186c381_all" ] || { echo "PTOVERIFY-SKIPPED: $REAL/pto-isa_3186c381_all is not there"; exit 77; }
TABLE=$SRC/tests/mutants/pto-isa-tree-mutants.tsv
RUNNER=$SRC/tests/pto_isa_tree_mutants.sh

# expect_failure NAME MESSAGE TABLE [VAR=VALUE...]: the runner exits 1 and prints MESSAGE.
expect_failure() {
  local name=$1 message=$2 table=$3
  shift 3
  local out status
  out=$(env "$@" PTOVERIFY_TREE_MUTANTS="$table" bash "$RUNNER" "$BIN" "$SRC" 2>&1)
  status=$?
  if [ "$status" -eq 1 ] && grep -qF -- "$message" <<<"$out"; then
    pass
  else
    fail "$name: expected exit 1 with '$message', got exit $status:"
    tail -n 5 <<<"$out"
  fi
}

# A row of the real table (P02: a deleted PtoSetWaitFlag, live) and the table's header.
grep -E '^#|^id	' "$TABLE" >"$TMP/header.tsv"
row=$(grep -P '^P02\t' "$TABLE")
[ -n "$row" ] || { echo "FAIL: row P02 is not in $TABLE"; exit 1; }

# The original text changed so that it is no longer in the file: fails before any check runs.
{ cat "$TMP/header.tsv"; awk -F'\t' -v OFS='\t' '{ $5 = $5 " // not in the file"; print }' <<<"$row"; } >"$TMP/wrong.tsv"
expect_failure "wrong original" "occurs 0 time(s)" "$TMP/wrong.tsv"

# Text that occurs more than once in the file, with no line given.
{ cat "$TMP/header.tsv"; awk -F'\t' -v OFS='\t' '{ $4 = "-"; $5 = "TASSIGN"; print }' <<<"$row"; } >"$TMP/twice.tsv"
expect_failure "ambiguous original" "not exactly once" "$TMP/twice.tsv"

# One live row and a floor no rate can meet.
{ cat "$TMP/header.tsv"; echo "$row"; } >"$TMP/one.tsv"
expect_failure "under the floor" "below the floor of 101%" "$TMP/one.tsv" MIN_CAUGHT_PERCENT=101

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq 3 ]
