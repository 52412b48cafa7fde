// xcheck-sync: translation validation of the sync skeleton. Given a .pto kernel and the C++
// generated from it, both must have the same set/wait pairs, barriers, fences, cache
// invalidates, all-core barriers and signal ops, in the same order, under the same loops and
// branches.
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

struct Token {
  std::string text;
  SourceLoc loc;
};

std::string opToken(const Op& op) {
  switch (op.kind) {
    case OpKind::SetFlag:
    case OpKind::WaitFlag:
      return std::string(op.kind == OpKind::SetFlag ? "set_flag " : "wait_flag ") +
             (op.event.id ? eventText(EventKey{op.event.src, op.event.dst, *op.event.id})
                          : std::string("[") + pipeName(op.event.src) + ", " + pipeName(op.event.dst) + ", dynamic]");
    case OpKind::PipeBarrier: return std::string("pipe_barrier(") + pipeName(op.barrierPipe) + ")";
    case OpKind::Fence: return op.fenceScope == FenceScope::Dsb ? "dsb" : "GM fence (pipe_barrier(PIPE_ALL); dsb)";
    case OpKind::CacheInvalidate: return op.invalidateAll ? "invalidate all" : "invalidate line";
    case OpKind::SyncAll: return "all-core barrier (" + std::string(syncModeName(op.syncMode)) + ")";
    case OpKind::Notify: return "notify";
    case OpKind::Wait: return "signal wait";
    default: return "";
  }
}

// The skeleton: sync tokens, with loops and branches that contain any.
void skeleton(const Stmt& s, std::vector<Token>& out) {
  if (s.kind == Stmt::Kind::OpStmt) {
    std::string t = opToken(s.op);
    if (!t.empty()) out.push_back({t, s.op.loc});
    return;
  }
  if (s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While || s.kind == Stmt::Kind::If) {
    std::vector<std::vector<Token>> parts;
    for (const auto& c : s.children) {
      parts.emplace_back();
      if (c) skeleton(*c, parts.back());
    }
    bool any = false;
    for (const auto& p : parts) any |= !p.empty();
    if (!any) return;
    bool loop = s.kind != Stmt::Kind::If;
    out.push_back({loop ? "loop {" : "if {", s.loc});
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!loop && i == 1) out.push_back({"} else {", s.loc});
      out.insert(out.end(), parts[i].begin(), parts[i].end());
    }
    out.push_back({"}", s.loc});
    return;
  }
  for (const auto& c : s.children)
    if (c) skeleton(*c, out);
}

class XcheckSync : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "xcheck-sync",
        "xcheck",
        Severity::Error,
        "the C++ does not keep the .pto kernel's sync skeleton (set/wait, barriers, fences, "
        "invalidates) in the same order",
        {"the DeepSeek-V4 MoE fusion write-up 不变量 7 and 常见错误 11 (generated bodies are not edited by hand)",
         upstream::kMoeFusion, "PTOAS #1111 (auto-sync flag pairs dropped between versions)"},
        // What it does not check: its page's section of that name.
        {"Data ops are not compared: only the sync skeleton, as a sequence with loop and branch markers."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return k.irPeer != nullptr;
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (k.frontEnd != FrontEnd::Cpp || !k.irPeer) return;
    std::vector<Token> cpp, ir;
    skeleton(*k.body, cpp);
    skeleton(*k.irPeer->body, ir);
    size_t i = 0;
    while (i < cpp.size() && i < ir.size() && cpp[i].text == ir[i].text) ++i;
    if (i == cpp.size() && i == ir.size()) return;
    if (i == cpp.size()) {
      Finding& f = ctx.report(k.loc, "the C++ of '" + k.name + "' lacks the .pto's '" + ir[i].text + "' (and " +
                                         std::to_string(ir.size() - i - 1) + " later sync step(s))");
      f.notes.push_back({ir[i].loc, "in the .pto"});
      return;
    }
    std::string expected = i < ir.size() ? "'" + ir[i].text + "'" : "nothing more";
    Finding& f = ctx.report(cpp[i].loc, "the C++ has '" + cpp[i].text + "' where the .pto has " + expected +
                                            ": the generated sync skeleton differs from the IR from here on");
    if (i < ir.size()) f.notes.push_back({ir[i].loc, "in the .pto"});
  }
};

}  // namespace

std::unique_ptr<Rule> makeXcheckSync() { return std::make_unique<XcheckSync>(); }

}  // namespace ptov
