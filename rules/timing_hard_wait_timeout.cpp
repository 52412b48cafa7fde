// timing-hard-wait-timeout (the pypto-machine-code-review timing rules, rule 3): a spin wait on
// another AICPU whose timeout is a hard failure must wait at least the OS throttle window
// (GetOsThrottleSafeWaitTimeout(), 100 ms): the device OS lets one AICPU run ~950 ms and then parks
// it ~50 ms, plus scheduling delay, and a counter-based wait keeps counting meanwhile. A wait whose
// timeout only degrades (drops a thread, retries) keeps its short timeout and is not reported.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/numbers.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

// What a wait's failure and its timeout are called: the rule's options.
struct HardWaitNames {
  std::vector<std::string> safeTimeoutCalls;               // calls that return the OS-throttle-safe timeout
  int64_t safeWindowMs = 100;
  std::map<std::string, std::string> safeWindowConstants;  // arch -> the constant equal to the window
  std::vector<std::string> hardFailureCalls;  // a call that makes the timeout branch a hard failure
  std::vector<std::string> errorReturns;      // a returned value that does
  std::vector<std::string> degradeCalls;      // a call that makes it a degradation (never reported)
  std::vector<std::string> ignorePolls;       // polled expressions that are not another AICPU
};

bool isHardFailure(const WaitExit& e, const HardWaitNames& t) {
  if (e.retried || e.decidedByCaller) return false;
  for (const auto& c : e.calls)
    if (anyNameMatches(t.degradeCalls, c)) return false;
  for (const auto& c : e.calls)
    if (anyNameMatches(t.hardFailureCalls, c)) return true;
  return e.kind == WaitExit::Kind::Return && anyNameMatches(t.errorReturns, e.returned);
}

// A duration written into a name, as cann/pypto's timeout families do: TIMEOUT_A2A3_100US -> 100 us.
std::optional<int64_t> microsInName(const std::string& name) {
  static const std::regex unit(R"((\d+)(US|MS|SEC|S|MIN)$)", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(name, m, unit)) return std::nullopt;
  auto n = parseInt(m[1].str());
  if (!n) return std::nullopt;
  std::string u = m[2];
  for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int64_t scale = u == "US" ? 1 : u == "MS" ? 1000 : u == "MIN" ? 60'000'000 : 1'000'000;
  int64_t micros = 0;
  if (__builtin_mul_overflow(*n, scale, &micros)) return std::nullopt;  // no duration, not a wrapped one
  return micros;
}

std::string microsText(int64_t us) {
  if (us % 1'000'000 == 0) return std::to_string(us / 1'000'000) + " s";
  if (us % 1000 == 0) return std::to_string(us / 1000) + " ms";
  return std::to_string(us) + " us";
}

std::string window(const HardWaitNames& t) {
  return std::to_string(t.safeWindowMs) + " ms";
}

enum class Length { Safe, Short, Unknown };

struct Judgement {
  Length length = Length::Unknown;
  std::string what;  // "`TIMEOUT_A2A3_100US` (100 us)", "`5000` (5000 ticks, the window being T = 5000000)"
};

// Counter ticks per microsecond of the value's architecture, from the code's own named
// durations (TIMEOUT_A2A3_50US = 2500 -> 50): the family is the one the value's name says (A5,
// A2A3), else the kernel's.
std::optional<int64_t> ticksPerMicro(const TimeoutValue& v, const Kernel& k) {
  std::string family = k.arch == "a5" ? "A5" : "A2A3";
  std::vector<std::string> names = v.names;
  names.push_back(v.text);
  for (const auto& n : names) {
    if (n.find("A2A3") != std::string::npos) family = "A2A3";
    else if (n.find("A5") != std::string::npos) family = "A5";
  }
  for (const auto& [name, c] : k.cpp->constants) {
    if (name.find(family) == std::string::npos || c.value <= 0) continue;
    auto us = microsInName(name);
    if (us && *us > 0 && c.value % *us == 0) return c.value / *us;
  }
  return std::nullopt;
}

// Does the value's name say another architecture family than the constant's (A5 vs A2A3)?
bool sameFamily(const TimeoutValue& v, const std::string& constant) {
  std::vector<std::string> names = v.names;
  names.push_back(v.text);
  for (const char* family : {"A2A3", "A5"}) {
    bool valueIs = false;
    for (const auto& n : names) valueIs |= n.find(family) != std::string::npos;
    if (valueIs && constant.find(family) == std::string::npos) return false;
  }
  return true;
}

