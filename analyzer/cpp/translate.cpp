#include "analyzer/cpp/translate.h"

#include <numeric>

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include "analyzer/cpp/translate_calls.h"

namespace ptov::cpp {

using namespace clang;

SourceLoc locOf(ASTContext& ctx, SourceLocation loc) {
  const SourceManager& sm = ctx.getSourceManager();
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return SourceLoc{"", 0, 0};
  return SourceLoc{p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
}

bool inUserCode(const SourceManager& sm, SourceLocation l) {
  if (l.isInvalid() || sm.isInSystemHeader(l)) return false;
  std::string file = sm.getFilename(sm.getExpansionLoc(l)).str();
  // The prelude's own headers (ptoverify_prelude.h, ptoverify_cce.h, ptoverify_cce_intrinsics.h, ptoverify_ascendc.h,
  // ptoverify_ptoisa.h) are not the user's.
  for (const char* part : {"ptoverify_prelude.h", "ptoverify_cce.h", "ptoverify_cce_intrinsics.h", "ptoverify_ascendc.h",
                           "ptoverify_ptoisa.h"})
    if (file.find(part) != std::string::npos) return false;
  return file.rfind(kMissingHeaderDir, 0) != 0 && file.find("/prelude/stubinc/") == std::string::npos &&
         file.find("/prelude/standin/") == std::string::npos && file.find("/prelude/vendor/") == std::string::npos;
}

std::optional<int64_t> evalInt(const ASTContext& ctx, const clang::Expr* e) {
  if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  clang::Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx) && r.Val.isInt()) return r.Val.getInt().getExtValue();
  return std::nullopt;
}

std::string sourceText(const ASTContext& ctx, SourceRange range) {
  const SourceManager& sm = ctx.getSourceManager();
  std::string text = Lexer::getSourceText(CharSourceRange::getTokenRange(range), sm, ctx.getLangOpts()).str();
  // A range that exists only inside a macro's expansion (`DEV_IF_INFO`'s condition) reads as
  // the macro's invocation.
  if (text.empty() && range.isValid())
    text = Lexer::getSourceText(sm.getExpansionRange(range), sm, ctx.getLangOpts()).str();
  return text;
}

std::optional<std::vector<CaseGroup>> caseGroups(const SwitchStmt& sw) {
  const auto* body = dyn_cast_or_null<CompoundStmt>(sw.getBody());
  if (!body) return std::nullopt;
  std::vector<CaseGroup> out;
  bool open = false;  // statements go to the last group until a break
  for (const clang::Stmt* s : body->body()) {
    const clang::Stmt* inner = s;
    bool labelled = false;
    while (isa<SwitchCase>(inner)) {  // `case 1: case 2: stmt` nests one label in the next
      if (!labelled) out.emplace_back();
      labelled = true;
      if (const auto* cs = dyn_cast<CaseStmt>(inner)) {
        out.back().values.push_back(cs->getLHS());
        inner = cs->getSubStmt();
      } else {
        out.back().isDefault = true;
        inner = cast<DefaultStmt>(inner)->getSubStmt();
      }
    }
    open |= labelled;
    if (isa<BreakStmt>(inner))
      open = false;
    else if (open)
      out.back().stmts.push_back(inner);
  }
  return out;
}

const FunctionDecl* patternOf(const FunctionDecl* fd) {
  if (const FunctionDecl* p = fd->getTemplateInstantiationPattern()) fd = p;
  return fd->getCanonicalDecl();
}

const ops::OpRow* instrOf(const FunctionDecl* fd) {
  if (!fd) return nullptr;
  if (inUserCode(fd->getASTContext().getSourceManager(), fd->getLocation())) return nullptr;
  // A method of a class template's specialization is listed under the template's name
  // (pto::TSync_Custom::record, whatever its template arguments).
  if (const auto* m = dyn_cast<CXXMethodDecl>(fd))
    if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(m->getParent()))
      return ops::lookupCpp(spec->getSpecializedTemplate()->getQualifiedNameAsString() + "::" +
                               m->getNameAsString());
  return ops::lookupCpp(fd->getQualifiedNameAsString());
}

const ops::OpRow* instrOfLookup(const OverloadExpr& lookup) {
  for (const NamedDecl* d : lookup.decls())
    if (const ops::OpRow* in = instrOf(d->getAsFunction())) return in;
  return nullptr;
}

std::string calleeName(const clang::Expr* e) {
  const auto* call = dyn_cast_or_null<CallExpr>(e);
  if (!call) return "";
  if (const FunctionDecl* fd = call->getDirectCallee()) return fd->getNameAsString();
  const clang::Expr* c = call->getCallee()->IgnoreParenImpCasts();
  if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(c)) return ul->getName().getAsString();
  if (const auto* dr = dyn_cast<DeclRefExpr>(c)) return dr->getDecl()->getNameAsString();
  if (const auto* um = dyn_cast<UnresolvedMemberExpr>(c)) return um->getMemberName().getAsString();
  if (const auto* dm = dyn_cast<CXXDependentScopeMemberExpr>(c)) return dm->getMember().getAsString();
  return "";
}

