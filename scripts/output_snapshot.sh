#!/usr/bin/env bash
# What users read, written to a folder: every report format of `check` over the project's corpus,
# examples and the real corpus (the .pto/.mlir trees, the C++ trees with their device flags, the
# machine tree with its compile commands), `audit`, `rules`, `explain` of each rule and
# `config --dump`. Two builds' folders compared with `diff -r` show whether a change that should
# not alter output did (a refactor, an allocator, a build option).
#
# Usage: scripts/output_snapshot.sh PTOVERIFY OUT_DIR [REAL_CORPUS]
#   e.g. scripts/output_snapshot.sh /tmp/old/ptoverify /tmp/a && scripts/output_snapshot.sh build/ptoverify /tmp/b &&
#        diff -r /tmp/a /tmp/b
set -uo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$2"
src="$(cd "$(dirname "$0")/.." && pwd)"
real="${3:-$src/../shared/corpus-real}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$src" || exit 2

# Every format in one run: paths are written relative to the project, so two checkouts compare.
check_all() {
  local name=$1
  shift
  local formats=()
  for f in json sarif rdjson rdjsonl junit github gitcode markdown; do formats+=(--format "$f:$out/$name.$f"); done
  "$bin" check -j 2 "${formats[@]}" --format "html:$out/$name.html" --format "text:$out/$name.txt" "$@" \
    >/dev/null 2>"$out/$name.stderr"
  echo "exit $?" >"$out/$name.exit"
}

check_all corpus corpus examples
"$bin" audit corpus examples >"$out/audit.txt" 2>&1
"$bin" rules --format json >"$out/rules.json" 2>&1
"$bin" config --dump >"$out/config.yaml" 2>&1
for id in $("$bin" rules --format json | python3 -c 'import json,sys; [print(r["id"]) for r in json.load(sys.stdin)["rules"]]'); do
  "$bin" explain "$id" >"$out/explain-$id.md" 2>&1
done

if [ ! -d "$real" ]; then
  echo "output_snapshot: no real corpus at $real: only the project's inputs written" >&2
  exit 0
fi
check_all real-mlir "$real/ptoas" "$real/hivm"
for tree in "$real"/cpp/*/; do
  name=real-cpp-$(basename "$tree")
  mapfile -t files < <(find "$tree" -name '*.cpp' | sort)
  check_all "$name" "${files[@]}" -- -D__CCE_AICORE__=220 "-I$tree/tests/common"
done
machine="$real/machine/pypto_883e7dfb"
if [ -d "$machine" ]; then
  db=$(mktemp -d)
  bash "$src/scripts/pypto_compile_commands.sh" "$machine" "$db" >/dev/null 2>&1
  check_all real-machine -p "$db" "$machine/framework/src/machine/device"
  rm -rf "$db"
fi

# The reports name each other by the path they were written to: the folder's own name is not
# output. A solver timeout states the time its kernel's budget had left, which varies run to run.
grep -rlF "$out/" "$out" | while IFS= read -r f; do sed -i "s#$out/#OUT/#g" "$f"; done
grep -rlE "timed out after [0-9]+ ms" "$out" | while IFS= read -r f; do
  sed -i -E "s/timed out after [0-9]+ ms/timed out after N ms/g" "$f"
done
