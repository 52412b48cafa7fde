#!/usr/bin/env bash
# Installation: `cmake --install` into a prefix, the prefix copied elsewhere and checking .pto and
# C++ kernels from there (the source tree's prelude out of reach), the man page and bash
# completion, and the .deb of `make package` holding the same files.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build="$1"
src="$2"
. "$src/tests/script_lib.sh"

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
for f in bin/ptoverify bin/ptoverify-cpp share/ptoverify/prelude/ptoverify_prelude.h \
  share/man/man1/ptoverify.1 share/bash-completion/completions/ptoverify share/doc/ptoverify/rules/sync-deadlock.md; do
  [ -f "$tmp/prefix/$f" ] || fail "not installed: $f"
done

# A copied prefix works on its own, from another directory.
cp -a "$tmp/prefix" "$tmp/moved"
cd "$tmp"
out="$("$tmp/moved/bin/ptoverify" check "$src/corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto" 2>&1)"
[ $? -eq 1 ] || fail "copied prefix: .pto check did not exit 1"
grep -q 'error: .*\[sync-deadlock\]$' <<<"$out" || fail "copied prefix: no sync-deadlock finding on the .pto: $out"
out="$("$tmp/moved/bin/ptoverify" check "$src/corpus/sync-deadlock/bad/alternating_wait_on_other_id.cpp" 2>&1)"
[ $? -eq 1 ] || fail "copied prefix: C++ check did not exit 1: $out"
grep -q 'error: .*\[sync-deadlock\]$' <<<"$out" || fail "copied prefix: no sync-deadlock finding on the C++: $out"
out="$("$tmp/moved/bin/ptoverify" check "$src/corpus/sync-deadlock/good/flag_flipped_by_reference.cpp" 2>&1)"
[ $? -eq 0 ] || fail "copied prefix: good C++ kernel not clean: $out"
# Without its own prelude the copy says so: it does not fall back to the source tree's.
cp -a "$tmp/prefix" "$tmp/bare" && rm -rf "$tmp/bare/share/ptoverify/prelude"
out="$("$tmp/bare/bin/ptoverify" check "$src/corpus/sync-deadlock/good/flag_flipped_by_reference.cpp" 2>&1)"
[ $? -eq 2 ] || fail "a prefix without its prelude did not stop with exit 2"
grep -q 'the C++ prelude was not found' <<<"$out" || fail "no 'prelude was not found' error: $out"

# The man page is the CLI's help, subcommands and their options included.
grep -q '^\.TH PTOVERIFY "1"' "$tmp/moved/share/man/man1/ptoverify.1" || fail "man page has no .TH header"
grep -q -- '--filter-mode' "$tmp/moved/share/man/man1/ptoverify.1" || fail "man page lacks the check options"

# Completion: subcommands, rule ids, options and --format names, read from the installed tool.
_init_completion() {
  words=("${COMP_WORDS[@]}")
  cword=$COMP_CWORD
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
}
_filedir() { COMPREPLY=(); }
complete() { :; }
source "$tmp/moved/share/bash-completion/completions/ptoverify"
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  _ptoverify
  echo "${COMPREPLY[*]}"
}
[ "$(complete_words "$tmp/moved/bin/ptoverify" ch)" = "check" ] || fail "completion of 'ch'"
[[ " $(complete_words "$tmp/moved/bin/ptoverify" check --rules sync-d) " == *" sync-deadlock "* ]] || fail "completion of a rule id"
[[ " $(complete_words "$tmp/moved/bin/ptoverify" check --fil) " == *" --filter-mode "* ]] || fail "completion of an option"
[ "$(complete_words "$tmp/moved/bin/ptoverify" check --format rdj)" = "rdjson rdjsonl" ] || fail "completion of a --format"

# The package holds what the install does.
cmake --build "$build" --target package >"$tmp/package.log" 2>&1 || { cat "$tmp/package.log"; fail "make package"; }
deb="$(ls "$build"/ptoverify_*.deb 2>/dev/null | head -1)"
if [ -n "$deb" ]; then
  diff <(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./usr/||' | sort) \
       <(cd "$tmp/prefix" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$tmp/deb.diff" ||
    { fail "the .deb and the install differ:"; cat "$tmp/deb.diff"; }
else
  fail "no .deb in $build"
fi

finish install
