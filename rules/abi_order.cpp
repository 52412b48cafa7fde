// abi-order: a kernel_entry wrapper reads tensors from args[] before scalars (PyPTO packs
// tensors first), forwards them in the order of the callee's parameters, keeps its ABI enum
// (kTensorArgCount, ...) equal to what it unpacks, and forwards what the .pto signature declares
// when the .pto is checked too.
#include <map>
#include <set>

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class AbiOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "abi-order",
        "abi",
        Severity::Error,
        "kernel_entry args[] unpacking or forwarding disagrees with the ABI (tensors first, "
        "callee order, ABI enum, .pto signature)",
        {"the DeepSeek-V4 MoE fusion write-up §3.3 (13-tensor ABI, kTensorArgCount, kScale0 = kTensorArgCount)",
         upstream::kMoeFusion, "pypto pto_backend.py (tensors then scalars, dynamic dims, synthetic params)",
         "pypto-lib cce-extern-kernel.md (scalar at args[7] instead of args[17] hangs)",
         "pypto #1380 (wrapper call desynchronised from func.func)"},
        // What it does not check: its page's section of that name.
        {"Without the callee's `.pto` in the same run, the forwarded call is not compared with its `func.func` "
         "signature (argument count, tensor and scalar positions).",
         "Without a linked launch, what the orchestration code puts into `args[]` is not compared with what the "
         "wrapper reads."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return k.cpp != nullptr && k.cpp->wrapper;
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->wrapper) return;
    const CppFacts& f = *k.cpp;
    checkTensorsFirst(f, ctx);
    checkAbiConstants(f, ctx);
    for (const auto& call : f.forwarded) {
      checkCallOrder(call, ctx);
      if (k.irPeer && k.irPeer->name == call.callee) checkSignature(call, *k.irPeer, ctx);
    }
    for (const LaunchFacts* l : k.launches) checkLaunch(f, *l, ctx);
  }

 private:
  // The launch packs args[] in add_* order: tensors, then scalars. Each args[i] the wrapper reads
  // must be what the launch put there.
  static void checkLaunch(const CppFacts& f, const LaunchFacts& l, RuleContext& ctx) {
    const LaunchArg* firstScalar = nullptr;
    for (const auto& a : l.args) {
      if (a.method == "add_scalar") {
        if (!firstScalar) firstScalar = &a;
      } else if (firstScalar) {
        Finding& x = ctx.report(a.loc, "tensor '" + a.name + "' is added after scalar '" + firstScalar->name +
                                           "': task arguments pack every tensor before the scalars");
        x.notes.push_back({firstScalar->loc, "the first scalar"});
        break;
      }
    }
    // A launch that adds no scalar at all is a fragment (the contract fixture lists tensors
    // only): its scalar slots are not known, so they are noted, not judged.
    bool scalarsShown = firstScalar != nullptr;
    for (const auto& u : f.unpacks) {
      if (!u.index || *u.index < 0) continue;
      if (!u.tensor && !scalarsShown && static_cast<size_t>(*u.index) >= l.args.size()) {
        Finding& x = ctx.report(Severity::Note, u.loc, "the wrapper reads scalar " + label(u) + ", but the launch "
                                "adds no scalars: the scalar slots are not checked");
        x.notes.push_back({l.loc, "the launch"});
        continue;
      }
      if (static_cast<size_t>(*u.index) >= l.args.size()) {
        Finding& x = ctx.report(u.loc, "the wrapper reads " + label(u) + ", but the launch passes only " +
                                           std::to_string(l.args.size()) + " argument(s)");
        x.notes.push_back({l.loc, "the launch"});
        continue;
      }
      const LaunchArg& a = l.args[static_cast<size_t>(*u.index)];
      bool tensor = a.method != "add_scalar";
      if (tensor == u.tensor) continue;
      Finding& x = ctx.report(u.loc, "the wrapper reads " + label(u) + " as a " + (u.tensor ? "tensor" : "scalar") +
                                         ", but the launch passes " + (tensor ? "tensor" : "scalar") + " '" + a.name +
                                         "' (" + a.method + ") there");
      x.notes.push_back({a.loc, "the launch argument"});
    }
  }

  static void checkTensorsFirst(const CppFacts& f, RuleContext& ctx) {
    const ArgUnpack* lastTensor = nullptr;
    for (const auto& u : f.unpacks)
      if (u.tensor && u.index && (!lastTensor || *u.index > *lastTensor->index)) lastTensor = &u;
    if (!lastTensor) return;
    for (const auto& u : f.unpacks)
      if (!u.tensor && u.index && *u.index < *lastTensor->index) {
        Finding& x = ctx.report(u.loc, "scalar " + label(u) + " is read from below tensor args[" +
                                           std::to_string(*lastTensor->index) + "]: the runtime packs every tensor "
                                           "before the scalars, so this reads a tensor descriptor as a scalar");
        x.notes.push_back({lastTensor->loc, "the tensor read"});
      }
  }

  static std::string label(const ArgUnpack& u) {
    std::string s = "args[" + u.indexText + "]";
    if (u.index && u.indexText != std::to_string(*u.index)) s += " (= args[" + std::to_string(*u.index) + "])";
    if (!u.var.empty()) s += " ('" + u.var + "')";
    return s;
  }

  static void checkAbiConstants(const CppFacts& f, RuleContext& ctx) {
    auto count = f.constants.find("kTensorArgCount");
    if (count == f.constants.end()) return;
    int64_t tensors = count->second.value;
    std::set<int64_t> tensorIdx;
    for (const auto& u : f.unpacks) {
      if (!u.index) continue;
      if (u.tensor) tensorIdx.insert(*u.index);
      if (u.tensor && *u.index >= tensors)
        ctx.report(u.loc, "tensor " + label(u) + " is at or past kTensorArgCount = " + std::to_string(tensors) +
                              ", where the scalars start");
      if (!u.tensor && *u.index < tensors)
        ctx.report(u.loc, "scalar " + label(u) + " is below kTensorArgCount = " + std::to_string(tensors) +
                              ": it reads a tensor slot");
    }
    if (!tensorIdx.empty() && static_cast<int64_t>(tensorIdx.size()) != tensors && *tensorIdx.rbegin() + 1 != tensors)
      ctx.report(count->second.loc, "kTensorArgCount = " + std::to_string(tensors) + " but the wrapper reads " +
                                        std::to_string(tensorIdx.size()) + " tensors (args[0.." +
                                        std::to_string(*tensorIdx.rbegin()) + "])");
  }

  // args[] indices must grow with the callee's parameter order, tensors and scalars alike.
  static void checkCallOrder(const ForwardedCall& call, RuleContext& ctx) {
    const ForwardedArg* prev = nullptr;
    size_t prevPos = 0;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const ForwardedArg& a = call.args[i];
      if (!a.argsIndex) continue;
      if (prev && *a.argsIndex < *prev->argsIndex) {
        std::string pa = prevPos < call.paramNames.size() ? call.paramNames[prevPos] : std::to_string(prevPos);
        std::string pb = i < call.paramNames.size() ? call.paramNames[i] : std::to_string(i);
        ctx.report(call.loc, "'" + call.callee + "' gets args[" + std::to_string(*prev->argsIndex) + "] for parameter '" +
                                 pa + "' and args[" + std::to_string(*a.argsIndex) + "] for the later parameter '" + pb +
                                 "': the wrapper unpacks in a different order than the callee declares (swapped "
                                 "arguments)");
      }
      prev = &a;
      prevPos = i;
    }
  }

  static void checkSignature(const ForwardedCall& call, const Kernel& ir, RuleContext& ctx) {
    if (call.args.size() != ir.params.size()) {
      Finding& f = ctx.report(call.loc, "the wrapper forwards " + std::to_string(call.args.size()) + " arguments to '" +
                                            call.callee + "', whose .pto signature has " +
                                            std::to_string(ir.params.size()) + " parameters");
      f.notes.push_back({ir.loc, "the .pto function"});
      return;
    }
    for (size_t i = 0; i < call.args.size(); ++i) {
      bool cppPointer = i < call.paramPointer.size() ? call.paramPointer[i] : call.args[i].pointer;
      if (cppPointer == ir.params[i].isPointer) continue;
      Finding& f = ctx.report(call.loc, "argument " + std::to_string(i + 1) + " of '" + call.callee + "' ('" +
                                            call.args[i].text + "') is " + (cppPointer ? "a tensor" : "a scalar") +
                                            " in C++ but " + ir.params[i].name + " : " + ir.params[i].type +
                                            " in the .pto signature");
      f.notes.push_back({ir.loc, "the .pto function"});
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeAbiOrder() { return std::make_unique<AbiOrder>(); }

}  // namespace ptov
