#!/usr/bin/env bash
# corpus-pto-isa/: cases read against pto-isa's real headers (Events, PtoSetWaitFlag, SYNCALL's
# real forms), which the stand-in prelude does not have; each file's findings must match its
# inline expectations, as for corpus/. Skipped (77) without ../shared/corpus-real, except under
# CI=true.
#   corpus_pto_isa.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"
INCLUDE=$REAL/pto-isa_3186c381_all/include
[ -f "$INCLUDE/pto/pto-inst.hpp" ] || { echo "PTOVERIFY-SKIPPED: $INCLUDE is not there"; exit 77; }
"$BIN" corpus --report "$SRC/corpus-pto-isa" -- -I"$INCLUDE" || exit 1
# The same through a symbolic link to the headers: their `[aicore]` is blanked in the files Clang
# opens whatever path leads there.
ln -s "$(cd "$INCLUDE" && pwd)" "$TMP/linked-include"
"$BIN" corpus "$SRC/corpus-pto-isa" -- -I"$TMP/linked-include"
