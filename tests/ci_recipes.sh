#!/usr/bin/env bash
# The CI recipes of docs/ci.md are scripts in the tree (scripts/ci/, action.yml,
# .pre-commit-hooks.yaml); each runs here under `bash -e`, with stand-ins for the network steps
# (curl for GitCode's API, reviewdog). Usage: ci_recipes.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
tool="$1"
src="$2"
. "$src/tests/script_lib.sh"
for need in git jq /usr/bin/python3; do
  command -v "$need" >/dev/null || { echo "SKIPPED: $need is not installed (make test installs it)"; exit 77; }
done
export PTOVERIFY="$tool"

# Stand-ins: GitCode's comment API (GET lists $FAKE_LISTED, POST appends to $FAKE_POSTED) and reviewdog.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/curl" <<'STUB'
#!/usr/bin/env bash
data="" post=0
while [ $# -gt 0 ]; do
  case $1 in
    -X) [ "$2" = POST ] && post=1; shift ;;
    -d) data=$2; shift ;;
    -H) shift ;;
    http*) url=$1 ;;
  esac
  shift
done
if [ $post = 1 ]; then printf '%s\n' "$data" >>"$FAKE_POSTED"; echo '{}'; exit 0; fi
case $url in *page=1\&*) cat "$FAKE_LISTED" ;; *) echo '[]' ;; esac
STUB
printf '#!/usr/bin/env bash\ncat >"$FAKE_REVIEWDOG"\n' >"$tmp/bin/reviewdog"
chmod +x "$tmp/bin/curl" "$tmp/bin/reviewdog"
export PATH="$tmp/bin:$PATH" FAKE_POSTED="$tmp/posted.jsonl" FAKE_LISTED="$tmp/listed.json" FAKE_REVIEWDOG="$tmp/reviewdog.in"

# check-kernels.sh: every report written, the job summary appended, the exit code kept.
export GITHUB_STEP_SUMMARY="$tmp/summary.md"
(cd "$tmp" && OUT_DIR=out bash -e "$src/scripts/ci/check-kernels.sh" "$src/corpus/sync-deadlock/bad") >"$tmp/check.log" 2>&1
[ $? -eq 1 ] || { fail "check-kernels.sh on bad kernels did not exit 1"; tail -5 "$tmp/check.log"; }
for r in ptoverify.sarif ptoverify.rdjson ptoverify-junit.xml ptoverify.md ptoverify-gitcode.json report/index.html; do
  [ -s "$tmp/out/$r" ] || fail "check-kernels.sh wrote no $r"
done
grep -q '## ptoverify:' "$GITHUB_STEP_SUMMARY" || fail "no job summary"
grep -q 'ptoverify: findings' "$tmp/check.log" || fail "check-kernels.sh does not say what its exit code means"
(cd "$tmp" && OUT_DIR=good bash -e "$src/scripts/ci/check-kernels.sh" "$src/corpus/sync-deadlock/good") >/dev/null 2>&1 ||
  fail "check-kernels.sh on good kernels did not exit 0"

# gitcode-post-comments.sh: a re-run after a push posts only the comments not yet on the PR.
export GITCODE_REPO=cann/pypto GITCODE_PR=7 GITCODE_TOKEN=t
n=$(jq length "$tmp/out/ptoverify-gitcode.json")
[ "$n" -ge 2 ] || fail "expected at least two GitCode comments, got $n"
jq '[.[0] | {body: .body}]' "$tmp/out/ptoverify-gitcode.json" >"$FAKE_LISTED"
out="$(bash -e "$src/scripts/ci/gitcode-post-comments.sh" "$tmp/out/ptoverify-gitcode.json" 2>&1)" || fail "posting failed: $out"
[ "$out" = "gitcode: $((n - 1)) comment(s) posted, 1 already on the pull request" ] || fail "posting: $out"
[ "$(wc -l <"$FAKE_POSTED")" -eq $((n - 1)) ] || fail "posted $(wc -l <"$FAKE_POSTED") comments, expected $((n - 1))"
jq -s '.' "$FAKE_POSTED" | jq '[.[] | {body: .body}] + '"$(cat "$FAKE_LISTED")" >"$tmp/all.json" && mv "$tmp/all.json" "$FAKE_LISTED"
out="$(bash -e "$src/scripts/ci/gitcode-post-comments.sh" "$tmp/out/ptoverify-gitcode.json" 2>&1)" || fail "re-posting failed: $out"
[ "$out" = "gitcode: 0 comment(s) posted, $n already on the pull request" ] || fail "re-posting: $out"

# timing-review.sh: the PR adds a per-round write to a shared field in a machine file.
repo="$tmp/pypto"
mkdir -p "$repo/framework/src/machine" "$repo/docs"
g() { git -C "$repo" -c user.name=t -c user.email=t@t "$@"; }
grep -v '^    shared.scheCpuNum = roundSche;' "$src/corpus/timing-shared-field-write/bad/ctrl_rewrites_shared_dev_args.cpp" \
  >"$repo/framework/src/machine/ctrl.cpp"
echo notes >"$repo/docs/notes.md"
g init -q -b main && g add . && g commit -qm base
g checkout -qb docs-only && echo more >>"$repo/docs/notes.md" && g commit -qam docs
out="$(cd "$repo" && OUT_DIR="$tmp/timing0" bash -e "$src/scripts/ci/timing-review.sh" main 2>&1)" ||
  fail "timing review of a docs-only PR failed: $out"
