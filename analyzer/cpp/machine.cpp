#include "analyzer/cpp/machine.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <memory>

#include "analyzer/cpp/paths.h"
#include "analyzer/cpp/translate.h"
#include "analyzer/model/cpp_facts.h"

namespace ptov::cpp {

using namespace clang;

namespace {

constexpr int kMaxInlineDepth = 4;      // calls followed into functions of the user's code
constexpr size_t kMaxPaths = 64;        // paths enumerated per function when resolving a timeout
constexpr size_t kMaxSteps = 4096;      // paths enumerated in all, per spin wait
constexpr int kMaxInlinedBodies = 256;  // callee bodies copied into one function's call tree

std::string squash(const std::string& s) {
  std::string o;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) o += c;
  return o;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const clang::Expr* strip(const clang::Expr* e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* d = dyn_cast<CXXDefaultArgExpr>(e))
      e = d->getExpr();
    else if (const auto* c = dyn_cast<ExprWithCleanups>(e))
      e = c->getSubExpr();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else if (const auto* s = dyn_cast<CStyleCastExpr>(e))
      e = s->getSubExpr();
    else if (const auto* s = dyn_cast<CXXStaticCastExpr>(e))
      e = s->getSubExpr();
    else
      return e;
  }
  return e;
}

// A parameter in a printed condition, named with its function: a caller's argument replaces
// exactly it (not a member or another function's parameter of the same name).
std::string paramMarker(const ParmVarDecl* p) {
  const auto* fn = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  return "{" + (fn ? fn->getQualifiedNameAsString() : std::string()) + ":" + p->getNameAsString() + "}";
}

// The machine function's view of the AST: spellings as the user wrote them (macros unexpanded).
class Reader {
 public:
  explicit Reader(ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}

  // A part of a function-like macro's expansion (`arch == DAV_3510` inside TIMEOUT_CHECK_INIT)
  // reads as the code the expansion made, not as the whole invocation; an object-like macro
  // (`DEV_IF_INFO`) keeps its name.
  std::string spell(const clang::Stmt* s) const {
    if (!s) return "";
    std::string text = sourceText(ctx_, s->getSourceRange());
    if (!s->getBeginLoc().isMacroID() || text.find('(') == std::string::npos) return text;
    if (!Lexer::getSourceText(CharSourceRange::getTokenRange(s->getSourceRange()), sm_, ctx_.getLangOpts()).empty())
      return text;
    std::string pretty;
    llvm::raw_string_ostream os(pretty);
    s->printPretty(os, nullptr, PrintingPolicy(ctx_.getLangOpts()));
    return os.str();
  }
  SourceLoc loc(const clang::Stmt* s) const { return locOf(ctx_, s->getBeginLoc()); }
  // The outermost macro `loc` was written with ("" when none).
  std::string macroAt(SourceLocation l) const {
    std::string name;
    while (l.isMacroID()) {
      name = Lexer::getImmediateMacroName(l, sm_, ctx_.getLangOpts()).str();
      l = sm_.getImmediateMacroCallerLoc(l);
    }
    return name;
  }
  const FunctionDecl* userDefinition(const CallExpr* c) const {
    const FunctionDecl* fd = c->getDirectCallee();
    if (!fd) return nullptr;
    const FunctionDecl* def = nullptr;
    if (!fd->hasBody(def) || !def || !def->getBody() || !inUserCode(sm_, def->getLocation())) return nullptr;
    return def;
  }
  ASTContext& ctx() const { return ctx_; }
  // A condition's identity: the expression as Clang prints it from the AST (macros expanded,
  // spacing dropped), with `substitute` printing what it handles (a bound parameter) itself. A
  // parameter left is printed as its marker (paramMarker), for a caller to replace.
  using Substitute = std::function<bool(const DeclRefExpr*, llvm::raw_ostream&)>;
  std::string print(const clang::Stmt* s, const Substitute& substitute = {}) const {
    if (!s) return "";
    struct Helper : PrinterHelper {
      const Substitute& substitute;
      explicit Helper(const Substitute& f) : substitute(f) {}
      bool handledStmt(clang::Stmt* e, llvm::raw_ostream& os) override {
        const auto* dr = dyn_cast<DeclRefExpr>(e);
        if (!dr) return false;
        if (substitute && substitute(dr, os)) return true;
        const auto* param = dyn_cast<ParmVarDecl>(dr->getDecl());
        if (param) os << paramMarker(param);
        return param != nullptr;
      }
    } helper(substitute);
    std::string text;
    llvm::raw_string_ostream os(text);
    s->printPretty(os, &helper, PrintingPolicy(ctx_.getLangOpts()));
    return squash(os.str());
  }
  // The function's CFG, built once.
  const FunctionCfg& cfgOf(const FunctionDecl* fn) const {
    auto& slot = cfgs_[fn];
    if (!slot) slot = std::make_unique<FunctionCfg>(*fn, ctx_);
    return *slot;
  }

 private:
  ASTContext& ctx_;
  const SourceManager& sm_;
  mutable std::map<const FunctionDecl*, std::unique_ptr<FunctionCfg>> cfgs_;
};

// The calls in `s`, in evaluation order (arguments before the call); lambdas are not entered.
void collectCalls(const clang::Stmt* s, std::vector<const CallExpr*>& out) {
  if (!s || isa<LambdaExpr>(s)) return;
  for (const clang::Stmt* c : s->children()) collectCalls(c, out);
  if (const auto* call = dyn_cast<CallExpr>(s)) out.push_back(call);
}

// The lambda an argument passes, also through the std::function it converts to.
const LambdaExpr* lambdaIn(const clang::Expr* a) {
  a = strip(a);
  while (a) {
    if (const auto* l = dyn_cast<LambdaExpr>(a)) return l;
    if (const auto* b = dyn_cast<CXXBindTemporaryExpr>(a))
      a = strip(b->getSubExpr());
    else if (const auto* c = dyn_cast<CXXConstructExpr>(a); c && c->getNumArgs() == 1)
      a = strip(c->getArg(0));
    else
      return nullptr;
  }
  return nullptr;
}

// A store to a field or an element of one: `args->wave[GOODBYE] = AICORE_SAY_GOODBYE`.
const MemberExpr* storedField(const clang::Stmt* s, const clang::Expr*& value) {
  const auto* b = dyn_cast<BinaryOperator>(s);
  if (!b || b->getOpcode() != BO_Assign) return nullptr;
  const clang::Expr* lhs = strip(b->getLHS());
  while (const auto* as = dyn_cast<ArraySubscriptExpr>(lhs)) lhs = strip(as->getBase());
  value = b->getRHS();
  return dyn_cast<MemberExpr>(lhs);
}

// Calls and field stores in `s`, in evaluation order.
void collectSteps(const clang::Stmt* s, std::vector<const clang::Stmt*>& out) {
  if (!s || isa<LambdaExpr>(s)) return;
  for (const clang::Stmt* c : s->children()) collectSteps(c, out);
  const clang::Expr* value = nullptr;
  if (isa<CallExpr>(s) || storedField(s, value)) out.push_back(s);
}

// ---- field writes ----

std::string recordName(QualType t, bool pointee) {
  if (pointee && !t->getPointeeType().isNull()) t = t->getPointeeType();
  t = t.getNonReferenceType();
  if (const auto* rd = t->getAsRecordDecl()) return rd->getNameAsString();
  return "";
}

// The object a local reference or pointer was bound to: `T& a = <expr>` or `T* a = &<expr>`.
const clang::Expr* aliasOf(const clang::Expr* e) {
  const auto* dr = dyn_cast<DeclRefExpr>(e);
  const auto* var = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  if (!var || !var->isLocalVarDecl() || !var->getInit()) return nullptr;
  const clang::Expr* init = strip(var->getInit());
  if (var->getType()->isReferenceType()) return isa<MemberExpr>(init) ? init : nullptr;
  if (const auto* u = dyn_cast<UnaryOperator>(init);
      u && u->getOpcode() == UO_AddrOf && var->getType()->isPointerType())
    return isa<MemberExpr>(strip(u->getSubExpr())) ? strip(u->getSubExpr()) : nullptr;
  return nullptr;
}

// `a->b.c[i].d` -> views {A, "b.c.d"}, {B, "c.d"}, {C, "d"}; empty when no field is written.
std::vector<std::pair<std::string, std::string>> fieldViews(const clang::Expr* lhs) {
  std::vector<std::pair<std::string, std::string>> levels;  // (struct, member), leaf first
  const clang::Expr* e = strip(lhs);
  while (e) {
    if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
      e = strip(as->getBase());
    } else if (const auto* me = dyn_cast<MemberExpr>(e)) {
      const clang::Expr* base = me->getBase();
      levels.emplace_back(recordName(base->getType(), me->isArrow()), me->getMemberDecl()->getNameAsString());
      e = strip(base);
    } else if (const auto* alias = aliasOf(e)) {
      e = alias;  // `DevArgs& a = devProg->devArgs; a.x = ...` is a write to devProg->devArgs.x
    } else {
      break;
    }
  }
  std::vector<std::pair<std::string, std::string>> views;
  std::string path;
  for (const auto& [record, member] : levels) {  // leaf first: build paths from the leaf outwards
    path = path.empty() ? member : member + "." + path;
    if (!record.empty()) views.emplace_back(record, path);
  }
  std::reverse(views.begin(), views.end());
  return views;
}

