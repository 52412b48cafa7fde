#!/usr/bin/env bash
# Golden-output tests of every --format on fixed corpus kernels (and one control-code review
# finding, with its level and fix). The absolute source directory
# (SARIF's SRCROOT) is replaced by @SRCROOT@. Regenerate after an intended change with:
#   tests/golden_formats.sh build/ptoverify . --update
# The formats are the binary's registry (`ptoverify formats`): each one marked golden must have
# tests/golden/report.<name>, and each one a section of docs/formats.md.
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
all="$("$tool" formats | cut -d' ' -f1)"
golden="$("$tool" formats --golden)"
[ -n "$all" ] && [ -n "$golden" ] || { echo "FAIL: '$tool formats' listed no format"; exit 1; }
for fmt in $all; do
  # A heading that names it: "## sarif (2.1.0)", "## rdjson / rdjsonl".
  if ! grep -qE "^## (.* )?$fmt( .*)?$" docs/formats.md; then
    echo "FAIL: --format $fmt has no section in docs/formats.md (a '## $fmt' heading)"
    fail=1
  fi
done
for file in tests/golden/report.*; do
  grep -qx "${file#tests/golden/report.}" <<<"$golden" || { echo "FAIL: $file is no golden-tested format's"; fail=1; }
done
for fmt in $golden; do
  if [ "$update" != "--update" ] && [ ! -f "tests/golden/report.$fmt" ]; then
    echo "FAIL: --format $fmt has no golden file tests/golden/report.$fmt (write it with --update)"
    fail=1
    continue
  fi
  got="$("$tool" check "${inputs[@]}" --format "$fmt" --color never | sed "s|$PWD|@SRCROOT@|g")"
  file="tests/golden/report.$fmt"
  if [ "$update" = "--update" ]; then
    printf '%s\n' "$got" >"$file"
    continue
  fi
  if ! diff -u "$file" <(printf '%s\n' "$got") >/tmp/golden.diff.$$; then
    echo "FAIL: --format $fmt differs from $file:"
    head -40 /tmp/golden.diff.$$
    fail=1
  fi
  rm -f /tmp/golden.diff.$$
done
[ "$fail" -eq 0 ] && echo "golden-formats: ok"
exit "$fail"
