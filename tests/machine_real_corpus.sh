#!/usr/bin/env bash
# The pypto-machine-code-review timing rules on cann/pypto's real machine code
# (../shared/corpus-real/machine, docs/real-corpus.md "Machine code"): the device tree through a
# compile_commands.json written from its CMake files, every function modelled fully, exactly the
# true issues the snapshot holds, and mutants of its files (made in a temporary copy) each caught by
# the intended rule.
#   machine_real_corpus.sh PTOVERIFY SOURCE_DIR
set -uo pipefail
BIN=$1
SRC=$2
# shellcheck source=tests/real_corpus_common.sh
source "$SRC/tests/real_corpus_common.sh"

PYPTO=$(cd "$REAL_CORPUS/machine/pypto_883e7dfb" && pwd)  # absolute: the compile commands name absolute paths

# The device tree's compile_commands.json, written from its CMake files (as a user without a
# build would: scripts/pypto_compile_commands.sh).
write_db() { bash "$SRC/scripts/pypto_compile_commands.sh" "$1" "$2"; }

# findings RULE OUTPUT: the rule's error and warning lines. (Matched with `grep ... >/dev/null`,
# not -q: under pipefail an early exit of grep -q fails the pipe.)
findings() { grep -aE "(error|warning): .*\[$1\]$" <<<"$2"; }

# expect NAME RULE PATTERN OUTPUT: one of RULE's findings matches PATTERN.
expect() {
  if findings "$2" "$4" | grep -aE "$3" >/dev/null; then pass; else
    fail "$1: no $2 finding matching '$3'"
    findings "timing-[a-z-]*" "$4" | head -n 5
  fi
}
# expect_none NAME RULE PATTERN OUTPUT: no finding of RULE matches PATTERN.
expect_none() {
  if findings "$2" "$4" | grep -aE "$3" >/dev/null; then
    fail "$1: unexpected $2 finding matching '$3'"
    findings "$2" "$4" | grep -aE "$3" | head -n 3
  else pass; fi
}

# ---- HEAD, the whole device tree ----
write_db "$PYPTO" "$TMP/db"
DEV=$PYPTO/framework/src/machine/device
out=$("$BIN" check -p "$TMP/db" "$DEV" -j 2 --rules 'timing-*' 2>&1)
summary=$(tail -n 1 <<<"$out")
# Every function of the tree's control code is read whole.
if grep -qE 'control code: [0-9]+ function\(s\) modelled fully, 0 partly, 0 not at all$' <<<"$summary" &&
   ! grep -q 'input error' <<<"$summary"; then pass; else
  fail "HEAD: not every function modelled fully, or input errors: $summary"
fi
# The true issues of the snapshot (the issue's list), each with the review level the timing rules give it.
expect "HEAD rule 1" timing-shared-field-write 'device_sche.h:363:[0-9]+: error: Blocker: `devProg->devArgs.nrValidAic` .* from sche code' "$out"
expect "HEAD rule 2" timing-stop-order 'aicore_hal.h:472:[0-9]+: error: Blocker: the store of `AICORE_SAY_GOODBYE` .* before the slots are cleared' "$out"
# Rule 3: one finding per wait and hard failure, at the timeout expression, listing the values.
expect "HEAD rule 3 single sche" timing-hard-wait-timeout 'device_sche_wait_ctrl.h:48:[0-9]+: error: Blocker: .*`TIMEOUT_A2A3_55MS` \(55 ms\) when `arbitratedScheNum==1` is true' "$out"
expect "HEAD rule 3 A5 last level" timing-hard-wait-timeout 'device_sche_alloc_thread.h:97:[0-9]+: error: Blocker: .*`TIMEOUT_A5_50US` \(50 us\)' "$out"
expect "HEAD rule 3 A2A3 last level, its three values in one finding" timing-hard-wait-timeout 'device_sche_alloc_thread.h:97:[0-9]+: error: Blocker: .*`TIMEOUT_A2A3_2MS` \(2 ms\) when .*; `TIMEOUT_A2A3_1MS` \(1 ms\) when .*; `TIMEOUT_A2A3_50US` \(50 us\) when ' "$out"
expect "HEAD rule 3 follower" timing-hard-wait-timeout 'device_sche_alloc_thread.h:145:[0-9]+: error: Blocker: .*TIMEOUT_A5_50US \* 5` \(250 us\)' "$out"
# What the timing rules name as correct stays clean: several sche only degrade (100 us is fine there),
# ctrl's own InitDevProgram sets the ring flag, sche publishes its slots.
expect_none "HEAD degradable wait" timing-hard-wait-timeout 'device_sche_wait_ctrl.h:48:.*(TIMEOUT_A2A3_100US|TIMEOUT_A2A3_2MS)' "$out"
# The same-cluster wait's timeout falls into the per-level loop of WaitForCpuMaskReadyForArbitration.
expect_none "HEAD same-cluster wait degrades" timing-hard-wait-timeout 'polling `GetSameClusterCpuCnt' "$out"
n=$(findings timing-hard-wait-timeout "$out" | wc -l)
if [ "$n" -eq 5 ]; then pass; else fail "HEAD: $n timing-hard-wait-timeout findings, expected 5 (one per wait and hard failure)"; fi
expect_none "HEAD ring flag" timing-shared-field-write 'runtimeDataRingBufferInited' "$out"
expect_none "HEAD slot publish" timing-shared-field-write 'parallelDevTask' "$out"
# Every role is established from the inputs' entry points (calls, constructions and callback
# tables across files); none is assumed.
if grep -aq 'assumed' <<<"$out"; then fail "HEAD: a finding with an assumed role"; else pass; fi

