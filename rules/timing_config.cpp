#include "rules/timing_config.h"

#include "rules/rule.h"

namespace ptov {

const TimingConfig& defaultTimingConfig() {
  static const TimingConfig c = [] {
    TimingConfig t;
    const std::string devStartArgs =
        "keep only the full-core capacity in the shared `DevProg.devArgs` and write this round's value to "
        "`DevStartArgs` (ring-slot local, read by sche through its own round's args)";
    const std::string slotProtocol =
        "do not use it as this round's private buffer: hand the slot back through the stop sequence (STOP visible, "
        "fence, `ResetParallelDevTask`, fence, `ResetShakeBuf`; see timing-stop-order)";
    // The seed's names (DevProg, shake) and cann/pypto's (DevAscendProgram, the shake buffers).
    for (const char* prog : {"DevProg", "DevAscendProgram"}) {
      t.sharedFields.push_back({prog, "ctrlFlowCacheAnchor", {"ctrl"}, {}, true, false, {}, ""});
      t.sharedFields.push_back({prog, "memBudget", {"ctrl"}, {}, true, false, {}, ""});
      t.sharedFields.push_back({prog, "devArgs.nrValidAic", {"ctrl", "sche"}, {}, true, false, {}, devStartArgs});
      t.sharedFields.push_back({prog, "devArgs.scheCpuNum", {"ctrl", "sche"}, {}, true, false, {}, devStartArgs});
      t.sharedFields.push_back(
          {prog,
           "runtimeDataRingBufferInited",
           {"ctrl", "sche"},
           {},
           true,
           false,
           // cann/pypto's ctrl sets it in InitDevProgram, right after initialising the ring head.
           {"*RuntimeDataRingBuffer*", "InitDevProgram"},
           "use the existing ring protocol (`RuntimeDataRingBufferHeadAllocate` / `AllocatePrepare` / `AllocateSubmit` / "
           "`Deallocate`, and waiting for `runtimeDataRingBufferInited`) instead of a second writer"});
    }
    t.sharedFields.push_back({"*", "parallelDevTask", {"sche", "aicore"}, {"sche"}, true, false, {"ResetParallelDevTask"}, slotProtocol});
    for (const char* shake : {"shake", "shakeBuffer", "shakeBufferCpuToCore", "waveBufferCpuToCore"})
      t.sharedFields.push_back({"*", shake, {"sche", "aicore"}, {"sche"}, true, false, {"ResetShakeBuf*"}, slotProtocol});
    t.sharedFields.push_back({"*",
                              "rawTensorAddr",
                              {"ctrl", "aicore"},
                              {},
                              true,
                              true,
                              {},
                              "before this CF-cache slot is reused, wait until the AICores of its previous round have "
                              "exited (restore only then)"});
    // cann/pypto's entry points: device_ctrl.cpp (ctrl) and device_sche.cpp (sche).
    t.roleEntries = {{"ctrl", {"PyptoKernelCtrlServer*"}},
                     {"sche", {"DynTileFwkBackendKernelServer*", "StaticTileFwkBackendKernelServer*"}},
                     {"aicore", {}}};
    t.perRoundObjects = {"DevStartArgs", "DevStartArgsBase"};
    t.stopCalls = {"SetReadyQueue"};
    t.stopMarker = "AICORE_TASK_STOP";
    t.fenceCalls = {"__sync_synchronize", "__atomic_thread_fence", "atomic_thread_fence"};
    t.clearCalls = {"ResetParallelDevTask"};
    t.goodbyeCalls = {"ResetShakeBuf"};
    t.goodbyeValues = {"AICORE_SAY_GOODBYE"};
    t.closeCalls = {"CloseFastPathReg"};
    t.closeValues = {"REG_SPR_FAST_PATH_CLOSE"};
    t.reclaimCalls = {"*Deallocate"};
    t.safeTimeoutCalls = {"GetOsThrottleSafeWaitTimeout"};
    t.safeWindowConstants = {{"a2a3", "TIMEOUT_A2A3_100MS"}, {"a5", "TIMEOUT_A5_100MS"}};
    t.hardFailureCalls = {"*ERROR*", "*Error", "abort", "*Abort*", "*Fatal*", "*FATAL*", "*Panic*", "exit", "_exit"};
    t.errorReturns = {"*ERR*", "*FAIL*", "*Err*", "*Fail*", "-1"};
    t.degradeCalls = {"*Degrade*", "*Drop*", "*Retry*", "*Fallback*"};
    return t;
  }();
  return c;
}

std::vector<std::string> rolesOf(const std::vector<std::string>& entries, const std::string& function,
                                 const TimingConfig& t) {
  std::vector<std::string> out;
  for (const auto& [role, globs] : t.roleEntries) {
    bool reached = anyNameMatches(globs, function);
    for (const auto& e : entries) reached |= anyNameMatches(globs, e);
    if (reached) out.push_back(role);
  }
  return out;
}

bool anyNameMatches(const std::vector<std::string>& globs, const std::string& name) {
  for (const auto& g : globs)
    if (!name.empty() && globMatches(g, name)) return true;
  return false;
}

}  // namespace ptov
