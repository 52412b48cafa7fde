#include "analyzer/cpp/orchestration.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <cctype>

#include "analyzer/cpp/translate.h"
#include "analyzer/task_names.h"
#include "analyzer/model/cpp_facts.h"

namespace ptov::cpp {

using namespace clang;

namespace {

// A call as the collector sees it: the method or function name, the object it is called on
// (a task-args or create-info variable) and its arguments. A call with an undeclared argument
// (the fixture leaves tensor names undeclared) is a RecoveryExpr; its parts are the same.
struct CallParts {
  std::string name;
  const VarDecl* object = nullptr;
  std::vector<const clang::Expr*> args;
  SourceLocation loc;
};

const VarDecl* varOf(const clang::Expr* e) {
  if (!e) return nullptr;
  e = e->IgnoreParenImpCasts();
  // `p.launch_spec.set_block_num(8)`: the launch spec belongs to the task args `p`.
  if (const auto* me = dyn_cast<MemberExpr>(e)) return varOf(me->getBase());
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dyn_cast<VarDecl>(dr->getDecl());
  return nullptr;
}

// The method or function a callee names, and the object a member callee is called on. A member
// call with an argument in error keeps its callee unresolved.
bool calleeParts(const clang::Expr* callee, CallParts& p) {
  callee = callee->IgnoreParenImpCasts();
  if (const auto* me = dyn_cast<MemberExpr>(callee)) {
    p.name = me->getMemberDecl()->getNameAsString();
    p.object = varOf(me->getBase());
  } else if (const auto* um = dyn_cast<UnresolvedMemberExpr>(callee)) {
    p.name = um->getMemberName().getAsString();
    p.object = um->isImplicitAccess() ? nullptr : varOf(um->getBase());
  } else if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(callee)) {
    p.name = ul->getName().getAsString();
  } else if (const auto* dr = dyn_cast<DeclRefExpr>(callee)) {
    p.name = dr->getDecl()->getNameAsString();
  } else {
    return false;
  }
  return true;
}

std::optional<CallParts> partsOf(const clang::Expr* e) {
  CallParts p;
  if (const auto* c = dyn_cast<CallExpr>(e)) {
    if (!calleeParts(c->getCallee(), p)) return std::nullopt;
    for (const clang::Expr* a : c->arguments()) p.args.push_back(a);
  } else if (const auto* r = dyn_cast<RecoveryExpr>(e)) {
    auto subs = r->subExpressions();
    if (subs.empty() || !calleeParts(subs.front(), p)) return std::nullopt;
    for (size_t i = 1; i < subs.size(); ++i) p.args.push_back(subs[i]);
  } else {
    return std::nullopt;
  }
  p.loc = e->getBeginLoc();
  return p;
}

// The record a variable's type names, without qualifiers, references or aliases.
std::string typeName(QualType t) {
  if (const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl()) return rd->getNameAsString();
  return t.getNonReferenceType().getUnqualifiedType().getAsString();
}


// `// Task 4096: fused_pre_norm_cce`, `// Spmd arbitrary_rms_group: hc_pre_rms`, `// Group gate:
// MixedKernels`: the generator names the kernel of the task that follows.
struct NamingComment {
  unsigned offset = 0;
  std::string kernel;
};

std::vector<NamingComment> namingComments(ASTContext& ctx, const FunctionDecl& fn) {
  std::vector<NamingComment> out;
  const SourceManager& sm = ctx.getSourceManager();
  SourceRange r = fn.getSourceRange();
  SourceLocation b = sm.getExpansionLoc(r.getBegin()), e = sm.getExpansionLoc(r.getEnd());
  if (sm.getFileID(b) != sm.getFileID(e)) return out;
  bool invalid = false;
  StringRef buf = sm.getBufferData(sm.getFileID(b), &invalid);
  if (invalid) return out;
  unsigned from = sm.getFileOffset(b), to = std::min<unsigned>(sm.getFileOffset(e), buf.size());
  std::string text = buf.substr(from, to - from).str();
  for (size_t at = text.find("//"); at != std::string::npos; at = text.find("//", at + 2)) {
    std::string name = namedTask(text, at + 2);
    if (!name.empty()) out.push_back({from + static_cast<unsigned>(at), name});
  }
  return out;
}

// Walks the function in source order. Task arguments, launch settings and dependency lists are
// kept per task-args variable (its declaration, not its spelling) and become a launch when a
// submit call passes that variable.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
 public:
  LaunchCollector(ASTContext& ctx, const FunctionDecl& fn) : ctx_(ctx), function_(fn.getNameAsString()) {
    comments_ = namingComments(ctx, fn);
  }
  std::vector<LaunchFacts> launches;
  std::vector<CreatedTensor> created;
  std::vector<InputDiagnostic> notes;

