// The pypto-machine-code-review timing rules on machine facts built by hand: the rules' logic
// without Clang.
// The C++ front end's side is covered by corpus/timing-*/ and the cli_timing-rules test.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "analyzer/model/cpp_facts.h"
#include "cli/config.h"
#include "rules/rule.h"

using namespace ptov;

namespace {
SourceLoc at(int line) {
  return SourceLoc{"ctrl.cpp", line, 5};
}

ControlNode call(int line, const std::string& name, const std::string& text = "") {
  ControlNode n;
  n.kind = ControlNode::Kind::Call;
  n.loc = at(line);
  n.name = name;
  n.text = text.empty() ? name + "()" : text;
  return n;
}
ControlNode seq(std::vector<ControlNode> children) {
  ControlNode n;
  n.children = std::move(children);
  return n;
}
ControlNode branch(int line, const std::string& cond, ControlNode then, ControlNode otherwise = {}) {
  ControlNode n;
  n.kind = ControlNode::Kind::If;
  n.loc = at(line);
  n.name = cond;
  n.children = {std::move(then), std::move(otherwise)};
  return n;
}
ControlNode loop(int line, ControlNode body) {
  ControlNode n;
  n.kind = ControlNode::Kind::Loop;
  n.loc = at(line);
  n.children = {std::move(body)};
  return n;
}
ControlNode stop(int line) {
  return call(line, "SetReadyQueue", "hal_.SetReadyQueue(0, 24, AICORE_TASK_STOP + 1)");
}
ControlNode fence(int line) {
  return call(line, "__sync_synchronize");
}

Kernel machineKernel(const std::string& name, MachineFacts m) {
  Kernel k;
  k.name = name;
  k.kind = ptov::KernelKind::Machine;
  k.frontEnd = ptov::FrontEnd::Cpp;
  k.body = Stmt::seq();
  auto facts = std::make_shared<CppFacts>();
  facts->constants["TIMEOUT_A2A3_100MS"] = NamedConstant{at(1), 5000000, ""};
  facts->machine = std::move(m);
  k.cpp = facts;
  return k;
}

std::vector<Finding> run(const Kernel& k, const std::string& rule, const RuleSettings* settings = nullptr) {
  return runRules(k, {rule}, nullptr, settings);
}
}  // namespace

TEST_CASE("timing: name globs and path literals") {
  CHECK(globMatches("*Deallocate", "RuntimeDataRingBufferHeadDeallocate"));
  CHECK(globMatches("*ERROR*", "DEV_ERROR"));
  CHECK(globMatches("a*b*c", "aXbYbZc"));
  CHECK_FALSE(globMatches("*Drop*", "Dro"));
  CHECK_FALSE(globMatches("ResetShakeBuf", "ResetShakeBufs"));
  // 22 consecutive stars against a name they cannot match: took 24 s with the recursive matcher.
  CHECK_FALSE(globMatches(std::string(22, '*') + "x", std::string(40, 'a')));
  CHECK(globMatches(std::string(30, '*'), "sync-deadlock"));
  CHECK(compatible({{"isOnlyOneSche", true}, {"IsDeviceMode()", true}}, {{"isOnlyOneSche", true}}));
  CHECK_FALSE(compatible({{"isOnlyOneSche", false}}, {{"IsDeviceMode()", true}, {"isOnlyOneSche", true}}));
  CHECK(describePath({{"a", true}, {"b", false}, {"c", true}}) == "`a` is true, `b` is false and `c` is true");
  // `threadIdx != -1` taken: the canonical atom is its negation, the message keeps the spelling.
  PathLiteral notMinusOne{"threadIdx==-1", false, "threadIdx!=-1", true};
  CHECK(describePath({notMinusOne}) == "`threadIdx!=-1` is true");
  CHECK(describePath({notMinusOne.negated()}) == "`threadIdx!=-1` is false");
  std::vector<PathLiteral> path{{"n==1", true}};
  CHECK(addLiteral(path, {"n==1", true}));
  CHECK(path.size() == 1);
  CHECK_FALSE(addLiteral(path, {"n==1", false}));  // contradicts the path: no such path
}

