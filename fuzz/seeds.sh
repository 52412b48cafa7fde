#!/usr/bin/env bash
# Writes the seed inputs of fuzz target NAME into DIR from the project's own files (corpus/,
# examples/, tests/inputs/ and what the tool itself writes for them).
# Usage: seeds.sh NAME SOURCE_DIR DIR
set -uo pipefail
name="$1"
src="$2"
dir="$3"
mkdir -p "$dir"
n=0
seed() { cp "$1" "$dir/$(printf '%04d' "$n")-$(basename "$1")"; n=$((n + 1)); }
case "$name" in
  fuzz_mlir_reader | fuzz_check_file | fuzz_reports | fuzz_expectations)
    for f in "$src"/corpus/*/*/*.pto "$src"/corpus/*/*/*.mlir "$src"/corpus/regressions/*.pto "$src"/examples/*.pto \
             "$src"/tests/inputs/*.pto; do
      [ -f "$f" ] || continue
      if [ "$name" = fuzz_check_file ]; then  # the target's first byte picks .pto (even) or .mlir (odd)
        { [ "${f##*.}" = mlir ] && printf '1' || printf '0'; cat "$f"; } >"$dir/$(printf '%04d' "$n")-$(basename "$f")"
        n=$((n + 1))
      else
        seed "$f"
      fi
    done ;;
  fuzz_config)
    for f in $(find "$src/tests/inputs" "$src/examples" -name '.ptoverify.yaml' -o -name '*.yaml' | sort); do seed "$f"; done ;;
  fuzz_merge)
    cp "$src/tests/golden/report.sarif" "$dir/0000-report.sarif" ;;
  fuzz_cpp_frontend)
    for f in "$src"/corpus/*/*/*.cpp; do [ "$(wc -c <"$f")" -le 4096 ] && seed "$f"; done ;;
esac
