#include <algorithm>

#include "rules/rule.h"

namespace ptov {

// One line per rule; scripts/new-rule appends here.
std::unique_ptr<Rule> makeCommPublishFence();
std::unique_ptr<Rule> makeCommWaitInvalidate();
std::unique_ptr<Rule> makeCommPutDrain();
std::unique_ptr<Rule> makeCommWaitBatching();
std::unique_ptr<Rule> makeSyncEventPairing();
std::unique_ptr<Rule> makeUbRange();
std::unique_ptr<Rule> makeCacheBypassOffset();
std::unique_ptr<Rule> makeCacheBypassWritten();
std::unique_ptr<Rule> makeCachePolicyParam();
std::unique_ptr<Rule> makeSyncDeadlock();
std::unique_ptr<Rule> makeSyncExitBalance();
std::unique_ptr<Rule> makeBarrierArrival();
std::unique_ptr<Rule> makeSyncPipeRace();
std::unique_ptr<Rule> makeSyncReservedEvent();
std::unique_ptr<Rule> makeSyncBlockPairing();
std::unique_ptr<Rule> makeSyncFftsBase();
std::unique_ptr<Rule> makeBarrierLogicalId();
std::unique_ptr<Rule> makeBarrierParticipants();
std::unique_ptr<Rule> makeBarrierSyncStart();
std::unique_ptr<Rule> makeBarrierWorkspace();
std::unique_ptr<Rule> makeBarrierDataVisibility();
std::unique_ptr<Rule> makeLaunchDependencies();
std::unique_ptr<Rule> makeLaunchEarlyResolve();
std::unique_ptr<Rule> makeAbiOrder();
std::unique_ptr<Rule> makeCachePolicyWrapper();
std::unique_ptr<Rule> makeXcheckSync();
std::unique_ptr<Rule> makeTimingSharedFieldWrite();
std::unique_ptr<Rule> makeTimingStopOrder();
std::unique_ptr<Rule> makeTimingHardWaitTimeout();
std::unique_ptr<Rule> makeSyncCorePipe();


const std::vector<std::unique_ptr<Rule>>& allRules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(makeCommPublishFence());
    r.push_back(makeCommWaitInvalidate());
    r.push_back(makeCommPutDrain());
    r.push_back(makeCommWaitBatching());
    r.push_back(makeSyncEventPairing());
    r.push_back(makeUbRange());
    r.push_back(makeCacheBypassOffset());
    r.push_back(makeCacheBypassWritten());
    r.push_back(makeCachePolicyParam());
    r.push_back(makeSyncDeadlock());
    r.push_back(makeSyncExitBalance());
    r.push_back(makeBarrierArrival());
    r.push_back(makeSyncPipeRace());
    r.push_back(makeSyncReservedEvent());
    r.push_back(makeSyncBlockPairing());
    r.push_back(makeSyncFftsBase());
    r.push_back(makeBarrierLogicalId());
    r.push_back(makeBarrierParticipants());
    r.push_back(makeBarrierSyncStart());
    r.push_back(makeBarrierWorkspace());
    r.push_back(makeBarrierDataVisibility());
    r.push_back(makeLaunchDependencies());
    r.push_back(makeLaunchEarlyResolve());
    r.push_back(makeAbiOrder());
    r.push_back(makeCachePolicyWrapper());
    r.push_back(makeXcheckSync());
    r.push_back(makeTimingSharedFieldWrite());
    r.push_back(makeTimingStopOrder());
    r.push_back(makeTimingHardWaitTimeout());
    r.push_back(makeSyncCorePipe());

    return r;
  }();
  return rules;
}

const Rule* findRule(const std::string& id) {
  for (const auto& r : allRules())
    if (r->info().id == id) return r.get();
  return nullptr;
}

}  // namespace ptov
