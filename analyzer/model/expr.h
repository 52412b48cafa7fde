#pragma once
// A small integer expression tree shared by every front end and, later, the Z3 solver layer.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptov {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind {
    Const,     // value
    Param,     // kernel scalar parameter `name`, index `paramIndex`
    LoopVar,   // induction variable `name`
    BlockIdx,  // the core's block index
    BlockNum,  // number of launched blocks
    Unknown,   // a value the front end could not express (`name` says which)
    Add, Sub, Mul, Div, Rem, Min, Max,
    Cmp,       // `pred` in eq ne slt sle sgt sge ult ule ugt uge
    Select,    // args[0] ? args[1] : args[2]
    Not, And, Or,
  };
  Kind kind = Kind::Unknown;
  int64_t value = 0;
  int paramIndex = -1;
  std::string name;
  std::string pred;
  std::vector<ExprPtr> args;
  // Some leaf below is not a constant, so evalConst need not look. Kept by the factories below;
  // false means "not known" (a node built by hand), never "constant".
  bool symbolic = false;
  // Nodes on the longest path to a leaf (kept by the factories, like `symbolic`). The front ends
  // do not build values deeper than kMaxValueDepth: every walk over an expression recurses.
  int depth = 1;

  static ExprPtr constant(int64_t v);
  static ExprPtr param(const std::string& name, int index);
  static ExprPtr loopVar(const std::string& name);
  static ExprPtr unknown(const std::string& why);
  static ExprPtr blockIdx(const std::string& name = "");
  static ExprPtr blockNum();
  static ExprPtr binary(Kind k, ExprPtr a, ExprPtr b);
  static ExprPtr cmp(const std::string& pred, ExprPtr a, ExprPtr b);
  static ExprPtr select(ExprPtr c, ExprPtr a, ExprPtr b);
  static ExprPtr unary(Kind k, ExprPtr a);
};

constexpr int kMaxValueDepth = 1000;

// Folds an expression to a constant when every leaf is constant.
std::optional<int64_t> evalConst(const ExprPtr& e);
// The constant values an expression can take when it is a constant or a select tree over
// constants (e.g. an scf.if that yields one of two addresses); empty when unknown or when
// there would be more than `limit` values.
std::vector<int64_t> possibleConstants(const ExprPtr& e, size_t limit = 16);
// Linear integer arithmetic: every product has a constant factor, every division and remainder
// a constant divisor (Z3's own probe is stricter: it calls `x * 3` nonlinear).
bool linearArithmetic(const std::vector<ExprPtr>& roots);
// Human-readable form, e.g. "(%i + 1)".
std::string toString(const ExprPtr& e);

// Rebuilds `e` with every leaf (Param, LoopVar, BlockIdx, BlockNum, Unknown) replaced by
// `leaf(expr)` when that returns non-null. Shared sub-trees stay shared.
ExprPtr substitute(const ExprPtr& e, const std::function<ExprPtr(const Expr&)>& leaf);
// A structural key of an expression DAG (equal trees give equal keys; sharing is not
// unfolded, so the key stays linear in the number of distinct nodes).
std::string fingerprint(const std::vector<ExprPtr>& roots);
// The same key, or nullopt when it has more than `maxNodes` distinct nodes (work bounded).
std::optional<std::string> fingerprintWithin(const std::vector<ExprPtr>& roots, size_t maxNodes);

// Boolean helpers over 0/1-valued expressions, folding constants.
ExprPtr exprAnd(const ExprPtr& a, const ExprPtr& b);
ExprPtr exprOr(const ExprPtr& a, const ExprPtr& b);
ExprPtr exprNot(const ExprPtr& a);
ExprPtr exprEq(const ExprPtr& a, const ExprPtr& b);
// One shared constant 1: caches keyed by node hit for it, where a fresh constant per call would not.
const ExprPtr& exprTrue();

}  // namespace ptov