class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
 public:
  WriteCollector(const Reader& r, std::vector<FieldWrite>& out) : r_(r), out_(out) {}
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp()) add(b, b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) add(u, u->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* c) {
    if (c->isAssignmentOp() && c->getNumArgs() > 0) add(c, c->getArg(0));
    return true;
  }
  // std::atomic stores: `x->flag.store(v)`.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr* c) {
    static const char* writes[] = {"store",
                                   "exchange",
                                   "fetch_add",
                                   "fetch_sub",
                                   "fetch_or",
                                   "fetch_and",
                                   "compare_exchange_weak",
                                   "compare_exchange_strong"};
    std::string n = calleeName(c);
    for (const char* w : writes)
      if (n == w) add(c, c->getImplicitObjectArgument());
    return true;
  }

 private:
  void add(const clang::Expr* at, const clang::Expr* target) {
    auto views = fieldViews(target);
    if (views.empty()) return;
    out_.push_back(FieldWrite{r_.loc(at), r_.spell(target), std::move(views)});
  }
  const Reader& r_;
  std::vector<FieldWrite>& out_;
};

// ---- the control tree ----

// Case label values as text: `Level::Info or Level::Debug`, `default`.
std::string labelText(const Reader& r, const std::vector<const clang::Expr*>& values, bool isDefault) {
  std::string text;
  for (const clang::Expr* v : values) text += (text.empty() ? "" : " or ") + r.spell(v);
  if (isDefault) text += text.empty() ? "default" : " or default";
  return text;
}

std::string caseText(const Reader& r, const std::vector<const SwitchCase*>& labels) {
  std::vector<const clang::Expr*> values;
  bool isDefault = false;
  for (const SwitchCase* c : labels) {
    if (const auto* cs = dyn_cast<CaseStmt>(c)) values.push_back(cs->getLHS());
    isDefault |= isa<DefaultStmt>(c);
  }
  return labelText(r, values, isDefault);
}

// `subject` taking one of the labels: atom printed, written as spelled.
PathLiteral caseLiteral(const Reader& r, const std::vector<const SwitchCase*>& labels, const std::string& subject,
                        const std::string& spelledSubject) {
  std::string values;
  for (const SwitchCase* c : labels)
    values += (values.empty() ? "" : "|") + (isa<CaseStmt>(c) ? r.print(cast<CaseStmt>(c)->getLHS()) : "default");
  return {subject + "==" + values, true, squash(spelledSubject) + "==" + squash(caseText(r, labels))};
}

// The same for a switch whose subject is read as written (no parameters bound).
PathLiteral caseLiteral(const Reader& r, const SwitchStmt* sw, const std::vector<const SwitchCase*>& labels) {
  return caseLiteral(r, labels, r.print(sw->getCond()), r.spell(sw->getCond()));
}

// An argument written as a name or a number needs no parentheses where it replaces a parameter.
bool isSimple(const clang::Expr* e) { return isa<DeclRefExpr>(e) || isa<MemberExpr>(e) || isa<IntegerLiteral>(e); }

// A switch's label group as text: `Level::Info or Level::Debug`, `default`.
std::string caseLabel(const Reader& r, const CaseGroup& c) { return labelText(r, c.values, c.isDefault); }

bool hasDefault(const std::vector<CaseGroup>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const CaseGroup& c) { return c.isDefault; });
}

class ControlBuilder {
 public:
  ControlBuilder(const Reader& r, const GapOf& gapOf, std::vector<std::string>& cut) : r_(r), gapOf_(gapOf), cut_(cut) {}

  ControlNode build(const clang::Stmt* s) {
    ControlNode seq;
    if (!s) return seq;
    if (const auto* cs = dyn_cast<CompoundStmt>(s)) {
      for (const clang::Stmt* c : cs->body()) seq.children.push_back(build(c));
    } else if (const auto* is = dyn_cast<IfStmt>(s)) {
      calls(is->getInit(), seq);
      calls(is->getCond(), seq);
      bool taken = false;
      if ((is->isConstexpr() || !is->getCond()->isValueDependent()) &&
          is->getCond()->EvaluateAsBooleanCondition(taken, r_.ctx())) {
        seq.children.push_back(build(taken ? is->getThen() : is->getElse()));
        return seq;
      }
      ControlNode n = node(ControlNode::Kind::If, is, r_.spell(is->getCond()));
      n.children = {build(is->getThen()), build(is->getElse())};
      seq.children.push_back(std::move(n));
    } else if (const auto* ws = dyn_cast<WhileStmt>(s)) {
      loop(ws, ws->getCond(), ws->getBody(), nullptr, seq);
    } else if (const auto* fs = dyn_cast<ForStmt>(s)) {
      seq.children.push_back(build(fs->getInit()));
      loop(fs, fs->getCond(), fs->getBody(), fs->getInc(), seq);
    } else if (const auto* ds = dyn_cast<DoStmt>(s)) {
      seq.children.push_back(build(ds->getBody()));
      loop(ds, ds->getCond(), ds->getBody(), nullptr, seq);
    } else if (const auto* rs = dyn_cast<CXXForRangeStmt>(s)) {
      calls(rs->getRangeInit(), seq);
      loop(rs, nullptr, rs->getBody(), nullptr, seq);
    } else if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
      calls(sw->getCond(), seq);
      ControlNode n = node(ControlNode::Kind::If, sw, r_.spell(sw->getCond()));
      n.children = cases(sw);
      seq.children.push_back(std::move(n));
    } else if (const auto* ret = dyn_cast<ReturnStmt>(s)) {
      calls(ret->getRetValue(), seq);
      seq.children.push_back(node(ControlNode::Kind::Return, ret, ""));
    } else if (isa<BreakStmt>(s)) {
      seq.children.push_back(node(ControlNode::Kind::Break, s, ""));
    } else if (isa<ContinueStmt>(s)) {
      seq.children.push_back(node(ControlNode::Kind::Continue, s, ""));
    } else if (const auto* ls = dyn_cast<LabelStmt>(s)) {
      return build(ls->getSubStmt());
    } else if (const auto* as = dyn_cast<AttributedStmt>(s)) {
      return build(as->getSubStmt());
    } else if (const auto* cs = dyn_cast<CaseStmt>(s)) {
      return build(cs->getSubStmt());
    } else if (const auto* dfs = dyn_cast<DefaultStmt>(s)) {
      return build(dfs->getSubStmt());
    } else {
      calls(s, seq);
    }
    return seq;
  }

  void enter(const FunctionDecl* fd) {
    stack_.push_back(fd->getCanonicalDecl());
    noteGap(fd);
  }

 private:
  ControlNode node(ControlNode::Kind k, const clang::Stmt* s, std::string name) {
    ControlNode n;
    n.kind = k;
    n.loc = r_.loc(s);
    n.name = std::move(name);
    return n;
  }

  // A switch as alternatives, one per case label (named by it); without a default, "no case" is
  // one more.
  std::vector<ControlNode> cases(const SwitchStmt* sw) {
    auto split = caseGroups(*sw);
    if (!split) return {build(sw->getBody()), ControlNode{}};
    std::vector<ControlNode> out;
    for (const CaseGroup& c : *split) {
      ControlNode alternative;
      alternative.name = caseLabel(r_, c);
      for (const clang::Stmt* st : c.stmts) alternative.children.push_back(build(st));
      out.push_back(std::move(alternative));
    }
    if (!hasDefault(*split)) out.emplace_back();
    return out;
  }

  void loop(const clang::Stmt* s, const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc,
            ControlNode& seq) {
    calls(cond, seq);
    ControlNode l = node(ControlNode::Kind::Loop, s, cond ? r_.spell(cond) : "");
    ControlNode b = build(body);
    calls(inc, b);
    calls(cond, b);
    l.children.push_back(std::move(b));
    seq.children.push_back(std::move(l));
  }

  void calls(const clang::Stmt* s, ControlNode& seq) {
    std::vector<const clang::Stmt*> found;
    collectSteps(s, found);
    for (const clang::Stmt* st : found) {
      const clang::Expr* value = nullptr;
      if (const MemberExpr* field = storedField(st, value)) {
        ControlNode n = node(ControlNode::Kind::Write, st, field->getMemberDecl()->getNameAsString());
        n.text = r_.spell(value);
        n.macro = r_.macroAt(value->getBeginLoc());
        seq.children.push_back(std::move(n));
        continue;
      }
      const auto* c = cast<CallExpr>(st);
      ControlNode n = node(ControlNode::Kind::Call, c, calleeName(c));
      n.text = r_.spell(c);
      n.macro = r_.macroAt(c->getBeginLoc());
      std::vector<const LambdaExpr*> lambdas;
      for (const clang::Expr* a : c->arguments())
        if (const LambdaExpr* l = lambdaIn(a)) lambdas.push_back(l);
      if (!lambdas.empty()) {
        // `ForEachManageAicore([&](int core) {...})`: the lambda runs once per element.
        ControlNode body;
        for (const LambdaExpr* l : lambdas) {
          ControlNode loop = node(ControlNode::Kind::Loop, l, "");
          loop.children.push_back(build(l->getBody()));
          body.children.push_back(std::move(loop));
        }
        n.children.push_back(std::move(body));
        seq.children.push_back(std::move(n));
        continue;
      }
      const FunctionDecl* def = r_.userDefinition(c);
      if (def && stack_.size() < kMaxInlineDepth && inlined_ < kMaxInlinedBodies &&
          std::find(stack_.begin(), stack_.end(), def->getCanonicalDecl()) == stack_.end()) {
        stack_.push_back(def->getCanonicalDecl());
        ++inlined_;
        noteGap(def);
        n.children.push_back(build(def->getBody()));
        stack_.pop_back();
      }
      seq.children.push_back(std::move(n));
    }
  }

  void noteGap(const FunctionDecl* fd) {
    if (!gapOf_) return;
    std::string g = gapOf_(fd);
    if (g.empty()) return;
    std::string entry = "'" + fd->getQualifiedNameAsString() + "': " + g;
    if (std::find(cut_.begin(), cut_.end(), entry) == cut_.end()) cut_.push_back(entry);
  }

  const Reader& r_;
  const GapOf& gapOf_;
  std::vector<std::string>& cut_;
  std::vector<const FunctionDecl*> stack_;
  int inlined_ = 0;
};

