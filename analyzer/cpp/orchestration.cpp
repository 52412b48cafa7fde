#include "analyzer/cpp/orchestration.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include "analyzer/cpp/translate.h"
#include "analyzer/model/cpp_facts.h"

namespace ptov::cpp {

using namespace clang;

namespace {

// Walks the function in source order. Task arguments and launch settings are kept per variable
// (`L0TaskArgs a; a.add_inout(ws);`, `LaunchSpec s; s.set_block_num(8);`) and bound to a launch
// when a submit call passes those variables.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
 public:
  LaunchCollector(ASTContext& ctx, const std::string& function) : ctx_(ctx), function_(function) {}
  std::vector<LaunchFacts> launches;
  std::map<std::string, Workspace> tensors;

  bool VisitVarDecl(VarDecl* vd) {
    const auto* call = dyn_cast_or_null<CallExpr>(vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr);
    if (const auto* ctor = dyn_cast_or_null<CXXConstructExpr>(vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr))
      if (ctor->getNumArgs() == 1) call = dyn_cast<CallExpr>(ctor->getArg(0)->IgnoreImplicit());
    if (!call || calleeName(call) != "create_tensor") return true;
    Workspace w;
    w.loc = locOf(ctx_, vd->getLocation());
    w.name = vd->getNameAsString();
    if (call->getNumArgs() > 0) {
      const clang::Expr* shape = call->getArg(0)->IgnoreImplicit();
      if (const auto* tmp = dyn_cast<CXXStdInitializerListExpr>(shape)) shape = tmp->getSubExpr()->IgnoreImplicit();
      if (const auto* mt = dyn_cast<MaterializeTemporaryExpr>(shape)) shape = mt->getSubExpr()->IgnoreImplicit();
      if (const auto* list = dyn_cast<InitListExpr>(shape)) {
        int64_t words = 1;
        bool ok = list->getNumInits() > 0;
        for (const clang::Expr* dim : list->inits()) {
          auto v = constant(dim);
          if (!v) ok = false;
          else words *= *v;
        }
        if (ok) w.words = words;
      }
    }
    if (call->getNumArgs() > 2) w.initValue = constant(call->getArg(2));
    tensors[w.name] = w;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* bo) {
    if (bo->getOpcode() != BO_Assign) return true;
    if (const auto* me = dyn_cast<MemberExpr>(bo->getLHS()->IgnoreParenImpCasts()))
      if (me->getMemberDecl()->getNameAsString() == "start_offset") {
        std::string base = name(me->getBase());
        if (tensors.count(base)) tensors[base].startOffset = constant(bo->getRHS());
      }
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    std::string n = calleeName(call);
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) {
      std::string obj = name(mc->getImplicitObjectArgument());
      const clang::Expr* a0 = call->getNumArgs() > 0 ? call->getArg(0) : nullptr;
      if (n.rfind("add_", 0) == 0 && a0)
        pendingArgs_[obj].push_back(LaunchArg{locOf(ctx_, call->getBeginLoc()), n, text(a0)});
      else if (n == "set_block_num" && a0)
        specs_[obj].blockNum = constant(a0);
      else if (n == "set_require_sync_start" && a0)
        specs_[obj].requireSyncStart = boolean(a0);
      else if (n == "set_allow_early_resolve" && a0)
        specs_[obj].allowEarlyResolve = boolean(a0);
      return true;
    }
    if (n != "submit_task" || call->getNumArgs() < 3) return true;
    LaunchFacts l;
    l.loc = locOf(ctx_, call->getBeginLoc());
    l.function = function_;
    const clang::Expr* k = call->getArg(0)->IgnoreParenImpCasts();
    if (const auto* s = dyn_cast<clang::StringLiteral>(k)) l.kernel = s->getString().str();
    else if (const auto* dr = dyn_cast<DeclRefExpr>(k)) l.kernel = dr->getDecl()->getNameAsString();
    else l.kernel = text(k);
    l.args = pendingArgs_[name(call->getArg(1))];
    const LaunchFacts& spec = specs_[name(call->getArg(2))];
    l.blockNum = spec.blockNum;
    l.requireSyncStart = spec.requireSyncStart;
    l.allowEarlyResolve = spec.allowEarlyResolve;
    launches.push_back(l);
    return true;
  }

 private:
  ASTContext& ctx_;
  std::string function_;
  std::map<std::string, std::vector<LaunchArg>> pendingArgs_;
  std::map<std::string, LaunchFacts> specs_;

  std::optional<int64_t> constant(const clang::Expr* e) { return evalInt(ctx_, e); }
  std::optional<bool> boolean(const clang::Expr* e) {
    bool b = false;
    if (e && !e->isValueDependent() && e->EvaluateAsBooleanCondition(b, ctx_)) return b;
    return std::nullopt;
  }
  std::string name(const clang::Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dr->getDecl()->getNameAsString();
    return text(e);
  }
  std::string text(const clang::Expr* e) { return sourceText(ctx_, e->getSourceRange()); }
};

}  // namespace

Kernel modelOrchestration(ASTContext& ctx, const FunctionDecl& fn) {
  Kernel k;
  k.name = fn.getNameAsString();
  k.kind = "orchestration";
  k.frontEnd = "cpp";
  k.loc = locOf(ctx, fn.getLocation());
  k.file = k.loc.file;
  k.body = Stmt::seq();
  LaunchCollector c(ctx, k.name);
  c.TraverseStmt(fn.getBody());
  for (auto& l : c.launches) l.tensors = c.tensors;
  auto facts = std::make_shared<CppFacts>();
  facts->launches = std::move(c.launches);
  k.cpp = facts;
  return k;
}

}  // namespace ptov::cpp