namespace {

// What a body changes, before it is read: each variable assigned, incremented, passed to a
// non-const reference parameter, or placed by TASSIGN, with the statements that assign it (a
// field assigned changes its object). For a loop body a lambda's body is not walked: it runs where
// it is called. For a callee's body (mayChangeObject) it is, and a non-const method called on a
// variable, or the variable passed to any non-const reference, changes it too.
class ChangedVars : public RecursiveASTVisitor<ChangedVars> {
 public:
  explicit ChangedVars(bool callee = false) : callee_(callee) {}
  std::map<const ValueDecl*, std::vector<const clang::Stmt*>> changed;
  bool VisitBinaryOperator(BinaryOperator* bo) {
    if (bo->isAssignmentOp()) note(bo->getLHS(), bo);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* uo) {
    if (uo->isIncrementDecrementOp()) note(uo->getSubExpr(), uo);
    if (uo->getOpcode() == UO_AddrOf) note(uo->getSubExpr(), nullptr);
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (fd && fd->getName() == "TASSIGN" && call->getNumArgs() > 0) note(call->getArg(0), nullptr);
    for (unsigned i = 0; fd && i < call->getNumArgs() && i < fd->getNumParams(); ++i) {
      QualType t = fd->getParamDecl(i)->getType();
      bool reference = callee_ ? t->isReferenceType() : t->isLValueReferenceType();
      if (reference && !t.getNonReferenceType().isConstQualified()) note(call->getArg(i), nullptr);
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* mc) {
    if (const CXXMethodDecl* m = mc->getMethodDecl(); callee_ && m && !m->isConst())
      note(mc->getImplicitObjectArgument(), nullptr);
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr* e) { return !callee_ || RecursiveASTVisitor::TraverseLambdaExpr(e); }

 private:
  void note(const clang::Expr* e, const clang::Stmt* by) {
    e = e->IgnoreParenCasts();
    while (const auto* me = dyn_cast<MemberExpr>(e)) e = me->getBase()->IgnoreParenCasts();  // a field: its object
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) changed[dr->getDecl()].push_back(by);
  }
  bool callee_;
};

}  // namespace

bool mayChangeObject(const FunctionDecl& fn, const ValueDecl* object) {
  if (!fn.hasBody()) return true;
  ChangedVars scan(/*callee=*/true);
  scan.TraverseStmt(fn.getBody());
  return scan.changed.count(object) > 0;
}

const CaseGroup* caseSelected(const std::vector<CaseGroup>& groups, int64_t selector, const ASTContext& ctx) {
  const CaseGroup* fallback = nullptr;
  for (const CaseGroup& g : groups) {
    for (const clang::Expr* label : g.values)
      if (evalInt(ctx, label) == selector) return &g;
    if (g.isDefault) fallback = &g;
  }
  return fallback;
}

namespace {

// Statements of a kernel root and everything it inlines -> the model's Stmt tree.
class Translator final : public CallLowering {
 public:
  using CallLowering::CallLowering;
  const std::set<const FunctionDecl*>& reached() const { return reached_; }
  const std::set<std::pair<std::string, int>>& recoveredLines() const { return recovered_; }

  void run() {
    for (unsigned i = 0; i < root_.getNumParams(); ++i) {
      const ParmVarDecl* p = root_.getParamDecl(i);
      Param param;
      param.name = p->getNameAsString();
      param.type = p->getType().getAsString();
      param.isPointer = p->getType()->isPointerType() || isGlobalTensorType(p->getType());
      k_.params.push_back(param);
      if (param.isPointer) {
        Origin o;
        o.ref.param = static_cast<int>(i);
        o.ref.value = param.name;
        o.bytes = Expr::constant(0);
        origins_[p] = o;
      } else {
        values_[p] = Expr::param(param.name, static_cast<int>(i));
      }
      if (param.name == "args" && root_.getNameAsString() == "kernel_entry") argsParam_ = p;
    }
    facts_.wrapper = argsParam_ != nullptr;
    k_.body = Stmt::seq();
    stack_.insert(&root_);
    if (root_.hasBody()) translateStmt(root_.getBody(), *k_.body);
    markGmFences(*k_.body);
    computeHighWater();
  }

 private:

 private:
  // An `if` with empty then and else sequences.
  StmtPtr newIf(SourceLocation l, ExprPtr cond) {
    auto ifs = std::make_unique<Stmt>();
    ifs->kind = Stmt::Kind::If;
    ifs->loc = loc(l);
    ifs->cond = std::move(cond);
    ifs->children.push_back(Stmt::seq());
    ifs->children.push_back(Stmt::seq());
    return ifs;
  }

