// timing-hard-wait-timeout (seed 003 rule 3): a spin wait on another AICPU whose timeout is a
// hard failure must wait at least the OS throttle window (GetOsThrottleSafeWaitTimeout(), 100 ms):
// the device OS lets one AICPU run ~950 ms and then parks it ~50 ms, plus scheduling delay, and a
// counter-based wait keeps counting meanwhile. A wait whose timeout only degrades (drops a
// thread, retries) keeps its short timeout and is not reported.
#include <cctype>
#include <map>
#include <regex>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/numbers.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

bool isHardFailure(const WaitExit& e, const TimingConfig& t) {
  if (e.retried || e.decidedByCaller) return false;
  for (const auto& c : e.calls)
    if (anyNameMatches(t.degradeCalls, c)) return false;
  for (const auto& c : e.calls)
    if (anyNameMatches(t.hardFailureCalls, c)) return true;
  return e.kind == WaitExit::Kind::Return && anyNameMatches(t.errorReturns, e.returned);
}

// A duration written into a name, as seed 003's timeout families do: TIMEOUT_A2A3_100US -> 100 us.
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

std::string window(const TimingConfig& t) {
  return std::to_string(t.safeWindowMs) + " ms";
}

enum class Length { Safe, Short, Unknown };

struct Judgement {
  Length length = Length::Unknown;
  std::string what;  // "TIMEOUT_A2A3_100US (100 us)", "5000, below TIMEOUT_A2A3_100MS = 5000000"
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

Judgement judge(const TimeoutValue& v, const Kernel& k, const TimingConfig& t) {
  for (const auto& c : v.through)
    if (anyNameMatches(t.safeTimeoutCalls, c)) return {Length::Safe, c + "()"};
  auto verdict = [&](int64_t us, const std::string& how) {
    bool shorter = us < t.safeWindowMs * 1000;
    return Judgement{shorter ? Length::Short : Length::Safe,
                     "`" + v.text + "` (" + how + microsText(us) + "), below the " + window(t) + " OS throttle window"};
  };
  // Same unit as the code's own window constant, when the file has it.
  auto constant = t.safeWindowConstants.find(k.arch);
  // (Only for a value of the constant's own family: an A5 tick count is not in A2A3 units.)
  if (v.value && constant != t.safeWindowConstants.end() && sameFamily(v, constant->second)) {
    auto it = k.cpp->constants.find(constant->second);
    if (it != k.cpp->constants.end()) {
      bool shorter = *v.value < it->second.value;
      return {shorter ? Length::Short : Length::Safe,
              "`" + v.text + "` = " + std::to_string(*v.value) + ", below the " + window(t) + " OS throttle window (" +
                  constant->second + " = " + std::to_string(it->second.value) + ")"};
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
  for (const auto& l : b) {
    bool seen = false;
    for (const auto& x : a) seen |= x.atom == l.atom;
    if (!seen) a.push_back(l);
  }
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
    if (everywhere) out.push_back(l);
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
                             "GetOsThrottleSafeWaitTimeout)"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    const TimingConfig& t = ctx.timing();
    const std::string window = ptov::window(t);
    const std::string safeCall = firstName(t.safeTimeoutCalls, "GetOsThrottleSafeWaitTimeout");
    size_t before = ctx.reported();
    for (const SpinWait& w : k.cpp->machine->waits) {
      if (!w.sharedPoll || anyNameMatches(t.ignorePolls, w.polled)) continue;
      // The wait's own exits, then each caller that decides what a returned timeout means.
      struct Context {
        const std::vector<TimeoutValue>* values;
        const std::vector<WaitExit>* exits;
        const WaitContext* caller;
      };
      std::vector<Context> contexts{{&w.values, &w.exits, nullptr}};
      for (const auto& c : w.callers) contexts.push_back({&c.values, &c.exits, &c});
      // One finding per place a too-short (or unresolved) value is written, under the conditions
      // all its paths to a hard failure share.
      struct Hit {
        const TimeoutValue* value;
        const WaitExit* failing;
        const WaitContext* caller;
        Judgement judgement;
        std::vector<std::vector<PathLiteral>> paths;
        std::vector<const WaitContext*> callers;  // every caller that decides it, in order
      };
      std::vector<Hit> hits;
      for (const Context& c : contexts)
        for (const WaitExit& e : *c.exits) {
          if (!isHardFailure(e, t)) continue;  // a degradable wait or a quick probe keeps its short timeout
          for (const TimeoutValue& v : *c.values) {
            if (!compatible(v.when, e.when)) continue;
            Judgement j = judge(v, k, t);
            if (j.length == Length::Safe) continue;
            Hit* same = nullptr;
            for (auto& h : hits)
              if (h.value->loc.line == v.loc.line && h.value->loc.col == v.loc.col && h.value->text == v.text) same = &h;
            if (!same) same = &hits.emplace_back(Hit{&v, &e, c.caller, j, {}, {}});
            same->paths.push_back(joined(v.when, e.when));
            if (c.caller) {
              bool known = false;
              for (const auto* k : same->callers) known |= k->caller == c.caller->caller;
              if (!known) same->callers.push_back(c.caller);
            }
          }
        }
      for (const Hit& h : hits) {
        const TimeoutValue& v = *h.value;
        const WaitExit* failing = h.failing;
        const Judgement& j = h.judgement;
        std::vector<PathLiteral> when = common(h.paths);
        std::string path = when.empty() ? "" : " when " + describePath(when);
        std::string polled = w.polled.empty() ? "" : " polling `" + w.polled + "`";
        std::vector<std::string> names;
        for (const auto* c : h.callers) names.push_back(c->caller);
        std::string where = names.empty()        ? ""
                            : names.size() == 1 ? " (its caller " + names[0] + " turns the timeout into an error)"
                                                : " (its callers " + joinWithAnd(names) + " turn the timeout into an error)";
        Finding* f;
        if (j.length == Length::Short) {
          f = &ctx.report(ReviewGrade::Blocker, v.loc,
                          "the spin wait" + polled + " fails hard on timeout" + where + ", but" + path +
                              " its timeout is " + j.what +
                              ": the AICPU it waits for can be parked for ~50 ms after ~950 ms of running, "
                              "and the wait then reports a false timeout",
                          "use `" + safeCall +
                              "(archInfo)` on this path; keep a short timeout only where the "
                              "timeout degrades (drops a thread, retries)");
        } else {
          f = &ctx.report(
              ReviewGrade::Major, v.loc,
              "the spin wait" + polled + " fails hard on timeout" + where + path + ", and its timeout " + j.what +
                  " could not be resolved to a constant: check that it is at least the " + window +
                  " OS throttle window",
              "use `" + safeCall + "(archInfo)`, or a constant whose name or value shows it is >= " + window);
        }
        f->notes.push_back({w.loc, "the spin wait, in " + k.name});
        f->notes.push_back({w.checkLoc, "its timeout check against `" + w.timeoutText + "`"});
        for (const auto* c : h.callers) f->notes.push_back({c->call, "the call whose failure " + c->caller + " decides"});
        f->notes.push_back({failing->loc, "the hard failure on timeout"});
      }
    }
    if (!k.cpp->machine->waits.empty())
      reportCutFacts(k, ctx, before, "every hard-failure spin wait covers the OS throttle window");
  }
};

}  // namespace

std::unique_ptr<Rule> makeTimingHardWaitTimeout() {
  return std::make_unique<TimingHardWaitTimeout>();
}

}  // namespace ptov