bool hasCall(const ControlNode& n) {
  if (n.kind == ControlNode::Kind::Call) return true;
  for (const auto& c : n.children)
    if (hasCall(c)) return true;
  return false;
}

// A condition (no leading `!`) as a canonical path literal (PathLiteral): a comparison with a
// constant on the left is turned round, `!=`, `>` and `>=` become the negations of `==`, `<=`
// and `<`. The atom is printed from the AST by `print`; `spell` writes the condition as the
// user did, for messages (both with parameters replaced, for a callee's condition).
template <class Spell, class Print>
PathLiteral canonicalLiteral(const clang::Expr* c, bool positive, const ASTContext& ctx, Spell&& spell,
                             Print&& print) {
  PathLiteral out{"", positive, squash(spell(c)), false};
  const auto* b = dyn_cast_or_null<BinaryOperator>(c);
  if (!b || !b->isComparisonOp()) {
    out.atom = print(c);
    return out;
  }
  const clang::Expr *lhs = strip(b->getLHS()), *rhs = strip(b->getRHS());
  BinaryOperatorKind op = b->getOpcode();
  if (evalInt(ctx, lhs) && !evalInt(ctx, rhs)) {
    std::swap(lhs, rhs);
    op = BinaryOperator::reverseComparisonOp(op);
  }
  bool negate = op == BO_NE || op == BO_GT || op == BO_GE;
  if (negate) op = BinaryOperator::negateComparisonOp(op);
  out.atom = print(lhs) + BinaryOperator::getOpcodeStr(op).str() + print(rhs);
  out.positive = positive != negate;
  out.writtenNegated = negate;
  return out;
}

// ---- timeouts ----

struct Env;
struct Bound {
  const clang::Expr* expr = nullptr;  // null: assigned something not followed (unknown)
  std::shared_ptr<const Env> env;     // where `expr` is evaluated
};
struct Env {
  std::map<const ValueDecl*, Bound> values;
};

class TimeoutResolver {
 public:
  explicit TimeoutResolver(const Reader& r) : r_(r) {}