  void translateStmt(const clang::Stmt* s, Stmt& seq) override {
    if (!s) return;
    if (const auto* cs = dyn_cast<CompoundStmt>(s)) return translateBlock(cs->body_begin(), cs->body_end(), seq);
    // Every walk below recurses along the statement's depth (an else-if chain, a long sum):
    // past the limit the statement is a gap, so the rules it may touch say `unknown`.
    if (tooDeep(s)) return;
    if (const auto* ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : ds->decls())
        if (const auto* vd = dyn_cast<VarDecl>(d)) declare(vd, seq);
      return;
    }
    if (const auto* fs = dyn_cast<ForStmt>(s)) return translateFor(fs, seq);
    if (const auto* ws = dyn_cast<WhileStmt>(s)) return translateWhile(ws->getCond(), ws->getBody(), ws->getBeginLoc(), seq);
    if (const auto* dos = dyn_cast<DoStmt>(s)) return translateWhile(dos->getCond(), dos->getBody(), dos->getBeginLoc(), seq);
    if (const auto* is = dyn_cast<IfStmt>(s)) return translateIf(is, seq);
    if (const auto* sw = dyn_cast<SwitchStmt>(s)) return translateSwitch(sw, seq);
    if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
      if (rs->getRetValue()) translateCalls(rs->getRetValue(), seq);
      if (inlineDepth_ == 0) emit(seq, makeOp(OpKind::Return, "return", rs->getBeginLoc()));
      else if (depth_ > inlineBaseDepth_.back()) {
        ++fallThroughs_;
        note(rs->getBeginLoc(),
             "a return inside a loop or a branch of an inlined function is modelled as falling through");
      }
      // Reached on every path of this function (only constant branches around it): what follows
      // in the function is dead.
      if (depth_ == inlineBaseDepth_.back()) leftFunction_ = true;
      return;
    }
    if (const auto* e = dyn_cast<clang::Expr>(s)) return translateCalls(e, seq);
    if (const auto* as = dyn_cast<AttributedStmt>(s)) return translateStmt(as->getSubStmt(), seq);
    if (isa<NullStmt>(s) || isa<BreakStmt>(s) || isa<ContinueStmt>(s)) return;
    for (const clang::Stmt* c : s->children()) translateStmt(c, seq);
  }

  // Statements of a block. In an inlined function, `if (c) { ...; return; }` guards the rest:
  // it becomes `if (c) {...} else {rest}`, so an early return leaves only that function.
  void translateBlock(CompoundStmt::const_body_iterator begin, CompoundStmt::const_body_iterator end, Stmt& seq) {
    for (auto it = begin; it != end && !leftFunction_; ++it) {
      const auto* is = dyn_cast<IfStmt>(*it);
      if (inlineDepth_ > 0 && is && !is->getElse() && !constantCondition(is) && endsInReturn(is->getThen()) &&
          std::next(it) != end) {
        translateCalls(is->getCond(), seq);
        StmtPtr ifs = newIf(is->getBeginLoc(), value(is->getCond()));
        ++depth_;
        // The then-branch without its return: leaving this function is the else-branch's absence.
        Bindings before = bindings();
        if (const auto* cs = dyn_cast<CompoundStmt>(is->getThen()))
          translateBlock(cs->body_begin(), std::prev(cs->body_end()), *ifs->children[0]);
        else if (const auto* rs = dyn_cast<ReturnStmt>(is->getThen()); rs && rs->getRetValue())
          translateCalls(rs->getRetValue(), *ifs->children[0]);
        Bindings afterThen = bindings();
        restore(before);  // the rest runs only where the then-branch did not
        translateBlock(std::next(it), end, *ifs->children[1]);
        mergeArms(ifs->cond, before, afterThen);
        --depth_;
        seq.children.push_back(std::move(ifs));
        return;
      }
      translateStmt(*it, seq);
    }
  }

  static bool endsInReturn(const clang::Stmt* s) {
    if (isa_and_nonnull<ReturnStmt>(s)) return true;
    if (const auto* cs = dyn_cast_or_null<CompoundStmt>(s)) return cs->size() > 0 && isa<ReturnStmt>(cs->body_back());
    return false;
  }

  void declare(const VarDecl* vd, Stmt& seq) {
    QualType t = vd->getType();
    if (vd->isStaticLocal()) {  // initialised once, the first time it is reached
      staticValue(vd);
      return;
    }
    if (auto ti = tileInfoOf(t)) {
      tiles_[vd] = *ti;
      Origin o;
      o.ref.space = ti->space;
      o.ref.value = uniqueName(vd->getNameAsString());
      origins_[vd] = o;
      return;
    }
    const clang::Expr* init = vd->getInit();
    if (!init) return;
    const VarDecl* saved = initializing_;
    if (inlineDepth_ == 0 && facts_.wrapper) initializing_ = vd;
    // An aggregate's fields from its initialiser; a constructor run below sets those it sets.
    if (const RecordDecl* record = t->getAsRecordDecl(); record && !isGlobalTensorType(t))
      recordFields(vd, *record, init);
    auto outer = constructed_;
    constructed_ = {vd, dyn_cast<CXXConstructExpr>(init->IgnoreImplicit())};
    translateCalls(init, seq);
    constructed_ = outer;
    initializing_ = saved;
    // Pointers, tensors, and integers that hold an address (`uint64_t raw = (uint64_t)p`).
    if (t->isPointerType() || isGlobalTensorType(t) || t->isReferenceType() || t->isIntegerType()) {
      Origin o = originOf(init);
      if (o.known()) origins_[vd] = o;
    }
    if (t->isIntegralOrEnumerationType() || t->isFloatingType()) values_[vd] = value(init);
    recordDims(vd, init);
    recordGmSpan(vd, init);
    if (t->isIntegerType() || t->isPointerType())
      if (auto b = addrBound(init)) addrBounds_[vd] = *b;
    if (facts_.wrapper && inlineDepth_ == 0) provenance_[vd] = provenanceOf(init, t->isPointerType());
    if (vd->getType()->isIntegralOrEnumerationType() && inlineDepth_ == 0 && depth_ == 0 && t.isConstQualified())
      if (auto c = constant(init)) recordConstant(vd->getNameAsString(), *c, vd->getLocation(), "");
  }

  // `Shape<DYNAMIC, ...> s(1, 1, 1, 1, n)`: the five dimensions, static ones from the type.
  void recordDims(const VarDecl* vd, const clang::Expr* init) {
    dims_.erase(vd);
    for (const char* name : {"Shape", "Stride"}) {
      auto declared = templateDims(vd->getType(), name);
      if (!declared) continue;
      const auto* ctor = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
      std::array<ExprPtr, 5> dims;
      for (unsigned i = 0; i < 5; ++i) {
        if ((*declared)[i] >= 0) dims[i] = Expr::constant((*declared)[i]);
        else if (ctor && ctor->getNumArgs() == 5) dims[i] = value(ctor->getArg(i));
        else return;
      }
      dims_[vd] = dims;
      return;
    }
  }

  // `GlobalTensor<T, S, St> g(p, shape, stride)` with run-time dimensions: the bytes from its
  // first element to its last, (sum of (dim - 1) * stride + 1) * sizeof(T).
  void recordGmSpan(const VarDecl* vd, const clang::Expr* init) {
    gmSpans_.erase(vd);
    const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(vd->getType()->getAsCXXRecordDecl());
    const auto* ctor = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    if (!spec || spec->getName() != "GlobalTensor" || !ctor || ctor->getNumArgs() < 3) return;
    const TemplateArgumentList& args = spec->getTemplateArgs();
    if (args.size() < 3 || args[0].getKind() != TemplateArgument::Type) return;
    QualType elem = args[0].getAsType();
    if (elem->isIncompleteType() || elem->isDependentType()) return;
    auto dimsOf = [&](const clang::Expr* e) -> const std::array<ExprPtr, 5>* {
      const ValueDecl* d = declOf(e->IgnoreImplicit());
      auto it = d ? dims_.find(d) : dims_.end();
      return it == dims_.end() ? nullptr : &it->second;
    };
    const auto* shape = dimsOf(ctor->getArg(1));
    const auto* stride = dimsOf(ctor->getArg(2));
    if (!shape || !stride) return;
    ExprPtr last = Expr::constant(0);
    for (int i = 0; i < 5; ++i)
      last = Expr::binary(Expr::Kind::Add, last,
                          Expr::binary(Expr::Kind::Mul, Expr::binary(Expr::Kind::Sub, (*shape)[i], Expr::constant(1)),
                                       (*stride)[i]));
    int64_t size = ctx_.getTypeSizeInChars(elem).getQuantity();
    gmSpans_[vd] =
        Expr::binary(Expr::Kind::Mul, Expr::binary(Expr::Kind::Add, last, Expr::constant(1)), Expr::constant(size));
  }

  // The integer fields of a local aggregate from its initialiser: a braced list or what a helper
  // returns. A field no initialiser settles is left unknown.
  void recordFields(const VarDecl* vd, const RecordDecl& record, const clang::Expr* init) {
    const clang::Expr* e = init->IgnoreImplicit();
    if (const auto* copy = dyn_cast<CXXConstructExpr>(e); copy && copy->getNumArgs() == 1)
      e = copy->getArg(0)->IgnoreImplicit();
    const auto* call = dyn_cast<CallExpr>(e);
    for (const FieldDecl* f : record.fields()) {
      fields_.erase({vd, f});
      if (!f->getType()->isIntegralOrEnumerationType()) continue;
      if (ExprPtr v = call ? fieldOfCall(call, f) : fieldOfAggregate(e, f)) fields_[{vd, f}] = v;
    }
  }

  void translateFor(const ForStmt* fs, Stmt& seq) {
    const VarDecl* var = nullptr;
    const clang::Expr* init = nullptr;
    if (const auto* ds = dyn_cast_or_null<DeclStmt>(fs->getInit())) {
      if (ds->isSingleDecl())
        if ((var = dyn_cast<VarDecl>(ds->getSingleDecl()))) init = var->getInit();
    } else if (const auto* bo = dyn_cast_or_null<BinaryOperator>(fs->getInit())) {
      if (bo->getOpcode() == BO_Assign)
        if (const auto* vd = dyn_cast_or_null<VarDecl>(declOf(bo->getLHS()))) var = vd, init = bo->getRHS();
    }
    ExprPtr bound, step;
    if (var && init) {
      const clang::Expr* c = fs->getCond() ? fs->getCond()->IgnoreParenImpCasts() : nullptr;
      if (const auto* cond = dyn_cast_or_null<BinaryOperator>(c))
        if (declOf(cond->getLHS()) == var) {
          if (cond->getOpcode() == BO_LT || cond->getOpcode() == BO_NE) bound = value(cond->getRHS());
          if (cond->getOpcode() == BO_LE)
            bound = Expr::binary(Expr::Kind::Add, value(cond->getRHS()), Expr::constant(1));
        }
      const clang::Expr* inc = fs->getInc() ? fs->getInc()->IgnoreParenImpCasts() : nullptr;
      if (const auto* uo = dyn_cast_or_null<UnaryOperator>(inc)) {
        if (uo->isIncrementOp() && declOf(uo->getSubExpr()) == var) step = Expr::constant(1);
      } else if (const auto* ca = dyn_cast_or_null<CompoundAssignOperator>(inc)) {
        if (ca->getOpcode() == BO_AddAssign && declOf(ca->getLHS()) == var) step = value(ca->getRHS());
      } else if (const auto* as = dyn_cast_or_null<BinaryOperator>(inc)) {
        if (as->getOpcode() == BO_Assign && declOf(as->getLHS()) == var)
          if (const auto* add = dyn_cast<BinaryOperator>(as->getRHS()->IgnoreParenImpCasts()))
            if (add->getOpcode() == BO_Add && declOf(add->getLHS()) == var) step = value(add->getRHS());
      }
    }
    if (!bound || !step) {
      if (fs->getInit()) translateStmt(fs->getInit(), seq);
      return translateWhile(fs->getCond(), fs->getBody(), fs->getBeginLoc(), seq);
    }
    translateCalls(init, seq);
    auto loop = std::make_unique<Stmt>();
    loop->kind = Stmt::Kind::For;
    loop->loc = loc(fs->getBeginLoc());
    loop->var = uniqueName(var->getNameAsString());
    loop->lb = value(init);
    loop->ub = bound;
    loop->step = step;
    // A walk over an address (`line = first` with `first` holding a pointer) is no lane loop,
    // whatever lane the pointer was offset by.
    if (mentionsLane(loop->lb) && !originOf(init).known()) {
      bool logical = mentionsLane(loop->lb, "logical");
      facts_.gridLoops.push_back(GridStrideLoop{loop->loc, loop->lb, loop->ub, loop->step, logical, barriersEmitted_});
    }
    values_[var] = Expr::loopVar(loop->var);
    // `for (line = first; line < end; line += 64)` over an address: each iteration is in the
    // buffer `first` points into.
    if (const auto* cond = dyn_cast_or_null<BinaryOperator>(fs->getCond() ? fs->getCond()->IgnoreParenImpCasts() : nullptr))
      loop->atLeastOnce = cond->getOpcode() == BO_LT && provablyNonEmpty(init, cond->getRHS());
    Origin walked = originOf(init);
    lineWalks_.erase(var);  // a helper inlined again walks anew
    if (walked.known()) {
      walked.offset = nullptr;
      walked.bytes = nullptr;
      origins_[var] = walked;
      recordLineWalk(var, init, fs->getCond(), step, loop->var);
    }
    loop->children.push_back(Stmt::seq());
    ++depth_;
    ++unmergedDepth_;
    ExprPtr iteration = values_[var];  // (var - lb) / step, spelled as simply as it can be
    if (evalConst(loop->lb) != std::optional<int64_t>(0)) iteration = Expr::binary(Expr::Kind::Sub, iteration, loop->lb);
    if (evalConst(step) != std::optional<int64_t>(1)) iteration = Expr::binary(Expr::Kind::Div, iteration, step);
    std::vector<CarriedFlag> flags;
    auto carried = enterLoopBody(fs->getBody(), var, runsToItsEnd(fs->getBody()) ? &flags : nullptr);
    const int fallThroughs = fallThroughs_;
    translateStmt(fs->getBody(), *loop->children[0]);
    --unmergedDepth_;
    --depth_;
    auto after = closeFlags(flags, *loop, iteration, fallThroughs == fallThroughs_);
    leaveLoopBody(carried, fs);
    for (const auto& [d, v] : after) values_[d] = v;
    values_[var] = Expr::unknown(var->getNameAsString() + " after the loop");
    seq.children.push_back(std::move(loop));
  }

  // `for (line = first; line < end; line += s)` with `first` an address aligned down to a
  // multiple of 64 (at most X + a) and `end` at least X + b: each iteration's single-line dcci
  // holds the line at `line`, and with s dividing 64 those lines hold all of [X + a, X + b).
  void recordLineWalk(const VarDecl* var, const clang::Expr* init, const clang::Expr* condition, const ExprPtr& step,
                      const std::string& loopVar) {
    const auto* cond = dyn_cast_or_null<BinaryOperator>(condition ? condition->IgnoreParenImpCasts() : nullptr);
    auto s = evalConst(step);
    if (!cond || cond->getOpcode() != BO_LT || declOf(cond->getLHS()) != var || !s || *s <= 0 || kCacheLineBytes % *s)
      return;
    auto lo = addrBound(init), hi = addrBound(cond->getRHS());
    if (!lo || !hi || lo->base != hi->base || hi->rel == AddrBound::Rel::AtMost || hi->c <= lo->c) return;
    if (lo->rel != AddrBound::Rel::AtMost || lo->aligned <= 0 || lo->aligned % kCacheLineBytes) return;
    auto x = origins_.find(lo->base);
    if (x == origins_.end() || !x->second.bytes) return;
    const ExprPtr& at = x->second.bytes;
    lineWalks_[var] = {Expr::binary(Expr::Kind::Add, at, Expr::constant(lo->c)),
                       Expr::binary(Expr::Kind::Add, at, Expr::constant(hi->c)), loopVar};
  }

  // A loop body reads, at the top of each iteration, what the iterations before it left: a
  // variable it changes does not hold its value from before the loop. With `flags` (a counted
  // loop whose body runs to its end), a variable holding 0 or 1 is a CarriedFlag: its marker in
  // the body, followed in order, and closeFlags decides its value per iteration. Any other changed
  // integer is unknown in the body, and a changed pointer keeps its buffer but not its offset.
  std::vector<const ValueDecl*> enterLoopBody(const clang::Stmt* body, const ValueDecl* counter,
                                              std::vector<CarriedFlag>* flags) {
    ChangedVars scan;
    scan.TraverseStmt(const_cast<clang::Stmt*>(body));
    if (changesStatics({body})) havocStatics();  // which iteration reads which count is not followed
    std::vector<const ValueDecl*> out;
    for (const auto& [d, by] : scan.changed) {
      if (d == counter || (!values_.count(d) && !origins_.count(d))) continue;  // declared in the body
      out.push_back(d);
      if (auto o = origins_.find(d); o != origins_.end()) o->second.offset = o->second.bytes = nullptr;
      if (!values_.count(d)) continue;
      if (flags && isBinary(values_[d])) {
        std::optional<int> outer;
        if (auto f = flagDepth_.find(d); f != flagDepth_.end()) outer = f->second;
        // Its own leaf (not opaque()'s, which a nested loop changing it by the same statement shares).
        ExprPtr marker = Expr::unknown(
            uniqueName(d->getNameAsString() + " in the loop at line " + std::to_string(loc(body->getBeginLoc()).line)));
        flags->push_back({d, marker, values_[d], outer});
        binary_[marker.get()] = marker;
        values_[d] = marker;
        flagDepth_[d] = unmergedDepth_;
      } else {
        values_[d] = opaque(by.front() ? static_cast<const void*>(by.front()) : static_cast<const void*>(d),
                            d->getNameAsString() + " in the loop at line " + std::to_string(loc(body->getBeginLoc()).line));
      }
    }
    return out;
  }

  // The flags of a loop whose body was translated with each at its marker: where its value at the
  // end of the body is "flipped when C" (C over the loop counter), the marker becomes its value
  // at the top of each iteration, (before + iterations so far where C held) % 2, in the loop's
  // statements; the returned values are theirs after the loop. A flag without that form keeps
  // its marker, a value not known, as any other variable the loop changes. `straight`: no
  // return in the body was modelled as falling through (the flips of such a body are not known).
  std::vector<std::pair<const ValueDecl*, ExprPtr>> closeFlags(const std::vector<CarriedFlag>& flags, Stmt& loop,
                                                               const ExprPtr& iteration, bool straight) {
    std::vector<std::pair<const ValueDecl*, ExprPtr>> after;
    for (const CarriedFlag& f : flags) {
      if (f.outerDepth) flagDepth_[f.var] = *f.outerDepth;
      else flagDepth_.erase(f.var);
    }
    if (!straight) return after;
    using K = Expr::Kind;
    const ExprPtr counter = Expr::loopVar(loop.var);
    // After the loop a flag has its value at the top of the iteration that does not run.
    ExprPtr trips = Expr::binary(K::Div, Expr::binary(K::Add, Expr::binary(K::Sub, loop.ub, loop.lb),
                                                      Expr::binary(K::Sub, loop.step, Expr::constant(1))),
                                 loop.step);
    ExprPtr end = Expr::select(Expr::cmp("slt", loop.lb, loop.ub),
                               Expr::binary(K::Add, loop.lb, Expr::binary(K::Mul, trips, loop.step)), loop.lb);
    for (const CarriedFlag& f : flags) {
      auto when = flipCondition(values_[f.var], f.marker.get());
      if (!when) continue;
      int period = 2;
      auto flips = iterationsWhere(*when, counter, iteration, loop, period);
      if (!flips || std::lcm(loop.period, period) > kMaxPeriod) continue;
      loop.period = std::lcm(loop.period, period);
      ExprPtr top = binaryValue(Expr::binary(K::Rem, Expr::binary(K::Add, f.before, *flips), Expr::constant(2)));
      substituteLeaves(*loop.children[0], [&](const Expr& leaf) { return &leaf == f.marker.get() ? top : nullptr; });
      after.emplace_back(f.var, binaryValue(substitute(top, [&](const Expr& leaf) {
                           return leaf.kind == K::LoopVar && leaf.name == loop.var ? end : nullptr;
                         })));
    }
    return after;
  }

  ExprPtr binaryValue(const ExprPtr& v) {
    binary_[v.get()] = v;
    return v;
  }

  // How many iterations before the current one `when` held, as an expression of the loop
  // counter: the iteration itself when it always holds; for `(counter + a) % c == r` (a constant
  // start, step 1), the multiples passed, and the flag's values then repeat every 2c iterations
  // (`period`, at most kMaxPeriod).
  static std::optional<ExprPtr> iterationsWhere(const ExprPtr& when, const ExprPtr& counter, const ExprPtr& iteration,
                                                const Stmt& loop, int& period) {
    using K = Expr::Kind;
    if (auto c = evalConst(when)) return *c ? iteration : Expr::constant(0);
    auto lb = evalConst(loop.lb), step = evalConst(loop.step);
    if (!lb || step != std::optional<int64_t>(1)) return std::nullopt;
    if (when->kind != K::Cmp || when->pred != "eq") return std::nullopt;
    const ExprPtr* rem = &when->args[0];
    auto r = evalConst(when->args[1]);
    if (!r) rem = &when->args[1], r = evalConst(when->args[0]);
    if (!r || (*rem)->kind != K::Rem) return std::nullopt;
    auto c = evalConst((*rem)->args[1]);
    const ExprPtr& shifted = (*rem)->args[0];
    std::optional<int64_t> a;
    if (shifted->kind == K::LoopVar && shifted->name == counter->name) a = 0;
    else if (shifted->kind == K::Add && shifted->args[0]->kind == K::LoopVar && shifted->args[0]->name == counter->name)
      a = evalConst(shifted->args[1]);
    if (!c || *c <= 0 || 2 * *c > kMaxPeriod || !a || *r < 0 || *r >= *c || *lb + *a < 0) return std::nullopt;
    // Values x in [0, n) with x % c == r: (n + c - 1 - r) / c; here x runs over [lb + a, counter + a).
    auto below = [&](const ExprPtr& n) {
      return Expr::binary(K::Div, Expr::binary(K::Add, n, Expr::constant(*c - 1 - *r)), Expr::constant(*c));
    };
    period = static_cast<int>(2 * *c);
    return Expr::binary(K::Sub, below(Expr::binary(K::Add, counter, Expr::constant(*a))),
                        below(Expr::constant(*lb + *a)));
  }

  // `next` (a flag's value at the end of an iteration whose top had `marker`) as the condition
  // under which it is the flipped marker, where elsewhere it is the marker itself.
  static std::optional<ExprPtr> flipCondition(const ExprPtr& next, const Expr* marker) {
    auto at = [&](int64_t v) {
      return evalConst(substitute(next, [&](const Expr& leaf) { return &leaf == marker ? Expr::constant(v) : nullptr; }));
    };
    auto from0 = at(0), from1 = at(1);
    if (from0 == std::optional<int64_t>(1) && from1 == std::optional<int64_t>(0)) return Expr::constant(1);
    if (from0 == std::optional<int64_t>(0) && from1 == std::optional<int64_t>(1)) return Expr::constant(0);
    if (next->kind != Expr::Kind::Select || mentions(next->args[0], marker)) return std::nullopt;
    auto then = flipCondition(next->args[1], marker), otherwise = flipCondition(next->args[2], marker);
    if (!then || !otherwise) return std::nullopt;
    const ExprPtr& c = next->args[0];
    return exprOr(exprAnd(c, *then), exprAnd(exprNot(c), *otherwise));
  }

  static bool mentions(const ExprPtr& e, const Expr* leaf) {
    bool found = false;
    substitute(e, [&](const Expr& l) -> ExprPtr {
      found |= &l == leaf;
      return nullptr;
    });
    return found;
  }

  // Does an iteration of `body` end only at its end: no continue, goto or break (but a switch
  // case's)? Only then is a flag's value at the end the next iteration's.
  static bool runsToItsEnd(const clang::Stmt* body) {
    struct Exits : RecursiveASTVisitor<Exits> {
      int switches = 0;
      bool found = false;
      bool TraverseSwitchStmt(SwitchStmt* s) {
        ++switches;
        bool r = RecursiveASTVisitor::TraverseSwitchStmt(s);
        --switches;
        return r;
      }
      bool TraverseLambdaExpr(LambdaExpr*) { return true; }
      bool VisitContinueStmt(ContinueStmt*) { return !(found = true); }
      bool VisitGotoStmt(GotoStmt*) { return !(found = true); }
      bool VisitBreakStmt(BreakStmt*) {
        found |= switches == 0;
        return !found;
      }
    } exits;
    exits.TraverseStmt(const_cast<clang::Stmt*>(body));
    return !exits.found;
  }

  void leaveLoopBody(const std::vector<const ValueDecl*>& carried, const clang::Stmt* loop) {
    for (const ValueDecl* d : carried) {
      if (values_.count(d)) values_[d] = opaque(loop, d->getNameAsString() + " after the loop");
      if (auto o = origins_.find(d); o != origins_.end()) o->second.offset = o->second.bytes = nullptr;
    }
  }

  static bool mentionsLane(const ExprPtr& e, const std::string& which = "") {
    if (!e) return false;
    if (e->kind == Expr::Kind::BlockIdx) return which.empty() || e->name == which;
    for (const auto& a : e->args)
      if (mentionsLane(a, which)) return true;
    return false;
  }

  void translateWhile(const clang::Expr* cond, const clang::Stmt* body, SourceLocation l, Stmt& seq) {
    auto w = std::make_unique<Stmt>();
    w->kind = Stmt::Kind::While;
    w->loc = loc(l);
    w->children.push_back(Stmt::seq());
    w->children.push_back(Stmt::seq());
    ++depth_;
    ++unmergedDepth_;
    auto carried = enterLoopBody(body, nullptr, nullptr);
    if (cond) translateCalls(cond, *w->children[0]);
    w->cond = cond ? value(cond) : Expr::unknown("loop condition");
    translateStmt(body, *w->children[1]);
    --unmergedDepth_;
    --depth_;
    leaveLoopBody(carried, body);
    seq.children.push_back(std::move(w));
  }

  // What an if's arms may assign, kept per arm and merged after it: each variable holds
  // `cond ? then : else`. A pointer the arms leave in different places keeps its buffer from
  // before the if but not its offset; a field of an aggregate stays known only if both agree.
  struct Bindings {
    std::map<const ValueDecl*, ExprPtr> values;
    std::map<const ValueDecl*, Origin> origins;
    std::map<std::pair<const ValueDecl*, const FieldDecl*>, ExprPtr> fields;
    std::map<const VarDecl*, ExprPtr> statics;
  };
  Bindings bindings() const { return {values_, origins_, fields_, statics_}; }
  void restore(const Bindings& b) {
    values_ = b.values;
    origins_ = b.origins;
    fields_ = b.fields;
    statics_ = b.statics;
  }
  static bool sameOrigin(const Origin& a, const Origin& b) {
    return a.ref.space == b.ref.space && a.ref.value == b.ref.value && a.ref.param == b.ref.param &&
           a.ref.view == b.ref.view && a.offset == b.offset && a.bytes == b.bytes;
  }
  void mergeArms(const ExprPtr& cond, const Bindings& before, const Bindings& afterThen) {
    for (const auto& [d, v] : afterThen.values) {
      auto e = values_.find(d);
      if (e == values_.end()) values_[d] = v;
      else if (e->second != v)
        e->second = v && e->second ? Expr::select(cond, v, e->second)
                                   : Expr::unknown(uniqueName(d->getNameAsString() + " after a branch"));
    }
    for (const auto& [d, o] : afterThen.origins) {
      auto e = origins_.find(d);
      if (e != origins_.end() && sameOrigin(e->second, o)) continue;
      auto old = before.origins.find(d);
      Origin kept = old != before.origins.end() ? old->second : o;
      kept.offset = kept.bytes = nullptr;
      origins_[d] = kept;
    }
    for (auto f = fields_.begin(); f != fields_.end();) {
      auto t = afterThen.fields.find(f->first);
      f = t != afterThen.fields.end() && t->second == f->second ? std::next(f) : fields_.erase(f);
    }
    for (const auto& [vd, v] : afterThen.statics) {
      ExprPtr otherwise = staticValue(vd);  // first reached in the then-arm: its initialiser
      if (otherwise != v) statics_[vd] = Expr::select(cond, v, otherwise);
    }
  }

  void translateIf(const IfStmt* is, Stmt& seq) {
    if (auto c = constantCondition(is)) {
      // Only the arm that runs; the other is dead code. No nesting: a return in the taken arm
      // leaves the function on every path.
      if (*c) translateStmt(is->getThen(), seq);
      else if (is->getElse()) translateStmt(is->getElse(), seq);
      return;
    }
    if (is->getInit()) translateStmt(is->getInit(), seq);
    if (is->getConditionVariableDeclStmt()) translateStmt(is->getConditionVariableDeclStmt(), seq);
    translateCalls(is->getCond(), seq);
    ExprPtr cond = value(is->getCond());
    StmtPtr ifs = newIf(is->getBeginLoc(), cond);
    ++depth_;
    Bindings before = bindings();
    translateStmt(is->getThen(), *ifs->children[0]);
    Bindings afterThen = bindings();
    restore(before);
    translateStmt(is->getElse(), *ifs->children[1]);
    mergeArms(cond, before, afterThen);
    --depth_;
    if (ifs->children[0]->children.empty() && ifs->children[1]->children.empty()) return;  // nothing modelled
    seq.children.push_back(std::move(ifs));
  }

  // switch -> if (v == c1) {...} else if (v == c2) {...} else {default}. Each case runs to its
  // break; fall-through between non-empty cases is not modelled.
  void translateSwitch(const SwitchStmt* sw, Stmt& seq) {
    translateCalls(sw->getCond(), seq);
    ExprPtr v = value(sw->getCond());
    auto cases = caseGroups(*sw);
    if (!cases) return translateStmt(sw->getBody(), seq);
    // A constant selector (a default argument, a template argument): only its case runs.
    if (auto selected = evalConst(v)) {
      if (const CaseGroup* taken = caseSelected(*cases, *selected, ctx_)) {
        ++depth_;  // a break ends the case, not the function: returns inside stay conditional
        for (const clang::Stmt* st : taken->stmts) translateStmt(st, seq);
        --depth_;
      }
      return;
    }
    Stmt* tail = &seq;
    for (const auto& c : *cases) {
      Stmt* target = tail;
      if (!c.isDefault) {
        ExprPtr cond;
        for (const clang::Expr* label : c.values)
          cond = cond ? exprOr(cond, exprEq(v, value(label))) : exprEq(v, value(label));
        StmtPtr ifs = newIf(sw->getBeginLoc(), cond);
        Stmt* then = ifs->children[0].get();
        Stmt* otherwise = ifs->children[1].get();
        tail->children.push_back(std::move(ifs));
        target = then;
        tail = otherwise;
      }
      ++depth_;
      ++unmergedDepth_;
      for (const clang::Stmt* s : c.stmts) translateStmt(s, *target);
      --unmergedDepth_;
      --depth_;
    }
  }

  // A GM write that a pipe other than S performs (TSTORE on MTE3/FIX, tput, collectives): it is
  // still in flight until a pipe_barrier(PIPE_ALL) drains it. Scalar stores complete in order
  // on S, so a dsb after them needs no drain.
  static bool pipeWritesGm(const Op& op) {
    return (op.writesGm() || op.kind == OpKind::Put || op.kind == OpKind::Collective) && op.kind != OpKind::ScalarStore;
  }

  // A dsb is a GM fence (scope "gm") when no pipe GM write can be in flight at it: a PIPE_ALL
  // drain came after the last one on every path (loops: from any iteration). `pipe_barrier(
  // PIPE_ALL); dsb(DSB_DDR);` is what PTOAS emits for fence.barrier_all, the DeepSeek-V4 MoE
  // fusion write-up's publish is drain, CACHELINE_OUT of the lines, dsb, and a scalar-only writer publishes with
  // CACHELINE_OUT then dsb. Returns whether a write is in flight after `s`.
  static bool markGmFences(Stmt& s, bool inFlight = false) {
    switch (s.kind) {
      case Stmt::Kind::OpStmt: {
        Op& op = s.op;
        if (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) return false;
        if (op.kind == OpKind::Fence && op.fenceScope == FenceScope::Dsb && !inFlight) op.fenceScope = FenceScope::GM;
        return inFlight || pipeWritesGm(op);
      }
      case Stmt::Kind::For:
      case Stmt::Kind::While: {
        bool bodyWrites = false;
        forEachOp(s, [&](const Op& op) { bodyWrites |= pipeWritesGm(op); });
        bool atHead = inFlight || bodyWrites;  // a later iteration sees the body's own writes
        bool after = atHead;
        for (auto& c : s.children)
          if (c) after = markGmFences(*c, after);
        return inFlight || after;
      }
      case Stmt::Kind::If: {
        bool out = inFlight;
        for (auto& c : s.children)
          if (c) out |= markGmFences(*c, inFlight);
        return out;
      }
      default:
        for (auto& c : s.children)
          if (c) inFlight = markGmFences(*c, inFlight);
        return inFlight;
    }
  }
};