Judgement judge(const TimeoutValue& v, const Kernel& k, const HardWaitNames& t) {
  for (const auto& c : v.through)
    if (anyNameMatches(t.safeTimeoutCalls, c)) return {Length::Safe, c + "()"};
  auto verdict = [&](int64_t us, const std::string& how) {
    bool shorter = us < t.safeWindowMs * 1000;
    return Judgement{shorter ? Length::Short : Length::Safe,
                     "`" + v.text + "` (" + how + microsText(us) + ")"};
  };
  // Same unit as the code's own window constant, when the file has it.
  auto constant = t.safeWindowConstants.find(k.arch);
  // (Only for a value of the constant's own family: an A5 tick count is not in A2A3 units.)
  if (v.value && constant != t.safeWindowConstants.end() && sameFamily(v, constant->second)) {
    auto it = k.cpp->constants.find(constant->second);
    if (it != k.cpp->constants.end()) {
      bool shorter = *v.value < it->second.value;
      return {shorter ? Length::Short : Length::Safe,
              "`" + v.text + "` (" + std::to_string(*v.value) + " ticks, the window being " + constant->second + " = " +
                  std::to_string(it->second.value) + ")"};
    }
  }
  // A duration its name says, scaled by what multiplies it.
  std::vector<std::string> names = v.names;
  names.push_back(v.text);
  for (const auto& n : names)
    if (auto named = microsInName(n)) {
      int64_t us = 0;
      if (!__builtin_mul_overflow(*named, v.factor, &us)) return verdict(us, "");
    }
  // A plain count of ticks, in the unit of the code's named durations.
  if (v.value)
    if (auto rate = ticksPerMicro(v, k)) return verdict(*v.value / *rate, std::to_string(*v.value) + " ticks = ");
  return {Length::Unknown, "`" + v.text + "`"};
}

std::vector<PathLiteral> joined(std::vector<PathLiteral> a, const std::vector<PathLiteral>& b) {
  for (const auto& l : b) addLiteral(a, l);  // the two are compatible: only repeats are left out
  return a;
}

// The literals every path has: what the paths to one value have in common (`DEV_IF_INFO` either way drops out).
std::vector<PathLiteral> common(const std::vector<std::vector<PathLiteral>>& paths) {
  std::vector<PathLiteral> out;
  if (paths.empty()) return out;
  for (const auto& l : paths[0]) {
    bool everywhere = true;
    for (const auto& p : paths) {
      bool found = false;
      for (const auto& x : p) found |= x.atom == l.atom && x.positive == l.positive;
      everywhere &= found;
    }
    if (everywhere) addLiteral(out, l);
  }
  return out;
}

