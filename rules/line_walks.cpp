#include "rules/line_walks.h"

#include <map>

namespace ptov {
namespace {

using K = Expr::Kind;

ExprPtr plus(const ExprPtr& a, const ExprPtr& b) {
  return Expr::binary(K::Add, a, b);
}

// `v` is a value loop `s` takes: lb <= v < ub and v - lb a multiple of the step. False when
// the step is not a positive constant (its values are then not known).
bool takes(const Stmt& s, const ExprPtr& lb, const ExprPtr& ub, const ExprPtr& step, const ExprPtr& v,
           std::vector<ExprPtr>& out) {
  auto by = evalConst(step);
  if (s.kind != Stmt::Kind::For || !by || *by <= 0) return false;
  out.push_back(Expr::cmp("sge", v, lb));
  out.push_back(Expr::cmp("slt", v, ub));
  if (*by > 1) out.push_back(exprEq(Expr::binary(K::Rem, Expr::binary(K::Sub, v, lb), step), Expr::constant(0)));
  return true;
}

std::string at(const Op& op) {
  return std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col);
}

}  // namespace

Verdict walkHoldsAccess(const OpNumbering& numbering, size_t walk, size_t access, const MemRef& data,
                        ProofContext& proofs) {
  const Op& cmo = *numbering.ops()[walk];
  const MemRef& lines = cmo.target;
  const std::string where = "the walk over cache lines at " + at(cmo);
  if (!lines.walkFrom) return Verdict::unknown("the bytes " + where + " holds are not known");
  if (!data.inBytesView()) return Verdict::unknown("the bytes the access touches are not known");
  const auto& around = numbering.context(access);
  const auto& walkAround = numbering.context(walk);
  size_t shared = 0;
  while (shared < around.size() && shared < walkAround.size() && around[shared] == walkAround[shared]) ++shared;

  // The access's instance: any value of its own loops (ifs around it only narrow the instances).
  std::vector<ExprPtr> facts;
  for (size_t i = shared; i < around.size(); ++i) {
    const Stmt& s = *around[i].stmt;
    if (s.kind == Stmt::Kind::For) takes(s, s.lb, s.ub, s.step, Expr::loopVar(s.var), facts);
  }
  ExprPtr row;  // the access's row, for a region of rows
  if (data.rows > 1) {
    row = Expr::loopVar("row of the access");
    facts.push_back(Expr::cmp("sge", row, Expr::constant(0)));
    facts.push_back(Expr::cmp("slt", row, Expr::constant(data.rows)));
  }

  // The walk's instance: each loop around it (and not the access) paired with a value.
  std::map<std::string, ExprPtr> pairing;
  auto paired = [&](const ExprPtr& e) {
    return substitute(e, [&](const Expr& leaf) -> ExprPtr {
      auto it = leaf.kind == K::LoopVar ? pairing.find(leaf.name) : pairing.end();
      return it == pairing.end() ? nullptr : it->second;
    });
  };
  std::vector<bool> taken(around.size(), false);
  bool rowTaken = false;
  std::vector<ExprPtr> runs;  // the paired instance is one the walk runs
  bool reached = false;
  for (size_t i = shared; i < walkAround.size() && !reached; ++i) {
    const Stmt& s = *walkAround[i].stmt;
    if (s.kind == Stmt::Kind::For && s.var == lines.walkLoop) {
      reached = true;
      break;
    }
    if (s.kind != Stmt::Kind::For) return Verdict::unknown(where + " runs under a condition the access does not");
    ExprPtr lb = paired(s.lb), ub = paired(s.ub), step = paired(s.step), value;
    for (size_t j = shared; j < around.size() && !value; ++j) {
      const Stmt& a = *around[j].stmt;
      bool same = a.kind == Stmt::Kind::For && toString(a.lb) == toString(lb) && toString(a.ub) == toString(ub) &&
                  toString(a.step) == toString(step);
      if (same && !taken[j]) taken[j] = true, value = Expr::loopVar(a.var);
    }
    if (!value && row && !rowTaken) rowTaken = true, value = row;
    if (!value) return Verdict::unknown(where + " runs in a loop that pairs with none around the access");
    if (!takes(s, lb, ub, step, value, runs))
      return Verdict::unknown(where + " runs in a loop whose step is not a positive constant");
    pairing[s.var] = value;
  }
  if (!reached || walkAround.back().stmt->var != lines.walkLoop)
    return Verdict::unknown(where + " does not run its dcci on every line it walks");

  ExprPtr start = data.offsets[0], size = data.sizes[0];
  if (row) {
    start = plus(start, Expr::binary(K::Mul, row, Expr::constant(data.rowStrideBytes)));
    size = Expr::constant(data.rowBytes);
  }
  ExprPtr holds = exprAnd(Expr::cmp("sle", paired(lines.walkFrom), start),
                          Expr::cmp("sle", plus(start, size), paired(lines.walkTo)));
  for (const auto& r : runs) holds = exprAnd(holds, r);
  facts.push_back(exprNot(holds));
  SatAnswer a = proofs.solver().check(facts, {}, Solver::Model::None);
  if (a.kind == SatAnswer::Kind::Unsat) return Verdict::proved();
  if (a.kind == SatAnswer::Kind::Unknown) return Verdict::unknown(a.reason);
  return Verdict::unknown(where +
                          ", paired loop by loop with the access, does not hold all of its bytes for some "
                          "lane and loop value");
}

}  // namespace ptov