# ---- mutants, in a temporary copy ----
COPY=$TMP/pypto
cp -r "$PYPTO" "$COPY"
write_db "$COPY" "$TMP/db-copy"
D=$COPY/framework/src/machine/device/dynamic
reset() { rm -rf "$COPY" && cp -r "$PYPTO" "$COPY"; }
# check_sche / check_ctrl: the sche (ctrl) library's main file with the headers it is asked about.
check_sche() { "$BIN" check -p "$TMP/db-copy" "$D/device_sche.cpp" "$D/aicore_manager.h" "$D/aicore_hal.h" "$D/device_sche.h" "$D/device_sche_wait_ctrl.h" --rules 'timing-*' 2>&1; }
check_ctrl() { "$BIN" check -p "$TMP/db-copy" "$D/device_ctrl.cpp" "$D/device_ctrl.h" --rules 'timing-*' 2>&1; }
# edit FILE PYTHON-REPLACEMENTS...: exact text replacements, each must apply once.
edit() {
  python3 - "$@" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
for i in range(2, len(sys.argv), 2):
    old, new = sys.argv[i], sys.argv[i + 1]
    if text.count(old) != 1:
        sys.exit("edit: %r found %d times in %s" % (old, text.count(old), path))
    text = text.replace(old, new)
open(path, "w").write(text)
EOF
}

# The timing rules' fixed order (good): STOP, fence, optional close, clear every slot, fence, GOODBYE
# (and GOODBYE no longer clears behind it).
STOP_HEAD='        aicoreHal_.SetReadyQueue(aicStart_, aicEnd_, AICORE_TASK_STOP + 1);
        aicoreHal_.SetReadyQueue(aivStart_, aivEnd_, AICORE_TASK_STOP + 1);
        /* write to MAINBASE reg must be done before close 0x18 */
        __sync_synchronize();
        if (aicoreHal_.NeedsFastPathRegClose()) {
            aicoreHal_.CloseFastPathReg(aicStart_, aicEnd_);
            aicoreHal_.CloseFastPathReg(aivStart_, aivEnd_);
            __sync_synchronize();
        }
        aicoreHal_.ResetShakeBuf(aicStart_, aicEnd_);
        aicoreHal_.ResetShakeBuf(aivStart_, aivEnd_);'
CLEAR='        for (int i = aicStart_; i < aicEnd_; ++i) aicoreHal_.ResetParallelDevTask(i);
        for (int i = aivStart_; i < aivEnd_; ++i) aicoreHal_.ResetParallelDevTask(i);'
STOPS='        aicoreHal_.SetReadyQueue(aicStart_, aicEnd_, AICORE_TASK_STOP + 1);
        aicoreHal_.SetReadyQueue(aivStart_, aivEnd_, AICORE_TASK_STOP + 1);'
CLOSE='        if (aicoreHal_.NeedsFastPathRegClose()) {
            aicoreHal_.CloseFastPathReg(aicStart_, aicEnd_);
            aicoreHal_.CloseFastPathReg(aivStart_, aivEnd_);
        }'
GOODBYE='        aicoreHal_.ResetShakeBuf(aicStart_, aicEnd_);
        aicoreHal_.ResetShakeBuf(aivStart_, aivEnd_);'
NO_CLEAR_BEHIND_GOODBYE=(
  '        args_[coreIdx]->waveBufferCpuToCore[CPU_TO_CORE_SHAK_BUF_GOODBYE_INDEX] = AICORE_SAY_GOODBYE;
        ResetParallelDevTask(coreIdx);'
  '        args_[coreIdx]->waveBufferCpuToCore[CPU_TO_CORE_SHAK_BUF_GOODBYE_INDEX] = AICORE_SAY_GOODBYE;')
