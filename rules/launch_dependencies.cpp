// launch-dependencies: the dependency list of a task in generated orchestration code names each
// producer once and fills exactly the slots it declares, and a task that reads a tensor created
// with manual_dep depends (directly or through its dependencies) on the task that writes it: the
// runtime adds no automatic edge for such a tensor.
#include <map>
#include <set>

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class LaunchDependencies : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "launch-dependencies",
        "launch",
        Severity::Error,
        "a task's dependency list repeats a producer, leaves declared slots unfilled, or misses "
        "the producer of a manual_dep tensor it reads",
        {"the DeepSeek-V4 MoE fusion write-up §2 (explicit deps replace the task boundary; manual_dep needs a complete "
         "transitive order) and 常见错误 10",
         upstream::kMoeFusion,
         "pypto-lib 90ff1556 audit_fused_pre_norm_codegen (deps array size, duplicated producer)"},
        // What it does not check: its page's section of that name.
        {"Dependency entries whose id is not a task submitted in the same function (a parameter, an undeclared "
         "fragment name) are left out: nothing is claimed about them.",
         "A read of a tensor created without `manual_dep=true` is not checked for a dependency on its writer: the "
         "runtime adds that edge itself."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return k.cpp != nullptr && k.kind == KernelKind::Orchestration && !k.cpp->launches.empty();
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || k.kind != KernelKind::Orchestration) return;
    const auto& launches = k.cpp->launches;
    for (const LaunchFacts& l : launches) {
      if (!l.hasDeps) continue;
      std::map<int, const LaunchDep*> seen;
      for (const LaunchDep& d : l.deps) {
        if (d.producer < 0) continue;
        auto [it, fresh] = seen.emplace(d.producer, &d);
        if (fresh) continue;
        Finding& f = ctx.report(d.loc, "task '" + l.kernel + "' lists its dependency on '" + d.producerKernel +
                                           "' twice: each producer is named once, and a repeated entry stands where "
                                           "another producer was meant");
        f.notes.push_back({it->second->loc, "the first entry"});
      }
      if (l.depSlots && *l.depSlots != static_cast<int64_t>(l.deps.size())) {
        Finding& f = ctx.report(l.depsLoc, "the dependency array of task '" + l.kernel + "' declares " +
                                               std::to_string(*l.depSlots) + " slot(s) but " +
                                               std::to_string(l.deps.size()) + " are filled: a producer is missing "
                                               "from the list, or a slot is passed uninitialised");
        f.notes.push_back({l.loc, "the submit"});
      }
    }
    checkManualDepOrder(launches, ctx);
  }

 private:
  // Tasks `from` depends on, transitively, through resolved dependency entries.
  static std::set<int> ancestors(const std::vector<LaunchFacts>& launches, int from) {
    std::set<int> out;
    std::vector<int> todo{from};
    while (!todo.empty()) {
      int t = todo.back();
      todo.pop_back();
      for (const LaunchDep& d : launches[static_cast<size_t>(t)].deps)
        if (d.producer >= 0 && out.insert(d.producer).second) todo.push_back(d.producer);
    }
    return out;
  }

  static void checkManualDepOrder(const std::vector<LaunchFacts>& launches, RuleContext& ctx) {
    std::map<int, int> writer;  // manual_dep tensor -> the last task that wrote it
    for (const LaunchFacts& l : launches) {
      for (const LaunchArg& a : l.args) {
        if (a.created < 0 || !l.created[static_cast<size_t>(a.created)].manualDep) continue;
        bool reads = a.method == "add_input" || a.method == "add_inout";
        auto w = writer.find(a.created);
        if (reads && w != writer.end() && !ancestors(launches, l.index).count(w->second)) {
          const LaunchFacts& p = launches[static_cast<size_t>(w->second)];
          Finding& f = ctx.report(a.loc, "task '" + l.kernel + "' reads '" + a.name + "', created with manual_dep, "
                                         "but does not depend on '" + p.kernel + "', which writes it: the runtime "
                                         "adds no edge for a manual_dep tensor, so the read can run first");
          f.notes.push_back({p.loc, "the writing task"});
        }
      }
      for (const LaunchArg& a : l.args)
        if (a.created >= 0 && (a.method == "add_output" || a.method == "add_inout")) writer[a.created] = l.index;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeLaunchDependencies() { return std::make_unique<LaunchDependencies>(); }

}  // namespace ptov