TEST_CASE("timing-stop-order: a fence only in an optional if is missing on the other path") {
  MachineFacts m;
  m.body = seq({stop(10), branch(11, "hal_.NeedsFastPathRegClose()", seq({fence(12), call(13, "CloseFastPathReg")})),
                call(15, "ResetParallelDevTask"), fence(16), call(17, "ResetShakeBuf")});
  auto f = run(machineKernel("AicoreManager::BatchStop", m), "timing-stop-order");
  REQUIRE(f.size() == 1);
  CHECK(f[0].loc.line == 15);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].grade == "Blocker");
  CHECK(f[0].message.find("`hal_.NeedsFastPathRegClose()` is false") != std::string::npos);
  CHECK(f[0].fix.find("__sync_synchronize()") != std::string::npos);

  // The reference order, with the steps inside loops over core groups, is clean.
  m.body = seq({loop(10, stop(11)), fence(12), branch(13, "quiet", seq({})), loop(14, call(15, "ResetParallelDevTask")),
                fence(16), loop(17, call(18, "ResetShakeBuf"))});
  CHECK(run(machineKernel("GroupStopper::StopAll", m), "timing-stop-order").empty());

  // A SetReadyQueue without the STOP marker is not a STOP.
  m.body = seq({call(10, "SetReadyQueue", "hal_.SetReadyQueue(0, 24, task)"), fence(11),
                call(12, "ResetParallelDevTask"), fence(13), call(14, "ResetShakeBuf")});
  CHECK(run(machineKernel("Dispatch", m), "timing-stop-order").empty());
}

TEST_CASE("timing-stop-order: an early return skips the rest of the path, in the caller and in a callee") {
  MachineFacts m;
  ControlNode helper = call(20, "StopHelper");
  helper.children = {
      seq({stop(30), branch(31, "degraded", seq({ControlNode{ControlNode::Kind::Return, at(32), "", "", "", {}}})),
           fence(33)})};
  m.body = seq({helper, call(21, "ResetParallelDevTask"), fence(22), call(23, "ResetShakeBuf")});
  auto f = run(machineKernel("StopViaHelper", m), "timing-stop-order");
  REQUIRE(f.size() == 1);  // the callee's return skips its fence, then the caller clears
  CHECK(f[0].loc.line == 21);
  CHECK(f[0].message.find("`degraded` is true") != std::string::npos);
}

TEST_CASE("timing-stop-order: reclaiming after waiting only for sche, when the waits are configured") {
  MachineFacts m;
  m.body = seq({call(10, "WaitAllScheExit"), call(11, "ReuseRingSlot")});
  RuleSettings s;
  CHECK(run(machineKernel("Recycle", m), "timing-stop-order", &s).empty());  // not configured
  const Rule& rule = *findRule("timing-stop-order");
  for (const auto& [name, value] : std::map<std::string, std::string>{{"sche-wait-calls", "[WaitAllScheExit]"},
                                                                      {"aicore-wait-calls", "[WaitManagedAicoreExit]"},
                                                                      {"reclaim-calls", "[ReuseRingSlot]"}})
    for (const RuleOption& o : rule.options())
      if (o.name == name) configureOption(s.options, "timing-stop-order", o, YAML::Load(value), name);
  auto f = run(machineKernel("Recycle", m), "timing-stop-order", &s);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("waiting only for sche") != std::string::npos);
  m.body = seq({call(10, "WaitAllScheExit"), call(11, "WaitManagedAicoreExit"), call(12, "ReuseRingSlot")});
  CHECK(run(machineKernel("Recycle", m), "timing-stop-order", &s).empty());
}