HAL_EDITS=()  # more replacements in aicore_hal.h for the next stop_order
stop_order() {  # stop_order NAME BODY EXPECTATION [PATTERN]
  reset
  edit "$D/aicore_hal.h" "${NO_CLEAR_BEHIND_GOODBYE[@]}" "${HAL_EDITS[@]}" || { fail "$1: edit"; return; }
  HAL_EDITS=()
  edit "$D/aicore_manager.h" "$STOP_HEAD" "$2" || { fail "$1: edit"; return; }
  local o
  o=$(check_sche)
  if [ "$3" = clean ]; then expect_none "$1" timing-stop-order '.' "$o"; else expect "$1" timing-stop-order "$4" "$o"; fi
}
FENCE='        __sync_synchronize();'
stop_order "the timing rules' fixed order (good)" "$STOPS
$FENCE
$CLOSE
$CLEAR
$FENCE
$GOODBYE" clean
stop_order "STOP fence moved into the optional if" "$STOPS
        if (aicoreHal_.NeedsFastPathRegClose()) {
            __sync_synchronize();
            aicoreHal_.CloseFastPathReg(aicStart_, aicEnd_);
        }
$CLEAR
$FENCE
$GOODBYE" bad 'no full fence between the STOP and .* on the path where `aicoreHal_.NeedsFastPathRegClose\(\)` is false'
stop_order "slots cleared before the STOP fence" "$STOPS
$CLEAR
$FENCE
$CLOSE
$FENCE
$GOODBYE" bad 'no full fence between the STOP and `aicoreHal_.ResetParallelDevTask\(i\)`'
stop_order "GOODBYE before the clear" "$STOPS
$FENCE
$CLOSE
$GOODBYE
$FENCE
$CLEAR" bad 'says GOODBYE before the slots are cleared'

# Upstream's fast-path fix: the register close inside GOODBYE's helper (as before the separate
# CloseFastPathReg), with and without the fence between the close and the GOODBYE store.
GOODBYE_STORE='        args_[coreIdx]->waveBufferCpuToCore[CPU_TO_CORE_SHAK_BUF_GOODBYE_INDEX] = AICORE_SAY_GOODBYE;'
CLOSE_ONE='        WriteReg32(coreIdx, REG_SPR_FAST_PATH_ENABLE, static_cast<uint32_t>(REG_SPR_FAST_PATH_CLOSE));'
HAL_EDITS=("$GOODBYE_STORE" "$CLOSE_ONE
$FENCE
$GOODBYE_STORE")
stop_order "register close fenced before GOODBYE (good)" "$STOPS
$FENCE
$CLEAR
$FENCE
$GOODBYE" clean
HAL_EDITS=("$GOODBYE_STORE" "$CLOSE_ONE
$GOODBYE_STORE")
stop_order "no fence between the register close and GOODBYE" "$STOPS
$FENCE
$CLEAR
$FENCE
$GOODBYE" bad 'aicore_hal.h:[0-9]+:[0-9]+: error: Blocker: no fence between closing the fast-path register and the store of `AICORE_SAY_GOODBYE`'

# Rule 1: ctrl rewriting this round's core count on the shared program, directly and through a
# local reference; sche rewriting scheCpuNum on it.
reset
edit "$D/device_ctrl.h" '        bool firstInit = InitDevProgram(devProg);' '        bool firstInit = InitDevProgram(devProg);
        devProg->devArgs.nrValidAic = kargs->parameter.ctrlBlockNum;
        auto& sharedArgs = devProg->devArgs;
        sharedArgs.nrValidAic = kargs->parameter.ctrlBlockNum;' || fail "ctrl edit"
o=$(check_ctrl)
expect "ctrl writes devArgs.nrValidAic" timing-shared-field-write 'device_ctrl.h:[0-9]+:[0-9]+: error: Blocker: `devProg->devArgs.nrValidAic` rewrites DevAscendProgram::devArgs.nrValidAic .* from ctrl code' "$o"
# One finding per field and writing function: the write through the reference is its note.
expect "ctrl writes it twice, one finding" timing-shared-field-write 'error: Blocker: `devProg->devArgs.nrValidAic` rewrites DevAscendProgram::devArgs.nrValidAic .*\(here and in 1 more place in this function\)' "$o"
if grep -aE 'device_ctrl.h:[0-9]+:[0-9]+: note: also written here: `sharedArgs.nrValidAic`' <<<"$o" >/dev/null; then pass; else fail "the write through a local reference is not a note of the finding"; fi
# The same write made in a helper of a header the reviewer does not pass (device_ctrl.h's include
# device_execute_context.h): it counts where ctrl reaches it.
reset
EXEC_CTX=$COPY/framework/src/machine/device/dynamic/context/device_execute_context.h
edit "$EXEC_CTX" '    uint32_t currentMaxV_{0};
};
} // namespace npu::tile_fwk::dynamic' '    uint32_t currentMaxV_{0};
};
inline void SetRoundAicNum(DevAscendProgram* devProg, uint32_t n) { devProg->devArgs.nrValidAic = n; }
} // namespace npu::tile_fwk::dynamic' || fail "helper edit"
edit "$D/device_ctrl.h" '        bool firstInit = InitDevProgram(devProg);' '        bool firstInit = InitDevProgram(devProg);
        SetRoundAicNum(devProg, kargs->parameter.ctrlBlockNum);' || fail "helper call edit"
