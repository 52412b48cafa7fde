#include "analyzer/model/expr.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <climits>
#include <map>
#include <unordered_set>

namespace ptov {

ExprPtr Expr::constant(int64_t v) {
  auto make = [](int64_t value) {
    auto e = std::make_shared<Expr>();
    e->kind = Kind::Const;
    e->value = value;
    return ExprPtr(e);
  };
  // Small constants are one shared node each (expressions are immutable): offsets, strides,
  // bounds and 0/1 make up much of every trace, and building and freeing them was a few per
  // cent of a .pto run. Each node is made on first use (making all 4,161 up front was a
  // tenth of a small file's run) and never freed; a thread that loses the race drops its copy.
  constexpr int64_t kLeast = -64, kMost = 4096;
  static std::atomic<const ExprPtr*> shared[kMost - kLeast + 1];
  if (v < kLeast || v > kMost) return make(v);
  std::atomic<const ExprPtr*>& slot = shared[v - kLeast];
  const ExprPtr* node = slot.load(std::memory_order_acquire);
  if (!node) {
    auto* made = new ExprPtr(make(v));
    if (slot.compare_exchange_strong(node, made, std::memory_order_acq_rel)) node = made;
    else delete made;  // `node` now holds the winner's
  }
  return *node;
}

namespace {
// A leaf that is not a constant (a parameter, loop variable, lane value or unknown).
std::shared_ptr<Expr> symbolLeaf(Expr::Kind k, const std::string& name) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  e->name = name;
  e->symbolic = true;
  return e;
}

// Gives `e` its operands and the facts the factories keep about them (symbolic, depth).
ExprPtr withArgs(std::shared_ptr<Expr> e, std::vector<ExprPtr> args) {
  e->args = std::move(args);
  e->symbolic = false;
  int deepest = 0;
  for (const auto& a : e->args)
    if (a) {
      e->symbolic |= a->symbolic;
      deepest = std::max(deepest, a->depth);
    }
  e->depth = deepest + 1;
  return e;
}
}  // namespace

ExprPtr Expr::param(const std::string& name, int index) {
  auto e = symbolLeaf(Kind::Param, name);
  e->paramIndex = index;
  return e;
}

ExprPtr Expr::loopVar(const std::string& name) { return symbolLeaf(Kind::LoopVar, name); }
ExprPtr Expr::unknown(const std::string& why) { return symbolLeaf(Kind::Unknown, why); }
ExprPtr Expr::blockIdx(const std::string& name) { return symbolLeaf(Kind::BlockIdx, name); }
ExprPtr Expr::blockNum() { return symbolLeaf(Kind::BlockNum, ""); }

namespace {
bool isConst(const ExprPtr& e, int64_t v) { return e && e->kind == Expr::Kind::Const && e->value == v; }

// A node whose operands are all constants is its value, when it has one (evalConst), so that
// unrolled loops' `(0 + 1) * 128` and `(0 eq 0) ? a : b` do not reach every later query as trees.
// Division and remainder of a negative operand are left to the solver, whose integers round
// otherwise than C++'s.
ExprPtr folded(const ExprPtr& e) {
  bool division = e->kind == Expr::Kind::Div || e->kind == Expr::Kind::Rem;
  for (const auto& a : e->args)
    if (!a || a->kind != Expr::Kind::Const || (division && a->value < 0)) return e;
  if (auto v = evalConst(e)) return Expr::constant(*v);
  return e;
}
}  // namespace

ExprPtr Expr::binary(Kind k, ExprPtr a, ExprPtr b) {
  // Identities that hold for unbounded integers: x + 0, x - 0, x * 1, x / 1, x * 0.
  if ((k == Kind::Add || k == Kind::Sub || k == Kind::Mul || k == Kind::Div) && a && b) {
    if ((k == Kind::Add && isConst(a, 0)) || (k == Kind::Mul && isConst(a, 1))) return b;
    if (((k == Kind::Add || k == Kind::Sub) && isConst(b, 0)) || ((k == Kind::Mul || k == Kind::Div) && isConst(b, 1)))
      return a;
    if (k == Kind::Mul && (isConst(a, 0) || isConst(b, 0))) return Expr::constant(0);
  }
  auto e = std::make_shared<Expr>();
  e->kind = k;
  return folded(withArgs(e, {std::move(a), std::move(b)}));
}

