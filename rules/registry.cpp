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