o=$(check_ctrl)
expect "ctrl writes devArgs.nrValidAic in a helper of an unpassed header" timing-shared-field-write 'device_execute_context.h:[0-9]+:[0-9]+: error: Blocker: `devProg->devArgs.nrValidAic` rewrites DevAscendProgram::devArgs.nrValidAic .* from ctrl code' "$o"
# A role no input establishes is unknown, not assumed: device_sche.h alone has no entry point.
o=$("$BIN" check -p "$TMP/db-copy" "$D/device_sche.h" --rules 'timing-*' 2>&1)
if grep -aE 'device_sche.h:363:[0-9]+: unknown: could not prove: `devProg->devArgs.nrValidAic` .*role that runs it is unknown' <<<"$o" >/dev/null &&
   ! grep -aq 'assumed' <<<"$o"; then pass; else fail "device_sche.h alone: the write's role is not unknown"; grep -a 'nrValidAic' <<<"$o" | head -2; fi
reset
edit "$D/device_sche.h" '            devProg->devArgs.nrValidAic = kargs->parameter.ctrlBlockNum;' '            devProg->devArgs.nrValidAic = kargs->parameter.ctrlBlockNum;
            devProg->devArgs.scheCpuNum = 1;' || fail "sche edit"
o=$(check_sche)
expect "sche writes scheCpuNum" timing-shared-field-write 'device_sche.h:[0-9]+:[0-9]+: error: Blocker: `devProg->devArgs.scheCpuNum` .* from sche code' "$o"

