#include "analyzer/cpp/paths.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

#include <set>

namespace ptov::cpp {

using namespace clang;

bool contains(const Stmt* outer, const Stmt* s) {
  if (!outer || !s) return false;
  if (outer == s) return true;
  for (const Stmt* c : outer->children())
    if (contains(c, s)) return true;
  return false;
}

bool onceOnly(const Stmt* s) {
  const auto* d = dyn_cast_or_null<DoStmt>(s);
  if (!d) return false;
  const Expr* c = d->getCond()->IgnoreParenImpCasts();
  if (const auto* lit = dyn_cast<IntegerLiteral>(c)) return lit->getValue() == 0;
  const auto* b = dyn_cast<CXXBoolLiteralExpr>(c);
  return b && !b->getValue();
}

bool isLoop(const Stmt* s) {
  return isa<WhileStmt>(s) || isa<ForStmt>(s) || (isa<DoStmt>(s) && !onceOnly(s)) || isa<CXXForRangeStmt>(s);
}

FunctionCfg::FunctionCfg(const FunctionDecl& fn, ASTContext& ctx) : body_(fn.getBody()) {
  if (!body_) return;
  CFG::BuildOptions options;
  // Constant conditions are the walkers' to decide (through their bindings); a pruned exit
  // edge would also lose what follows a `while (true)` that is left by `break`.
  options.PruneTriviallyFalseEdges = false;
  cfg_ = CFG::buildCFG(&fn, const_cast<Stmt*>(body_), &ctx, options);
  if (!cfg_) return;
  parents_ = std::make_unique<ParentMap>(const_cast<Stmt*>(body_));
  for (const CFGBlock* b : *cfg_) {
    for (unsigned i = 0; i < b->size(); ++i)
      if (auto e = (*b)[i].getAs<CFGStmt>()) elements_.emplace(e->getStmt(), std::make_pair(b, i));
    if (const Stmt* t = b->getTerminatorStmt()) terminators_.emplace(t, b);
  }
}

std::optional<std::pair<const CFGBlock*, unsigned>> FunctionCfg::elementOf(const Stmt* s) const {
  auto it = elements_.find(s);
  if (it == elements_.end()) return std::nullopt;
  return it->second;
}

const CFGBlock* FunctionCfg::successorOf(const Stmt* terminator, unsigned index) const {
  auto it = terminators_.find(terminator);
  if (it == terminators_.end() || index >= it->second->succ_size()) return nullptr;
  return *(it->second->succ_begin() + index);
}

bool FunctionCfg::inside(const Stmt* s, const Stmt* region) const {
  if (!region) return true;
  for (int hops = 0; s && hops < 4096; ++hops, s = parents_->getParent(s))
    if (s == region) return true;
  return false;
}

const Stmt* FunctionCfg::anchor(const CFGBlock* b) const {
  auto known = [&](const Stmt* s) { return s == body_ || parents_->getParent(s) != nullptr; };
  if (const Stmt* t = b->getTerminatorStmt(); t && known(t)) return t;
  for (const CFGElement& e : *b)
    if (auto s = e.getAs<CFGStmt>(); s && known(s->getStmt())) return s->getStmt();
  return nullptr;
}

namespace {

bool isLogical(const Stmt* s) {
  const auto* b = dyn_cast_or_null<BinaryOperator>(s);
  return b && b->isLogicalOp();
}

// The condition of a statement that branches (or loops) on it.
const Expr* conditionOf(const Stmt* s) {
  if (const auto* x = dyn_cast<IfStmt>(s)) return x->getCond();
  if (const auto* x = dyn_cast<WhileStmt>(s)) return x->getCond();
  if (const auto* x = dyn_cast<DoStmt>(s)) return x->getCond();
  if (const auto* x = dyn_cast<ForStmt>(s)) return x->getCond();
  if (const auto* x = dyn_cast<SwitchStmt>(s)) return x->getCond();
  return nullptr;
}

}  // namespace

FunctionCfg::Unit FunctionCfg::unitOf(const Stmt* t) const {
  // The outermost `&&` / `||` chain `t` is part of (through parentheses, casts and `!`).
  const Stmt* chain = t;
  for (const Stmt* p = parents_->getParent(t); p && isa<Expr>(p); p = parents_->getParent(p)) {
    if (isLogical(p))
      chain = p;
    else if (!isa<ParenExpr>(p) && !isa<ImplicitCastExpr>(p) &&
             !(isa<UnaryOperator>(p) && cast<UnaryOperator>(p)->getOpcode() == UO_LNot))
      break;
  }
  const Stmt* above = parents_->getParent(chain);
  while (above && (isa<ParenExpr>(above) || isa<ImplicitCastExpr>(above))) above = parents_->getParent(above);
  // `(a && b) ? x : y`: the chain is the `?:`'s condition, branched on there.
  if (const auto* co = dyn_cast_or_null<AbstractConditionalOperator>(above);
      co && chain != t && inside(chain, co->getCond()))
    if (auto at = terminators_.find(co); at != terminators_.end()) return {co->getCond(), at->second};
  // Part of a statement's condition (`if (unlikely(a || b))`): the statement branches on it whole.
  const Stmt* child = chain;
  const Stmt* owner = parents_->getParent(chain);
  while (owner && isa<Expr>(owner)) child = owner, owner = parents_->getParent(owner);
  if (owner && conditionOf(owner) == child)
    if (auto at = terminators_.find(owner); at != terminators_.end()) return {conditionOf(owner), at->second};
  // A value's `a && b`: evaluated whole where it is used.
  if (chain != t || isLogical(t))
    if (auto at = elements_.find(chain); at != elements_.end()) return {cast<Expr>(chain), at->second.first};
  return {};  // a `?:` value: branched on
}

std::vector<const CFGBlock*> FunctionCfg::unitBlocks(const CFGBlock* from, const Unit& u) const {
  std::vector<const CFGBlock*> order;  // reverse post-order: each block after those leading to it
  std::set<const CFGBlock*> seen{from, u.end};
  std::vector<std::pair<const CFGBlock*, unsigned>> stack{{from, 0}};
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < b->succ_size()) {
      const CFGBlock* s = *(b->succ_begin() + next++);
      const Stmt* a = s ? anchor(s) : nullptr;
      if (s && a && inside(a, u.within) && seen.insert(s).second) stack.push_back({s, 0});
      continue;
    }
    if (b != from) order.push_back(b);
    stack.pop_back();
  }
  return {order.rbegin(), order.rend()};
}

const Stmt* FunctionCfg::breakTarget(const Stmt* brk) const {
  for (const Stmt* s = parents_->getParent(brk); s; s = parents_->getParent(s))
    if (isa<WhileStmt>(s) || isa<ForStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<SwitchStmt>(s))
      return s;
  return nullptr;
}

std::vector<const Stmt*> FunctionCfg::doLoopsHolding(const CFGBlock* b) const {
  auto [it, fresh] = doLoops_.try_emplace(b);
  if (!fresh) return it->second;
  const Stmt* child = anchor(b);
  for (const Stmt* s = child ? parents_->getParent(child) : nullptr; s; child = s, s = parents_->getParent(s))
    if (const auto* d = dyn_cast<DoStmt>(s); d && !onceOnly(d) && d->getBody() == child) it->second.push_back(d);
  return it->second;
}

}  // namespace ptov::cpp
