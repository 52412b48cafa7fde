#!/usr/bin/env bash
# Launch facts on real generated orchestration (docs/real-corpus.md, "Launches"):
#  - upstream's generated-orchestration fixture with tests/launch/fused_pre_norm_cce (a kernel in
#    the shape the fixture names): no finding, and each of the nine drifts upstream's codegen
#    audit rejects is rejected here by the intended rule;
#  - both real fused versions with an orchestration file written from the fixture's shape: no
#    finding, and the DeepSeek-V4 MoE fusion write-up's mistakes made by hand (in the orchestration
#    or in a temporary copy of the real kernel) are each caught by the intended rule, counted
#    against the unmutated pair.
#   launch_real_corpus.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"

# No error, warning or unknown; notes (a fragment's scalar slots) and input warnings are allowed.
clean() {
  local name=$1
  shift
  local out summary
  out=$("$BIN" check "$@" 2>&1)
  local status=$?
  summary=$(tail -n 1 <<<"$out")
  if [ $status -ne 0 ] || ! grep -qE ': 0 error\(s\), 0 warning\(s\), [0-9]+ note\(s\)(, [0-9]+ input warning\(s\))?$' <<<"$summary"; then
    fail "$name: expected no finding, got (exit $status): $summary"
    grep -E 'error:|warning:|unknown:' <<<"$out" | grep -v 'undeclared identifier' | head -n 5
  else
    pass
  fi
}

# count RULE FILES...: errors and warnings of RULE.
count() {
  local rule=$1
  shift
  "$BIN" check "$@" 2>&1 | grep -cE "(error|warning): .*\[$rule\]$"
}

FIXTURE=$REAL/pypto-lib_90ff1556-orchestration-fixture/moe_test.cpp
KERNEL=$SRC/tests/launch/fused_pre_norm_cce/entry.cpp
echo "== the generated-orchestration fixture and the kernel it names"
clean "fixture + fused_pre_norm_cce" "$FIXTURE" "$KERNEL"
linked=$("$BIN" model "$FIXTURE" "$KERNEL" 2>&1 | grep -c '^  launched by aicpu_orchestration_entry')
[ "$linked" = 1 ] && pass || fail "fixture: the fused task is linked to $linked kernel(s), not 1"

# drift NAME RULE PERL-EDIT: the edit changes the fixture, and RULE reports more than before.
drift() {
  local name=$1 rule=$2 edit=$3
  cp "$FIXTURE" "$TMP/moe_test.cpp"
  perl -0pi -e "$edit" "$TMP/moe_test.cpp"
  if cmp -s "$TMP/moe_test.cpp" "$FIXTURE"; then
    fail "$name: the edit did not apply"
    return
  fi
  local before after
  before=$(count "$rule" "$FIXTURE" "$KERNEL")
  after=$(count "$rule" "$TMP/moe_test.cpp" "$KERNEL")
  if [ "$after" -gt "$before" ]; then pass; else fail "$name: no new [$rule] finding ($before before, $after after)"; fi
}
drift "workspace shape {32} -> {31}" barrier-workspace 's/sync_workspace_inline987_ci_shapes\[1\] = \{32\}/sync_workspace_inline987_ci_shapes[1] = {31}/'
drift "add_inout -> add_input" barrier-workspace 's/fused_params_gamma\.add_inout\(sync_workspace_inline987\)/fused_params_gamma.add_input(sync_workspace_inline987)/'
drift "deps array [2] -> [3]" launch-dependencies 's/opaque_fused_deps\[2\]/opaque_fused_deps[3]/'
drift "duplicated producer dep" launch-dependencies 's/(opaque_fused_deps\[opaque_fused_dep_count\+\+\] = )opaque_linear_runtime_id/${1}opaque_rms_runtime_id/'
drift "producer early resolve off" launch-early-resolve 's/rms_params_alpha\.set_allow_early_resolve\(true\)/rms_params_alpha.set_allow_early_resolve(false)/'
drift "set_block_num(8) -> 7" barrier-participants 's/fused_params_gamma\.launch_spec\.set_block_num\(8\)/fused_params_gamma.launch_spec.set_block_num(7)/'
drift "require_sync_start(false)" barrier-sync-start 's/set_require_sync_start\(true\)/set_require_sync_start(false)/'
drift "fused early resolve off" launch-early-resolve 's/fused_params_gamma\.set_allow_early_resolve\(true\)/fused_params_gamma.set_allow_early_resolve(false)/'
drift "start_offset = 4" barrier-workspace 's/(sync_workspace_inline987_ci\.set_initial_value\(0\);)/$1\nsync_workspace_inline987_ci.start_offset = 4;/'
# Two barriers on one counter, in the kernel the fixture names.
cp "$KERNEL" "$TMP/entry.cpp"
perl -0pi -e 's/soft_sync\(sync_workspace, kBarrier2Words/soft_sync(sync_workspace, kBarrier1Words/' "$TMP/entry.cpp"
[ "$(count barrier-workspace "$FIXTURE" "$TMP/entry.cpp")" -gt "$(count barrier-workspace "$FIXTURE" "$KERNEL")" ] && pass ||
  fail "two barriers on one counter: no new [barrier-workspace] finding"