  // Every value `e` can take, with the conditions under which it takes it.
  void resolve(const clang::Expr* e, const std::shared_ptr<const Env>& env, const std::vector<PathLiteral>& when,
               const std::vector<std::string>& through, int depth, std::vector<TimeoutValue>& out) {
    e = strip(e);
    if (!e || out.size() >= kMaxPaths) return;
    if (const auto* co = dyn_cast<ConditionalOperator>(e)) {
      Literal c = literal(co->getCond(), env);
      if (c.decided) {
        resolve(*c.decided ? co->getTrueExpr() : co->getFalseExpr(), env, when, through, depth, out);
        return;
      }
      auto whenTrue = when, whenFalse = when;
      if (addLiteral(whenTrue, c.lit)) resolve(co->getTrueExpr(), env, whenTrue, through, depth, out);
      if (addLiteral(whenFalse, c.lit.negated())) resolve(co->getFalseExpr(), env, whenFalse, through, depth, out);
      return;
    }
    TimeoutValue v;
    v.loc = r_.loc(e);
    v.text = r_.spell(e);
    v.when = when;
    v.through = through;
    std::string macro = r_.macroAt(e->getBeginLoc());
    if (!macro.empty()) v.names.push_back(macro);
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      const ValueDecl* d = dr->getDecl();
      if (env)
        if (auto it = env->values.find(d); it != env->values.end()) {
          if (it->second.expr)
            resolve(it->second.expr, it->second.env, when, through, depth, out);
          else
            out.push_back(v);
          return;
        }
      v.names.push_back(d->getNameAsString());
      if (auto value = evalInt(r_.ctx(), e)) {
        v.value = value;
        out.push_back(v);
        return;
      }
      if (const auto* var = dyn_cast<VarDecl>(d); var && !isa<ParmVarDecl>(var) && depth < kMaxInlineDepth) {
        // A variable of the function: every value assigned to it.
        size_t before = out.size();
        for (const clang::Expr* a : assignments(var)) resolve(a, env, when, through, depth + 1, out);
        if (out.size() > before) return;
      }
      out.push_back(v);
      return;
    }
    if (auto value = evalInt(r_.ctx(), e)) {
      v.value = value;
      out.push_back(v);
      return;
    }
    // `timeout_map[TIMEOUT_INDEX_DISPATCH]`: the element of each table the base can be.
    if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
      auto index = evalInt(r_.ctx(), as->getIdx());
      size_t before = out.size();
      if (index && depth < kMaxInlineDepth)
        for (const auto& [table, tableWhen] : tablesOf(as->getBase(), env, when))
          if (const auto* init = dyn_cast_or_null<InitListExpr>(strip(table->getInit()));
              init && *index >= 0 && static_cast<uint64_t>(*index) < init->getNumInits())
            resolve(init->getInit(static_cast<unsigned>(*index)), env, tableWhen, through, depth + 1, out);
      if (out.size() == before) out.push_back(v);
      return;
    }
    // `GetArbitTimeOutVal(arch) * ARBIT_LEVEL_WAIT_MULT`: each value of the variable side, scaled.
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Mul) {
      auto left = evalInt(r_.ctx(), b->getLHS()), right = evalInt(r_.ctx(), b->getRHS());
      if (left.has_value() != right.has_value()) {
        int64_t k = left ? *left : *right;
        size_t before = out.size();
        resolve(left ? b->getRHS() : b->getLHS(), env, when, through, depth, out);
        for (size_t i = before; i < out.size(); ++i) {
          out[i].factor *= k;
          if (out[i].value && __builtin_mul_overflow(*out[i].value, k, &*out[i].value)) out[i].value.reset();
          out[i].text += " * " + std::to_string(k);
          out[i].loc = v.loc;  // the product is written here
        }
        return;
      }
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      std::string name = calleeName(call);
      v.through.push_back(name);
      const FunctionDecl* def = r_.userDefinition(call);
      if (def && depth < kMaxInlineDepth) {
        auto callee = std::make_shared<Env>();
        for (unsigned i = 0; i < def->getNumParams() && i < call->getNumArgs(); ++i)
          callee->values[def->getParamDecl(i)] = Bound{call->getArg(i), env};
        size_t before = out.size();
        walkReturns(def, callee, when, v.through, depth + 1, out);
        if (out.size() > before) return;
      }
    }
    out.push_back(v);
  }

 private:
  using Literal = Branch;

  // The constant tables (`static constexpr uint64_t T[7] = {...}`) an array expression can be,
  // through a local pointer chosen by a condition: `arch == A5 ? TIMEOUT_MAP_A5 : TIMEOUT_MAP_A2A3`.
  std::vector<std::pair<const VarDecl*, std::vector<PathLiteral>>> tablesOf(const clang::Expr* base,
                                                                           const std::shared_ptr<const Env>& env,
                                                                           const std::vector<PathLiteral>& when) {
    std::vector<std::pair<const VarDecl*, std::vector<PathLiteral>>> out;
    base = strip(base);
    if (const auto* co = dyn_cast_or_null<ConditionalOperator>(base)) {
      Literal c = literal(co->getCond(), env);
      if (c.decided) return tablesOf(*c.decided ? co->getTrueExpr() : co->getFalseExpr(), env, when);
      auto whenTrue = when, whenFalse = when;
      if (addLiteral(whenTrue, c.lit)) out = tablesOf(co->getTrueExpr(), env, whenTrue);
      if (addLiteral(whenFalse, c.lit.negated())) {
        auto more = tablesOf(co->getFalseExpr(), env, whenFalse);
        out.insert(out.end(), more.begin(), more.end());
      }
      return out;
    }
    const auto* dr = dyn_cast_or_null<DeclRefExpr>(base);
    const auto* var = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!var || !var->getInit()) return out;
    if (isa<InitListExpr>(strip(var->getInit()))) {
      out.emplace_back(var, when);
      return out;
    }
    auto assigned = assignments(var);
    if (var->isLocalVarDecl() && assigned.size() == 1) return tablesOf(assigned.front(), env, when);
    return out;
  }

  // A condition as a path literal; decided when it is a constant (possibly through a parameter).
  Literal literal(const clang::Expr* c, const std::shared_ptr<const Env>& env) {
    bool negate = false;
    c = strip(c);
    while (const auto* u = dyn_cast_or_null<UnaryOperator>(c)) {
      if (u->getOpcode() != UO_LNot) break;
      negate = !negate;
      c = strip(u->getSubExpr());
    }
    Literal out;
    // `isOnlyOneSche && !isWaitCtrlLevel` with the second decided: the literal is the first.
    if (const auto* b = dyn_cast_or_null<BinaryOperator>(c); b && b->isLogicalOp()) {
      Literal l = literal(b->getLHS(), env), r = literal(b->getRHS(), env);
      bool isAnd = b->getOpcode() == BO_LAnd;
      auto flip = [&](Literal x) {
        if (x.decided) x.decided = *x.decided != negate;
        else x.lit.positive = x.lit.positive != negate;
        return x;
      };
      for (auto [side, other] : {std::pair{&l, &r}, std::pair{&r, &l}})
        if (side->decided) {
          if (*side->decided != isAnd) {  // false && x, true || x: decided
            out.decided = !isAnd != negate;
            return out;
          }
          return flip(*other);  // true && x, false || x: x
        }
    }
    // A local that holds one value (`bool isOnlyOneSche = n == 1;`): that value's literal.
    if (const auto* dr = dyn_cast_or_null<DeclRefExpr>(c); dr && (!env || !env->values.count(dr->getDecl())))
      if (const auto* var = dyn_cast<VarDecl>(dr->getDecl()); var && var->isLocalVarDecl() && var->getInit())
        if (auto assigned = assignments(var); assigned.size() == 1) {
          out = literal(assigned.front(), env);
          if (out.decided) out.decided = *out.decided != negate;
          else out.lit.positive = out.lit.positive != negate;
          return out;
        }
    if (const auto* dr = dyn_cast_or_null<DeclRefExpr>(c); dr && env)
      if (auto it = env->values.find(dr->getDecl()); it != env->values.end() && it->second.expr) {
        out = literal(it->second.expr, it->second.env);
        if (out.decided)
          out.decided = *out.decided != negate;
        else
          out.lit.positive = out.lit.positive != negate;
        return out;
      }
    bool value = false;
    if (c && !c->isValueDependent() && c->EvaluateAsBooleanCondition(value, r_.ctx())) {
      out.decided = value != negate;
      return out;
    }
    out.lit = canonicalLiteral(
        c, !negate, r_.ctx(), [&](const clang::Expr* e) { return spellBound(e, env); },
        [&](const clang::Expr* e) { return printBound(e, env); });
    return out;
  }

  // `c` printed from the AST with each parameter bound in `env` printed as its argument.
  std::string printBound(const clang::Expr* c, const std::shared_ptr<const Env>& env) {
    if (!env) return r_.print(c);
    return r_.print(c, [&](const DeclRefExpr* dr, llvm::raw_ostream& os) {
      auto it = env->values.find(dr->getDecl());
      if (!isa<ParmVarDecl>(dr->getDecl()) || it == env->values.end() || !it->second.expr) return false;
      const clang::Expr* arg = strip(it->second.expr);
      std::string text = printBound(arg, it->second.env);
      os << (isSimple(arg) ? text : "(" + text + ")");
      return true;
    });
  }

  // The spelling of `c` with each parameter bound in `env` replaced by its argument, so that
  // `n == 1` in a callee called with `scheNum` reads `scheNum == 1`, as the caller writes it.
  std::string spellBound(const clang::Expr* c, const std::shared_ptr<const Env>& env) {
    std::string text = r_.spell(c);
    if (!env || !c || c->getBeginLoc().isMacroID()) return text;
    const SourceManager& sm = r_.ctx().getSourceManager();
    unsigned begin = sm.getFileOffset(c->getBeginLoc());
    std::vector<std::pair<unsigned, std::pair<unsigned, std::string>>> edits;  // offset -> (length, text)
    std::vector<const clang::Stmt*> todo{c};
    while (!todo.empty()) {
      const clang::Stmt* s = todo.back();
      todo.pop_back();
      if (!s) continue;
      for (const clang::Stmt* child : s->children()) todo.push_back(child);
      const auto* dr = dyn_cast<DeclRefExpr>(s);
      if (!dr || dr->getBeginLoc().isMacroID() || !isa<ParmVarDecl>(dr->getDecl())) continue;
      auto it = env->values.find(dr->getDecl());
      if (it == env->values.end() || !it->second.expr) continue;
      unsigned at = sm.getFileOffset(dr->getBeginLoc());
      if (at < begin) continue;
      std::string arg = r_.spell(strip(it->second.expr));
      edits.push_back({at - begin,
                       {static_cast<unsigned>(dr->getNameInfo().getAsString().size()),
                        isSimple(strip(it->second.expr)) ? arg : "(" + arg + ")"}});
    }
    std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [offset, edit] : edits)
      if (offset + edit.first <= text.size()) text.replace(offset, edit.first, edit.second);
    return text;
  }

  // Paths through a callee (loops are not entered): every value it returns.
  struct ReturnsState : PathState {
    std::shared_ptr<const Env> env;
  };
  struct ReturnsWalker {
    TimeoutResolver& t;
    const std::vector<std::string>& through;
    int depth;
    std::vector<TimeoutValue>& out;

    bool element(const clang::Stmt* s, ReturnsState& st) {
      if (const auto* ds = dyn_cast<DeclStmt>(s)) {
        for (const Decl* d : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(d); v && v->getInit()) st.env = assign(st.env, v, v->getInit());
      } else if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) {
        if (const auto* dr = dyn_cast<DeclRefExpr>(strip(b->getLHS())))
          st.env = assign(st.env, dr->getDecl(), b->getOpcode() == BO_Assign ? b->getRHS() : nullptr);
      }
      return out.size() < kMaxPaths;
    }
    bool loop(const clang::Stmt*, ReturnsState&) { return true; }
    Branch branch(const clang::Expr* c, const ReturnsState& st) { return t.literal(c, st.env); }
    PathLiteral switchCase(const SwitchStmt* sw, const std::vector<const SwitchCase*>& labels, const ReturnsState& st) {
      return caseLiteral(t.r_, labels, t.printBound(sw->getCond(), st.env), t.spellBound(sw->getCond(), st.env));
    }
    void end(PathEnd how, const clang::Stmt* at, ReturnsState& st) {
      if (how != PathEnd::Return) return;
      if (const clang::Expr* value = cast<ReturnStmt>(at)->getRetValue())
        t.resolve(value, st.env, st.when, through, depth, out);
    }
  };

  void walkReturns(const FunctionDecl* fn, std::shared_ptr<const Env> env, const std::vector<PathLiteral>& when,
                   const std::vector<std::string>& through, int depth, std::vector<TimeoutValue>& out) {
    const FunctionCfg& cfg = r_.cfgOf(fn);
    if (!cfg.ok() || steps_ >= kMaxSteps) return;
    ReturnsWalker walker{*this, through, depth, out};
    size_t budget = std::min(kMaxPaths, kMaxSteps - steps_);
    PathEngine<ReturnsState, ReturnsWalker> engine(cfg, walker, nullptr, nullptr, budget);
    ReturnsState start;
    start.when = when;
    start.env = std::move(env);
    engine.run(cfg.entry(), 0, std::move(start));
    steps_ += budget - engine.forksLeft() + 1;
    cut_ |= engine.cut() || out.size() >= kMaxPaths;
  }

  static std::shared_ptr<const Env> assign(const std::shared_ptr<const Env>& env, const ValueDecl* d,
                                           const clang::Expr* value) {
    auto next = std::make_shared<Env>(env ? *env : Env{});
    next->values[d] = Bound{value, env};
    return next;
  }

 public:
  // Where the wait takes its timeout from: a local given its value once is followed to that
  // value (`timeout_cycles` -> `waitTimeout` -> `CalcWaitTimeout(isOnlyOneSche, false)`).
  const clang::Expr* source(const clang::Expr* timeout) {
    for (int hops = 0; hops < kMaxInlineDepth; ++hops) {
      const auto* dr = dyn_cast_or_null<DeclRefExpr>(strip(timeout));
      const auto* var = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      if (!var || isa<ParmVarDecl>(var) || !var->isLocalVarDecl()) break;
      auto values = assignments(var);
      if (values.size() != 1 || values[0] != var->getInit()) break;
      timeout = values[0];
    }
    return timeout;
  }

 private:
  // The initialiser of `var` and every plain assignment to it in its function.
  std::vector<const clang::Expr*> assignments(const VarDecl* var) {
    std::vector<const clang::Expr*> out;
    if (var->getInit()) out.push_back(var->getInit());
    const auto* fn = dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod());
    if (!fn || !fn->getBody()) return out;
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl* var;
      std::vector<const clang::Expr*>* out;
      bool VisitBinaryOperator(BinaryOperator* b) {
        if (b->getOpcode() != BO_Assign) return true;
        if (const auto* dr = dyn_cast<DeclRefExpr>(strip(b->getLHS())); dr && dr->getDecl() == var)
          out->push_back(b->getRHS());
        return true;
      }
    } finder;
    finder.var = var;
    finder.out = &out;
    finder.TraverseStmt(fn->getBody());
    return out;
  }

  const Reader& r_;
  size_t steps_ = 0;  // paths walked in all callees of one wait
  bool cut_ = false;  // a walk left paths out

 public:
  bool cut() const { return cut_ || steps_ >= kMaxSteps; }
};