ExprPtr Expr::cmp(const std::string& pred, ExprPtr a, ExprPtr b) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Cmp;
  e->pred = pred;
  return folded(withArgs(e, {std::move(a), std::move(b)}));
}

ExprPtr Expr::select(ExprPtr c, ExprPtr a, ExprPtr b) {
  if (c && c->kind == Kind::Const) return c->value ? a : b;
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Select;
  return withArgs(e, {std::move(c), std::move(a), std::move(b)});
}

ExprPtr Expr::unary(Kind k, ExprPtr a) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  return folded(withArgs(e, {std::move(a)}));
}

std::optional<int64_t> evalConst(const ExprPtr& e) {
  if (!e || e->symbolic) return std::nullopt;
  using K = Expr::Kind;
  if (e->kind == K::Const) return e->value;
  if (e->args.size() > 3) return std::nullopt;
  int64_t v[3] = {0, 0, 0};
  for (size_t i = 0; i < e->args.size(); ++i) {
    auto x = evalConst(e->args[i]);
    if (!x) return std::nullopt;
    v[i] = *x;
  }
  int64_t r = 0;
  // A result that does not fit in 64 bits is not folded (the solver's integers are unbounded).
  switch (e->kind) {
    case K::Add: return __builtin_add_overflow(v[0], v[1], &r) ? std::nullopt : std::optional<int64_t>(r);
    case K::Sub: return __builtin_sub_overflow(v[0], v[1], &r) ? std::nullopt : std::optional<int64_t>(r);
    case K::Mul: return __builtin_mul_overflow(v[0], v[1], &r) ? std::nullopt : std::optional<int64_t>(r);
    case K::Div:
      if (v[1] == 0 || (v[0] == INT64_MIN && v[1] == -1)) return std::nullopt;
      return v[0] / v[1];
    case K::Rem:
      if (v[1] == 0 || (v[0] == INT64_MIN && v[1] == -1)) return std::nullopt;
      return v[0] % v[1];
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

bool linearArithmetic(const std::vector<ExprPtr>& roots) {
  using K = Expr::Kind;
  std::unordered_set<const Expr*> seen;  // over the DAG: each node once
  std::vector<const Expr*> stack;
  for (const auto& r : roots) stack.push_back(r.get());
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (!e || !seen.insert(e).second) continue;
    auto constant = [&](size_t i) { return i < e->args.size() && e->args[i] && e->args[i]->kind == K::Const; };
    if (e->kind == K::Mul && !constant(0) && !constant(1)) return false;
    if ((e->kind == K::Div || e->kind == K::Rem) && !constant(1)) return false;
    for (const auto& a : e->args) stack.push_back(a.get());
  }
  return true;
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

namespace {
bool isLeaf(Expr::Kind k) {
  using K = Expr::Kind;
  return k == K::Const || k == K::Param || k == K::LoopVar || k == K::BlockIdx || k == K::BlockNum ||
         k == K::Unknown;
}

bool isTruthValue(const ExprPtr& e) {
  using K = Expr::Kind;
  return e->kind == K::Cmp || e->kind == K::Not || e->kind == K::And || e->kind == K::Or ||
         (e->kind == K::Const && (e->value == 0 || e->value == 1));
}

// A comparison whose operands each take one of a few constants (a select tree over constants: the
// accumulation mode a loop picks) and that comes out the same for every choice is that constant.
ExprPtr cmpOverChoices(const std::string& pred, const ExprPtr& a, const ExprPtr& b) {
  ExprPtr c = Expr::cmp(pred, a, b);
  if (c->kind == Expr::Kind::Const) return c;
  std::vector<int64_t> as = possibleConstants(a), bs = possibleConstants(b);
  if (as.empty() || bs.empty()) return c;
  std::optional<int64_t> same;
  for (int64_t x : as)
    for (int64_t y : bs) {
      auto v = evalConst(Expr::cmp(pred, Expr::constant(x), Expr::constant(y)));
      if (!v || (same && *same != *v)) return c;
      same = v;
    }
  return Expr::constant(*same);
}

// Node `e` over new operands, folded as the factories fold: substituting iteration values leaves
// `(0 eq 0) ? a : b` and `0 && g` in every unrolled guard otherwise.
ExprPtr rebuilt(const Expr& e, std::vector<ExprPtr> args) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::Select:
      if (auto c = evalConst(args[0])) return *c ? args[1] : args[2];
      break;
    case K::And:
    case K::Or: {
      // `0 && g` is 0 and `1 || g` is 1 whatever g; `1 && g` is g only where g is a truth value.
      auto a = evalConst(args[0]), b = evalConst(args[1]);
      bool absorbs = e.kind == K::And ? ((a && !*a) || (b && !*b)) : ((a && *a) || (b && *b));
      if (absorbs) return Expr::constant(e.kind == K::Or);
      if (a && isTruthValue(args[1])) return args[1];
      if (b && isTruthValue(args[0])) return args[0];
      break;
    }
    case K::Not: return exprNot(args[0]);
    case K::Cmp: return cmpOverChoices(e.pred, args[0], args[1]);
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Div:
    case K::Rem:
    case K::Min:
    case K::Max: return Expr::binary(e.kind, args[0], args[1]);
    default: break;
  }
  return folded(withArgs(std::make_shared<Expr>(e), std::move(args)));
}

ExprPtr substituteMemo(const ExprPtr& e, const std::function<ExprPtr(const Expr&)>& leaf,
                       std::map<const Expr*, ExprPtr>& memo) {
  if (!e || e->kind == Expr::Kind::Const) return e;
  auto it = memo.find(e.get());
  if (it != memo.end()) return it->second;
  ExprPtr out = e;
  if (isLeaf(e->kind)) {
    if (e->kind != Expr::Kind::Const)
      if (ExprPtr r = leaf(*e)) out = r;
  } else {
    std::vector<ExprPtr> args;
    bool changed = false;
    for (const auto& a : e->args) {
      args.push_back(substituteMemo(a, leaf, memo));
      changed |= args.back() != a;
    }
    if (changed) out = rebuilt(*e, std::move(args));
  }
  memo[e.get()] = out;
  return out;
}

// Node -> id by open addressing (Fibonacci hashing, linear probing): a key is built for every
// query, and a hash-map node allocated per expression node was most of the time it took.
class NodeIds {
 public:
  const int* find(const Expr* e) const {
    for (size_t i = slotOf(e);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].first == e) return &slots_[i].second;
      if (!slots_[i].first) return nullptr;
    }
  }
  void add(const Expr* e, int id) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    put(e, id);
    ++count_;
  }
  size_t size() const { return count_; }

 private:
  size_t slotOf(const Expr* e) const {
    return static_cast<size_t>((reinterpret_cast<uint64_t>(e) * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
  }
  void put(const Expr* e, int id) {
    size_t i = slotOf(e);
    while (slots_[i].first) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {e, id};
  }
  void grow() {
    std::vector<std::pair<const Expr*, int>> old(size_t{1} << ++bits_);
    old.swap(slots_);
    for (const auto& [e, id] : old)
      if (e) put(e, id);
  }
  int bits_ = 6;
  std::vector<std::pair<const Expr*, int>> slots_ = std::vector<std::pair<const Expr*, int>>(size_t{1} << 6);
  size_t count_ = 0;
};

void appendNumber(std::string& out, int64_t v) {
  char digits[24];
  // (pointer, length): the two-pointer append is a general replace, twice the instructions.
  char* end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, static_cast<size_t>(end - digits));
}

