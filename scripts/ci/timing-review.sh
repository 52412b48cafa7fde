#!/usr/bin/env bash
# The control-code review of a pull request (docs/ci.md): the timing rules on the machine files
# the change adds or modifies, only the findings the change brings, posted through reviewdog
# when it is there, and the markdown summary appended to GitHub's job summary when there is one.
# Exits with ptoverify's exit code; a PR that touches no machine file passes. Runs under `bash -e`.
# Usage: timing-review.sh BASE [MACHINE_DIR]   (in the repository, HEAD checked out)
# Environment: PTOVERIFY (default: ptoverify on PATH), CHECK_ARGS (e.g. "-p build"), OUT_DIR.
set -euo pipefail
base="${1:?usage: timing-review.sh BASE [MACHINE_DIR]}"
dir="${2:-framework/src/machine}"
ptoverify="${PTOVERIFY:-ptoverify}"
out="${OUT_DIR:-ptoverify-out}"
mkdir -p "$out"
files=()
while IFS= read -r f; do
  case $f in *.h | *.cpp) files+=("$f") ;; esac
done < <(git diff --name-only --diff-filter=AM "$base...HEAD" -- "$dir")
if [ ${#files[@]} -eq 0 ]; then
  echo "timing review: no machine file changed"
  exit 0
fi
# The sources holding entry points (extern "C") are inputs too, so each changed function's role
# (ctrl, sche) is established: a header alone reaches no entry, and its writes would be unknown.
# ENTRY_FILES (space-separated) replaces the search; their own findings off the diff are dropped.
entries=()
if [ -n "${ENTRY_FILES+x}" ]; then
  read -r -a entries <<<"$ENTRY_FILES"
else
  while IFS= read -r f; do entries+=("$f"); done < <(git grep -l 'extern "C"' -- "$dir" | grep -E '\.(cpp|cc|cxx)$' || true)
fi
for e in "${entries[@]}"; do
  case " ${files[*]} " in *" $e "*) ;; *) files+=("$e") ;; esac
done
extra=()
if [ -n "${CHECK_ARGS:-}" ]; then read -r -a extra <<<"$CHECK_ARGS"; fi
status=0
"$ptoverify" check --rules 'timing-*' "${extra[@]}" --diff "$base...HEAD" "${files[@]}" \
  --format text --format "rdjson:$out/timing.rdjson" --format "markdown:$out/timing.md" || status=$?
if command -v reviewdog >/dev/null && [ -f "$out/timing.rdjson" ]; then
  reviewdog -f=rdjson -name=ptoverify-timing -reporter="${REVIEWDOG_REPORTER:-github-pr-review}" <"$out/timing.rdjson" ||
    echo "timing review: reviewdog failed; the findings are in $out/timing.rdjson"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/timing.md" ]; then cat "$out/timing.md" >>"$GITHUB_STEP_SUMMARY"; fi
exit "$status"
