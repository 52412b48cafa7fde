#include "analyzer/cpp/translate.h"

#include "analyzer/model/isa_table.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <type_traits>

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
  // The prelude's own headers (ptoverify_prelude.h, ptoverify_ascendc.h) are not the user's.
  return file.find("ptoverify_prelude.h") == std::string::npos && file.find("ptoverify_ascendc.h") == std::string::npos &&
         file.rfind(kMissingHeaderDir, 0) != 0 &&
         file.find("/prelude/stubinc/") == std::string::npos && file.find("/prelude/vendor/") == std::string::npos;
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

const ptoisa::Instr* instrOf(const FunctionDecl* fd) {
  if (!fd) return nullptr;
  if (inUserCode(fd->getASTContext().getSourceManager(), fd->getLocation())) return nullptr;
  return ptoisa::lookupCpp(fd->getQualifiedNameAsString());
}

const ptoisa::Instr* instrOfLookup(const OverloadExpr& lookup) {
  for (const NamedDecl* d : lookup.decls())
    if (const ptoisa::Instr* in = instrOf(d->getAsFunction())) return in;
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

// The enumerator an argument names (PIPE_MTE2, EVENT_ID0, CACHELINE_OUT, ...), "" if none.
std::string enumeratorName(const clang::Expr* e) {
  if (!e) return "";
  e = e->IgnoreParenCasts();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e))
    if (const auto* ec = dyn_cast<EnumConstantDecl>(dr->getDecl())) return ec->getNameAsString();
  return "";
}

struct TileInfo {
  std::string space = "ub";
  int64_t bytes = 0;
  int64_t rows = 0, cols = 0, elemBytes = 0;
  std::optional<int64_t> addr;  // the constant address of its last TASSIGN
};

// The name of a class (template) type: "Tile" for Tile<...>, also when it is still dependent.
std::string classNameOf(QualType t) {
  t = t.getNonReferenceType().getUnqualifiedType();
  if (const auto* rt = t->getAs<RecordType>()) return rt->getDecl()->getNameAsString();
  if (const auto* spec = t->getAs<TemplateSpecializationType>())
    if (const auto* td = spec->getTemplateName().getAsTemplateDecl()) return td->getNameAsString();
  return "";
}

bool isGlobalTensorType(QualType t) { return classNameOf(t) == "GlobalTensor"; }

// Tile<TileType::Vec, float, R, C, ...>: its space and size from the template arguments.
std::optional<TileInfo> tileInfoOf(QualType t) {
  if (classNameOf(t) != "Tile") return std::nullopt;
  TileInfo info;
  const ClassTemplateSpecializationDecl* decl = nullptr;
  if (const auto* rt = t.getNonReferenceType()->getAs<RecordType>())
    decl = dyn_cast<ClassTemplateSpecializationDecl>(rt->getDecl());
  if (!decl) return info;
  const TemplateArgumentList& args = decl->getTemplateArgs();
  if (args.size() < 4) return info;
  static const char* spaces[] = {"ub", "l1", "l0a", "l0b", "l0c", "bias", "fb", "l0a", "l0b"};
  if (args[0].getKind() == TemplateArgument::Integral) {
    int64_t v = args[0].getAsIntegral().getExtValue();
    if (v >= 0 && v < 9) info.space = spaces[v];
  }
  int64_t elem = 0;
  if (args[1].getKind() == TemplateArgument::Type) {
    QualType et = args[1].getAsType();
    std::string en = et.getAsString();
    if (en.find("half") != std::string::npos || en.find("bfloat16") != std::string::npos) elem = 2;
    else if (!et->isIncompleteType() && !et->isDependentType())
      elem = static_cast<int64_t>(decl->getASTContext().getTypeSizeInChars(et).getQuantity());
  }
  if (args[2].getKind() == TemplateArgument::Integral && args[3].getKind() == TemplateArgument::Integral) {
    info.rows = args[2].getAsIntegral().getExtValue();
    info.cols = args[3].getAsIntegral().getExtValue();
    info.elemBytes = elem;
    info.bytes = elem * info.rows * info.cols;
  }
  return info;
}

// Where a pointer / tensor value points: a kernel parameter, args[i], or a named local.
struct Origin {
  MemRef ref;
  ExprPtr offset;  // elements from the base, when known
  bool known() const { return ref.valid(); }
};

// An integer that holds an address, relative to the address X a declaration holds: exactly
// X + c, at most X + c (aligned down), or at least X + c (aligned up). Enough to prove that a
// walk over the cache lines of a non-empty range runs at least once.
struct AddrBound {
  enum class Rel { Exact, AtMost, AtLeast } rel = Rel::Exact;
  const ValueDecl* base = nullptr;
  int64_t c = 0;
};

class Translator {
 public:
  Translator(ASTContext& ctx, const FunctionDecl& root, Kernel& k, CppFacts& facts,
             std::vector<InputDiagnostic>& notes)
      : ctx_(ctx), root_(root), k_(k), facts_(facts), notes_(notes) {}

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
  ASTContext& ctx_;
  const FunctionDecl& root_;
  Kernel& k_;
  CppFacts& facts_;
  std::vector<InputDiagnostic>& notes_;
  const ParmVarDecl* argsParam_ = nullptr;
  std::set<const ValueDecl*> argsAliases_;
  std::map<const ValueDecl*, ExprPtr> values_;       // integer values of variables
  std::map<const ValueDecl*, Origin> origins_;       // pointers, tensors, tiles
  std::map<const ValueDecl*, TileInfo> tiles_;       // Tile variables
  std::map<const ValueDecl*, AddrBound> addrBounds_;  // integers holding an address
  std::map<const ValueDecl*, ForwardedArg> provenance_;  // where a wrapper's locals come from
  std::set<const FunctionDecl*> stack_;              // functions being inlined (no recursion)
  std::vector<const FunctionDecl*> bodies_{&root_};   // the function each statement is in
  std::vector<SourceLoc> callSites_;                  // the calls being inlined, innermost last
  struct Placement {  // a TASSIGN at a constant UB address
    std::string body;
    const ValueDecl* tile;
    int64_t end;
    SourceLoc loc;
  };
  std::vector<Placement> placements_;
  std::set<const ValueDecl*> scratchTiles_;  // tiles used as a soft barrier's UB scratch
  int depth_ = 0;        // control nesting (loops / branches) in the root
  int inlineDepth_ = 0;  // 0 in the root
  std::vector<int> inlineBaseDepth_{0};  // depth_ where each inlined body starts
  std::map<std::string, int> names_;  // how often a local name was declared (inlined copies)
  const VarDecl* initializing_ = nullptr;  // the wrapper variable whose initialiser is translated
  bool leftFunction_ = false;  // a return on every path was translated: the rest is dead

  SourceLoc loc(SourceLocation l) { return locOf(ctx_, l); }

  // How deep `root` nests, memoized and computed without recursion: 20,000 chained `+`
  // overflowed the stack of every recursive walk over it (Clang's parser builds such chains
  // in a loop, so nothing before this front end stops them).
  std::map<const clang::Stmt*, int> astDepth_;
  int astDepth(const clang::Stmt* root) {
    if (auto it = astDepth_.find(root); it != astDepth_.end()) return it->second;
    std::vector<std::pair<const clang::Stmt*, bool>> todo{{root, false}};  // (node, children pushed)
    while (!todo.empty()) {
      auto [n, expanded] = todo.back();
      if (astDepth_.count(n)) {
        todo.pop_back();
        continue;
      }
      if (!expanded) {
        todo.back().second = true;
        for (const clang::Stmt* c : n->children())
          if (c && !astDepth_.count(c)) todo.emplace_back(c, false);
        continue;
      }
      todo.pop_back();
      int d = 0;
      for (const clang::Stmt* c : n->children())
        if (c) d = std::max(d, astDepth_[c]);
      astDepth_[n] = d + 1;
    }
    return astDepth_[root];
  }
  // A statement or expression deeper than kMaxAstDepth is not walked: a gap (once per place).
  static constexpr int kMaxAstDepth = 1000;
  std::set<const clang::Stmt*> tooDeepReported_;
  bool tooDeep(const clang::Stmt* s) {
    if (astDepth(s) <= kMaxAstDepth) return false;
    if (tooDeepReported_.insert(s).second)
      gap(ModelGap::Kind::SkippedCode, s->getBeginLoc(),
          std::string(isa<clang::Expr>(s) ? "an expression" : "a statement") + " nested more than " +
              std::to_string(kMaxAstDepth) + " deep");
    return true;
  }