FUSED=models/deepseek/v4-flash/kernels/fused_pre_norm_cce
echo "== both real fused versions with their orchestration"
for v in pypto-lib_3192c95d pypto-lib_4ab10f40; do
  clean "$v entry.cpp + orchestration" "$SRC/tests/launch/${v}_orchestration.cpp" "$REAL/$v/$FUSED/entry.cpp"
  verdicts=$("$BIN" audit "$SRC/tests/launch/${v}_orchestration.cpp" "$REAL/$v/$FUSED/entry.cpp" --rule barrier-sync-start \
    --rule barrier-participants --format json | grep -c '"Proved"')
  [ "$verdicts" -ge 2 ] && pass || fail "$v: the launch rules are not proved with the orchestration linked"
done

# mistake NAME VERSION RULE ORCH-EDIT KERNEL-FILE KERNEL-EDIT: the edits (either may be "") make
# RULE report more on (orchestration, entry.cpp) than on the unmutated pair.
mistake() {
  local name=$1 version=$2 rule=$3 orchEdit=$4 file=$5 kernelEdit=$6
  local orch=$SRC/tests/launch/${version}_orchestration.cpp
  rm -rf "$TMP/tree"
  mkdir -p "$TMP/tree"
  cp -r "$REAL/$version" "$TMP/tree/"
  cp "$orch" "$TMP/tree/orchestration.cpp"
  [ -n "$orchEdit" ] && perl -0pi -e "$orchEdit" "$TMP/tree/orchestration.cpp"
  [ -n "$kernelEdit" ] && perl -0pi -e "$kernelEdit" "$TMP/tree/$version/$file"
  if cmp -s "$TMP/tree/orchestration.cpp" "$orch" && { [ -z "$file" ] || cmp -s "$TMP/tree/$version/$file" "$REAL/$version/$file"; }; then
    fail "$name: the edit did not apply"
    return
  fi
  local before after
  before=$(count "$rule" "$orch" "$REAL/$version/$FUSED/entry.cpp")
  after=$(count "$rule" "$TMP/tree/orchestration.cpp" "$TMP/tree/$version/$FUSED/entry.cpp")
  if [ "$after" -gt "$before" ]; then pass; else fail "$name: no new [$rule] finding ($before before, $after after)"; fi
}
echo "== the DeepSeek-V4 MoE fusion write-up's mistakes on the real fused versions"
V=pypto-lib_3192c95d
BODY=$FUSED/kernel/fused_body.hpp
mistake "launch 7 with 8 lanes" $V barrier-participants 's/set_block_num\(8\)/set_block_num(7)/' "" ""
mistake "summed participants" $V barrier-participants "" $BODY 's/gm_workspace, ub_workspace, kAivLanes, participant_idx/gm_workspace, ub_workspace, kAivLanes + 5, participant_idx/'
mistake "dropped sync_start" $V barrier-sync-start 's/\n  fused_params\.launch_spec\.set_require_sync_start\(true\);//' "" ""
mistake "one workspace for two grids" $V barrier-workspace 's/(  \/\/ Task 4096: fused_pre_norm_cce\n.*?rt_submit_aiv_task\(8128, fused_params\);\n)/my $t = $1; $t . ($t =~ s{fused_(params|dep|output)}{again_$1}gr)/se' "" ""
mistake "workspace Input instead of InOut" $V barrier-workspace 's/add_inout\(sync_workspace\)/add_input(sync_workspace)/' "" ""
mistake "a lane returning early" $V barrier-arrival "" $BODY 's/(  \/\/ Preserve the standalone)/  if (lane >= split_work) { return; }\n$1/'
mistake "a lane guard skipping a barrier" $V barrier-arrival "" $BODY 's/(\n)(  soft_sync_aiv\(sync_workspace, lane\);)/$1  if (lane < split_work)\n$2/'
mistake "workspace not zeroed" $V barrier-workspace 's/\n  sync_workspace_ci\.set_initial_value\(0\);//' "" ""
mistake "workspace too small for 8 slots" $V barrier-workspace 's/sync_workspace_ci_shapes\[1\] = \{64\}/sync_workspace_ci_shapes[1] = {32}/' "" ""
mistake "producer dependency repeated" $V launch-dependencies 's/fused_deps\[fused_dep_count\+\+\] = linear_id/fused_deps[fused_dep_count++] = rms_id/' "" ""
mistake "a tensor added after the scalars" $V abi-order 's/(  fused_params\.add_inout\(sync_workspace\);\n)((?:  fused_params\.add_scalar\(\w+\);\n)+)/$2$1/' "" ""
V=pypto-lib_4ab10f40
mistake "4ab10f40: launch 8 with the 48-AIV hard barrier" $V barrier-participants 's/set_block_num\(48\)/set_block_num(8)/' "" ""
mistake "4ab10f40: dropped sync_start" $V barrier-sync-start 's/\n  fused_params\.launch_spec\.set_require_sync_start\(true\);//' "" ""
mistake "4ab10f40: a lane returning early" $V barrier-arrival "" $BODY 's/(  \/\/ AIV-only global barrier: publish every)/  if (lane >= split_work) { return; }\n$1/'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