  bool TraverseForStmt(ForStmt* s) { return inLoop(s, [&] { return RecursiveASTVisitor::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) { return inLoop(s, [&] { return RecursiveASTVisitor::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(DoStmt* s) { return inLoop(s, [&] { return RecursiveASTVisitor::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    return inLoop(s, [&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(s); });
  }

  bool VisitVarDecl(VarDecl* vd) {
    QualType t = vd->getType();
    std::string type = typeName(t);
    const clang::Expr* init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
    if (const auto* cleanups = dyn_cast_or_null<ExprWithCleanups>(init)) init = cleanups->getSubExpr()->IgnoreImplicit();
    if (const auto* arr = dyn_cast<ConstantArrayType>(t.getTypePtr())) {
      int64_t size = static_cast<int64_t>(arr->getSize().getZExtValue());
      if (typeName(arr->getElementType()) == "PTO2TaskId") {
        depArrays_[vd] = {locOf(ctx_, vd->getLocation()), size, {}};
      } else if (const auto* list = dyn_cast_or_null<InitListExpr>(init)) {
        std::optional<int64_t> words = 1;
        for (const clang::Expr* dim : list->inits()) {
          auto v = evalInt(ctx_, dim);
          if (v && words) *words *= *v;
          else words.reset();
        }
        if (list->getNumInits() == 0) words.reset();
        shapes_[vd] = words;
      }
      return true;
    }
    if (type == "TensorCreateInfo") {
      CreatedTensor c;
      c.loc = locOf(ctx_, vd->getLocation());
      c.name = vd->getNameAsString();
      if (const auto* ctor = dyn_cast_or_null<CXXConstructExpr>(init)) {
        if (ctor->getNumArgs() > 0)
          if (const VarDecl* shape = varOf(ctor->getArg(0)))
            if (shapes_.count(shape)) c.words = shapes_[shape];
        if (ctor->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(ctor->getArg(3))) {
          bool manual = false;
          if (!ctor->getArg(3)->isValueDependent() && ctor->getArg(3)->EvaluateAsBooleanCondition(manual, ctx_))
            c.manualDep = manual;
        }
      }
      createInfo_[vd] = static_cast<int>(created.size());
      createdLoops_.push_back(loops_);
      created.push_back(c);
      return true;
    }
    if (!init) return true;
    if (const auto* call = dyn_cast<CallExpr>(init)) {
      std::string n = calleeName(call);
      if (n == "alloc_tensors") {
        std::vector<int> outs;
        for (const clang::Expr* a : call->arguments()) {
          const VarDecl* ci = varOf(a);
          outs.push_back(ci && createInfo_.count(ci) ? createInfo_[ci] : -1);
        }
        allocations_[vd] = outs;
      } else if (isTaskSubmit(n)) {
        submitResult_[call] = vd;
      } else if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) {
        const VarDecl* obj = varOf(mc->getImplicitObjectArgument());
        if (n == "get_ref" && obj && allocations_.count(obj) && mc->getNumArgs() == 1)
          if (auto i = evalInt(ctx_, mc->getArg(0)))
            if (*i >= 0 && static_cast<size_t>(*i) < allocations_[obj].size()) {
              int t = allocations_[obj][*i];
              tensorOf_[vd] = t;
              if (t >= 0) created[t].name = vd->getNameAsString();  // the tensor, not its create-info
            }
        if (n == "task_id" && obj && submitOf_.count(obj)) taskIdOf_[vd] = submitOf_[obj];
      }
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* bo) {
    if (bo->getOpcode() == BO_Assign) assignment(bo->getLHS(), bo->getRHS(), bo->getBeginLoc());
    return true;
  }

  void assignment(const clang::Expr* lhsExpr, const clang::Expr* rhs, SourceLocation loc) {
    const clang::Expr* lhs = lhsExpr->IgnoreParenImpCasts();
    // `deps[n++] = producer_id;`
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(lhs)) {
      const VarDecl* arr = varOf(sub->getBase());
      auto it = arr ? depArrays_.find(arr) : depArrays_.end();
      if (it != depArrays_.end()) {
        LaunchDep d;
        d.loc = locOf(ctx_, loc);
        d.name = sourceText(ctx_, rhs->getSourceRange());
        const VarDecl* id = varOf(rhs);
        if (id && taskIdOf_.count(id)) d.producer = taskIdOf_[id];
        it->second.entries.push_back(d);
      }
      return;
    }
    // `ws_ci.start_offset = 4;` (or on the tensor itself)
    if (const auto* me = dyn_cast<MemberExpr>(lhs))
      if (me->getMemberDecl()->getNameAsString() == "start_offset") {
        int t = createdOf(varOf(me->getBase()));
        if (t >= 0) {
          created[t].startOffset = evalInt(ctx_, rhs);
          created[t].startOffsetLoc = locOf(ctx_, loc);
        }
      }
  }

  // `deps[n++] = id;` on the PTO2TaskId struct is an operator= call.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* op) {
    if (op->getOperator() == OO_Equal && op->getNumArgs() == 2) assignment(op->getArg(0), op->getArg(1), op->getBeginLoc());
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    if (isa<CXXOperatorCallExpr>(call)) return true;
    return visitCall(call);
  }
  bool VisitRecoveryExpr(RecoveryExpr* r) { return visitCall(r); }

 private:
  struct DepArray {
    SourceLoc loc;
    int64_t size = 0;
    std::vector<LaunchDep> entries;
  };
  // What a task-args variable has been given before it is submitted.
  struct PendingTask {
    std::vector<LaunchArg> args;
    std::optional<int64_t> blockNum;
    SourceLoc blockNumLoc;
    std::optional<bool> requireSyncStart, allowEarlyResolve;
    SourceLoc allowEarlyResolveLoc;
    const VarDecl* deps = nullptr;
  };

  ASTContext& ctx_;
  std::string function_;
  std::vector<NamingComment> comments_;
  std::vector<const clang::Stmt*> loops_;
  std::vector<std::vector<const clang::Stmt*>> createdLoops_;  // the loops around each created tensor
  std::map<const VarDecl*, std::optional<int64_t>> shapes_;
  std::map<const VarDecl*, int> createInfo_;                // create-info -> created tensor
  std::map<const VarDecl*, std::vector<int>> allocations_;  // alloc_tensors result -> tensors
  std::map<const VarDecl*, int> tensorOf_;                  // get_ref(i) -> created tensor
  std::map<const CallExpr*, const VarDecl*> submitResult_;  // submit call -> its result variable
  std::map<const VarDecl*, int> submitOf_;                  // submit result -> launch
  std::map<const VarDecl*, int> taskIdOf_;                  // task_id() -> launch
  std::map<const VarDecl*, DepArray> depArrays_;
  std::map<const VarDecl*, PendingTask> pending_;

  template <class F>
  bool inLoop(const clang::Stmt* s, F&& traverse) {
    loops_.push_back(s);
    bool ok = traverse();
    loops_.pop_back();
    return ok;
  }

  int createdOf(const VarDecl* v) {
    if (!v) return -1;
    if (auto it = createInfo_.find(v); it != createInfo_.end()) return it->second;
    if (auto it = tensorOf_.find(v); it != tensorOf_.end()) return it->second;
    return -1;
  }

  std::optional<bool> boolean(const clang::Expr* e) {
    bool b = false;
    if (e && !e->isValueDependent() && e->EvaluateAsBooleanCondition(b, ctx_)) return b;
    return std::nullopt;
  }

  bool visitCall(const clang::Expr* e) {
    auto p = partsOf(e);
    if (!p) return true;
    const clang::Expr* a0 = p->args.empty() ? nullptr : p->args.front();
    if (isTaskSubmit(p->name)) {
      submit(*p, dyn_cast<CallExpr>(e));
      return true;
    }
    if (!p->object) return true;
    if (p->name == "set_initial_value" && a0) {
      int t = createdOf(p->object);
      if (t >= 0) created[t].initValue = evalInt(ctx_, a0);
      return true;
    }
    PendingTask& task = pending_[p->object];
    if (p->name.rfind("add_", 0) == 0 && a0) {
      task.args.push_back(LaunchArg{locOf(ctx_, p->loc), p->name, sourceText(ctx_, a0->getSourceRange()),
                                    createdOf(varOf(a0))});
    } else if (p->name == "set_block_num" && a0) {
      task.blockNum = evalInt(ctx_, a0);
      task.blockNumLoc = locOf(ctx_, p->loc);
    } else if (p->name == "set_require_sync_start" && a0) {
      task.requireSyncStart = boolean(a0);
    } else if (p->name == "set_allow_early_resolve" && a0) {
      task.allowEarlyResolve = boolean(a0);
      task.allowEarlyResolveLoc = locOf(ctx_, p->loc);
    } else if (p->name == "set_dependencies" && a0) {
      task.deps = varOf(a0);
      if (!task.deps || !depArrays_.count(task.deps))
        notes.push_back({InputDiagnostic::Level::Note, locOf(ctx_, p->loc),
                         "the dependency list '" + sourceText(ctx_, a0->getSourceRange()) +
                             "' is not a PTO2TaskId array of this function: not checked"});
    }
    return true;
  }

  static bool isTaskArgs(const VarDecl* v) {
    std::string t = typeName(v->getType());
    return t == "L0TaskArgs" || t == "CoreTaskArgs";
  }

  void submit(const CallParts& p, const CallExpr* call) {
    LaunchFacts l;
    l.loc = locOf(ctx_, p.loc);
    l.function = function_;
    l.submit = p.name;
    l.index = static_cast<int>(launches.size());
    const VarDecl* argsVar = nullptr;
    for (const clang::Expr* a : p.args) {
      const VarDecl* v = varOf(a);
      if (v && isTaskArgs(v)) argsVar = v;
      else if (!l.kernelId) l.kernelId = evalInt(ctx_, a);
    }
    if (argsVar) {
      PendingTask& t = pending_[argsVar];
      l.args = t.args;
      l.blockNum = t.blockNum;
      l.blockNumLoc = t.blockNumLoc;
      l.requireSyncStart = t.requireSyncStart;
      l.allowEarlyResolve = t.allowEarlyResolve;
      l.allowEarlyResolveLoc = t.allowEarlyResolveLoc;
      if (t.deps && depArrays_.count(t.deps)) {
        const DepArray& d = depArrays_[t.deps];
        l.hasDeps = true;
        l.depsLoc = d.loc;
        l.depSlots = d.size;
        l.deps = d.entries;
      }
      l.kernel = kernelNameBefore(argsVar->getLocation());
    }
    if (l.kernel.empty()) l.kernel = kernelNameBefore(call ? call->getBeginLoc() : p.loc);
    // A workspace created outside a loop that submits a task each iteration is shared by all of
    // those grids; the rule sees it as one tensor passed to several launches.
    for (auto& a : l.args)
      if (a.created >= 0 && !loops_.empty() && !contains(createdLoops_[a.created], loops_.back()))
        l.loopShared.push_back(a.created);
    if (call)
      if (auto r = submitResult_.find(call); r != submitResult_.end()) submitOf_[r->second] = l.index;
    launches.push_back(std::move(l));
  }

  static bool contains(const std::vector<const clang::Stmt*>& v, const clang::Stmt* s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }

  std::string kernelNameBefore(SourceLocation loc) {
    const SourceManager& sm = ctx_.getSourceManager();
    unsigned at = sm.getFileOffset(sm.getExpansionLoc(loc));
    std::string name;
    for (const auto& c : comments_)
      if (c.offset < at) name = c.kernel;
    return name;
  }
};

}  // namespace

bool isTaskSubmit(const std::string& n) { return n.rfind("rt_submit_", 0) == 0 && n.find("task") != std::string::npos; }

Kernel modelOrchestration(ASTContext& ctx, const FunctionDecl& fn, std::vector<InputDiagnostic>& notes) {
  Kernel k;
  k.name = fn.getNameAsString();
  k.kind = KernelKind::Orchestration;
  k.frontEnd = FrontEnd::Cpp;
  k.loc = locOf(ctx, fn.getLocation());
  k.file = k.loc.file;
  k.body = Stmt::seq();
  LaunchCollector c(ctx, fn);
  c.TraverseStmt(fn.getBody());
  for (auto& l : c.launches) {
    l.created = c.created;
    for (auto& d : l.deps) {
      if (d.producer < 0) continue;
      const LaunchFacts& p = c.launches[static_cast<size_t>(d.producer)];
      d.producerKernel = p.kernel;
      d.producerLoc = p.loc;
      d.producerEarlyResolve = p.allowEarlyResolve;
      d.producerEarlyResolveLoc = p.allowEarlyResolve ? p.allowEarlyResolveLoc : p.loc;
    }
  }
  notes.insert(notes.end(), c.notes.begin(), c.notes.end());
  auto facts = std::make_shared<CppFacts>();
  facts->launches = std::move(c.launches);
  k.cpp = facts;
  return k;
}

}  // namespace ptov::cpp