class CallScanner : public RecursiveASTVisitor<CallScanner> {
 public:
  bool found = false;
  bool VisitCallExpr(CallExpr* call) {
    found |= instrOf(call->getDirectCallee()) != nullptr;
    if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts()))
      found |= instrOfLookup(*ul) != nullptr;
    return !found;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr* sub) {
    if (const auto* dr = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenCasts()))
      found |= dr->getDecl()->getNameAsString() == "args";
    return !found;
  }
};

}  // namespace

bool callsModelledOp(const FunctionDecl& fn) {
  if (!fn.hasBody()) return false;
  CallScanner s;
  s.TraverseStmt(fn.getBody());
  return s.found;
}

TranslateResult translateKernel(ASTContext& ctx, const FunctionDecl& root, const std::string& arch,
                                const std::set<std::string>& testedMacros, CoreView view) {
  TranslateResult r;
  Kernel& k = r.kernel;
  k.name = root.getNameAsString();
  if (root.isTemplateInstantiation()) {  // each instantiation an entry is launched with
    std::string full;
    llvm::raw_string_ostream os(full);
    root.getNameForDiagnostic(os, ctx.getPrintingPolicy(), false);
    k.name = os.str();
  }
  k.arch = arch;
  k.frontEnd = FrontEnd::Cpp;
  k.loc = locOf(ctx, root.getLocation());
  k.file = k.loc.file;
  k.isEntry = true;
  auto facts = std::make_shared<CppFacts>();
  facts->mixed = testedMacros.count("__DAV_CUBE__") || testedMacros.count("__DAV_C220_CUBE__");
  k.view = view;
  k.kind = facts->mixed ? KernelKind::Mix : view == CoreView::Aic ? KernelKind::Cube : KernelKind::Vector;
  Translator t(ctx, root, k, *facts, r.notes);
  t.run();
  r.reached = t.reached();
  r.recoveredLines = t.recoveredLines();
  r.reached.insert(patternOf(&root));
  k.cpp = facts;
  return r;
}

}  // namespace ptov::cpp