# Rule 3: the single-sche wait for ctrl at 100 us; a 100 us hard wait on the ring's inited flag;
# the follower's wait for ctrl's decision shortened; the timing rules' throttle-safe form (good).
reset
edit "$D/device_sche_wait_ctrl.h" '        waitTimeout = TIMEOUT_A2A3_55MS;' '        waitTimeout = TIMEOUT_A2A3_100US;' || fail "wait edit"
o=$(check_sche)
expect "single-sche wait at 100 us" timing-hard-wait-timeout 'device_sche_wait_ctrl.h:48:[0-9]+: error: Blocker: .*`TIMEOUT_A2A3_100US` \(100 us\) when `arbitratedScheNum==1` is true' "$o"
reset
edit "$D/device_sche.h" '            TIMEOUT_CHECK_INIT(devProg->devArgs.archInfo, TIMEOUT_1MIN);

            while (unlikely(!devProg->runtimeDataRingBufferInited)) {' '            TIMEOUT_CHECK_INIT(devProg->devArgs.archInfo, TIMEOUT_A2A3_100US);

            while (unlikely(!devProg->runtimeDataRingBufferInited)) {' || fail "ring edit"
o=$(check_sche)
expect "100 us hard wait on runtimeDataRingBufferInited" timing-hard-wait-timeout 'device_sche.h:[0-9]+:[0-9]+: error: Blocker: the spin wait polling `unlikely\(!devProg->runtimeDataRingBufferInited\)`.*100 us' "$o"
reset
edit "$D/device_sche_wait_ctrl.h" '    uint64_t waitTimeout = CalcWaitTimeout(false, true);' '    uint64_t waitTimeout = CalcWaitTimeout(false, false);' || fail "follower edit"
o=$(check_sche)
expect "follower's ctrl-decision wait shortened" timing-hard-wait-timeout 'error: Blocker: the spin wait polling `level == CTRL_WAIT_UNSET \|\| level == CTRL_WAIT_ARBITRATING` fails hard' "$o"
reset
edit "$D/device_utils.h" 'constexpr uint64_t TIMEOUT_A2A3_55MS = 2750000ULL;                  // 55ms' 'constexpr uint64_t TIMEOUT_A2A3_55MS = 2750000ULL;                  // 55ms
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000ULL;
constexpr uint64_t TIMEOUT_A5_100MS = 100000000ULL;
inline uint64_t GetOsThrottleSafeWaitTimeout(ArchInfo archInfo)
{
    return (archInfo == ArchInfo::DAV_3510) ? TIMEOUT_A5_100MS : TIMEOUT_A2A3_100MS;
}' || fail "safe edit"
edit "$D/device_sche_wait_ctrl.h" 'static inline uint64_t CalcWaitTimeout(bool isOnlyOneSche = false, bool isWaitCtrlLevel = false)' 'static inline uint64_t CalcWaitTimeout(ArchInfo archInfo, bool isOnlyOneSche = false, bool isWaitCtrlLevel = false)' \
  '        waitTimeout = TIMEOUT_A2A3_55MS;' '        waitTimeout = GetOsThrottleSafeWaitTimeout(archInfo);' \
  '    uint64_t waitTimeout = CalcWaitTimeout(isOnlyOneSche, false);' '    uint64_t waitTimeout = CalcWaitTimeout(archInfo, isOnlyOneSche, false);' \
  '    uint64_t waitTimeout = CalcWaitTimeout(false, true);' '    uint64_t waitTimeout = CalcWaitTimeout(archInfo, false, true);' || fail "safe edit 2"
o=$(check_sche)
expect_none "the timing rules' throttle-safe form (good)" timing-hard-wait-timeout 'device_sche_wait_ctrl.h' "$o"

# A header that includes the tile headers only under a define the build never sets is still
# control code: the preprocessor decides, not the #include lines. With the single-sche wait at
# 100 us, the changed header alone and with its source both report it.
reset
edit "$D/device_sche_wait_ctrl.h" '#include "machine/utils/device_log.h"' '#include "machine/utils/device_log.h"
#include "tilefwk/aicore_print_base.h"' '        waitTimeout = TIMEOUT_A2A3_55MS;' '        waitTimeout = TIMEOUT_A2A3_100US;' || fail "print-base edit"
o=$("$BIN" check -p "$TMP/db-copy" "$D/device_sche_wait_ctrl.h" --rules 'timing-*' 2>&1)
expect "wait header alone, tile headers behind an untaken #ifdef" timing-hard-wait-timeout 'device_sche_wait_ctrl.h:[0-9]+:[0-9]+: error: Blocker: .*`TIMEOUT_A2A3_100US` \(100 us\)' "$o"
o=$("$BIN" check -p "$TMP/db-copy" "$D/device_sche_wait_ctrl.h" "$D/device_sche.cpp" --rules 'timing-*' 2>&1)
expect "wait header with its source" timing-hard-wait-timeout 'device_sche_wait_ctrl.h:[0-9]+:[0-9]+: error: Blocker: .*`TIMEOUT_A2A3_100US` \(100 us\) when `arbitratedScheNum==1` is true' "$o"
if grep -q 'input error' <<<"$(tail -n 1 <<<"$o")"; then fail "wait header with its source: input errors"; else pass; fi

# ---- a GitCode comment for a finding, against the v5 API's field table ----
o=$("$BIN" check -p "$TMP/db" "$DEV/dynamic/device_sche.cpp" "$DEV/dynamic/device_sche.h" --rules timing-shared-field-write \
  --format gitcode --source-root "$PYPTO" 2>/dev/null)
if python3 - "$o" <<'EOF'; then pass; else fail "gitcode payload does not match the v5 field table"; fi
import json, sys
comments = json.loads(sys.argv[1])
assert comments, "no comment"
for c in comments:
    # POST /api/v5/repos/{owner}/{repo}/pulls/{number}/comments: body, path, position (the line in
    # the PR head file), need_to_resolve; `line` / `side` would make it a PR-level comment.
    assert set(c) == {"body", "path", "position", "need_to_resolve"}, c.keys()
    assert isinstance(c["position"], int) and c["position"] > 0
    assert not c["path"].startswith("/") and not c["path"].startswith(".."), c["path"]
    assert c["body"].startswith("**Blocker**") or c["body"].startswith("**Major**") or c["body"].startswith("**Minor**")
    assert "**Problem:**" in c["body"] and "**Fix:**" in c["body"]
hit = [c for c in comments if c["path"] == "framework/src/machine/device/dynamic/device_sche.h" and c["position"] == 363]
assert hit and hit[0]["need_to_resolve"] is True, comments
EOF

echo "machine-real-corpus: $passed passed, $failed failed"
[ $failed -eq 0 ]
