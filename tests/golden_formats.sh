#!/usr/bin/env bash
# Golden-output tests of every --format on fixed corpus kernels (and one control-code review
# finding, with its level and fix). The absolute source directory
# (SARIF's SRCROOT) is replaced by @SRCROOT@. Regenerate after an intended change with:
#   tests/golden_formats.sh build/ptoverify . --update
set -uo pipefail
tool="$1"
src="$2"
update="${3:-}"
cd "$src" || exit 2
inputs=(corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto
        corpus/comm-wait-invalidate/bad/mesh_wait_mismatched_guards.pto
        corpus/barrier-arrival/bad/lane_dependent_arrivals.pto
        corpus/timing-stop-order/bad/fence_moved_into_optional_if.cpp
        tests/inputs/syntax_errors.pto)
fail=0
for fmt in text json sarif rdjson rdjsonl junit github gitcode markdown; do
  got="$("$tool" check "${inputs[@]}" --format "$fmt" --color never | sed "s|$PWD|@SRCROOT@|g")"
  golden="tests/golden/report.$fmt"
  if [ "$update" = "--update" ]; then
    printf '%s\n' "$got" >"$golden"
    continue
  fi
  if ! diff -u "$golden" <(printf '%s\n' "$got") >/tmp/golden.diff.$$; then
    echo "FAIL: --format $fmt differs from $golden:"
    head -40 /tmp/golden.diff.$$
    fail=1
  fi
  rm -f /tmp/golden.diff.$$
done
[ "$fail" -eq 0 ] && echo "golden-formats: ok"
exit "$fail"