// ---- spin waits ----

bool nameLooksLikeTimeout(const std::string& spelling) {
  std::string l = lower(spelling);
  return l.find("timeout") != std::string::npos || l.find("time_out") != std::string::npos ||
         l.find("deadline") != std::string::npos;
}

// `now - start`, `GetCycles()`: an elapsed-time or clock expression.
bool looksLikeElapsed(const clang::Expr* e) {
  e = strip(e);
  if (!e) return false;
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Sub) return true;
  if (const auto* c = dyn_cast<CallExpr>(e)) {
    std::string n = lower(calleeName(c));
    for (const char* w : {"cycle", "time", "tick", "now", "clock", "counter"})
      if (n.find(w) != std::string::npos) return true;
  }
  return false;
}

// A comparison of elapsed time with a timeout somewhere in `cond`: `now - start > timeout`, or a
// helper such as `IsTimeout(start, timeout)`.
struct TimeoutCheck {
  const clang::Expr* cmp = nullptr;  // the comparison or the helper call
  const clang::Expr* timeout = nullptr;
  bool expiredWhenTrue = true;  // `cond`'s part is true once the time is up
};

TimeoutCheck findTimeoutCheck(const Reader& r, const clang::Expr* cond, bool negated = false) {
  TimeoutCheck out;
  cond = strip(cond);
  if (!cond) return out;
  if (const auto* u = dyn_cast<UnaryOperator>(cond); u && u->getOpcode() == UO_LNot)
    return findTimeoutCheck(r, u->getSubExpr(), !negated);
  if (const auto* call = dyn_cast<CallExpr>(cond)) {
    std::string n = lower(calleeName(call));
    if (call->getNumArgs() == 0 || (n.find("timeout") == std::string::npos && n.find("expired") == std::string::npos))
      return out;
    out.cmp = call;
    out.timeout = call->getArg(call->getNumArgs() - 1);
    for (const clang::Expr* a : call->arguments())
      if (nameLooksLikeTimeout(r.spell(a))) out.timeout = a;
    out.expiredWhenTrue = !negated;
    return out;
  }
  const auto* b = dyn_cast<BinaryOperator>(cond);
  if (!b) return out;
  if (b->isLogicalOp()) {
    out = findTimeoutCheck(r, b->getLHS(), negated);
    return out.cmp ? out : findTimeoutCheck(r, b->getRHS(), negated);
  }
  if (!b->isRelationalOp()) return out;
  const clang::Expr *lhs = b->getLHS(), *rhs = b->getRHS();
  bool lName = nameLooksLikeTimeout(r.spell(lhs)), rName = nameLooksLikeTimeout(r.spell(rhs));
  bool timeoutOnRight;
  if (rName != lName)
    timeoutOnRight = rName;
  else if (looksLikeElapsed(lhs) != looksLikeElapsed(rhs))
    timeoutOnRight = looksLikeElapsed(lhs);
  else
    return out;
  bool greater = b->getOpcode() == BO_GT || b->getOpcode() == BO_GE;
  out.cmp = b;
  out.timeout = timeoutOnRight ? rhs : lhs;
  out.expiredWhenTrue = (timeoutOnRight ? greater : !greater) != negated;
  return out;
}

// Does `e` read state another thread can change: a field, a pointer, a call, a global, a volatile
// or atomic variable (not only locals)?
bool readsShared(const clang::Stmt* s) {
  if (!s) return false;
  if (isa<MemberExpr>(s) || isa<ArraySubscriptExpr>(s) || isa<CallExpr>(s) || isa<CXXDependentScopeMemberExpr>(s) ||
      isa<UnresolvedMemberExpr>(s))
    return true;
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_Deref) return true;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* v = dyn_cast<VarDecl>(dr->getDecl())) {
      QualType t = v->getType();
      if (v->hasGlobalStorage() || t.isVolatileQualified() || t->isAtomicType()) return true;
      if (const auto* rd = t->getAsCXXRecordDecl(); rd && rd->getNameAsString() == "atomic") return true;
    }
  for (const clang::Stmt* c : s->children())
    if (readsShared(c)) return true;
  return false;
}

// An `if` condition as a path literal: `!!x` and `!x` read as `x` true or false; `positive` says
// whether the branch taken is the one where it holds.
PathLiteral conditionLiteral(const Reader& r, const clang::Expr* cond, bool positive = true) {
  const clang::Expr* c = strip(cond);
  while (const auto* u = dyn_cast_or_null<UnaryOperator>(c)) {
    if (u->getOpcode() != UO_LNot) break;
    positive = !positive;
    c = strip(u->getSubExpr());
  }
  return canonicalLiteral(
      c, positive, r.ctx(), [&](const clang::Expr* e) { return r.spell(e); },
      [&](const clang::Expr* e) { return r.print(e); });
}

// The callee and macro names of a call, for judging hard failures.
void addCallName(const Reader& r, const CallExpr* c, std::vector<std::string>& names) {
  names.push_back(calleeName(c));
  std::string macro = r.macroAt(c->getBeginLoc());
  if (!macro.empty()) names.push_back(macro);
}

// The callee and macro names of the calls in `s` (but `skip`), for judging hard failures.
void addCallNames(const Reader& r, const clang::Stmt* s, std::vector<std::string>& names,
                  const CallExpr* skip = nullptr) {
  std::vector<const CallExpr*> found;
  collectCalls(s, found);
  for (const CallExpr* c : found)
    if (c != skip) addCallName(r, c, names);
}

// Does the function poll with a timeout (a loop whose condition or an `if` of whose body compares
// elapsed time with a timeout), itself or through the functions it calls (`depth` levels down)?
bool holdsSpinWait(const Reader& r, const FunctionDecl* fn, int depth) {
  if (!fn || !fn->getBody()) return false;
  std::vector<std::pair<const clang::Stmt*, bool>> todo{{fn->getBody(), false}};  // statement, in a loop
  while (!todo.empty()) {
    auto [s, inLoop] = todo.back();
    todo.pop_back();
    if (!s || isa<LambdaExpr>(s)) continue;
    if (const auto* is = dyn_cast<IfStmt>(s); is && inLoop && findTimeoutCheck(r, is->getCond()).cmp) return true;
    if (const auto* w = dyn_cast<WhileStmt>(s); w && findTimeoutCheck(r, w->getCond()).cmp) return true;
    if (const auto* c = dyn_cast<CallExpr>(s); c && depth > 0) {
      const FunctionDecl* callee = r.userDefinition(c);
      if (callee && callee != fn && holdsSpinWait(r, callee, depth - 1)) return true;
    }
    for (const clang::Stmt* child : s->children()) todo.push_back({child, inLoop || isLoop(s)});
  }
  return false;
}

// ---- what a caller does when the waiting function fails ----