TEST_CASE("timing-shared-field-write: the reader set decides, not the struct") {
  MachineFacts m;
  m.writes = {
      FieldWrite{at(10), "devProg->devArgs.nrValidAic", {{"DevProg", "devArgs.nrValidAic"}, {"DevArgs", "nrValidAic"}}},
      FieldWrite{at(11), "devProg->memBudget", {{"DevProg", "memBudget"}}},
      FieldWrite{at(12), "args->nrValidAic", {{"DevStartArgs", "nrValidAic"}}},
      FieldWrite{at(13), "slots[i].rawTensorAddr", {{"CfCacheSlot", "rawTensorAddr"}}},
      FieldWrite{at(14),
                 "start->topo.devArgs.nrValidAic",
                 {{"DevStartArgs", "topo.devArgs.nrValidAic"}, {"Topo", "devArgs.nrValidAic"}}}};
  // No entry point reaches it: the role is not established, and every write that would race for
  // one of the roles is unknown (memBudget too: ctrl-only, but sche writing it would race).
  auto f = run(machineKernel("DevCtrl::InitDyn", m), "timing-shared-field-write");
  REQUIRE(f.size() == 3);
  CHECK(std::all_of(f.begin(), f.end(), [](const Finding& x) { return x.unknown; }));
  CHECK(f[0].message.find("role that runs it is unknown") != std::string::npos);

  m.entries = {"PyptoKernelCtrlServer"};  // ctrl's entry reaches it
  f = run(machineKernel("DevCtrl::InitDyn", m), "timing-shared-field-write");
  REQUIRE(f.size() == 2);
  CHECK(f[0].loc.line == 10);
  CHECK(f[0].grade == "Blocker");
  CHECK(f[0].message.find("ctrl and sche read it") != std::string::npos);
  CHECK(f[0].fix.find("DevStartArgs") != std::string::npos);
  CHECK(f[1].loc.line == 13);
  CHECK(f[1].grade == "Minor");
  CHECK(f[1].severity == Severity::Note);

  // The protocol's own function may write its field.
  MachineFacts reset;
  reset.writes = {FieldWrite{at(20), "k->parallelDevTask[c].count", {{"KernelArgs", "parallelDevTask.count"}}}};
  CHECK(run(machineKernel("AicoreHal::ResetParallelDevTask", reset), "timing-shared-field-write").empty());
  reset.entries = {"PyptoKernelCtrlServer"};
  CHECK(run(machineKernel("PatchRound", reset), "timing-shared-field-write").size() == 1);
  reset.entries = {"DynTileFwkBackendKernelServer"};  // sche owns the slot protocol
  CHECK(run(machineKernel("PatchRound", reset), "timing-shared-field-write").empty());
}

TEST_CASE("timing-hard-wait-timeout: a short value reaches the hard failure only on compatible paths") {
  auto wait = [](std::vector<TimeoutValue> values, std::vector<WaitExit> exits) {
    MachineFacts m;
    SpinWait w;
    w.loc = at(50);
    w.polled = "ctrl->roundReady != round";
    w.sharedPoll = true;
    w.checkLoc = at(51);
    w.timeoutText = "timeout";
    w.timeoutLoc = at(48);
    w.timeoutSource = "CalcWaitTimeout(isOnlyOneSche)";
    w.values = std::move(values);
    w.exits = std::move(exits);
    m.waits.push_back(w);
    return machineKernel("WaitCtrlRoundReady", m);
  };
  TimeoutValue shortValue{
      at(30), "TIMEOUT_A2A3_100US", 5000, {"CalcWaitTimeout"}, {"TIMEOUT_A2A3_100US"}, {{"isOnlyOneSche", false}}};
  TimeoutValue safeValue{at(33),       "GetOsThrottleSafeWaitTimeout(archInfo)",
                         std::nullopt, {"CalcWaitTimeout", "GetOsThrottleSafeWaitTimeout"},
                         {},           {{"isOnlyOneSche", true}}};
  WaitExit hard{
      at(54), WaitExit::Kind::Return, "DEVICE_MACHINE_ERROR", {"DevLog", "DEV_ERROR"}, {{"isOnlyOneSche", true}}};
  WaitExit degrade{
      at(57), WaitExit::Kind::Return, "DEVICE_MACHINE_DEGRADED", {"DropCurrentScheThread"}, {{"isOnlyOneSche", false}}};
  CHECK(run(wait({shortValue, safeValue}, {hard, degrade}), "timing-hard-wait-timeout").empty());

  shortValue.when = {{"isOnlyOneSche", true}};
  auto f = run(wait({shortValue}, {hard, degrade}), "timing-hard-wait-timeout");
  REQUIRE(f.size() == 1);
  CHECK(f[0].loc.line == 48);  // at the timeout expression; the value is a note
  CHECK(f[0].grade == "Blocker");
  CHECK(f[0].message.find("`TIMEOUT_A2A3_100US` (5000 ticks, the window being TIMEOUT_A2A3_100MS = 5000000) when "
                          "`isOnlyOneSche` is true") != std::string::npos);
  CHECK(std::any_of(f[0].notes.begin(), f[0].notes.end(), [](const auto& n) { return n.loc.line == 30; }));

  // One finding per hard failure, listing every short value that reaches it.
  TimeoutValue debugValue{at(31), "TIMEOUT_A2A3_2MS", 100000, {"CalcWaitTimeout"}, {"TIMEOUT_A2A3_2MS"},
                          {{"isOnlyOneSche", true}, {"DEV_IF_DEBUG", true}}};
  WaitExit otherHard{at(60), WaitExit::Kind::Return, "DEVICE_MACHINE_ERROR", {"DEV_ERROR"}, {}};
  f = run(wait({shortValue, debugValue}, {hard}), "timing-hard-wait-timeout");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("`TIMEOUT_A2A3_100US`") != std::string::npos);
  CHECK(f[0].message.find("`TIMEOUT_A2A3_2MS` (100000 ticks") != std::string::npos);
  CHECK(run(wait({shortValue, debugValue}, {hard, otherHard}), "timing-hard-wait-timeout").size() == 2);

  // Unresolved: Major, naming the expression.
  TimeoutValue unknown{at(40), "cfg->timeout", std::nullopt, {}, {}, {}};
  f = run(wait({unknown}, {hard}), "timing-hard-wait-timeout");
  REQUIRE(f.size() == 1);
  CHECK(f[0].grade == "Major");
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message.find("could not be resolved to a constant (`cfg->timeout`") != std::string::npos);

  // A wait that only degrades keeps its short timeout.
  CHECK(run(wait({shortValue}, {degrade}), "timing-hard-wait-timeout").empty());
}

