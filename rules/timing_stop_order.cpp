// timing-stop-order (the pypto-machine-code-review timing rules, rule 2): a slot is handed back
// only after the ones really using it are done. Stopping managed cores is STOP made visible (queue
// write) -> full fence -> clear the slots -> fence -> GOODBYE, on every path: a fence inside an
// optional `if` does not count on the path that skips it. Where the wait calls are configured,
// reclaiming a slot after waiting for sche but not for the AICores is reported too (sche exiting !=
// AICores done reading).
#include <algorithm>
#include <map>

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

// What one path has done so far. Paths with the same flags are merged (the first one's branch
// decisions describe them), so a function has at most 512 states at any point.
struct PathState {
  bool stop = false, fencedAfterStop = false, cleared = false, fencedAfterClear = false;
  bool scheWaited = false, aicoreWaited = false;
  bool closed = false, fencedAfterClose = false;
  bool saidGoodbye = false;  // since the GOODBYE-named call being walked into began
  SourceLoc stopLoc, clearLoc, closeLoc;
  std::vector<std::string> decisions;  // "`cond` is false", in order
  int key() const {
    return stop | fencedAfterStop << 1 | cleared << 2 | fencedAfterClear << 3 | scheWaited << 4 | aicoreWaited << 5 |
           closed << 6 | fencedAfterClose << 7 | saidGoodbye << 8;
  }
};
using States = std::map<int, PathState>;

// Decisions both paths took (`a` is true on one and false on the other drops out).
std::vector<std::string> commonDecisions(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& d : a)
    if (std::find(b.begin(), b.end(), d) != b.end()) out.push_back(d);
  return out;
}

// A merged state stands for every path merged into it: it keeps the decisions they share.
void merge(States& into, const States& from) {
  for (const auto& [k, s] : from) {
    auto [it, fresh] = into.emplace(k, s);
    if (!fresh) it->second.decisions = commonDecisions(it->second.decisions, s.decisions);
  }
}

enum class Problem {
  ClearBeforeStop,
  NoFenceBeforeClear,
  GoodbyeBeforeClear,
  NoFenceBeforeGoodbye,
  NoFenceAfterClose,
  ScheOnlyWait
};

struct Violation {
  Problem problem;
  SourceLoc at, related;
  std::string call;
  std::vector<std::string> decisions;
  std::vector<std::pair<SourceLoc, std::string>> via;  // the calls walked into to reach it, outermost first
};

class Walker {
 public:
  Walker(const StopNames& t, bool hasClear) : t_(t), hasClear_(hasClear) {}

  std::vector<Violation> violations;
  std::vector<SourceLoc> conditionalFences;

  struct Exits {
    States returned, broken, continued;
  };

  States walk(const ControlNode& n, States in, Exits& fn, Exits* loop, int conditional) {
    using K = ControlNode::Kind;
    switch (n.kind) {
      case K::Seq:
        for (const auto& c : n.children) in = walk(c, std::move(in), fn, loop, conditional);
        return in;
      case K::Call: {
        Step step = stepOf(n, t_);
        if (step != Step::None && !walkedInto(n, t_)) {
          apply(step, n, in, conditional);
          return in;
        }
        if (n.children.empty()) return in;
        // A GOODBYE-named call walked into says GOODBYE on return where its body stored none.
        if (step == Step::Goodbye) in = withGoodbyeUnsaid(std::move(in));
        Exits callee;  // a return in an inlined callee ends the callee, not the caller
        via_.emplace_back(n.loc, n.text);
        States out = walk(n.children[0], std::move(in), callee, nullptr, conditional);
        via_.pop_back();
        merge(out, callee.returned);
        if (step == Step::Goodbye) {
          States silent, spoke;
          for (const auto& [k, s] : out) (s.saidGoodbye ? spoke : silent).emplace(k, s);
          apply(Step::Goodbye, n, silent, conditional);
          merge(spoke, silent);
          out = std::move(spoke);
        }
        return out;
      }
      case K::Write:
        if (Step step = stepOf(n, t_); step != Step::None) apply(step, n, in, conditional);
        return in;
      case K::If: {
        States out;
        for (size_t i = 0; i < n.children.size(); ++i) {
          States branch = in;
          const std::string& label = n.children[i].name;  // a switch's case label
          std::string decision = "`" + n.name + "` is ";
          if (!label.empty())
            decision += "`" + label + "`";
          else if (n.children.size() > 2)
            decision += "none of the cases";
          else
            decision += i == 0 ? "true" : "false";
          for (auto& [k, s] : branch)
            if (s.decisions.size() < 4) s.decisions.push_back(decision);
          merge(out, walk(n.children[i], std::move(branch), fn, loop, conditional + 1));
        }
        return out;
      }
      case K::Loop: {
        // A loop polling a configured counter is that wait.
        if (Step wait = stepOf(n, t_); wait != Step::None) apply(wait, n, in, conditional);
        // The body is taken to run at least once: a loop over cores that runs zero times stops
        // and clears no core, and the clear loop of the same shape does not run either.
        States out, current = std::move(in);
        for (int round = 0; round < 8 && !current.empty(); ++round) {
          Exits body;
          States after = walk(n.children.empty() ? ControlNode{} : n.children[0], current, fn, &body, conditional + 1);
          merge(after, body.continued);
          merge(out, body.broken);
          current.clear();
          for (const auto& [k, s] : after)
            if (out.emplace(k, s).second) current.emplace(k, s);
        }
        return out;
      }
      case K::Return:
        merge(fn.returned, in);
        return {};
      case K::Break:
        if (loop) merge(loop->broken, in);
        return {};
      case K::Continue:
        if (loop) merge(loop->continued, in);
        return {};
    }
    return in;
  }

