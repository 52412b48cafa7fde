#include "rules/timing_queries.h"

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"


namespace ptov {

bool anyNameMatches(const std::vector<std::string>& globs, const std::string& name) {
  for (const auto& g : globs)
    if (!name.empty() && globMatches(g, name)) return true;
  return false;
}

bool functionMatches(const std::vector<std::string>& globs, const std::string& qualifiedName) {
  size_t colon = qualifiedName.rfind("::");
  std::string plain = colon == std::string::npos ? qualifiedName : qualifiedName.substr(colon + 2);
  return anyNameMatches(globs, qualifiedName) || anyNameMatches(globs, plain);
}

bool callMatches(const std::vector<std::string>& globs, const ControlNode& call) {
  return call.kind == ControlNode::Kind::Call &&
         (anyNameMatches(globs, call.name) || anyNameMatches(globs, call.macro));
}

Step stepOf(const ControlNode& call, const StopNames& t) {
  if (call.kind == ControlNode::Kind::Write)
    return anyNameMatches(t.goodbyeValues, call.text) || anyNameMatches(t.goodbyeValues, call.macro) ? Step::Goodbye
                                                                                                     : Step::None;
  if (call.kind == ControlNode::Kind::Loop) {
    if (anyNameMatches(t.aicoreWaitPolls, call.name)) return Step::AicoreWait;
    if (anyNameMatches(t.scheWaitPolls, call.name)) return Step::ScheWait;
    return Step::None;
  }
  if (call.kind != ControlNode::Kind::Call) return Step::None;
  if (callMatches(t.stopCalls, call) && (t.stopMarker.empty() || call.text.find(t.stopMarker) != std::string::npos))
    return Step::Stop;
  if (callMatches(t.fenceCalls, call)) return Step::Fence;
  if (callMatches(t.clearCalls, call)) return Step::Clear;
  if (callMatches(t.goodbyeCalls, call)) return Step::Goodbye;
  if (callMatches(t.closeCalls, call)) return Step::Close;
  for (const auto& v : t.closeValues)
    if (!v.empty() && call.text.find(v) != std::string::npos) return Step::Close;
  if (callMatches(t.aicoreWaitCalls, call)) return Step::AicoreWait;
  if (callMatches(t.scheWaitCalls, call)) return Step::ScheWait;
  if (callMatches(t.reclaimCalls, call)) return Step::Reclaim;
  return Step::None;
}

namespace {
void collectSteps(const ControlNode& n, const StopNames& t, bool inCallee, StopSteps& out) {
  Step s = stepOf(n, t);
  if (s != Step::None) {
    out.found.insert(s);
    out.own |= !inCallee;
    if (!walkedInto(n, t)) return;
  }
  for (const auto& c : n.children) collectSteps(c, t, inCallee || n.kind == ControlNode::Kind::Call, out);
}

void stepsBelow(const ControlNode& n, const StopNames& t, std::set<Step>& out) {
  for (const auto& c : n.children) {
    Step s = stepOf(c, t);
    if (s != Step::None) out.insert(s);
    stepsBelow(c, t, out);
  }
}
}  // namespace

bool walkedInto(const ControlNode& call, const StopNames& t) {
  Step own = stepOf(call, t);
  if (call.kind != ControlNode::Kind::Call || call.children.empty()) return false;
  std::set<Step> below;
  stepsBelow(call, t, below);
  below.erase(own);
  below.erase(Step::None);
  return !below.empty();
}

StopSteps stopStepsOf(const ControlNode& body, const StopNames& t) {
  StopSteps out;
  collectSteps(body, t, false, out);
  return out;
}

void reportCutFacts(const Kernel& k, RuleContext& ctx, size_t findingsBefore, const std::string& what) {
  if (!k.cpp || !k.cpp->machine || k.cpp->machine->cut.empty() || ctx.reported() > findingsBefore) return;
  ctx.reportVerdict(Verdict::unknown("Clang did not read all of " + k.cpp->machine->cut.front()), k.loc,
                    what + " in '" + k.name + "'");
}

std::string firstName(const std::vector<std::string>& names, const std::string& fallback) {
  for (const auto& n : names)
    if (n.find('*') == std::string::npos) return n;
  return fallback;
}

}  // namespace ptov