TEST_CASE("config: timing tables merge rows by struct and field, and replace name lists") {
  const char* path = "timing_config_test.yaml";
  {
    std::ofstream out(path);
    out << "timing:\n"
           "  shared-fields:\n"
           "    - {struct: DevProg, field: devArgs.nrValidAic, readers: [ctrl], per-round: false}\n"
           "    - {field: slotEpoch, readers: [ctrl, aicore], per-slot: true}\n"
           "  stop-order:\n"
           "    fences: [FullBarrier]\n";
  }
  Config c;
  std::string error;
  REQUIRE(loadConfig(path, c, error));
  std::remove(path);
  const auto& fields = c.ruleOptions["timing-shared-field-write"]["shared-fields"].yaml;
  REQUIRE(fields.IsSequence());
  size_t defaults = 0;
  for (const RuleOption& o : findRule("timing-shared-field-write")->options())
    if (o.name == "shared-fields") defaults = o.defaultFor("a2a3").size();
  REQUIRE(fields.size() == defaults + 1);
  bool replaced = false;
  for (const auto& row : fields)
    if (row["struct"].Scalar() == "DevProg" && row["field"].Scalar() == "devArgs.nrValidAic")
      replaced = row["per-round"].Scalar() == "false" && row["readers"].size() == 1;
  CHECK(replaced);
  CHECK(fields[defaults]["struct"].Scalar() == "*");
  CHECK(fields[defaults]["per-slot"].Scalar() == "true");
  const auto* fences = std::any_cast<std::vector<std::string>>(&c.ruleOptions["timing-stop-order"]["fences"].value);
  REQUIRE(fences);
  CHECK(*fences == std::vector<std::string>{"FullBarrier"});
  CHECK(c.ruleOptions["timing-stop-order"].count("clear-calls") == 0);  // not configured: the default
}

TEST_CASE("config: a timing option under options: and under its timing: alias is one setting") {
  auto load = [](const std::string& text) {
    const char* path = "timing_alias_test.yaml";
    {
      std::ofstream out(path);
      out << text;
    }
    Config c;
    std::string error;
    CHECK(loadConfig(path, c, error));
    std::remove(path);
    return c;
  };
  Config alias = load("timing:\n  stop-order:\n    fences: [FullBarrier]\n  roles:\n    ctrl: [Ctrl*]\n"
                      "  shared-fields:\n    - {field: slotEpoch, readers: [ctrl, aicore]}\n");
  Config options = load("options:\n  timing-stop-order:\n    fences: [FullBarrier]\n"
                        "  timing-shared-field-write:\n    roles:\n      ctrl: [Ctrl*]\n"
                        "    shared-fields: [{field: slotEpoch, readers: [ctrl, aicore]}]\n");
  for (const Config* c : {&alias, &options}) {
    const auto& fencesValue = c->ruleOptions.at("timing-stop-order").at("fences").value;
    const auto* fences = std::any_cast<std::vector<std::string>>(&fencesValue);
    REQUIRE(fences);
    CHECK(*fences == std::vector<std::string>{"FullBarrier"});
  }
  CHECK(dumpConfig(alias).substr(dumpConfig(alias).find("\noptions:")) ==
        dumpConfig(options).substr(dumpConfig(options).find("\noptions:")));
  // A configured value reaches the rule: the renamed fence is the only fence.
  RuleSettings s;
  s.options = options.ruleOptions;
  const Rule& rule = *findRule("timing-stop-order");
  CHECK(optionAs<std::vector<std::string>>(rule, "fences", "a2a3", &s) == std::vector<std::string>{"FullBarrier"});
  CHECK(optionAs<std::vector<std::string>>(rule, "fences", "a2a3", nullptr).size() == 3);
}
