#!/usr/bin/env bash
# The check step of the CI recipes (docs/ci.md, action.yml): checks the paths given, writes every
# report into OUT_DIR, appends the markdown summary to GitHub's job summary when there is one, and
# exits with ptoverify's exit code only after all of that, so it runs as is under `bash -e`.
# Usage: check-kernels.sh PATH... [-- C++ flags]
# Environment:
#   PTOVERIFY   the executable (default: ptoverify on PATH)
#   OUT_DIR     where the reports go (default: ptoverify-out)
#   BASELINE    a baseline file; applied when it exists
#   DIFF        BASE..HEAD: only the findings the change brings (the tree on disk is HEAD)
#   CHECK_ARGS  more check options, split on spaces (e.g. "--fail-on error -j 4")
set -euo pipefail
ptoverify="${PTOVERIFY:-ptoverify}"
out="${OUT_DIR:-ptoverify-out}"
mkdir -p "$out"
paths=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  paths+=("$1")
  shift
done
args=(check "${paths[@]}" --format text --format "sarif:$out/ptoverify.sarif" --format "rdjson:$out/ptoverify.rdjson"
  --format "junit:$out/ptoverify-junit.xml" --format "markdown:$out/ptoverify.md"
  --format "gitcode:$out/ptoverify-gitcode.json" --format "html:$out/report")
if [ -n "${BASELINE:-}" ] && [ -f "$BASELINE" ]; then args+=(--baseline "$BASELINE"); fi
if [ -n "${DIFF:-}" ]; then args+=(--diff "$DIFF"); fi
if [ -n "${CHECK_ARGS:-}" ]; then
  read -r -a extra <<<"$CHECK_ARGS"
  args+=("${extra[@]}")
fi
args+=("$@")  # `-- C++ flags`, when given
status=0
"$ptoverify" "${args[@]}" || status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/ptoverify.md" ]; then cat "$out/ptoverify.md" >>"$GITHUB_STEP_SUMMARY"; fi
case $status in
  0) echo "ptoverify: clean" ;;
  1) echo "ptoverify: findings (reports in $out/)" ;;
  2) echo "ptoverify: an input could not be read or parsed" ;;
  3) echo "ptoverify: a proof was undecided (--strict)" ;;
  *) echo "ptoverify: internal error ($status); please report it" ;;
esac
exit "$status"