 private:
  static States withGoodbyeUnsaid(States in) {
    States out;
    for (auto [k, s] : in) {
      s.saidGoodbye = false;
      merge(out, States{{s.key(), s}});
    }
    return out;
  }

  void apply(Step step, const ControlNode& call, States& states, int conditional) {
    if (step == Step::Fence && conditional > 0) conditionalFences.push_back(call.loc);
    States out;
    for (auto [k, s] : states) {
      switch (step) {
        case Step::Stop:
          s.stop = true;
          s.fencedAfterStop = false;
          s.stopLoc = call.loc;
          break;
        case Step::Fence:
          if (s.stop) s.fencedAfterStop = true;
          if (s.cleared) s.fencedAfterClear = true;
          if (s.closed) s.fencedAfterClose = true;
          break;
        case Step::Close:
          s.closed = true;
          s.fencedAfterClose = false;
          s.closeLoc = call.loc;
          break;
        case Step::Clear:
          if (!s.stop)
            report(Problem::ClearBeforeStop, call, {}, s);
          else if (!s.fencedAfterStop)
            report(Problem::NoFenceBeforeClear, call, s.stopLoc, s);
          if (s.scheWaited && !s.aicoreWaited) report(Problem::ScheOnlyWait, call, {}, s);
          s.cleared = true;
          s.fencedAfterClear = false;
          s.clearLoc = call.loc;
          break;
        case Step::Goodbye:
          if (!s.cleared && hasClear_)
            report(Problem::GoodbyeBeforeClear, call, {}, s);
          else if (s.cleared && !s.fencedAfterClear)
            report(Problem::NoFenceBeforeGoodbye, call, s.clearLoc, s);
          if (s.closed && !s.fencedAfterClose) report(Problem::NoFenceAfterClose, call, s.closeLoc, s);
          s.saidGoodbye = true;
          break;
        case Step::Reclaim:
          if (s.scheWaited && !s.aicoreWaited) report(Problem::ScheOnlyWait, call, {}, s);
          break;
        case Step::ScheWait:
          s.scheWaited = true;
          break;
        case Step::AicoreWait:
          s.aicoreWaited = true;
          break;
        case Step::None:
          break;
      }
      out.emplace(s.key(), s);
    }
    states = std::move(out);
  }

  void report(Problem p, const ControlNode& call, const SourceLoc& related, const PathState& s) {
    // One comment per mistake (the first place it is made) and per place (its first mistake).
    for (auto& v : violations)
      if (v.problem == p || v.at == call.loc) {
        if (v.problem == p) v.decisions = commonDecisions(v.decisions, s.decisions);
        return;
      }
    std::string what = call.kind == ControlNode::Kind::Write ? "the store of `" + call.text + "` to `" + call.name + "`"
                                                             : "`" + call.text + "`";
    violations.push_back(Violation{p, call.loc, related, what, s.decisions, via_});
  }

