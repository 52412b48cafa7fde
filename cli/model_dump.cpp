#include "cli/model_dump.h"

#include <ostream>

#include "analyzer/model/cpp_facts.h"

namespace ptov {

namespace {
std::string refs(const std::vector<MemRef>& rs) {
  std::string s;
  for (const auto& r : rs) {
    if (!s.empty()) s += ", ";
    s += std::string(memSpaceName(r.space)) + ":" + (r.value.empty() ? "?" : r.value);
    if (r.param >= 0) s += "(param " + std::to_string(r.param) + ")";
    if (r.peer) s += "(peer)";
    if (r.inBytesView()) s += " bytes [" + toString(r.offsets[0]) + " .. +" + toString(r.sizes[0]) + ")";
    if (r.pipe != Pipe::Unknown) s += std::string(" on ") + pipeName(r.pipe);
  }
  return s;
}

std::string pipes(const Op& op) {
  std::string s;
  for (Pipe p : op.pipes) s += std::string(s.empty() ? "" : ",") + pipeName(p);
  return s;
}

void dumpStmt(const Stmt& s, int indent, std::ostream& out) {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  switch (s.kind) {
    case Stmt::Kind::OpStmt: {
      const Op& op = s.op;
      out << pad << op.loc.line << ":" << op.loc.col << " " << opKindName(op.kind) << " " << op.name;
      if (!op.pipes.empty()) out << " [" << pipes(op) << "]";
      if (!op.reads.empty()) out << " reads " << refs(op.reads);
      if (!op.writes.empty()) out << " writes " << refs(op.writes);
      if (op.target.valid()) out << " target " << refs({op.target});
      if (op.target.walkFrom)
        out << " lines over " << op.target.walkLoop << " hold bytes [" << toString(op.target.walkFrom) << " .. "
            << toString(op.target.walkTo) << ")";
      if (op.kind == OpKind::TileAssign && op.tileAddr) out << " at " << *op.tileAddr;
      if (op.participants) out << " participants " << toString(op.participants);
      out << "  (" << op.loc.file << ")\n";
      return;
    }
    case Stmt::Kind::For:
      out << pad << "for " << s.var << " = " << toString(s.lb) << " to " << toString(s.ub) << " step "
          << toString(s.step) << "\n";
      break;
    case Stmt::Kind::While: out << pad << "while " << toString(s.cond) << "\n"; break;
    case Stmt::Kind::If:
      out << pad << "if " << toString(s.cond) << "\n";
      if (!s.children.empty() && s.children[0]) dumpStmt(*s.children[0], indent + 1, out);
      if (s.children.size() > 1 && s.children[1] && !s.children[1]->children.empty()) {
        out << pad << "else\n";
        dumpStmt(*s.children[1], indent + 1, out);
      }
      return;
    default:
      for (const auto& c : s.children)
        if (c) dumpStmt(*c, indent, out);
      return;
  }
  for (const auto& c : s.children)
    if (c) dumpStmt(*c, indent + 1, out);
}

std::string optional(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "?"; }
std::string optional(const std::optional<bool>& v) { return v ? (*v ? "true" : "false") : "unset"; }

// Orchestration code: each submitted task with what the rules read from it.
void dumpLaunch(const LaunchFacts& l, std::ostream& out) {
  out << "  " << l.loc.line << ":" << l.loc.col << " " << l.submit << " kernel '" << l.kernel << "' id "
      << optional(l.kernelId) << " block_num " << optional(l.blockNum) << " sync_start "
      << optional(l.requireSyncStart) << " early_resolve " << optional(l.allowEarlyResolve) << '\n';
  for (const auto& a : l.args) {
    out << "    " << a.method << " " << a.name;
    if (a.created >= 0) {
      const CreatedTensor& c = l.created[static_cast<size_t>(a.created)];
      out << " (created: " << optional(c.words) << " words, initial value " << optional(c.initValue)
          << (c.startOffset ? ", start_offset " + std::to_string(*c.startOffset) : "")
          << (c.manualDep ? ", manual_dep" : "") << ")";
    }
    out << '\n';
  }
  if (l.hasDeps) {
    out << "    deps [" << optional(l.depSlots) << " slot(s)]:";
    for (const auto& d : l.deps) out << " " << d.name << (d.producer >= 0 ? "=task " + std::to_string(d.producer) : "=?");
    out << '\n';
  }
}
}  // namespace

int runModelDump(const std::vector<std::string>& paths, const FrontendOptions& opts, std::ostream& out) {
  std::vector<std::string> problems;
  std::vector<LoadedFile> loaded;
  for (const auto& p : collectInputs(paths, problems)) loaded.push_back(loadFile(p, opts));
  std::vector<LoadedFile*> files;
  for (auto& f : loaded) files.push_back(&f);
  linkInputs(files);
  bool inputError = !problems.empty();
  for (const auto& p : problems) out << p << '\n';
  for (const auto& f : loaded) {
    inputError |= f.hasErrors();
    out << "file " << f.path << ": " << f.kernels.size() << " kernel(s)\n";
    for (const auto& d : f.diagnostics)
      if (d.level != InputDiagnostic::Level::Note || f.kernels.empty())
        out << "  " << d.loc.file << ":" << d.loc.line << ":" << d.loc.col << ": " << d.message << '\n';
    for (const auto& k : f.kernels) {
      out << "kernel " << k.name << " (" << frontEndName(k.frontEnd)
          << (k.kind == KernelKind::Unknown ? "" : std::string(", ") + kernelKindName(k.kind))
          << (k.view == CoreView::Whole ? "" : std::string(k.view == CoreView::Aic ? ", AIC" : ", AIV") + " view") << ", "
          << k.loc.file << ":" << k.loc.line << ")\n";
      for (const auto& g : k.gaps)
        out << "  not modelled: " << g.loc.file << ":" << g.loc.line << ":" << g.loc.col << ": "
            << gapKindName(g.kind) << " " << g.what << '\n';
      // C++: the functions read into the model, the root and each one inlined (pto-isa's own
      // helpers read through their real bodies among them).
      if (k.cpp && !k.cpp->functionsRun.empty()) {
        out << "  functions run:";
        for (const auto& f : k.cpp->functionsRun) out << " " << f;
        out << '\n';
      }
      if (k.body) dumpStmt(*k.body, 1, out);
      if (k.cpp)
        for (const auto& l : k.cpp->launches) dumpLaunch(l, out);
      for (const LaunchFacts* l : k.launches)
        out << "  launched by " << l->function << " at " << l->loc.file << ":" << l->loc.line << '\n';
    }
  }
  return inputError ? 2 : 0;
}

}  // namespace ptov