  // A local's name, made unique when an inlined function declares it again ("i", "i#2").
  std::string uniqueName(const std::string& n) {
    int count = ++names_[n];
    return count == 1 ? n : n + "#" + std::to_string(count);
  }
  // An opaque value (a call the model cannot see into, a variable of unknown value): one symbol
  // per evaluation, keyed by the AST node or declaration and the inlined instance it is in, never
  // by its spelling. The spelling is for messages.
  std::map<std::pair<const void*, int>, ExprPtr> opaque_;
  int instance_ = 0, instances_ = 0;
  ExprPtr opaque(const void* key, const std::string& shown) {
    auto [it, fresh] = opaque_.try_emplace({key, instance_});
    if (fresh) it->second = Expr::unknown(uniqueName(shown));
    return it->second;
  }
  std::string text(const clang::Expr* e) {
    std::string s = sourceText(ctx_, e->getSourceRange());
    return s.empty() ? "<expr>" : s;
  }
  void note(SourceLocation l, const std::string& msg) {
    notes_.push_back({InputDiagnostic::Level::Note, loc(l), msg});
  }

  // ---- expressions --------------------------------------------------------------------------

  std::optional<int64_t> constant(const clang::Expr* e) { return evalInt(ctx_, e); }

  const ValueDecl* declOf(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dr->getDecl();
    return nullptr;
  }