// One root's nodes in post order (children first, each node once), without recursion: a
// level chain is as deep as a kernel has event ops. False when more than `maxNodes` nodes in
// all would be written. The finished children's ids wait on `argIds` (one stack for all
// frames: a vector per frame was a third of the time).
bool fingerprintNode(const ExprPtr& root, NodeIds& ids, std::vector<int>& argIds,
                     std::string& out, int& rootId, size_t maxNodes) {
  rootId = -1;
  if (!root) return true;
  if (const int* known = ids.find(root.get())) {
    rootId = *known;
    return true;
  }
  struct Frame {
    const Expr* e;
    size_t next;
    size_t firstArg;  // this node's children's ids are argIds[firstArg..]
  };
  std::vector<Frame> stack;
  argIds.clear();
  stack.push_back({root.get(), 0, 0});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < f.e->args.size()) {
      const ExprPtr& a = f.e->args[f.next++];
      const int* known = a ? ids.find(a.get()) : nullptr;
      if (!a || known) {
        argIds.push_back(a ? *known : -1);
      } else {
        stack.push_back({a.get(), 0, argIds.size()});
      }
      continue;
    }
    if (ids.size() >= maxNodes) return false;
    int id = static_cast<int>(ids.size());
    ids.add(f.e, id);
    appendNumber(out, id);
    out += '=';
    appendNumber(out, static_cast<int>(f.e->kind));
    out += ':';
    appendNumber(out, f.e->value);
    out += ':';
    out += f.e->name;
    out += ':';
    out += f.e->pred;
    out += '(';
    for (size_t i = f.firstArg; i < argIds.size(); ++i) {
      appendNumber(out, argIds[i]);
      out += ',';
    }
    out += ");";
    argIds.resize(f.firstArg);
    stack.pop_back();
    if (stack.empty()) rootId = id;
    else argIds.push_back(id);
  }
  return true;
}
}  // namespace