grep -q 'no machine file changed' <<<"$out" || fail "timing review of a docs-only PR: $out"
g checkout -q main && g checkout -qb pr
cp "$src/corpus/timing-shared-field-write/bad/ctrl_rewrites_shared_dev_args.cpp" "$repo/framework/src/machine/ctrl.cpp"
g commit -qam 'per-round scheCpuNum'
: >"$GITHUB_STEP_SUMMARY"
(cd "$repo" && OUT_DIR="$tmp/timing" bash -e "$src/scripts/ci/timing-review.sh" main) >"$tmp/timing.log" 2>&1
[ $? -eq 1 ] || { fail "timing review of the PR did not exit 1"; tail -5 "$tmp/timing.log"; }
[ "$(jq '.diagnostics | length' "$FAKE_REVIEWDOG")" -eq 1 ] || fail "reviewdog did not get the one new finding"
grep -q 'scheCpuNum' "$FAKE_REVIEWDOG" || fail "reviewdog's finding is not the new write"
grep -q 'timing-shared-field-write' "$GITHUB_STEP_SUMMARY" || fail "the timing summary was not appended"
# A PR that changes only a header: the write's role comes from the unchanged entry source.
g checkout -q main && g checkout -qb header-pr
printf '#pragma once\nstruct DevArgs { unsigned nrValidAic; };\nstruct DevProg { DevArgs devArgs; };\ninline void SetRound(DevProg* p, unsigned n) { (void)p; (void)n; }\n' \
  >"$repo/framework/src/machine/round.h"
printf '#include "round.h"\nextern "C" int PyptoKernelCtrlServer(DevProg* p) { SetRound(p, 24); return 0; }\n' \
  >"$repo/framework/src/machine/entry.cpp"
g add . && g commit -qm 'entry and helper'
sed -i 's|{ (void)p; (void)n; }|{ p->devArgs.nrValidAic = n; }|' "$repo/framework/src/machine/round.h"
g commit -qam 'per-round nrValidAic in the helper'
(cd "$repo" && OUT_DIR="$tmp/timing-h" bash -e "$src/scripts/ci/timing-review.sh" header-pr~1) >"$tmp/timing-h.log" 2>&1
[ $? -eq 1 ] || { fail "timing review of a header-only PR did not exit 1"; tail -5 "$tmp/timing-h.log"; }
grep -q 'round.h:4:.*error: Blocker: `p->devArgs.nrValidAic` .* from ctrl code' "$tmp/timing-h.log" ||
  fail "the header's write was not judged from the entry's role: $(grep -a 'nrValidAic' "$tmp/timing-h.log" | head -2)"

# action.yml: its check step, run as GitHub runs it (bash -e), with this build as the action's.
action="$tmp/action"
mkdir -p "$action/build" && ln -s "$src/scripts" "$action/scripts" && ln -s "$tool" "$action/build/ptoverify"
/usr/bin/python3 - "$src/action.yml" >"$tmp/check-step.sh" <<'PY' || fail "action.yml has no check step"
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]
print(next(s["run"] for s in steps if s.get("id") == "check"))
PY
(cd "$tmp" && GITHUB_ACTION_PATH="$action" GITHUB_OUTPUT="$tmp/gh-output" PATHS="$src/corpus/sync-deadlock/bad" \
  BASELINE=none.json DIFF="" CHECK_ARGS="" OUT_DIR=action-out bash -e "$tmp/check-step.sh") >/dev/null 2>&1 ||
  fail "the action's check step failed itself (it records the exit code instead)"
grep -qx 'exit-code=1' "$tmp/gh-output" || fail "the action's check step did not record exit code 1"
[ -s "$tmp/action-out/ptoverify.sarif" ] || fail "the action's check step wrote no SARIF for the upload step"

# .pre-commit-hooks.yaml: each hook's entry, run as pre-commit does (entry + the matching files).
/usr/bin/python3 - "$src/.pre-commit-hooks.yaml" >"$tmp/hooks.txt" <<'PY'
import sys, yaml
for h in yaml.safe_load(open(sys.argv[1])):
    print(h["id"], h["entry"], h["language"])
PY
while read -r id entry; do
  [ "${entry##* }" = system ] || fail "hook $id is not a system hook"
  read -r -a cmd <<<"${entry% *}"
  case $id in
    ptoverify) bad="$src/corpus/sync-deadlock/bad/rearm_on_last_iteration_only.pto" good="$src/examples/ring_step_good.pto" ;;
    ptoverify-cpp) bad="$src/corpus/sync-deadlock/bad/alternating_wait_on_other_id.cpp" good="$src/corpus/sync-deadlock/good/flag_flipped_by_reference.cpp" ;;
    *) fail "unknown hook $id"; continue ;;
  esac
  PATH="$(dirname "$tool"):$PATH" "${cmd[@]}" "$bad" >/dev/null 2>&1 && fail "hook $id passed a bad kernel"
  PATH="$(dirname "$tool"):$PATH" "${cmd[@]}" "$good" >/dev/null 2>&1 || fail "hook $id failed a good kernel"
done <"$tmp/hooks.txt"

# docs/ci.md runs these scripts, not copies of them.
for s in check-kernels.sh gitcode-post-comments.sh timing-review.sh; do
  grep -q "scripts/ci/$s" "$src/docs/ci.md" || fail "docs/ci.md does not use scripts/ci/$s"
done

finish ci-recipes