  ExprPtr value(const clang::Expr* e) {
    if (!e) return Expr::unknown("?");
    if (tooDeep(e)) return Expr::unknown("a deep expression");
    if (auto c = constant(e)) return Expr::constant(*c);
    e = e->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      auto it = values_.find(dr->getDecl());
      if (it != values_.end()) return it->second;
      return opaque(dr->getDecl(), dr->getDecl()->getNameAsString());
    }
    if (const auto* sub = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return value(sub->getReplacement());
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      ExprPtr a = value(bo->getLHS()), b = value(bo->getRHS());
      using K = Expr::Kind;
      switch (bo->getOpcode()) {
        case BO_Add: return Expr::binary(K::Add, a, b);
        case BO_Sub: return Expr::binary(K::Sub, a, b);
        case BO_Mul: return Expr::binary(K::Mul, a, b);
        case BO_Div: return Expr::binary(K::Div, a, b);
        case BO_Rem: return Expr::binary(K::Rem, a, b);
        case BO_LT: return Expr::cmp("slt", a, b);
        case BO_LE: return Expr::cmp("sle", a, b);
        case BO_GT: return Expr::cmp("sgt", a, b);
        case BO_GE: return Expr::cmp("sge", a, b);
        case BO_EQ: return Expr::cmp("eq", a, b);
        case BO_NE: return Expr::cmp("ne", a, b);
        case BO_LAnd: return exprAnd(a, b);
        case BO_LOr: return exprOr(a, b);
        default: break;
      }
    }
    if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->getOpcode() == UO_LNot) return exprNot(value(uo->getSubExpr()));
      if (uo->getOpcode() == UO_Minus) return Expr::binary(Expr::Kind::Sub, Expr::constant(0), value(uo->getSubExpr()));
    }
    if (const auto* co = dyn_cast<ConditionalOperator>(e))
      return Expr::select(value(co->getCond()), value(co->getTrueExpr()), value(co->getFalseExpr()));
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      std::string n = calleeName(call);
      if (const ptoisa::Instr* in = instrOf(call->getDirectCallee())) {
        if (in->shape == ptoisa::CallShape::LaneId) return Expr::blockIdx(call->getNumArgs() > 0 ? "logical" : "physical");
        if (in->shape == ptoisa::CallShape::LaneCount) return Expr::blockNum();
      }
      if ((n == "min" || n == "max") && call->getNumArgs() == 2)
        return Expr::binary(n == "min" ? Expr::Kind::Min : Expr::Kind::Max, value(call->getArg(0)),
                            value(call->getArg(1)));
      // A helper that computes a value of its parameters (active lane counts, clamped work, ...).
      if (const FunctionDecl* fd = call->getDirectCallee())
        if (const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody()))
          if (!stack_.count(fd) && fd->getNumParams() == call->getNumArgs() && fd->getReturnType()->isIntegerType())
            if (ExprPtr v = inCallee(call, fd, [&] { return helperValue(*body); })) return v;
    }
    if (ExprPtr shape = shapeParam(e)) return shape;
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) {
        auto idx = constant(sub->getIdx());
        if (!idx)
          if (auto v = evalConst(value(sub->getIdx()))) idx = *v;
        return Expr::param(idx ? "args[" + std::to_string(*idx) + "]" : text(e), -1);
      }
    return opaque(e, text(e));
  }

  // The args slot of a runtime tensor descriptor: `args[k]` (through casts) or a local pointer
  // initialised from it.
  std::map<const ValueDecl*, int64_t> tensorOfArgs_;
  std::optional<int64_t> argsTensorIndex(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      auto it = tensorOfArgs_.find(d);
      if (it != tensorOfArgs_.end()) return it->second;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) return evalConst(value(sub->getIdx()));
    return std::nullopt;
  }

  // `args[k]->shapes[d]`: a dimension of a launched tensor, the same on every lane and never
  // negative. The field is the prelude's runtime `Tensor::shapes`.
  ExprPtr shapeParam(const clang::Expr* e) {
    const auto* sub = dyn_cast<ArraySubscriptExpr>(e);
    const auto* member = sub ? dyn_cast<MemberExpr>(sub->getBase()->IgnoreParenImpCasts()) : nullptr;
    const auto* field = member ? dyn_cast<FieldDecl>(member->getMemberDecl()) : nullptr;
    if (!field || field->getName() != "shapes" || inUserCode(ctx_.getSourceManager(), field->getLocation())) return nullptr;
    auto k = argsTensorIndex(member->getBase());
    auto d = evalConst(value(sub->getIdx()));
    if (!k || !d) return nullptr;
    std::string name = "args[" + std::to_string(*k) + "].shapes[" + std::to_string(*d) + "]";
    if (std::find(facts_.shapeParams.begin(), facts_.shapeParams.end(), name) == facts_.shapeParams.end())
      facts_.shapeParams.push_back(name);
    return Expr::param(name, -1);
  }

  // The value a helper body returns, for bodies of local integer declarations, static_asserts,
  // `if (c) v = e;` clamps, `if (c) return a;` early returns (`c ? a : rest`), constant ifs
  // (`if constexpr (Policy == ...)`: only the arm that runs) and a final return. Null for any
  // other statement (the call stays unknown).
  ExprPtr helperValue(const CompoundStmt& body) {
    return helperValue(std::vector<const clang::Stmt*>(body.body_begin(), body.body_end()), 0);
  }

  static std::vector<const clang::Stmt*> statementsOf(const clang::Stmt* s) {
    if (!s) return {};
    if (const auto* cs = dyn_cast<CompoundStmt>(s)) return {cs->body_begin(), cs->body_end()};
    return {s};
  }

  ExprPtr helperValue(const std::vector<const clang::Stmt*>& stmts, size_t from) {
    for (size_t i = from; i < stmts.size(); ++i) {
      const clang::Stmt* st = stmts[i];
      if (isa<NullStmt>(st)) continue;
      if (const auto* ds = dyn_cast<DeclStmt>(st)) {
        for (const Decl* d : ds->decls()) {
          if (isa<StaticAssertDecl>(d)) continue;
          const auto* vd = dyn_cast<VarDecl>(d);
          if (!vd || !vd->getInit()) return nullptr;
          // A descriptor pointer taken from args[k] (`Tensor* t = ...(args[k])`): its fields are
          // launch parameters (shapeParam).
          if (vd->getType()->isPointerType()) {
            if (auto k = argsTensorIndex(vd->getInit())) tensorOfArgs_[vd] = *k;
            else return nullptr;
            continue;
          }
          if (!vd->getType()->isIntegralOrEnumerationType()) return nullptr;
          values_[vd] = value(vd->getInit());
        }
        continue;
      }
      if (const auto* is = dyn_cast<IfStmt>(st)) {
        std::vector<const clang::Stmt*> rest(stmts.begin() + static_cast<long>(i) + 1, stmts.end());
        if (auto c = constantCondition(is)) {  // the arm that runs, then what follows
          std::vector<const clang::Stmt*> chosen = statementsOf(*c ? is->getThen() : is->getElse());
          chosen.insert(chosen.end(), rest.begin(), rest.end());
          return helperValue(chosen, 0);
        }
        if (is->getElse() || is->getInit() || is->getConditionVariable()) return nullptr;
        std::vector<const clang::Stmt*> then = statementsOf(is->getThen());
        if (then.size() != 1) return nullptr;
        if (const auto* ret = dyn_cast<ReturnStmt>(then.front())) {  // if (c) return a; ...
          if (!ret->getRetValue()) return nullptr;
          ExprPtr early = value(ret->getRetValue()), cond = value(is->getCond());
          ExprPtr later = helperValue(stmts, i + 1);
          return later ? Expr::select(cond, early, later) : nullptr;
        }
        const auto* as = dyn_cast<BinaryOperator>(then.front());
        const ValueDecl* target = as && as->getOpcode() == BO_Assign ? declOf(as->getLHS()) : nullptr;
        if (!target || !values_.count(target)) return nullptr;
        values_[target] = Expr::select(value(is->getCond()), value(as->getRHS()), values_[target]);
        continue;
      }
      if (const auto* ret = dyn_cast<ReturnStmt>(st)) return ret->getRetValue() ? value(ret->getRetValue()) : nullptr;
      return nullptr;
    }
    return nullptr;
  }

  Origin originOf(const clang::Expr* e) {
    Origin none;
    if (!e) return none;
    e = e->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      auto it = origins_.find(dr->getDecl());
      if (it != origins_.end()) return it->second;
      return none;
    }
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      // An address held as an integer (`reinterpret_cast<uint64_t>(p)`): `+`/`-` of an offset
      // and alignment masks (`raw & ~63`) stay in the same buffer; the byte offset is kept as an
      // expression of the integer value.
      if (!bo->getType()->isPointerType() && bo->getType()->isIntegerType()) {
        BinaryOperatorKind opc = bo->getOpcode();
        if (opc == BO_Add || opc == BO_Sub || opc == BO_And || opc == BO_Or) {
          Origin o = originOf(bo->getLHS());
          // `end - first` of two addresses is a length, not an address.
          if (opc == BO_Sub && originOf(bo->getRHS()).known()) return none;
          if (!o.known() && opc != BO_Sub) o = originOf(bo->getRHS());
          if (o.known()) o.offset = nullptr;  // a byte offset now, not elements: not kept
          return o;
        }
        return none;
      }
      if (bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) {
        bool lhsPtr = bo->getLHS()->getType()->isPointerType();
        Origin o = originOf(lhsPtr ? bo->getLHS() : bo->getRHS());
        if (!o.known()) return o;
        const clang::Expr* offExpr = (lhsPtr ? bo->getRHS() : bo->getLHS())->IgnoreParenCasts();
        // A tensor descriptor's own start_offset is part of the buffer, not an offset into it.
        if (const auto* me = dyn_cast<MemberExpr>(offExpr))
          if (me->getMemberDecl()->getNameAsString() == "start_offset") return o;
        ExprPtr off = value(offExpr);
        if (bo->getOpcode() == BO_Sub) off = Expr::binary(Expr::Kind::Sub, Expr::constant(0), off);
        o.offset = o.offset ? Expr::binary(Expr::Kind::Add, o.offset, off) : off;
        return o;
      }
    }
    if (const auto* uo = dyn_cast<UnaryOperator>(e))
      if (uo->getOpcode() == UO_AddrOf) {
        if (const auto* sub = dyn_cast<ArraySubscriptExpr>(uo->getSubExpr()->IgnoreParenCasts())) {
          Origin o = originOf(sub->getBase());
          if (o.known()) o.offset = o.offset ? Expr::binary(Expr::Kind::Add, o.offset, value(sub->getIdx())) : value(sub->getIdx());
          return o;
        }
        return originOf(uo->getSubExpr());
      }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e))
      if (isArgs(sub->getBase())) {
        Origin o;
        ExprPtr idx = value(sub->getIdx());
        auto c = evalConst(idx);
        o.ref.value = c ? "args[" + std::to_string(*c) + "]" : "args[" + toString(idx) + "]";
        return o;
      }
    if (const auto* me = dyn_cast<MemberExpr>(e)) return originOf(me->getBase());
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) return originOf(mc->getImplicitObjectArgument());
      // A helper returning a pointer into one of its arguments (tensor_data<T>(args, i), ...).
      if (const FunctionDecl* fd = call->getDirectCallee())
        if (fd->getReturnType()->isPointerType() && fd->hasBody() && !stack_.count(fd)) {
          const ReturnStmt* ret = nullptr;
          for (const clang::Stmt* s : cast<CompoundStmt>(fd->getBody())->body())
            if (const auto* r = dyn_cast<ReturnStmt>(s)) ret = r;
          if (ret && ret->getRetValue() && fd->getNumParams() == call->getNumArgs())
            return inCallee(call, fd, [&] {
              for (const clang::Stmt* s : cast<CompoundStmt>(fd->getBody())->body())
                if (const auto* ds = dyn_cast<DeclStmt>(s))
                  for (const Decl* d : ds->decls())
                    if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getInit()) {
                      if (vd->getType()->isPointerType()) origins_[vd] = originOf(vd->getInit());
                      else if (vd->getType()->isIntegralOrEnumerationType()) values_[vd] = value(vd->getInit());
                    }
              return originOf(ret->getRetValue());
            });
        }
    }
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e))
      if (ce->getNumArgs() > 0) return originOf(ce->getArg(0));
    return none;
  }

  std::optional<AddrBound> addrBound(const clang::Expr* e) {
    if (!e) return std::nullopt;
    e = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      auto it = addrBounds_.find(d);
      if (it != addrBounds_.end()) return it->second;
      if (d->getType()->isPointerType()) return AddrBound{AddrBound::Rel::Exact, d, 0};
      return std::nullopt;
    }
    const auto* bo = dyn_cast<BinaryOperator>(e);
    if (!bo) return std::nullopt;
    if ((bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) && !bo->getType()->isPointerType()) {
      auto a = addrBound(bo->getLHS());
      auto k = evalConst(value(bo->getRHS()));
      if (!a || !k) return std::nullopt;
      a->c += bo->getOpcode() == BO_Add ? *k : -*k;
      return a;
    }
    if (bo->getOpcode() == BO_And) {  // x & ~(L - 1), L a power of two
      auto a = addrBound(bo->getLHS());
      auto mask = evalConst(value(bo->getRHS()));
      if (!a || !mask || a->rel != AddrBound::Rel::Exact) return std::nullopt;
      int64_t line = -*mask;  // ~(L - 1) == -L
      if (line <= 0 || (line & (line - 1)) != 0) return std::nullopt;
      // Aligned down: at most x. With x = X + c, c >= L - 1, at least X + c - (L - 1).
      if (a->c >= line - 1) return AddrBound{AddrBound::Rel::AtLeast, a->base, a->c - (line - 1)};
      return AddrBound{AddrBound::Rel::AtMost, a->base, a->c};
    }
    return std::nullopt;
  }

  // `for (v = lo; v < hi; ...)` with lo <= X + a < X + b <= hi for one address X.
  bool provablyNonEmpty(const clang::Expr* lo, const clang::Expr* hi) {
    auto l = addrBound(lo), h = addrBound(hi);
    if (!l || !h || l->base != h->base) return false;
    bool lowOk = l->rel != AddrBound::Rel::AtLeast, highOk = h->rel != AddrBound::Rel::AtMost;
    return lowOk && highOk && h->c > l->c;
  }

  // Runs `body` with `fd`'s parameters bound to the call's arguments; afterwards the caller's
  // bindings are back as they were (the callee's locals go out of scope).
  template <class F>
  std::invoke_result_t<F> inCallee(const CallExpr* call, const FunctionDecl* fd, F&& body) {
    auto values = values_;
    auto origins = origins_;
    auto tiles = tiles_;
    auto aliases = argsAliases_;
    auto bounds = addrBounds_;
    for (unsigned i = 0; i < fd->getNumParams() && i < call->getNumArgs(); ++i)
      bindParam(fd->getParamDecl(i), call->getArg(i));
    stack_.insert(fd);
    const int callerInstance = instance_;
    instance_ = ++instances_;
    auto restore = [&] {
      instance_ = callerInstance;
      stack_.erase(fd);
      values_ = std::move(values);
      origins_ = std::move(origins);
      tiles_ = std::move(tiles);
      argsAliases_ = std::move(aliases);
      addrBounds_ = std::move(bounds);
    };
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      body();
      restore();
    } else {
      auto result = body();
      restore();
      return result;
    }
  }

  // The wrapper's `args`, or a helper's parameter bound to it (tensor_data(args, i)).
  bool isArgs(const clang::Expr* e) {
    const ValueDecl* d = declOf(e);
    return d && (d == argsParam_ || argsAliases_.count(d));
  }

  void bindParam(const ParmVarDecl* p, const clang::Expr* arg) {
    if (isArgs(arg)) argsAliases_.insert(p);
    QualType t = p->getType();
    if (tileInfoOf(t)) {
      if (const ValueDecl* d = declOf(arg)) {
        if (tiles_.count(d)) tiles_[p] = tiles_[d];
        if (origins_.count(d)) origins_[p] = origins_[d];
      }
      return;
    }
    Origin o = originOf(arg);
    if (o.known()) origins_[p] = o;
    values_[p] = value(arg);
    if (auto b = addrBound(arg)) addrBounds_[p] = *b;
  }

  // ---- statements ---------------------------------------------------------------------------

  void emit(Stmt& seq, Op op) {
    // The values an op touches, for liveness (ub-range's overlap of tiles).
    for (const auto* refs : {&op.reads, &op.writes})
      for (const auto& r : *refs)
        if (!r.value.empty()) op.uses.push_back(r.value);
    if (!op.tileValue.empty()) op.uses.push_back(op.tileValue);
    if (op.kind == OpKind::SyncAll) ++barriersEmitted_;
    seq.children.push_back(Stmt::opStmt(std::move(op)));
  }
  int barriersEmitted_ = 0;  // all-core barriers emitted so far (GridStrideLoop::barriersBefore)

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

  Op makeOp(OpKind kind, const std::string& name, SourceLocation l) {
    Op op;
    op.kind = kind;
    op.name = name;
    op.loc = loc(l);
    if (!callSites_.empty()) op.callSite = callSites_.back();
    return op;
  }

  void translateStmt(const clang::Stmt* s, Stmt& seq) {
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
      else if (depth_ > inlineBaseDepth_.back())
        note(rs->getBeginLoc(), "a return inside a loop of an inlined function is modelled as falling through");
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
        if (const auto* cs = dyn_cast<CompoundStmt>(is->getThen()))
          translateBlock(cs->body_begin(), std::prev(cs->body_end()), *ifs->children[0]);
        else if (const auto* rs = dyn_cast<ReturnStmt>(is->getThen()); rs && rs->getRetValue())
          translateCalls(rs->getRetValue(), *ifs->children[0]);
        translateBlock(std::next(it), end, *ifs->children[1]);
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
    translateCalls(init, seq);
    initializing_ = saved;
    // Pointers, tensors, and integers that hold an address (`uint64_t raw = (uint64_t)p`).
    if (t->isPointerType() || isGlobalTensorType(t) || t->isReferenceType() || t->isIntegerType()) {
      Origin o = originOf(init);
      if (o.known()) origins_[vd] = o;
    }
    if (t->isIntegralOrEnumerationType() || t->isFloatingType()) values_[vd] = value(init);
    if (t->isIntegerType() || t->isPointerType())
      if (auto b = addrBound(init)) addrBounds_[vd] = *b;
    if (facts_.wrapper && inlineDepth_ == 0) provenance_[vd] = provenanceOf(init, t->isPointerType());
    if (vd->getType()->isIntegralOrEnumerationType() && inlineDepth_ == 0 && depth_ == 0 && t.isConstQualified())
      if (auto c = constant(init)) recordConstant(vd->getNameAsString(), *c, vd->getLocation(), "");
  }

  void recordConstant(const std::string& name, int64_t v, SourceLocation l, const std::string& enumName) {
    if (!facts_.constants.count(name)) facts_.constants[name] = NamedConstant{loc(l), v, enumName};
  }

  ForwardedArg provenanceOf(const clang::Expr* e, bool pointer) {
    ForwardedArg a;
    a.text = text(e);
    a.pointer = pointer;
    const clang::Expr* s = e->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(s)) {
      auto it = provenance_.find(d);
      if (it != provenance_.end()) {
        ForwardedArg p = it->second;
        p.text = a.text;
        return p;
      }
    }
    // args[i] anywhere in the initialiser (through casts, helpers and unions).
    std::function<void(const clang::Stmt*)> find = [&](const clang::Stmt* x) {
      if (!x || a.argsIndex) return;
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(x))
        if (isArgs(sub->getBase())) {
          if (auto c = evalConst(value(sub->getIdx()))) a.argsIndex = *c;
          a.source = "args";
          return;
        }
      if (const auto* call = dyn_cast<CallExpr>(x)) {
        // Lane facts by their declaration; which of the lane-id spellings it is picks the source.
        if (const ptoisa::Instr* in = instrOf(call->getDirectCallee())) {
          using CS = ptoisa::CallShape;
          bool sub = call->getDirectCallee()->getName().contains("sub");
          if (in->shape == CS::LaneId) a.source = sub ? "subblock_idx" : "block_idx";
          if (in->shape == CS::LaneCount) a.source = "block_num";
          if (in->shape == CS::CacheOffset) a.source = "l2_cache_offset";
          if (!a.source.empty()) return;
        }
        // tensor_dim(args, k, d): a dimension of tensor k, not the tensor.
        if (call->getType()->isIntegerType()) {
          ExprPtr v = value(call);
          if (v->kind == Expr::Kind::Param &&
              std::find(facts_.shapeParams.begin(), facts_.shapeParams.end(), v->name) != facts_.shapeParams.end()) {
            a.source = "dim";
            return;
          }
        }
        // tensor_data<T>(args, k): the index is the helper's argument.
        for (unsigned i = 0; i + 1 < call->getNumArgs(); ++i)
          if (isArgs(call->getArg(i))) {
            if (auto c = constant(call->getArg(i + 1))) a.argsIndex = *c;
            a.source = "args";
            return;
          }
      }
      if (const auto* me = dyn_cast<MemberExpr>(x))
        if (me->getMemberDecl()->getNameAsString() == "shapes") a.source = "dim";
      for (const clang::Stmt* c : x->children()) find(c);
    };
    find(e);
    return a;
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
    if (mentionsLane(loop->lb)) {
      bool logical = mentionsLane(loop->lb, "logical");
      facts_.gridLoops.push_back(GridStrideLoop{loop->loc, loop->lb, loop->ub, loop->step, logical, barriersEmitted_});
    }
    values_[var] = Expr::loopVar(loop->var);
    // `for (line = first; line < end; line += 64)` over an address: each iteration is in the
    // buffer `first` points into.
    if (const auto* cond = dyn_cast_or_null<BinaryOperator>(fs->getCond() ? fs->getCond()->IgnoreParenImpCasts() : nullptr))
      loop->atLeastOnce = cond->getOpcode() == BO_LT && provablyNonEmpty(init, cond->getRHS());
    Origin walked = originOf(init);
    if (walked.known()) {
      walked.offset = nullptr;
      origins_[var] = walked;
    }
    loop->children.push_back(Stmt::seq());
    ++depth_;
    translateStmt(fs->getBody(), *loop->children[0]);
    --depth_;
    values_[var] = Expr::unknown(var->getNameAsString() + " after the loop");
    seq.children.push_back(std::move(loop));
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
    if (cond) translateCalls(cond, *w->children[0]);
    w->cond = cond ? value(cond) : Expr::unknown("loop condition");
    translateStmt(body, *w->children[1]);
    --depth_;
    seq.children.push_back(std::move(w));
  }

  // The value of an if's condition when it is a constant: `if constexpr`, a literal, or a bound
  // parameter of an inlined helper (`if (publish)` with publish = true).
  std::optional<int64_t> constantCondition(const IfStmt* is) {
    if (is->getInit() || is->getConditionVariable()) return std::nullopt;
    if (auto c = constant(is->getCond())) return c;
    return evalConst(value(is->getCond()));
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
    StmtPtr ifs = newIf(is->getBeginLoc(), value(is->getCond()));
    ++depth_;
    translateStmt(is->getThen(), *ifs->children[0]);
    translateStmt(is->getElse(), *ifs->children[1]);
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
      const CaseGroup* taken = nullptr;
      for (const auto& c : *cases) {
        for (const clang::Expr* label : c.values)
          if (constant(label) == selected) taken = &c;
        if (!taken && c.isDefault) taken = &c;  // kept unless a later label matches
        if (taken && !taken->isDefault) break;
      }
      if (taken) {
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
      for (const clang::Stmt* s : c.stmts) translateStmt(s, *target);
      --depth_;
    }
  }

  // Every call in an expression, in evaluation order (arguments first).
  void translateCalls(const clang::Expr* e, Stmt& seq) {
    if (!e || tooDeep(e)) return;
    if (isa<LambdaExpr>(e)) return;  // a lambda's body runs where it is called; not modelled
    // `WithRope ? args[17] : args[7]` with a constant condition: only the arm that is evaluated.
    if (const auto* co = dyn_cast<ConditionalOperator>(e))
      if (auto c = evalConst(value(co->getCond()))) return translateCalls(*c ? co->getTrueExpr() : co->getFalseExpr(), seq);
    if (const auto* rec = dyn_cast<RecoveryExpr>(e)) return translateRecovery(rec, seq);
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      const ptoisa::Instr* in = instrOf(call->getDirectCallee());
      // Arguments first, except the operands an instruction reads itself.
      using CS = ptoisa::CallShape;
      if (!in || in->shape == CS::LaneId || in->shape == CS::LaneCount || in->shape == CS::CacheOffset)
        for (const clang::Expr* a : call->arguments()) translateCalls(a, seq);
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) translateCalls(mc->getImplicitObjectArgument(), seq);
      return in ? translateInstr(call, *in, seq) : translateUserCall(call, seq);
    }
    if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
      translateCalls(bo->getLHS(), seq);
      translateCalls(bo->getRHS(), seq);
      if (bo->isAssignmentOp()) assign(bo, seq);
      return;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) noteArgsRead(sub);
    for (const clang::Stmt* c : e->children())
      if (const auto* ce = dyn_cast_or_null<clang::Expr>(c)) translateCalls(ce, seq);
  }

  // A call Clang could not resolve (an undeclared function, no viable overload). A tile
  // instruction is still modelled from the op table's defaults; anything else is a gap, so the
  // rules it could affect say `unknown` instead of passing.
  void translateRecovery(const RecoveryExpr* rec, Stmt& seq) {
    std::vector<const clang::Expr*> parts(rec->subExpressions().begin(), rec->subExpressions().end());
    std::string name;
    const ptoisa::Instr* in = nullptr;
    if (!parts.empty()) {
      const clang::Expr* callee = parts.front()->IgnoreParenImpCasts();
      if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(callee)) {
        name = ul->getName().getAsString();
        in = instrOfLookup(*ul);
      } else if (const auto* dr = dyn_cast<DeclRefExpr>(callee)) {
        name = dr->getDecl()->getNameAsString();
        in = instrOf(dr->getDecl()->getAsFunction());
      } else if (const auto* me = dyn_cast<MemberExpr>(callee)) {
        name = me->getMemberDecl()->getNameAsString();
      }
    }
    // A tile instruction whose arguments did not resolve still has its table facts.
    if (in && in->shape == ptoisa::CallShape::Tile && parts.size() > 1) {
      std::vector<const clang::Expr*> args(parts.begin() + 1, parts.end());
      return translateTileOp(rec, *in, name, args, seq);
    }
    gap(ModelGap::Kind::UndeclaredCall, rec->getBeginLoc(),
        "'" + (name.empty() ? text(rec) : name) + "'" + (in ? " (an argument's type is not known)" : ""));
    for (const clang::Expr* p : parts)
      if (p && !isa<UnresolvedLookupExpr>(p->IgnoreParenImpCasts())) translateCalls(p, seq);
  }

  void noteArgsRead(const ArraySubscriptExpr* sub) {
    if (!isArgs(sub->getBase())) return;
    ArgUnpack u;
    u.loc = loc(sub->getBeginLoc());
    u.indexText = text(sub->getIdx());
    u.index = evalConst(value(sub->getIdx()));
    // Read as a tensor descriptor when the element is converted to a pointer.
    u.tensor = convertedToPointer(sub);
    if (initializing_) u.var = initializing_->getNameAsString();
    facts_.unpacks.push_back(u);
  }

  bool convertedToPointer(const clang::Expr* e) {
    DynTypedNodeList parents = ctx_.getParents(*e);
    for (int hops = 0; hops < 6 && !parents.empty(); ++hops) {
      const auto* pe = parents[0].get<clang::Expr>();
      if (!pe) return false;
      if (const auto* cast = dyn_cast<CastExpr>(pe)) {
        if (cast->getType()->isPointerType()) return true;
      } else if (!isa<ParenExpr>(pe)) {
        return false;
      }
      parents = ctx_.getParents(*pe);
    }
    return false;
  }

  void assign(const BinaryOperator* bo, Stmt& seq) {
    const clang::Expr* lhs = bo->getLHS()->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(lhs)) {
      if (bo->getOpcode() == BO_Assign && depth_ == 0) {
        values_[d] = value(bo->getRHS());
        Origin o = originOf(bo->getRHS());
        if (o.known()) origins_[d] = o;
      } else {
        values_[d] = Expr::unknown(d->getNameAsString() + "@" + std::to_string(loc(bo->getBeginLoc()).line));
      }
      return;
    }
    // ptr[i] = v / *ptr = v on a GM pointer: a scalar store.
    const clang::Expr* base = nullptr;
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(lhs)) base = sub->getBase();
    if (const auto* uo = dyn_cast<UnaryOperator>(lhs))
      if (uo->getOpcode() == UO_Deref) base = uo->getSubExpr();
    if (!base) return;
    Origin o = originOf(base);
    if (!o.known() || o.ref.space != "gm") return;
    Op op = makeOp(OpKind::ScalarStore, "scalar store", bo->getBeginLoc());
    op.pipes = {Pipe::S};
    op.writes.push_back(o.ref);
    emit(seq, std::move(op));
  }

  Pipe pipeArg(const clang::Expr* e) {
    std::string n = enumeratorName(e);
    if (!n.empty()) return pipeFromName(n);
    static const Pipe order[] = {Pipe::S,   Pipe::V,    Pipe::M,    Pipe::MTE1, Pipe::MTE2, Pipe::MTE3,
                                 Pipe::ALL, Pipe::MTE4, Pipe::MTE5, Pipe::V2,   Pipe::FIX};
    if (auto c = constant(e))
      if (*c >= 0 && *c < 11) return order[*c];
    return Pipe::Unknown;
  }

  // The template argument `i` of the called function (SYNCALL<Mode, Core>, SyncAll<false>, ...).
  std::string templateArgText(const CallExpr* call, unsigned i) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd) return "";
    const TemplateArgumentList* args = fd->getTemplateSpecializationArgs();
    if (!args || i >= args->size()) return "";
    const TemplateArgument& a = (*args)[i];
    if (a.getKind() == TemplateArgument::Integral) {
      QualType t = a.getIntegralType();
      int64_t v = a.getAsIntegral().getExtValue();
      if (const auto* et = t->getAs<EnumType>())
        for (const EnumConstantDecl* ec : et->getDecl()->enumerators())
          if (ec->getInitVal().getExtValue() == v) return ec->getNameAsString();
      if (t->isBooleanType()) return v ? "true" : "false";
      return std::to_string(v);
    }
    return "";
  }

  static const clang::Expr* argOf(const CallExpr* call, unsigned i) {
    return i < call->getNumArgs() ? call->getArg(i) : nullptr;
  }

  void laneRead(const CallExpr* call, const std::string& n) {
    facts_.laneReads.push_back(LaneRead{loc(call->getBeginLoc()), n, call->getNumArgs() > 0});
  }

  // A tile operand: the tile declaration (in its inlined instance) it names. One that cannot be
  // traced is a gap with a value of its own, so it never aliases another tile by spelling.
  MemRef tileRef(const clang::Expr* e) {
    Origin o = originOf(e);
    if (o.known()) return o.ref;
    gap(ModelGap::Kind::UnresolvedAddress, e->getBeginLoc(), "tile operand '" + text(e) + "'");
    MemRef m;
    m.space = "ub";
    m.value = uniqueName("<untraced tile>");
    return m;
  }

  // A call of a table instruction: one handler per call shape (analyzer/model/isa_table.h).
  void translateInstr(const CallExpr* call, const ptoisa::Instr& in, Stmt& seq) {
    using CS = ptoisa::CallShape;
    SourceLocation l = call->getBeginLoc();
    const std::string n = call->getDirectCallee()->getNameAsString();
    auto arg = [&](unsigned i) { return argOf(call, i); };
    switch (in.shape) {
      case CS::LaneId: return laneRead(call, n);
      case CS::CacheOffset:
        facts_.cacheOffsetReads.push_back(CacheOffsetRead{loc(l), inlineDepth_ == 0 && depth_ == 0});
        return;
      case CS::HardEvent: return translateHardEvent(call, in.kind, seq);
      case CS::Event: {
        Op op = makeOp(in.kind, n, l);
        op.event.src = pipeArg(arg(0));
        op.event.dst = pipeArg(arg(1));
        return emitEvent(std::move(op), arg(2), seq);
      }
      case CS::Barrier:
      case CS::BarrierTemplate: {
        Op op = makeOp(OpKind::PipeBarrier, n, l);
        op.barrierPipe = in.shape == CS::Barrier ? pipeArg(arg(0)) : pipeFromName(templateArgText(call, 0));
        op.pipes = {op.barrierPipe};
        return emit(seq, std::move(op));
      }
      case CS::Dsb: {
        Op op = makeOp(OpKind::Fence, n, l);
        op.fenceScope = "dsb";
        return emit(seq, std::move(op));
      }
      case CS::CacheLine: {
        Op op = makeOp(OpKind::CacheInvalidate, n, l);
        op.invalidateAll = enumeratorName(arg(1)) == "ENTIRE_DATA_CACHE";
        op.writeback = enumeratorName(arg(2)) == "CACHELINE_OUT";
        if (!op.invalidateAll) op.target = originOf(arg(0)).ref;
        op.pipes = in.pipes;
        return emit(seq, std::move(op));
      }
      case CS::TileAssign: return translateAssign(call, seq);
      case CS::Signal: {
        Op op = makeOp(in.kind, "pto::comm::" + n, l);
        op.pipes = in.pipes;
        op.target = originOf(arg(0)).ref;
        return emit(seq, std::move(op));
      }
      case CS::Staged: return translateStaged(call, in, seq);
      case CS::Collective: {
        Op op = makeOp(OpKind::Collective, "pto::comm::" + n, l);
        op.pipes = in.pipes;
        for (const clang::Expr* a : call->arguments())
          if (!isTileExpr(a))
            if (Origin o = originOf(a); o.known() && o.ref.space == "gm") op.writes.push_back(o.ref);
        return emit(seq, std::move(op));
      }
      case CS::SyncAllPto:
      case CS::SyncAllIndexed:
      case CS::SyncAllAscendC: return translateSyncAll(call, in.shape, seq);
      case CS::CrossCoreSet: {
        Op op = makeOp(OpKind::CrossCoreSet, n, l);
        op.event.src = pipeArg(arg(0));
        if (const auto* msg = dyn_cast_or_null<CallExpr>(arg(1) ? arg(1)->IgnoreParenCasts() : nullptr))
          if (calleeName(msg) == "getFFTSMsg" && msg->getNumArgs() == 2) op.event.id = constant(msg->getArg(1));
        return emit(seq, std::move(op));
      }
      case CS::CrossCoreWait: {
        Op op = makeOp(OpKind::CrossCoreWait, n, l);
        op.event.id = constant(arg(0));
        return emit(seq, std::move(op));
      }
      case CS::SetFfts: return emit(seq, makeOp(OpKind::SetFfts, n, l));
      case CS::Tile:
        if (call->getNumArgs() == 0) return;
        return translateTileOp(call, in, n, std::vector<const clang::Expr*>(call->arg_begin(), call->arg_end()), seq);
      case CS::LaneCount:
      case CS::None: return;
    }
  }

  // TPUT / TGET(dst, src, staging tile): its load phase, the set/wait pair it issues inside
  // itself, then the rest, each access on its own phase's pipe.
  void translateStaged(const CallExpr* call, const ptoisa::Instr& in, Stmt& seq) {
    Op op = makeOp(in.kind, "pto::comm::" + call->getDirectCallee()->getNameAsString(), call->getBeginLoc());
    op.pipes = in.pipes;
    std::vector<MemRef> refs;
    for (unsigned i = 0; i < call->getNumArgs() && i < 4; ++i) {
      const clang::Expr* a = call->getArg(i);
      refs.push_back(isTileExpr(a) ? tileRef(a) : originOf(a).ref);
    }
    std::vector<const MemRef*> operands;
    for (const MemRef& r : refs) operands.push_back(r.valid() ? &r : nullptr);
    for (Op& phase : ptoisa::stagedOps(in, operands, std::move(op))) emit(seq, std::move(phase));
  }

  // A call of anything but an instruction: a user function's body is inlined; a library call
  // with memory effects the model lacks, or a user function with no body, is a gap.
  void translateUserCall(const CallExpr* call, Stmt& seq) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd) return;
    if (isUserFunction(fd)) {
      if (fd->hasBody() && !stack_.count(fd->getDefinition())) return inlineCall(call, fd, seq);
      if (!fd->hasBody() && !fd->getReturnType()->isIntegerType())
        gap(ModelGap::Kind::OpaqueCall, call->getBeginLoc(),
            "'" + fd->getNameAsString() + "' (its body is not available, so what it does is not modelled)");
      return;
    }
    // AscendC data movement and vector calls (DataCopy, Add, Mmad, ...) are declared by the
    // prelude without their memory and pipe effects: counted, so the rules say what they could
    // not see.
    if (fd->getQualifiedNameAsString().rfind("AscendC::", 0) == 0 && !fd->getReturnType()->isIntegerType())
      gap(ModelGap::Kind::UnknownOp, call->getBeginLoc(),
          "'AscendC::" + fd->getNameAsString() + "' (its memory accesses and pipe are not modelled)");
  }

  // A PTO-ISA tile instruction: kind, pipe and operand roles from the shared table
  // (analyzer/model/isa_table). One the table does not list gets its conservative default and is
  // counted as a gap.
  void translateTileOp(const clang::Expr* call, const ptoisa::Instr& instr, const std::string& n,
                       const std::vector<const clang::Expr*>& args, Stmt& seq) {
    const ptoisa::Instr* in = &instr;
    Op op = makeOp(in->kind, n, call->getBeginLoc());
    bool transfer = in->kind == OpKind::Load || in->kind == OpKind::Prefetch || in->kind == OpKind::Store;
    bool hasTmp = false;
    for (size_t i = 0; i < args.size(); ++i) {
      bool tmp = static_cast<int>(i) == in->tmp && isTileExpr(args[i]);
      bool written = static_cast<int>(i) == in->written || tmp;
      hasTmp |= tmp;
      if (isTileExpr(args[i])) (written ? op.writes : op.reads).push_back(tileRef(args[i]));
      else if (transfer && i < 2) (written ? op.writes : op.reads).push_back(gmRef(args[i], n + " address"));
    }
    if (in->window && args.size() >= 4) op.sourceWindowByte = windowByte(args);
    std::string src = op.reads.empty() ? "" : op.reads.front().space;
    std::string dst = op.writes.empty() ? "" : op.writes.front().space;
    op.pipes = ptoisa::pipesFor(*in, src, dst, hasTmp);
    if (in->kind == OpKind::Load) {
      std::string hint = dyn_cast<CallExpr>(call) ? templateArgText(cast<CallExpr>(call), 0) : "";
      if (hint == "NotAllocKeep" || hint == "NotAllocClear") op.cachePolicy = "l2_bypass";
    }
    emit(seq, std::move(op));
  }

  // TEXTRACT(dst, src, row, col): where the window starts in src, when it is contiguous there.
  std::optional<int64_t> windowByte(const std::vector<const clang::Expr*>& args) {
    auto src = tileInfoOf(args[1]->getType()), dst = tileInfoOf(args[0]->getType());
    auto row = evalConst(value(args[2])), col = evalConst(value(args[3]));
    if (!src || !dst || !row || !col || src->elemBytes <= 0) return std::nullopt;
    bool contiguous = src->rows == 1 || (*col == 0 && dst->cols == src->cols);
    if (!contiguous) return std::nullopt;
    return (*row * src->cols + *col) * src->elemBytes;
  }

  bool isTileExpr(const clang::Expr* e) {
    if (tileInfoOf(e->getType())) return true;
    const ValueDecl* d = declOf(e);
    return d && tiles_.count(d);
  }

  // A GM operand's buffer; an address that cannot be traced is a gap, never "no buffer".
  MemRef gmRef(const clang::Expr* e, const std::string& what) {
    Origin o = originOf(e);
    if (!o.known()) gap(ModelGap::Kind::UnresolvedAddress, e->getBeginLoc(), what + " '" + text(e) + "'");
    return o.ref;
  }

  void gap(ModelGap::Kind kind, SourceLocation l, const std::string& what) {
    k_.gaps.push_back(ModelGap{kind, loc(l), what});
  }

  // AscendC::SetFlag<HardEvent::MTE2_V>(id): the event's pipes are named by the enumerator.
  void translateHardEvent(const CallExpr* call, OpKind kind, Stmt& seq) {
    Op op = makeOp(kind, kind == OpKind::SetFlag ? "AscendC::SetFlag" : "AscendC::WaitFlag", call->getBeginLoc());
    std::string pair = templateArgText(call, 0);
    auto cut = pair.find('_');
    if (cut != std::string::npos) {
      op.event.src = pipeFromName(pair.substr(0, cut));
      op.event.dst = pipeFromName(pair.substr(cut + 1));
    }
    if (op.event.src == Pipe::Unknown || op.event.dst == Pipe::Unknown) {
      gap(ModelGap::Kind::UnknownOp, call->getBeginLoc(), "'" + op.name + "<" + pair + ">'");
      return;
    }
    emitEvent(std::move(op), argOf(call, 0), seq);
  }

  // A set_flag / wait_flag whose pipes are known: it runs on the set's source or the wait's
  // destination pipe; the id is folded when it can be.
  void emitEvent(Op op, const clang::Expr* id, Stmt& seq) {
    op.pipes = {op.kind == OpKind::SetFlag ? op.event.src : op.event.dst};
    if (id) {
      op.event.idExpr = value(id);
      op.event.id = evalConst(op.event.idExpr);
    }
    emit(seq, std::move(op));
  }

  bool isUserFunction(const FunctionDecl* fd) {
    SourceLocation l = fd->getDefinition() ? fd->getDefinition()->getLocation() : fd->getLocation();
    return inUserCode(ctx_.getSourceManager(), l);
  }

  void translateAssign(const CallExpr* call, Stmt& seq) {
    if (call->getNumArgs() < 2) return;
    const clang::Expr* target = call->getArg(0);
    const ValueDecl* d = declOf(target);
    if (d && isGlobalTensorType(d->getType())) {  // rebinding a GM tensor's address
      Origin o = originOf(call->getArg(1));
      if (o.known()) origins_[d] = o;
      return;
    }
    Op op = makeOp(OpKind::TileAssign, "TASSIGN", call->getBeginLoc());
    auto ti = d ? tiles_.find(d) : tiles_.end();
    if (ti != tiles_.end()) {
      op.tileSpace = ti->second.space;
      op.tileBytes = ti->second.bytes;
    } else if (auto info = tileInfoOf(target->getType())) {
      op.tileSpace = info->space;
      op.tileBytes = info->bytes;
    }
    op.tileValue = tileRef(target).value;
    ExprPtr addr = value(call->getArg(1));
    op.tileAddr = evalConst(addr);
    if (!op.tileAddr) op.tileAddrChoices = possibleConstants(addr);
    if (ti != tiles_.end()) ti->second.addr = op.tileAddr;
    if (op.tileAddr && op.tileSpace == "ub")
      placements_.push_back(Placement{bodies_.back()->getNameAsString(), d, *op.tileAddr + op.tileBytes, op.loc});
    emit(seq, std::move(op));
  }

  // Each body's UB high-water: the highest end of its TASSIGNs, barrier scratch tiles excepted.
  void computeHighWater() {
    for (const auto& p : placements_) {
      if (p.tile && scratchTiles_.count(p.tile)) continue;
      auto hw = std::find_if(facts_.highWater.begin(), facts_.highWater.end(),
                             [&](const BodyHighWater& h) { return h.body == p.body; });
      if (hw == facts_.highWater.end()) facts_.highWater.push_back(BodyHighWater{p.loc, p.body, p.end});
      else if (p.end > hw->end) *hw = BodyHighWater{p.loc, p.body, p.end};
    }
  }

  void translateSyncAll(const CallExpr* call, ptoisa::CallShape shape, Stmt& seq) {
    using CS = ptoisa::CallShape;
    Op op = makeOp(OpKind::SyncAll, call->getDirectCallee()->getQualifiedNameAsString(), call->getBeginLoc());
    op.pipes = {Pipe::ALL};
    auto arg = [&](unsigned i) { return argOf(call, i); };
    Origin ws;
    if (shape == CS::SyncAllAscendC) {
      op.syncMode = "hard";
      op.coreType = templateArgText(call, 0) == "false" ? "mix" : "aiv";
    } else if (shape == CS::SyncAllPto) {
      op.syncMode = templateArgText(call, 0) == "Hard" ? "hard" : "soft";
      std::string core = templateArgText(call, 1);
      op.coreType = core == "AICOnly" ? "aic" : core == "Mix" ? "mix" : "aiv";
      ws = originOf(arg(0));
      if (arg(1)) op.participants = value(arg(1));
    } else {  // SYNCALL_SOFT_AIV_BARRIER(gm, ub, participants, index)
      op.syncMode = "soft";
      op.coreType = "aiv";
      ws = originOf(arg(0));
      if (arg(2)) op.participants = value(arg(2));
      if (arg(3)) op.participantIndex = value(arg(3));
      if (const clang::Expr* ub = arg(1)) ubScratchOf(ub, op.participants);
    }
    if (ws.known()) {
      op.reads.push_back(ws.ref);
      op.writes.push_back(ws.ref);
      op.workspaceOffset = ws.offset ? ws.offset : Expr::constant(0);
      std::string off = toString(op.workspaceOffset);
      op.uses.push_back(ws.ref.value + (off == "0" ? "" : " + " + off));
    }
    emit(seq, std::move(op));
  }

  // The UB scratch of an indexed soft barrier: a tile or pointer at a constant address.
  void ubScratchOf(const clang::Expr* ub, const ExprPtr& participants) {
    const clang::Expr* e = ub->IgnoreParenCasts();
    std::optional<int64_t> addr;
    std::string name = text(ub);
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) e = mc->getImplicitObjectArgument()->IgnoreParenCasts();
    if (const ValueDecl* d = declOf(e)) {
      name = d->getNameAsString();
      auto tile = tiles_.find(d);
      if (tile != tiles_.end()) {
        addr = tile->second.addr;  // its last TASSIGN
        scratchTiles_.insert(d);
      }
      if (!addr)
        if (const auto* vd = dyn_cast<VarDecl>(d))
          if (vd->getInit()) addr = constant(vd->getInit()->IgnoreParenCasts());
    } else {
      addr = constant(e);
    }
    if (!addr) return;
    auto n = evalConst(participants);
    int64_t bytes = n ? *n * 8 * 4 : 0;  // the indexed helper keeps 8 int32 words per participant
    facts_.ubScratch.push_back(UbScratch{loc(ub->getBeginLoc()), name, *addr, bytes});
  }

  void inlineCall(const CallExpr* call, const FunctionDecl* fd, Stmt& seq) {
    const FunctionDecl* def = fd->getDefinition() ? fd->getDefinition() : fd;
    if (inlineDepth_ >= 16) {
      note(call->getBeginLoc(), "call of '" + fd->getNameAsString() + "' nested too deep to inline");
      return;
    }
    if (facts_.wrapper && inlineDepth_ == 0 && def->getReturnType()->isVoidType()) recordForwarded(call, def);
    callSites_.push_back(loc(call->getBeginLoc()));
    inCallee(call, def, [&] {
      bodies_.push_back(def);
      inlineBaseDepth_.push_back(depth_);
      ++inlineDepth_;
      translateStmt(def->getBody(), seq);
      leftFunction_ = false;  // the caller goes on after the call
      --inlineDepth_;
      inlineBaseDepth_.pop_back();
      bodies_.pop_back();
    });
    callSites_.pop_back();
  }

  void recordForwarded(const CallExpr* call, const FunctionDecl* def) {
    ForwardedCall fc;
    fc.loc = loc(call->getBeginLoc());
    fc.callee = def->getNameAsString();
    for (const ParmVarDecl* p : def->parameters()) {
      fc.paramNames.push_back(p->getNameAsString());
      fc.paramPointer.push_back(p->getType()->isPointerType() || isGlobalTensorType(p->getType()));
    }
    for (const clang::Expr* a : call->arguments()) {
      bool pointer = a->getType()->isPointerType();
      fc.args.push_back(provenanceOf(a, pointer));
    }
    facts_.forwarded.push_back(std::move(fc));
  }

  // A GM write that a pipe other than S performs (TSTORE on MTE3/FIX, tput, collectives): it is
  // still in flight until a pipe_barrier(PIPE_ALL) drains it. Scalar stores complete in order
  // on S, so a dsb after them needs no drain.
  static bool pipeWritesGm(const Op& op) {
    return (op.writesGm() || op.kind == OpKind::Put || op.kind == OpKind::Collective) && op.kind != OpKind::ScalarStore;
  }

  // A dsb is a GM fence (scope "gm") when no pipe GM write can be in flight at it: a PIPE_ALL
  // drain came after the last one on every path (loops: from any iteration). `pipe_barrier(
  // PIPE_ALL); dsb(DSB_DDR);` is what PTOAS emits for fence.barrier_all, seed 004's publish is
  // drain, CACHELINE_OUT of the lines, dsb, and a scalar-only writer publishes with
  // CACHELINE_OUT then dsb. Returns whether a write is in flight after `s`.
  static bool markGmFences(Stmt& s, bool inFlight = false) {
    switch (s.kind) {
      case Stmt::Kind::OpStmt: {
        Op& op = s.op;
        if (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) return false;
        if (op.kind == OpKind::Fence && op.fenceScope == "dsb" && !inFlight) op.fenceScope = "gm";
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
                                const std::set<std::string>& testedMacros) {
  TranslateResult r;
  Kernel& k = r.kernel;
  k.name = root.getNameAsString();
  k.arch = arch;
  k.frontEnd = "cpp";
  k.loc = locOf(ctx, root.getLocation());
  k.file = k.loc.file;
  k.isEntry = true;
  auto facts = std::make_shared<CppFacts>();
  facts->mixed = testedMacros.count("__DAV_CUBE__") || testedMacros.count("__DAV_C220_CUBE__");
  if (testedMacros.count("__DAV_VEC__") || testedMacros.count("__DAV_C220_VEC__")) facts->coreView = "vector";
  k.kind = facts->mixed ? "mix" : "vector";
  Translator t(ctx, root, k, *facts, r.notes);
  t.run();
  k.cpp = facts;
  return r;
}

}  // namespace ptov::cpp