ExprPtr substitute(const ExprPtr& e, const std::function<ExprPtr(const Expr&)>& leaf) {
  std::map<const Expr*, ExprPtr> memo;
  return substituteMemo(e, leaf, memo);
}

std::optional<std::string> fingerprintWithin(const std::vector<ExprPtr>& roots, size_t maxNodes) {
  NodeIds ids;
  std::vector<int> argIds;
  std::string out;
  for (const auto& r : roots) {
    int id = -1;
    if (!fingerprintNode(r, ids, argIds, out, id, maxNodes)) return std::nullopt;
    out += '#';
    appendNumber(out, id);
  }
  return out;
}

std::string fingerprint(const std::vector<ExprPtr>& roots) { return *fingerprintWithin(roots, SIZE_MAX); }

ExprPtr exprAnd(const ExprPtr& a, const ExprPtr& b) {
  auto ca = evalConst(a), cb = evalConst(b);
  if (ca) return *ca ? b : Expr::constant(0);
  if (cb) return *cb ? a : Expr::constant(0);
  return Expr::binary(Expr::Kind::And, a, b);
}

ExprPtr exprOr(const ExprPtr& a, const ExprPtr& b) {
  auto ca = evalConst(a), cb = evalConst(b);
  if (ca) return *ca ? Expr::constant(1) : b;
  if (cb) return *cb ? Expr::constant(1) : a;
  return Expr::binary(Expr::Kind::Or, a, b);
}

ExprPtr exprNot(const ExprPtr& a) {
  if (auto c = evalConst(a)) return Expr::constant(*c ? 0 : 1);
  return Expr::unary(Expr::Kind::Not, a);
}

const ExprPtr& exprTrue() {
  static const ExprPtr one = Expr::constant(1);
  return one;
}

ExprPtr exprEq(const ExprPtr& a, const ExprPtr& b) {
  auto ca = evalConst(a), cb = evalConst(b);
  if (ca && cb) return Expr::constant(*ca == *cb);
  return Expr::cmp("eq", a, b);
}

}  // namespace ptov
