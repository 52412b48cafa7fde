#include "analyzer/model/expr.h"

#include <algorithm>

namespace ptov {

ExprPtr Expr::constant(int64_t v) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Const;
  e->value = v;
  return e;
}

ExprPtr Expr::param(const std::string& name, int index) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Param;
  e->name = name;
  e->paramIndex = index;
  return e;
}

ExprPtr Expr::loopVar(const std::string& name) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::LoopVar;
  e->name = name;
  return e;
}

ExprPtr Expr::unknown(const std::string& why) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Unknown;
  e->name = why;
  return e;
}

ExprPtr Expr::binary(Kind k, ExprPtr a, ExprPtr b) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  e->args = {std::move(a), std::move(b)};
  return e;
}

ExprPtr Expr::cmp(const std::string& pred, ExprPtr a, ExprPtr b) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Cmp;
  e->pred = pred;
  e->args = {std::move(a), std::move(b)};
  return e;
}

ExprPtr Expr::select(ExprPtr c, ExprPtr a, ExprPtr b) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Select;
  e->args = {std::move(c), std::move(a), std::move(b)};
  return e;
}

ExprPtr Expr::unary(Kind k, ExprPtr a) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  e->args = {std::move(a)};
  return e;
}

std::optional<int64_t> evalConst(const ExprPtr& e) {
  if (!e) return std::nullopt;
  using K = Expr::Kind;
  if (e->kind == K::Const) return e->value;
  std::vector<int64_t> v;
  for (const auto& a : e->args) {
    auto x = evalConst(a);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  switch (e->kind) {
    case K::Add: return v[0] + v[1];
    case K::Sub: return v[0] - v[1];
    case K::Mul: return v[0] * v[1];
    case K::Div: return v[1] == 0 ? std::nullopt : std::optional<int64_t>(v[0] / v[1]);
    case K::Rem: return v[1] == 0 ? std::nullopt : std::optional<int64_t>(v[0] % v[1]);
    case K::Min: return std::min(v[0], v[1]);
    case K::Max: return std::max(v[0], v[1]);
    case K::Select: return v[0] ? v[1] : v[2];
    case K::Not: return !v[0];
    case K::And: return v[0] & v[1];
    case K::Or: return v[0] | v[1];
    case K::Cmp: {
      const std::string& p = e->pred;
      uint64_t a = static_cast<uint64_t>(v[0]), b = static_cast<uint64_t>(v[1]);
      if (p == "eq") return v[0] == v[1];
      if (p == "ne") return v[0] != v[1];
      if (p == "slt") return v[0] < v[1];
      if (p == "sle") return v[0] <= v[1];
      if (p == "sgt") return v[0] > v[1];
      if (p == "sge") return v[0] >= v[1];
      if (p == "ult") return a < b;
      if (p == "ule") return a <= b;
      if (p == "ugt") return a > b;
      if (p == "uge") return a >= b;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::vector<int64_t> possibleConstants(const ExprPtr& e, size_t limit) {
  if (auto c = evalConst(e)) return {*c};
  if (!e || e->kind != Expr::Kind::Select) return {};
  std::vector<int64_t> out = possibleConstants(e->args[1], limit);
  std::vector<int64_t> other = possibleConstants(e->args[2], limit);
  if (out.empty() || other.empty()) return {};
  for (int64_t v : other)
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  if (out.size() > limit) return {};
  return out;
}

std::string toString(const ExprPtr& e) {
  if (!e) return "?";
  using K = Expr::Kind;
  auto bin = [&](const char* op) {
    return "(" + toString(e->args[0]) + " " + op + " " + toString(e->args[1]) + ")";
  };
  switch (e->kind) {
    case K::Const: return std::to_string(e->value);
    case K::Param:
    case K::LoopVar: return e->name;
    case K::BlockIdx: return "block_idx";
    case K::BlockNum: return "block_num";
    case K::Unknown: return "?" + e->name;
    case K::Add: return bin("+");
    case K::Sub: return bin("-");
    case K::Mul: return bin("*");
    case K::Div: return bin("/");
    case K::Rem: return bin("%");
    case K::Min: return "min(" + toString(e->args[0]) + ", " + toString(e->args[1]) + ")";
    case K::Max: return "max(" + toString(e->args[0]) + ", " + toString(e->args[1]) + ")";
    case K::Cmp: return "(" + toString(e->args[0]) + " " + e->pred + " " + toString(e->args[1]) + ")";
    case K::Select:
      return "(" + toString(e->args[0]) + " ? " + toString(e->args[1]) + " : " + toString(e->args[2]) + ")";
    case K::Not: return "!" + toString(e->args[0]);
    case K::And: return bin("&&");
    case K::Or: return bin("||");
  }
  return "?";
}

}  // namespace ptov