  const StopNames& t_;
  bool hasClear_;
  std::vector<std::pair<SourceLoc, std::string>> via_;
};

std::string pathPhrase(const std::vector<std::string>& decisions) {
  if (decisions.empty()) return "";
  return " on the path where " + joinWithAnd(decisions);
}

class TimingStopOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "timing-stop-order",
        "timing",
        Severity::Error,
        "stopping managed cores does not follow STOP visible, fence, clear slots, fence, "
        "GOODBYE on every path",
        {"the pypto-machine-code-review timing rules §3 (rule 2: STOP visible -> clear slots -> GOODBYE; no barrier in "
         "an "
         "optional if)",
         upstream::kMachineCodeReview,
         "the pypto-machine-code-review timing rules §3.2 (BatchStopAllManagedCores is the reference order)"},
        // What it does not check: its page's section of that name.
        {"Calls into functions outside the user's code, and calls deeper than 4 levels, are single steps or nothing.",
         "A STOP written as a plain store into a queue is not seen; only configured calls are STOP.",
         "A loop's iterations are not told apart by core, and a loop body is taken to run at least once.",
         "A call through a function pointer, `std::function` or a virtual call is not followed."}};
    return i;
  }

  // The step names (docs/config.md lists them under `timing: stop-order:`, their older place).
  std::vector<RuleOption> options() const override {
    std::vector<RuleOption> out = {
        namesOption("stop-calls", {"SetReadyQueue"}, "calls that make STOP visible to the cores (a queue write)"),
        textOption("stop-marker", "AICORE_TASK_STOP",
                   "a stop call counts when its spelling contains this (\"\" = always)"),
        namesOption("fences", {"__sync_synchronize", "__atomic_thread_fence", "atomic_thread_fence"}, "full fences"),
        namesOption("clear-calls", {"ResetParallelDevTask"}, "calls that clear the slots"),
        namesOption("goodbye-calls", {"ResetShakeBuf"}, "calls that say GOODBYE to the cores"),
        namesOption("goodbye-values", {"AICORE_SAY_GOODBYE"}, "a field store of one of these values is GOODBYE too"),
        namesOption("close-calls", {"CloseFastPathReg"}, "calls that close a core's fast-path register: a fence must "
                                                         "follow a close before GOODBYE"),
        namesOption("close-values", {"REG_SPR_FAST_PATH_CLOSE"}, "a call whose spelling holds one of these is a close"),
        namesOption("sche-wait-calls", {}, "calls that wait for sche to exit (set both waits to report reclaiming a "
                                           "slot after waiting only for sche)"),
        namesOption("aicore-wait-calls", {}, "calls that wait for the AICores to exit"),
        namesOption("sche-wait-polls", {}, "loops polling a counter that wait for sche, by their condition's spelling "
                                           "(\"*scheExited*\")"),
        namesOption("aicore-wait-polls", {}, "loops polling a counter that wait for the AICores"),
        namesOption("reclaim-calls", {"*Deallocate"}, "calls that hand a slot back for reuse")};
    for (RuleOption& o : out) o.alias = {"timing", "stop-order", o.name};
    return out;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings& settings) const override {
    return stopStepsOf(k.cpp->machine->body, names(k.arch, &settings)).qualifies();
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }
  bool readsControlCode() const override { return true; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    const StopNames t = names(k.arch, ctx.settings());
    const ControlNode& body = k.cpp->machine->body;
    StopSteps steps = stopStepsOf(body, t);
    size_t before = ctx.reported();
    // Some step, but not a whole sequence, with part of the call tree unread: the rest may be there.
    if (!steps.qualifies()) {
      if (!steps.found.empty())
        reportCutFacts(k, ctx, before, "stopping cores follows STOP, fence, clear, fence, GOODBYE");
      return;
    }
    Walker w(t, steps.found.count(Step::Clear) > 0);
    Walker::Exits fn;
    States start;
    start.emplace(0, PathState{});
    w.walk(body, start, fn, nullptr, 0);
    const std::string fence = "`" + firstName(t.fenceCalls, "__sync_synchronize") + "()`";
    const std::string clear = "`" + firstName(t.clearCalls, "ResetParallelDevTask") + "`";
    const std::string goodbye = "`" + firstName(t.goodbyeCalls, "ResetShakeBuf") + "`";
    const std::string stop = "`" + firstName(t.stopCalls, "SetReadyQueue") + "(..., " + t.stopMarker + " + 1)`";
    for (const auto& v : w.violations) {
      if (!steps.stops() && v.problem != Problem::ScheOnlyWait) continue;
      std::string path = pathPhrase(v.decisions);
      Finding* f = nullptr;
      switch (v.problem) {
        case Problem::ClearBeforeStop:
          f = &ctx.report(
              ReviewGrade::Blocker, v.at,
              v.call + " clears slots before STOP is made visible" + path +
                  ": AICores still reading the slot (ptrElements) race with the clear",
              "send STOP first (" + stop + " for every managed core), then " + fence + ", then clear the slots");
          break;
        case Problem::NoFenceBeforeClear:
          f = &ctx.report(ReviewGrade::Blocker, v.at,
                          "no full fence between the STOP and " + v.call + path +
                              ": the AICores may not see STOP before their slot is cleared",
                          "put " + fence + " unconditionally between the STOP writes and the first " + clear +
                              ", outside any optional if");
          if (v.related.line) f->notes.push_back({v.related, "STOP is written here"});
          break;
        case Problem::GoodbyeBeforeClear:
          f = &ctx.report(ReviewGrade::Blocker, v.at,
                          v.call + " says GOODBYE before the slots are cleared" + path +
                              ": an AICore can take GOODBYE and leave while its slot is still being cleared, and "
                              "the next round reuses a slot nobody has finished with",
                          "clear the slots of every core (" + clear + ") first, fence once (" + fence +
                              "), then say GOODBYE (" + goodbye + ")");
          break;
        case Problem::NoFenceBeforeGoodbye:
          f = &ctx.report(ReviewGrade::Blocker, v.at,
                          "no fence between clearing the slots and " + v.call + " (GOODBYE)" + path +
                              ": an AICore can take GOODBYE while the clear is not yet visible",
                          "fence once (" + fence + ") after the last " + clear + " and before " + goodbye);
          if (v.related.line) f->notes.push_back({v.related, "the slots are cleared here"});
          break;
        case Problem::NoFenceAfterClose:
          f = &ctx.report(ReviewGrade::Blocker, v.at,
                          "no fence between closing the fast-path register and " + v.call + " (GOODBYE)" + path +
                              ": an AICore can take GOODBYE and leave while the close is not yet visible to it",
                          "fence once (" + fence + ") after the register close and before " + goodbye);
          if (v.related.line) f->notes.push_back({v.related, "the register is closed here"});
          break;
        case Problem::ScheOnlyWait:
          f = &ctx.report(ReviewGrade::Blocker, v.at,
                          v.call + " reclaims a slot after waiting only for sche" + path +
                              ": sche exiting does not mean the AICores have finished reading it",
                          "wait for the AICores to exit (`" + firstName(t.aicoreWaitCalls, "the AICore exit wait") +
                              "`) before reclaiming the slot");
          break;
      }
      for (const auto& [loc, text] : v.via) f->notes.push_back({loc, "reached through `" + text + "`"});
      if (v.problem == Problem::NoFenceBeforeClear || v.problem == Problem::NoFenceBeforeGoodbye ||
          v.problem == Problem::NoFenceAfterClose)
        for (const auto& c : w.conditionalFences)
          f->notes.push_back({c, "this fence is inside a branch and does not run on that path"});
    }
    reportCutFacts(k, ctx, before, "stopping cores follows STOP, fence, clear, fence, GOODBYE");
  }

 private:
  StopNames names(const std::string& arch, const RuleSettings* settings) const {
    auto list = [&](const char* name) { return optionAs<std::vector<std::string>>(*this, name, arch, settings); };
    return {list("stop-calls"),        optionAs<std::string>(*this, "stop-marker", arch, settings),
            list("fences"),            list("clear-calls"),
            list("goodbye-calls"),     list("goodbye-values"),
            list("close-calls"),       list("close-values"),
            list("sche-wait-calls"),   list("aicore-wait-calls"),
            list("reclaim-calls"),     list("sche-wait-polls"),
            list("aicore-wait-polls")};
  }
};

}  // namespace

std::unique_ptr<Rule> makeTimingStopOrder() {
  return std::make_unique<TimingStopOrder>();
}

}  // namespace ptov
