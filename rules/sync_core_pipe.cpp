// sync-core-pipe: a pipe barrier or intra-core event on a pipe the kernel's core does not have. The
// vector core (AIV) has no M, MTE1 or FIX pipe and the cube core (AIC) no V pipe
// (analyzer/model/op_registry: coreHasPipe). Sync on a missing pipe is not defined: PTOAS #1026
// lowered a GM fence to pipe_barrier(PIPE_FIX) in a vector kernel, and after a TPUT the kernel
// never returned.
#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/op_registry.h"
#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

const char* coreName(KernelKind core) { return core == KernelKind::Vector ? "vector core (AIV)" : "cube core (AIC)"; }

// The pipes a sync op names: a barrier's pipe, an intra-core event's two pipes. Cross-core ops
// name the other core's pipe by design. An instruction's own pipe is not checked here: on a
// core without that pipe its operands are in the wrong space already (an L0C tile in a vector
// kernel), and an op the table does not know has only a guessed pipe.
std::vector<Pipe> namedPipes(const Op& op) {
  switch (op.kind) {
    case OpKind::PipeBarrier: return {op.barrierPipe};
    case OpKind::SetFlag:
    case OpKind::WaitFlag: return {op.event.src, op.event.dst};
    default: return {};
  }
}

class SyncCorePipe : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-core-pipe", "sync", Severity::Error,
                            "a pipe barrier or event names a pipe the kernel's core kind does not have",
                            {"PTOAS #1026 (fence_scope<gm> emits pipe_barrier(PIPE_FIX) in a vector kernel, hanging the device after a TPUT)",
                             "AscendNPU IR InferCoreType (cube-only pipes M, MTE1, FIX; vector-only V)"},
        // What it does not check: its page's section of that name.
        {"A `mix` kernel, or C++ that tests no core macro, is not checked.",
         "Cross-core sets and waits are not checked: they name the other core's pipe by design.",
         "An instruction's own pipe is not checked."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return coreKindOf(k) != KernelKind::Unknown && t.hasAny({OpKind::SetFlag, OpKind::WaitFlag, OpKind::PipeBarrier});
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    const KernelKind core = coreKindOf(k);
    forEachOp(*k.body, [&](const Op& op) {
      for (Pipe p : namedPipes(op)) {
        if (p == Pipe::Unknown || ops::coreHasPipe(core, p)) continue;
        std::string what = op.kind == OpKind::PipeBarrier ? "waits for" : "names";
        ctx.report(op.loc, "'" + op.name + "' " + what + " " + pipeName(p) + ", which the " + coreName(core) + " of '" +
                               k.name + "' does not have: sync on a missing pipe is not defined (PTOAS #1026: a "
                               "kernel with pipe_barrier(PIPE_FIX) on a vector core hung after a TPUT)");
        break;
      }
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncCorePipe() { return std::make_unique<SyncCorePipe>(); }

}  // namespace ptov