class TimingHardWaitTimeout : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"timing-hard-wait-timeout",
                            "timing",
                            Severity::Error,
                            "a hard-failure spin wait on another AICPU times out sooner than the OS throttle window",
                            {"the pypto-machine-code-review timing rules §4 (rule 3: a hard-failure wait on another "
                             "AICPU covers the OS throttle)",
                             upstream::kMachineCodeReview,
                             "the pypto-machine-code-review timing rules §4.3 (CalcWaitTimeout: single sche -> "
                             "GetOsThrottleSafeWaitTimeout)"},
        // What it does not check: its page's section of that name.
        {"Which party a wait is for is not known: polling shared state counts as waiting for another AICPU "
         "(`ignore-polls` takes waits out).",
         "Conditions are compared without arithmetic: `n > 1` and `n >= 2` are different conditions.",
         "Paths past a wait's walk budget (64 branches per function, 4,096 for its timeout's helpers, 64 call sites "
         "of its callers) are not walked; a wait with nothing found there is `unknown`.",
         "A timeout passed in as a parameter is not followed to the callers; it is reported as Major."}};
    return i;
  }

  // What a safe timeout and a hard failure look like (docs/config.md lists them under `timing:
  // hard-wait:`, their older place).
  std::vector<RuleOption> options() const override {
    std::vector<RuleOption> out = {
        namesOption("safe-timeout-calls", {"GetOsThrottleSafeWaitTimeout"},
                    "calls that return the OS-throttle-safe timeout"),
        integerOption("safe-window-ms", {{"", 100}}, "the OS throttle window a hard-failure wait must cover", 1),
        textMapOption("safe-window-constants", {{"a2a3", "TIMEOUT_A2A3_100MS"}, {"a5", "TIMEOUT_A5_100MS"}},
                      {"a2a3", "a5"}, "arch", "a constant's name",
                      "per arch, the timeout constant equal to the window (a value of its family is compared with it)"),
        namesOption("hard-failure-calls", {"*ERROR*", "*Error", "abort", "*Abort*", "*Fatal*", "*FATAL*", "*Panic*",
                                           "exit", "_exit"},
                    "a call that makes the timeout branch a hard failure"),
        namesOption("error-returns", {"*ERR*", "*FAIL*", "*Err*", "*Fail*", "-1"},
                    "a returned value that makes the timeout branch a hard failure"),
        namesOption("degrade-calls", {"*Degrade*", "*Drop*", "*Retry*", "*Fallback*"},
                    "a call that makes the timeout branch a degradation (never reported)"),
        namesOption("ignore-polls", {}, "polled expressions that are not another AICPU")};
    for (RuleOption& o : out) o.alias = {"timing", "hard-wait", o.name};
    return out;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return !k.cpp->machine->waits.empty();
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }
  bool readsControlCode() const override { return true; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    size_t before = ctx.reported();
    const HardWaitNames t = names(k.arch, ctx.settings());
    for (const SpinWait& w : k.cpp->machine->waits) {
      if (!w.sharedPoll || anyNameMatches(t.ignorePolls, w.polled)) continue;
      size_t beforeWait = ctx.reported();
      for (const FailureSite& site : failureSites(w, k, t)) report(w, site, k, t, ctx);
      // Paths the front end did not walk may hold the short value or the hard failure.
      if (w.pathsCut && ctx.reported() == beforeWait)
        ctx.reportVerdict(Verdict::unknown("not every path of its timeout, its timeout branch and its callers was "
                                           "walked (the walk's budget of branches)"),
                          w.loc, "the spin wait polling `" + w.polled + "` covers the OS throttle window on every path");
    }
    if (!k.cpp->machine->waits.empty())
      reportCutFacts(k, ctx, before, "every hard-failure spin wait covers the OS throttle window");
  }

 private:
  HardWaitNames names(const std::string& arch, const RuleSettings* settings) const {
    auto list = [&](const char* name) { return optionAs<std::vector<std::string>>(*this, name, arch, settings); };
    return {list("safe-timeout-calls"),
            optionAs<int64_t>(*this, "safe-window-ms", arch, settings),
            optionAs<std::map<std::string, std::string>>(*this, "safe-window-constants", arch, settings),
            list("hard-failure-calls"),
            list("error-returns"),
            list("degrade-calls"),
            list("ignore-polls")};
  }

  // A timeout value that is too short (or unresolved) on some path to one hard failure, and the
  // conditions each such path adds.
  struct ShortValue {
    const TimeoutValue* value;
    Judgement judgement;
    std::vector<std::vector<PathLiteral>> paths;
  };
  // One place the wait's timeout becomes a hard failure, with every value that reaches it.
  struct FailureSite {
    const WaitExit* failing;
    std::vector<const WaitContext*> callers;  // every caller that decides it, in order
    std::vector<ShortValue> values;
  };

  // The hard failures the wait's timeout reaches (its own exits, then each caller that decides
  // what a returned timeout means), each with the values that are not safe on the way.
  static std::vector<FailureSite> failureSites(const SpinWait& w, const Kernel& k, const HardWaitNames& t) {
    struct Context {
      const std::vector<TimeoutValue>* values;
      const std::vector<WaitExit>* exits;
      const WaitContext* caller;
    };
    std::vector<Context> contexts{{&w.values, &w.exits, nullptr}};
    for (const auto& c : w.callers) contexts.push_back({&c.values, &c.exits, &c});
    std::vector<FailureSite> sites;
    for (const Context& c : contexts)
      for (const WaitExit& e : *c.exits) {
        if (!isHardFailure(e, t)) continue;  // a degradable wait or a quick probe keeps its short timeout
        FailureSite* site = nullptr;
        for (auto& s : sites)
          if (s.failing->loc == e.loc) site = &s;
        for (const TimeoutValue& v : *c.values) {
          if (!compatible(v.when, e.when)) continue;
          Judgement j = judge(v, k, t);
          if (j.length == Length::Safe) continue;
          if (!site) site = &sites.emplace_back(FailureSite{&e, {}, {}});
          ShortValue* same = nullptr;
          for (auto& s : site->values)
            if (s.value->loc == v.loc && s.value->text == v.text) same = &s;
          if (!same) same = &site->values.emplace_back(ShortValue{&v, j, {}});
          same->paths.push_back(joined(v.when, e.when));
          if (c.caller && std::none_of(site->callers.begin(), site->callers.end(),
                                       [&](const WaitContext* x) { return x->caller == c.caller->caller; }))
            site->callers.push_back(c.caller);
        }
      }
    return sites;
  }

  static void report(const SpinWait& w, const FailureSite& site, const Kernel& k, const HardWaitNames& t,
                     RuleContext& ctx) {
    const std::string window = ptov::window(t);
    const std::string safeCall = firstName(t.safeTimeoutCalls, "GetOsThrottleSafeWaitTimeout");
    std::vector<std::string> shortValues, unresolved;
    for (const ShortValue& s : site.values) {
      std::vector<PathLiteral> when = common(s.paths);
      std::string text = s.judgement.what + (when.empty() ? "" : " when " + describePath(when));
      (s.judgement.length == Length::Short ? shortValues : unresolved).push_back(text);
    }
    std::vector<std::string> names;
    for (const auto* c : site.callers) names.push_back(c->caller);
    std::string where = names.empty() ? ""
                        : names.size() == 1
                            ? " (its caller " + names[0] + " turns the timeout into an error)"
                            : " (its callers " + joinWithAnd(names) + " turn the timeout into an error)";
    std::string polled = w.polled.empty() ? "" : " polling `" + w.polled + "`";
    // Named in the message: a wait reaching two hard failures gets a finding for each.
    const SourceLoc& failure = site.failing->loc;
    polled += " fails hard on timeout at " + std::filesystem::path(failure.file).filename().string() + ":" +
              std::to_string(failure.line);
    std::string timeout = w.timeoutSource.empty() ? "" : " `" + w.timeoutSource + "`";
    SourceLoc at = w.timeoutLoc.line ? w.timeoutLoc : site.values.front().value->loc;
    Finding* f;
    if (!shortValues.empty()) {
      std::string also = unresolved.empty() ? "" : "; not resolved to a constant: " + joinWith(unresolved, "; ");
      f = &ctx.report(ReviewGrade::Blocker, at,
                      "the spin wait" + polled + where + ", but its timeout" + timeout +
                          " is below the " + window + " OS throttle window: " + joinWith(shortValues, "; ") + also +
                          ". The AICPU it waits for can be parked for ~50 ms after ~950 ms of running, "
                          "and the wait then reports a false timeout",
                      "use `" + safeCall +
                          "(archInfo)` on these paths; keep a short timeout only where the "
                          "timeout degrades (drops a thread, retries)");
    } else {
      f = &ctx.report(ReviewGrade::Major, at,
                      "the spin wait" + polled + where + ", and its timeout" + timeout +
                          " could not be resolved to a constant (" + joinWith(unresolved, "; ") +
                          "): check that it is at least the " + window + " OS throttle window",
                      "use `" + safeCall + "(archInfo)`, or a constant whose name or value shows it is >= " + window);
    }
    f->notes.push_back({w.loc, "the spin wait, in " + k.name});
    f->notes.push_back({w.checkLoc, "its timeout check against `" + w.timeoutText + "`"});
    for (const ShortValue& s : site.values) f->notes.push_back({s.value->loc, "the timeout value " + s.judgement.what});
    for (const auto* c : site.callers)
      f->notes.push_back({c->call, "the call whose failure " + c->caller + " decides"});
    f->notes.push_back({site.failing->loc, "the hard failure on timeout"});
  }
};

}  // namespace

std::unique_ptr<Rule> makeTimingHardWaitTimeout() {
  return std::make_unique<TimingHardWaitTimeout>();
}

}  // namespace ptov
