#!/usr/bin/env bash
# Runs a command that reads the real upstream corpus, with every argument's "@REAL@" replaced by
# the corpus folder; skipped (77) when the corpus is absent (see real_corpus_dir.sh).
# Usage: with_real_corpus.sh SOURCE_DIR COMMAND ARGS...
SRC="$1"
shift
. "$SRC/tests/real_corpus_dir.sh"
args=()
for a in "$@"; do args+=("${a//@REAL@/$REAL_CORPUS}"); done
exec "${args[@]}"