constexpr int kMaxCallerDepth = 3;       // callers followed through `return` of the failure
constexpr size_t kMaxCallerPaths = 64;   // paths walked per call site
constexpr size_t kMaxContexts = 64;      // call sites per spin wait

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// `name` as a whole identifier in `text` replaced by `with` (a member named like it, after `.`,
// `->` or `::`, is not the parameter).
std::string replaceWord(const std::string& text, const std::string& name, const std::string& with) {
  std::string out;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    bool member = i > 0 && (text[i - 1] == '.' || (i > 1 && text.compare(i - 2, 2, "->") == 0) ||
                            (i > 1 && text.compare(i - 2, 2, "::") == 0));
    if (text.compare(i, name.size(), name) == 0 && (i == 0 || !word(text[i - 1])) && !member &&
        (i + name.size() == text.size() || !word(text[i + name.size()]))) {
      out += with;
      i += name.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

class CallerOutcomes {
 public:
  CallerOutcomes(const Reader& r, const CallSites& sites) : r_(r), sites_(sites) {}
  // Did a walk or the call sites followed leave some out (their budgets)?
  bool cut() const { return cut_; }

  // The contexts in which `fn` returning `returned` (on a wait's timeout) is decided.
  void follow(const FunctionDecl* fn, const clang::Expr* returned, const std::vector<TimeoutValue>& values, int depth,
              std::vector<WaitContext>& out) {
    auto it = sites_.find(fn->getCanonicalDecl());
    if (it == sites_.end() || depth >= kMaxCallerDepth) return;
    for (const CallSite& site : it->second) {
      if (out.size() >= kMaxContexts) {
        cut_ = true;
        return;
      }
      const FunctionDecl* caller = site.caller;
      if (!caller->getBody() || caller->getCanonicalDecl() == fn->getCanonicalDecl()) continue;
      // The values' conditions in the caller's terms. Values no call path above can pass (the
      // chip dispatch `if (arch == DAV_3510)` around every call of an A5-only helper) are dropped.
      std::vector<TimeoutValue> renamed;
      for (const TimeoutValue& v : values) {
        TimeoutValue up = v;
        up.when = inCallerTerms(v.when, fn, site.call);
        if (possible(up.when, caller, 0)) renamed.push_back(std::move(up));
      }
      std::vector<Path> paths;
      walkFrom(caller, site.call, returned, paths);
      WaitContext context{r_.loc(site.call), caller->getQualifiedNameAsString(), renamed, {}};
      for (auto& p : paths) {
        // The caller passes the failure on (returns the failed value, or an error code): its own
        // callers decide, if it has any. A success it returns ends the failure's path.
        if (p.exit.kind == WaitExit::Kind::Return && p.value && (p.forwards || containsAny(errorReturns_, p.exit.returned)) &&
            sites_.count(caller->getCanonicalDecl()) && depth + 1 < kMaxCallerDepth) {
          std::vector<TimeoutValue> onPath;  // the values this path can have, with its conditions
          for (const auto& v : renamed)
            if (compatible(v.when, p.exit.when)) {
              onPath.push_back(v);
              onPath.back().when.insert(onPath.back().when.end(), p.exit.when.begin(), p.exit.when.end());
            }
          size_t before = out.size();
          follow(caller, p.value, onPath, depth + 1, out);
          if (out.size() > before) continue;
        }
        context.exits.push_back(p.exit);
      }
      if (!context.exits.empty()) out.push_back(std::move(context));
    }
  }

 private:
  struct Path {
    WaitExit exit;
    const clang::Expr* value = nullptr;  // what a Return returns, resolved through the locals
    bool forwards = false;               // it returns the failed call's own result
  };
  using Env = std::map<const VarDecl*, const clang::Expr*>;  // local -> its value (null: unknown)

  // The paths from `call` on in `caller`: what it does once the call returned.
  void walkFrom(const FunctionDecl* caller, const CallExpr* call, const clang::Expr* returned, std::vector<Path>& out) {
    guards_.clear();
    const FunctionCfg& cfg = r_.cfgOf(caller);
    auto at = cfg.elementOf(call);
    if (!at || !guardsOf(caller->getBody(), call)) return;
    call_ = call;
    returned_ = returned;
    callee_ = call->getDirectCallee() ? call->getDirectCallee()->getCanonicalDecl() : nullptr;
    FollowWalker walker{*this, out};
    PathEngine<FollowState, FollowWalker> engine(cfg, walker, nullptr, call, kMaxCallerPaths);
    FollowState start;
    start.when = guards_;
    start.last = call;
    engine.run(at->first, at->second + 1, std::move(start));
    cut_ |= engine.cut() || out.size() >= kMaxCallerPaths;
  }

  // `when`, a callee's conditions, with the callee's parameters replaced by the call's arguments.
  std::vector<PathLiteral> inCallerTerms(std::vector<PathLiteral> when, const FunctionDecl* fn, const CallExpr* call) {
    for (unsigned i = 0; i < fn->getNumParams() && i < call->getNumArgs(); ++i) {
      const clang::Expr* arg = strip(call->getArg(i));
      std::string marker = paramMarker(fn->getParamDecl(i)), printed = r_.print(arg);
      if (!isSimple(arg)) printed = "(" + printed + ")";
      for (auto& l : when) l.atom = replaceAll(l.atom, marker, printed);
      // The messages' spelling: the caller's name for a simple argument.
      std::string param = fn->getParamDecl(i)->getNameAsString(), written = squash(r_.spell(arg));
      if (!isSimple(arg) || param.empty() || param == written) continue;
      for (auto& l : when) l.written = replaceWord(l.written, param, written);
    }
    return when;
  }

  // Can conditions `when` (in `fn`'s terms) hold where `fn` runs: does some call path up to
  // `fn`, through the `if`s around each call, allow them?
  bool possible(const std::vector<PathLiteral>& when, const FunctionDecl* fn, int depth) {
    auto it = sites_.find(fn->getCanonicalDecl());
    if (it == sites_.end() || it->second.empty() || depth >= kMaxCallerDepth) return true;
    for (const CallSite& site : it->second) {
      if (!site.caller->getBody() || site.caller->getCanonicalDecl() == fn->getCanonicalDecl()) return true;
      std::vector<PathLiteral> up = inCallerTerms(when, fn, site.call);
      if (compatible(up, guardsAt(site)) && possible(up, site.caller, depth + 1)) return true;
    }
    return false;
  }

  const std::vector<PathLiteral>& guardsAt(const CallSite& site) {
    auto [it, fresh] = guardsAt_.try_emplace(site.call);
    if (fresh) {
      guards_.clear();
      guardsOf(site.caller->getBody(), site.call);
      it->second = guards_;
    }
    return it->second;
  }

  // Adds to guards_ the conditions of the `if`s whose branch holds `call`; false when `s` does
  // not hold it.
  bool guardsOf(const clang::Stmt* s, const CallExpr* call) {
    if (!s || !contains(s, call)) return false;
    if (const auto* is = dyn_cast<IfStmt>(s); is && !contains(is->getCond(), call) && !contains(is->getInit(), call)) {
      bool inThen = contains(is->getThen(), call);
      bool taken = false;
      if (!(is->getCond()->EvaluateAsBooleanCondition(taken, r_.ctx())))
        guards_.push_back(conditionLiteral(r_, is->getCond(), inThen));
      return guardsOf(inThen ? is->getThen() : is->getElse(), call);
    }
    for (const clang::Stmt* c : s->children())
      if (!isa_and_nonnull<LambdaExpr>(c) && contains(c, call)) return guardsOf(c, call);
    return true;
  }

  struct FollowState : PathState {
    Env env;
    std::vector<std::string> calls;
  };

  // What a path after the failed call does: waits again, returns (what), or runs off the end.
  struct FollowWalker {
    CallerOutcomes& c;
    std::vector<Path>& out;

    bool element(const clang::Stmt* s, FollowState& st) {
      if (out.size() >= kMaxCallerPaths) return false;
      if (const auto* call = dyn_cast<CallExpr>(s)) {
        if (c.retries(call)) return retried(s, st);
        c.addCall(call, st.calls);
      } else if (const auto* ds = dyn_cast<DeclStmt>(s)) {
        for (const Decl* d : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(d); v && v->getInit()) st.env[v] = c.valueOf(v->getInit(), st);
      } else if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign) {
        if (const auto* dr = dyn_cast<DeclRefExpr>(strip(b->getLHS())))
          if (const auto* var = dyn_cast<VarDecl>(dr->getDecl())) st.env[var] = c.valueOf(b->getRHS(), st);
      }
      return true;
    }
    // A loop is not entered (its body is not part of the failure's path) unless it waits again.
    bool loop(const clang::Stmt* s, FollowState& st) { return !c.retries(s) || retried(s, st); }
    Branch branch(const clang::Expr* cond, const FollowState& st) {
      if (auto v = c.eval(cond, st)) return {*v != 0, {}};
      return {std::nullopt, conditionLiteral(c.r_, cond)};
    }
    PathLiteral switchCase(const SwitchStmt* sw, const std::vector<const SwitchCase*>& labels, const FollowState&) {
      return caseLiteral(c.r_, sw, labels);
    }
    void end(PathEnd how, const clang::Stmt* at, FollowState& st) {
      if (how != PathEnd::Return) {
        const clang::Stmt* last = st.last ? st.last : c.call_;
        out.push_back({WaitExit{c.r_.loc(last), WaitExit::Kind::FallThrough, "", st.calls, st.when}, nullptr});
        return;
      }
      const auto* ret = cast<ReturnStmt>(at);
      const clang::Expr* value = ret->getRetValue() ? c.valueOf(ret->getRetValue(), st) : nullptr;
      if (const auto* dr = dyn_cast_or_null<DeclRefExpr>(value ? strip(value) : nullptr))
        if (const auto* var = dyn_cast<VarDecl>(dr->getDecl()); var && st.env.count(var) && st.env[var])
          value = st.env[var];
      std::string text = value ? c.r_.spell(strip(value)) : "";
      out.push_back({WaitExit{c.r_.loc(ret), WaitExit::Kind::Return, text, st.calls, st.when}, value,
                     value == c.returned_});
    }
    // Waits again (the next level): the failure is not final.
    bool retried(const clang::Stmt* s, FollowState& st) {
      WaitExit e{c.r_.loc(s), WaitExit::Kind::FallThrough, "", st.calls, st.when};
      e.retried = true;
      out.push_back({e, nullptr});
      return false;
    }
  };

  std::optional<int64_t> eval(const clang::Expr* e, const FollowState& st, int depth = 0) {
    e = strip(e);
    if (!e || depth > 8) return std::nullopt;
    if (e == call_) return eval(returned_, st, depth + 1);
    if (auto v = evalInt(r_.ctx(), e)) return v;
    if (const auto* dr = dyn_cast<DeclRefExpr>(e))
      if (const auto* var = dyn_cast<VarDecl>(dr->getDecl()))
        if (auto it = st.env.find(var); it != st.env.end() && it->second) return eval(it->second, st, depth + 1);
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_LNot)
      if (auto v = eval(u->getSubExpr(), st, depth + 1)) return !*v;
    if (const auto* co = dyn_cast<ConditionalOperator>(e)) {
      std::optional<int64_t> c;
      if (auto arm = st.arms.find(co); arm != st.arms.end()) c = arm->second;
      if (!c) c = eval(co->getCond(), st, depth + 1);
      if (c) return eval(*c ? co->getTrueExpr() : co->getFalseExpr(), st, depth + 1);
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      auto l = eval(b->getLHS(), st, depth + 1), r = eval(b->getRHS(), st, depth + 1);
      if (b->getOpcode() == BO_LAnd) {
        if ((l && !*l) || (r && !*r)) return 0;
        if (l && r) return 1;
        return std::nullopt;
      }
      if (b->getOpcode() == BO_LOr) {
        if ((l && *l) || (r && *r)) return 1;
        if (l && r) return 0;
        return std::nullopt;
      }
      if (!l || !r) return std::nullopt;
      switch (b->getOpcode()) {
        case BO_EQ: return *l == *r;
        case BO_NE: return *l != *r;
        case BO_LT: return *l < *r;
        case BO_GT: return *l > *r;
        case BO_LE: return *l <= *r;
        case BO_GE: return *l >= *r;
        default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // The value a local gets from `rhs`: the failed call's result, the side of a `?:` the path
  // took, or the expression.
  const clang::Expr* valueOf(const clang::Expr* rhs, const FollowState& st) {
    rhs = strip(rhs);
    if (rhs == call_) return returned_;
    if (const auto* co = dyn_cast_or_null<ConditionalOperator>(rhs))
      if (auto arm = st.arms.find(co); arm != st.arms.end())
        return valueOf(arm->second ? co->getTrueExpr() : co->getFalseExpr(), st);
    return rhs;
  }

  // Does `s` wait again: call the waiting function, or another function that spin-waits (the
  // next level of a degradation: `if (!WaitSameCluster(...)) for (n...) WaitAny(n)`)?
  bool retries(const clang::Stmt* s) {
    if (!callee_) return false;
    std::vector<const CallExpr*> found;
    collectCalls(s, found);
    for (const CallExpr* c : found) {
      if (c == call_ || !c->getDirectCallee()) continue;
      if (c->getDirectCallee()->getCanonicalDecl() == callee_) return true;
      const FunctionDecl* fn = r_.userDefinition(c);
      if (!fn) continue;
      auto known = waits_.find(fn);
      if (known == waits_.end()) known = waits_.emplace(fn, holdsSpinWait(r_, fn, 1)).first;
      if (known->second) return true;
    }
    return false;
  }

  void addCall(const CallExpr* call, std::vector<std::string>& names) {
    if (call != call_) addCallName(r_, call, names);
  }

  static bool containsAny(const std::vector<std::string>& words, const std::string& text) {
    for (const auto& w : words)
      if (text.find(w) != std::string::npos) return true;
    return false;
  }
  // Returned values that pass a failure on to the callers: the words of timing-hard-wait-timeout's
  // error-returns defaults, and `false` (the front end does not read configuration).
  const std::vector<std::string> errorReturns_{"ERR", "FAIL", "Err", "Fail", "-1", "false"};
  const Reader& r_;
  const CallSites& sites_;
  const CallExpr* call_ = nullptr;
  const clang::Expr* returned_ = nullptr;
  const FunctionDecl* callee_ = nullptr;
  std::vector<PathLiteral> guards_;  // the conditions the call site runs under
  bool cut_ = false;                  // a walk or the call sites followed left some out
  std::map<const CallExpr*, std::vector<PathLiteral>> guardsAt_;  // guardsOf, per call site asked about
  std::map<const FunctionDecl*, bool> waits_;  // holdsSpinWait, per callee asked about
};

class WaitCollector : public RecursiveASTVisitor<WaitCollector> {
 public:
  WaitCollector(const Reader& r, std::vector<SpinWait>& out, const FunctionDecl* fn, const CallSites* sites)
      : r_(r), out_(out), fn_(fn), sites_(sites), fns_{fn} {}

  // A wait in a lambda's body is in the lambda's CFG.
  bool TraverseLambdaExpr(LambdaExpr* l) {
    fns_.push_back(l->getCallOperator());
    bool goOn = RecursiveASTVisitor::TraverseLambdaExpr(l);
    fns_.pop_back();
    return goOn;
  }

  bool VisitWhileStmt(WhileStmt* s) { return loop(s, s->getCond(), s->getBody()); }
  bool VisitDoStmt(DoStmt* s) { return onceOnly(s) ? true : loop(s, s->getCond(), s->getBody()); }
  bool VisitForStmt(ForStmt* s) { return loop(s, s->getCond(), s->getBody()); }

  // `while (!ready && elapsed < timeout) {}` followed by `if (...) { fail }`.
  bool VisitCompoundStmt(CompoundStmt* cs) {
    const clang::Stmt* prev = nullptr;
    for (const clang::Stmt* s : cs->body()) {
      const clang::Expr* cond = nullptr;
      if (const auto* w = dyn_cast_or_null<WhileStmt>(prev))
        cond = w->getCond();
      else if (const auto* d = dyn_cast_or_null<DoStmt>(prev); d && !onceOnly(d))
        cond = d->getCond();
      else if (const auto* f = dyn_cast_or_null<ForStmt>(prev))
        cond = f->getCond();
      const auto* after = dyn_cast<IfStmt>(s);
      prev = s;
      if (!cond || !after) continue;
      TimeoutCheck check = findTimeoutCheck(r_, cond);
      if (!check.cmp || check.expiredWhenTrue) continue;
      SpinWait w = wait(cond, check);
      w.loc = r_.loc(cond);
      if (const auto* both = dyn_cast<BinaryOperator>(strip(cond)); both && both->getOpcode() == BO_LAnd)
        w.polled = r_.spell(contains(both->getRHS(), check.cmp) ? both->getLHS() : both->getRHS());
      w.exits = exits(after, true);
      w.pathsCut |= exitsCut_;
      decideInCallers(w);
      out_.push_back(std::move(w));
    }
    return true;
  }

 private:
  bool loop(const clang::Stmt* s, const clang::Expr* cond, const clang::Stmt* body) {
    const IfStmt* timeoutIf = nullptr;
    TimeoutCheck check;
    findTimeoutIf(body, timeoutIf, check);
    if (!timeoutIf) return true;
    SpinWait w = wait(cond, check);
    w.loc = r_.loc(s);
    bool constant = false;
    if (!cond || (!cond->isValueDependent() && cond->EvaluateAsBooleanCondition(constant, r_.ctx())))
      w.polled = pollInBody(body, timeoutIf);
    w.sharedPoll |= sharedPollInBody(body, timeoutIf) || reloadedFromShared(cond, body);
    w.exits = exits(timeoutIf, check.expiredWhenTrue);
    w.pathsCut |= exitsCut_;
    decideInCallers(w);
    out_.push_back(std::move(w));
    return true;
  }

  SpinWait wait(const clang::Expr* cond, const TimeoutCheck& check) {
    SpinWait w;
    w.polled = cond ? r_.spell(cond) : "";
    w.sharedPoll = cond && readsShared(cond);
    w.checkLoc = r_.loc(check.cmp);
    w.timeoutText = r_.spell(check.timeout);
    TimeoutResolver resolver(r_);  // a fresh budget per wait
    const clang::Expr* source = resolver.source(check.timeout);
    w.timeoutLoc = r_.loc(source);
    w.timeoutSource = r_.spell(strip(source));
    resolver.resolve(check.timeout, nullptr, {}, {}, 0, w.values);
    w.pathsCut = resolver.cut() || w.values.size() >= kMaxPaths;
    return w;
  }

  // The first `if` of the loop body (not of a nested loop) that compares elapsed time with a timeout.
  void findTimeoutIf(const clang::Stmt* s, const IfStmt*& found, TimeoutCheck& check) {
    if (!s || found || isLoop(s) || isa<LambdaExpr>(s)) return;
    if (const auto* is = dyn_cast<IfStmt>(s)) {
      TimeoutCheck c = findTimeoutCheck(r_, is->getCond());
      if (c.cmp) {
        found = is;
        check = c;
        return;
      }
    }
    for (const clang::Stmt* c : s->children()) findTimeoutIf(c, found, check);
  }

  // `while (level == UNSET) { ...; level = x.load(); }`: the condition reads a local that the
  // body reloads from shared state.
  bool reloadedFromShared(const clang::Expr* cond, const clang::Stmt* body) {
    std::set<const VarDecl*> locals;
    std::vector<const clang::Stmt*> todo{cond};
    while (!todo.empty()) {
      const clang::Stmt* s = todo.back();
      todo.pop_back();
      if (!s) continue;
      if (const auto* dr = dyn_cast<DeclRefExpr>(s))
        if (const auto* v = dyn_cast<VarDecl>(dr->getDecl()); v && v->isLocalVarDecl()) locals.insert(v);
      for (const clang::Stmt* c : s->children()) todo.push_back(c);
    }
    if (locals.empty()) return false;
    bool reloaded = false;
    todo = {body};
    while (!todo.empty() && !reloaded) {
      const clang::Stmt* s = todo.back();
      todo.pop_back();
      if (!s) continue;
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
        if (const auto* dr = dyn_cast<DeclRefExpr>(strip(b->getLHS())))
          reloaded |= locals.count(dyn_cast<VarDecl>(dr->getDecl())) && readsShared(b->getRHS());
      for (const clang::Stmt* c : s->children()) todo.push_back(c);
    }
    return reloaded;
  }

  // In `while (true)` loops the poll is an `if (...) break;` of the body.
  std::string pollInBody(const clang::Stmt* body, const IfStmt* timeoutIf) {
    std::string out;
    forEachExitIf(body, timeoutIf, [&](const IfStmt* is) {
      if (out.empty()) out = r_.spell(is->getCond());
    });
    return out;
  }
  bool sharedPollInBody(const clang::Stmt* body, const IfStmt* timeoutIf) {
    bool shared = false;
    forEachExitIf(body, timeoutIf, [&](const IfStmt* is) { shared |= readsShared(is->getCond()); });
    return shared;
  }
  template <class F>
  void forEachExitIf(const clang::Stmt* s, const IfStmt* skip, F&& f) {
    if (!s || isLoop(s) || isa<LambdaExpr>(s)) return;
    if (const auto* is = dyn_cast<IfStmt>(s); is && is != skip) {
      const clang::Stmt* then = is->getThen();
      bool leaves = isa<BreakStmt>(then) || isa<ReturnStmt>(then);
      if (const auto* cs = dyn_cast<CompoundStmt>(then))
        for (const clang::Stmt* c : cs->body()) leaves |= isa<BreakStmt>(c) || isa<ReturnStmt>(c);
      if (leaves) f(is);
    }
    for (const clang::Stmt* c : s->children()) forEachExitIf(c, skip, f);
  }

  // Every path out of a side of the timeout's `if`: its calls, how it leaves, under which conditions.
  std::vector<WaitExit> exits(const IfStmt* timeoutIf, bool thenSide) {
    std::vector<WaitExit> out;
    returns_.clear();
    const clang::Stmt* branch = thenSide ? timeoutIf->getThen() : timeoutIf->getElse();
    if (!branch) {  // nothing happens: the path goes on after the `if`
      out.push_back(WaitExit{SourceLoc{}, WaitExit::Kind::FallThrough, "", {}, {}});
      return out;
    }
    const FunctionCfg& cfg = r_.cfgOf(fns_.back());
    const CFGBlock* start = cfg.successorOf(timeoutIf, thenSide ? 0 : 1);
    if (!start) {
      // No CFG (Clang could not build one): the branch's calls, as one path.
      std::vector<std::string> calls;
      addCallNames(r_, branch, calls);
      out.push_back(WaitExit{r_.loc(timeoutIf), WaitExit::Kind::FallThrough, "", calls, {}});
      return out;
    }
    ExitWalker walker{*this, out};
    PathEngine<ExitState, ExitWalker> engine(cfg, walker, branch, branch, kMaxPaths);
    ExitState begin;
    begin.last = branch;
    engine.run(start, 0, std::move(begin));
    exitsCut_ = engine.cut() || out.size() >= kMaxPaths;
    return out;
  }

  // A timeout that returns a value from a function the file calls: what it means is what the
  // callers do with that value (`return false` -> `level = FAILED` -> `DEV_ERROR`).
  void decideInCallers(SpinWait& w) {
    if (!sites_ || !fn_) return;
    CallerOutcomes callers(r_, *sites_);
    for (size_t i = 0; i < w.exits.size(); ++i) {
      auto ret = returns_.find(i);
      if (ret == returns_.end() || !ret->second->getRetValue()) continue;
      std::vector<TimeoutValue> values = w.values;
      for (auto& v : values) v.when.insert(v.when.end(), w.exits[i].when.begin(), w.exits[i].when.end());
      size_t before = w.callers.size();
      callers.follow(fn_, ret->second->getRetValue(), values, 0, w.callers);
      if (w.callers.size() > before) w.exits[i].decidedByCaller = true;
    }
    w.pathsCut |= callers.cut();
  }
  struct ExitState : PathState {
    std::vector<std::string> calls;
  };
  struct ExitWalker {
    WaitCollector& c;
    std::vector<WaitExit>& out;

    bool element(const clang::Stmt* s, ExitState& st) {
      if (const auto* call = dyn_cast<CallExpr>(s)) addCallName(c.r_, call, st.calls);
      return out.size() < kMaxPaths;
    }
    // A loop of the branch (`for (core...) Report(core)`) is not walked; its calls count.
    bool loop(const clang::Stmt* s, ExitState& st) {
      for (const clang::Stmt* part : s->children())
        if (!isa_and_nonnull<clang::Expr>(part)) addCallNames(c.r_, part, st.calls);
      return true;
    }
    Branch branch(const clang::Expr* cond, const ExitState&) { return {std::nullopt, conditionLiteral(c.r_, cond)}; }
    PathLiteral switchCase(const SwitchStmt* sw, const std::vector<const SwitchCase*>& labels, const ExitState&) {
      return caseLiteral(c.r_, sw, labels);
    }
    void end(PathEnd how, const clang::Stmt* at, ExitState& st) {
      if (how == PathEnd::Return) {
        const auto* ret = cast<ReturnStmt>(at);
        c.returns_[out.size()] = ret;
        out.push_back(WaitExit{c.r_.loc(ret), WaitExit::Kind::Return,
                               ret->getRetValue() ? c.r_.spell(ret->getRetValue()) : "", st.calls, st.when});
      } else if (how == PathEnd::Break) {
        out.push_back(WaitExit{c.r_.loc(at), WaitExit::Kind::Break, "", st.calls, st.when});
      } else {
        out.push_back(WaitExit{st.last ? c.r_.loc(st.last) : SourceLoc{}, WaitExit::Kind::FallThrough, "", st.calls,
                               st.when});
      }
    }
  };

  const Reader& r_;
  std::vector<SpinWait>& out_;
  const FunctionDecl* fn_;
  const CallSites* sites_;
  std::vector<const FunctionDecl*> fns_;          // the function (or lambda) being walked, innermost last
  std::map<size_t, const ReturnStmt*> returns_;  // exit index -> its return, for the last exits()
  bool exitsCut_ = false;                         // the last exits() left paths out
};

}  // namespace

Kernel modelMachineFunction(ASTContext& ctx, const FunctionDecl& fn, const std::string& arch, const CppFacts& file,
                            MachineFacts m, bool& hasFacts, const GapOf& gapOf, const CallSites* callSites) {
  Reader r(ctx);
  Kernel k;
  k.name = fn.getQualifiedNameAsString();
  k.kind = KernelKind::Machine;
  k.frontEnd = FrontEnd::Cpp;
  k.arch = arch;
  k.loc = locOf(ctx, fn.getLocation());
  k.file = k.loc.file;
  k.body = ptov::Stmt::seq();
  WriteCollector(r, m.writes).TraverseStmt(fn.getBody());
  ControlBuilder builder(r, gapOf, m.cut);
  builder.enter(&fn);
  m.body = builder.build(fn.getBody());
  WaitCollector(r, m.waits, &fn, callSites).TraverseStmt(fn.getBody());
  hasFacts = !m.writes.empty() || !m.waits.empty() || hasCall(m.body);
  if (!hasFacts) return k;
  // The file's constants are for judging timeouts: a function without a spin wait does not
  // carry a copy (a real tree's headers define thousands).
  auto facts = std::make_shared<CppFacts>();
  facts->staticAsserts = file.staticAsserts;
  if (!m.waits.empty()) facts->constants = file.constants;
  facts->machine = std::move(m);
  k.cpp = facts;
  return k;
}

}  // namespace ptov::cpp
