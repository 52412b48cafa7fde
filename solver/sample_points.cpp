#include "solver/sample_points.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace ptov {

namespace {

__extension__ typedef __int128 Wide;  // products of two in-range values fit
// Values beyond this are not evaluated: the point is dropped rather than risk an overflow.
constexpr Wide kLimit = Wide(1) << 62;
constexpr size_t kMaxNodes = 20000;
// Points tried: up to kPoints, fewer for big formulas (about 100,000 node evaluations, a tenth
// of what a small Z3 query costs); a formula that no point satisfies pays this on top of Z3.
constexpr int kPoints = 512;
constexpr size_t kNodeEvaluations = 100000;
// The search in order of cost (smallestSatisfyingPoint) is given about twice that.
constexpr size_t kMaxSearchPoints = 20000;
constexpr size_t kSearchNodeEvaluations = 200000;
// The one-symbol decision reads only the unsettled stretches, within about a million.
constexpr size_t kDecisionNodeEvaluations = 1000000;

enum class Pred { Eq, Ne, Lt, Le, Gt, Ge };

// The assertions as a flat list in evaluation order (children first); DAG sharing stays shared.
struct Node {
  Expr::Kind kind;
  Pred pred = Pred::Eq;
  int64_t value = 0;
  int symbol = -1;
  int args[3] = {-1, -1, -1};
};

class Program {
 public:
  explicit Program(size_t maxNodes = kMaxNodes) : maxNodes_(maxNodes) {}
  // False when an expression is outside what the evaluator reads the way Z3 does.
  bool add(const ExprPtr& root) {
    std::vector<std::pair<const Expr*, bool>> stack{{root.get(), false}};
    while (!stack.empty()) {
      auto [e, childrenDone] = stack.back();
      stack.pop_back();
      if (!e) return false;
      if (index_.count(e)) continue;
      if (!childrenDone) {
        stack.push_back({e, true});
        for (const auto& a : e->args) stack.push_back({a.get(), false});
        continue;
      }
      if (nodes_.size() >= maxNodes_ || !push(*e)) return false;
    }
    roots_.push_back({index_.at(root.get()), nodes_.size()});
    return true;
  }

  size_t size() const { return nodes_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }
  // The asserted nodes (a conjunction), and where each one's evaluation ends.
  std::vector<int> rootNodes() const {
    std::vector<int> out;
    for (const Root& r : roots_) out.push_back(r.node);
    return out;
  }
  // The last node the assertions need (value nodes come after it).
  size_t assertedEnd() const { return roots_.empty() ? 0 : roots_.back().end; }

  // The symbols the assertions use only as operands of comparisons with a constant or with
  // another such symbol: for them only their order among themselves and the constants matters.
  // `constants` receives the constants they are compared with. A symbol in arithmetic, asserted
  // bare (read as `x != 0`), or compared with another kind of term is not one.
  std::vector<bool> orderOnlySymbols(std::vector<int64_t>& constants) const {
    std::vector<bool> only(symbols_.size(), true);
    auto symbolOf = [&](int i) { return nodes_[i].symbol; };
    for (const Root& r : roots_)
      if (symbolOf(r.node) >= 0) only[symbolOf(r.node)] = false;
    for (size_t i = 0; i < assertedEnd(); ++i) {
      const Node& n = nodes_[i];
      if (n.kind == Expr::Kind::Cmp) continue;
      for (int a : n.args)
        if (a >= 0 && symbolOf(a) >= 0) only[symbolOf(a)] = false;
    }
    // Compared with a term that is neither a constant nor an order-only symbol: until stable.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < assertedEnd(); ++i) {
        const Node& n = nodes_[i];
        if (n.kind != Expr::Kind::Cmp) continue;
        for (int side = 0; side < 2; ++side) {
          int s = symbolOf(n.args[side]);
          if (s < 0 || !only[s]) continue;
          const Node& other = nodes_[n.args[1 - side]];
          bool fine = other.kind == Expr::Kind::Const || (other.symbol >= 0 && only[other.symbol]);
          if (!fine) only[s] = false, changed = true;
        }
      }
    }
    for (size_t i = 0; i < assertedEnd(); ++i) {
      const Node& n = nodes_[i];
      if (n.kind != Expr::Kind::Cmp) continue;
      for (int side = 0; side < 2; ++side) {
        int s = symbolOf(n.args[side]);
        if (s >= 0 && only[s] && nodes_[n.args[1 - side]].kind == Expr::Kind::Const)
          constants.push_back(nodes_[n.args[1 - side]].value);
      }
    }
    return only;
  }

  const std::vector<std::string>& symbols() const { return symbols_; }
  // The constants a symbol is compared with directly (`args[16] == 2`, a variant switch): a
  // point must hit them exactly, which random values rarely do.
  const std::vector<std::vector<int64_t>>& comparedWith() const { return comparedWith_; }

  enum class Truth { Holds, Fails, Unreadable };

  // Do all roots hold (are non-zero) at `point` (one value per symbol)? Unreadable when a
  // division by zero or a value out of range leaves a root without a certain value.
  // Each root is checked as soon as its nodes are evaluated: most points fail an early one.
  Truth truthAt(const std::vector<int64_t>& point, std::vector<Wide>& v) const {
    v.resize(nodes_.size());
    size_t done = 0;
    for (const Root& root : roots_) {
      for (; done < root.end; ++done) {
        auto r = eval(nodes_[done], v, point);
        if (!r) return Truth::Unreadable;
        v[done] = *r;
      }
      if (v[root.node] == 0) return Truth::Fails;
    }
    return Truth::Holds;
  }
  bool holds(const std::vector<int64_t>& point, std::vector<Wide>& v) const {
    return truthAt(point, v) == Truth::Holds;
  }

  // A node that is not asserted, only read once a point is found (a witness value); -1 when
  // the evaluator cannot read it. Call after every `add`.
  int addValue(const ExprPtr& e) {
    if (!add(e)) return -1;
    roots_.pop_back();
    return index_.at(e.get());
  }
  // Every node at `point`, the value nodes too; false when one of those is unreadable.
  bool evaluateAll(const std::vector<int64_t>& point, std::vector<Wide>& v) const {
    v.resize(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      auto r = eval(nodes_[i], v, point);
      if (!r) return false;
      v[i] = *r;
    }
    return true;
  }
  // Every node at `point`; a node that cannot be read (a division by zero, or one of its
  // operands) is nullopt.
  std::vector<std::optional<Wide>> evaluateWhatCan(const std::vector<int64_t>& point) const {
    std::vector<std::optional<Wide>> out(nodes_.size());
    std::vector<Wide> v(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const Node& n = nodes_[i];
      if (std::any_of(std::begin(n.args), std::end(n.args), [&](int a) { return a >= 0 && !out[a]; })) continue;
      out[i] = eval(n, v, point);
      if (out[i]) v[i] = *out[i];
    }
    return out;
  }

 private:
  bool push(const Expr& e) {
    using K = Expr::Kind;
    Node n{e.kind};
    size_t want = 0;
    switch (e.kind) {
      case K::Const: n.value = e.value; break;
      case K::Param:
      case K::LoopVar:
      case K::BlockIdx:
      case K::BlockNum:
      case K::Unknown: n.symbol = symbolIndex(solverSymbolName(e)); break;
      case K::Not: want = 1; break;
      case K::Select: want = 3; break;
      case K::Cmp: {
        static const std::unordered_map<std::string, Pred> preds{
            {"eq", Pred::Eq},  {"ne", Pred::Ne},  {"slt", Pred::Lt}, {"ult", Pred::Lt}, {"sle", Pred::Le},
            {"ule", Pred::Le}, {"sgt", Pred::Gt}, {"ugt", Pred::Gt}, {"sge", Pred::Ge}, {"uge", Pred::Ge}};
        auto p = preds.find(e.pred);
        if (p == preds.end()) return false;
        n.pred = p->second;
        want = 2;
        break;
      }
      default: want = 2; break;  // the binary arithmetic and boolean operators
    }
    if (e.args.size() != want) return false;
    for (size_t a = 0; a < want; ++a) n.args[a] = index_.at(e.args[a].get());
    if (e.kind == K::Cmp) {
      const Node& x = nodes_[n.args[0]];
      const Node& y = nodes_[n.args[1]];
      if (x.symbol >= 0 && y.kind == K::Const) noteComparison(x.symbol, y.value);
      if (y.symbol >= 0 && x.kind == K::Const) noteComparison(y.symbol, x.value);
    }
    index_[&e] = static_cast<int>(nodes_.size());
    nodes_.push_back(n);
    return true;
  }

  int symbolIndex(const std::string& name) {
    auto it = symbolIndex_.find(name);
    if (it != symbolIndex_.end()) return it->second;
    symbols_.push_back(name);
    comparedWith_.emplace_back();
    return symbolIndex_[name] = static_cast<int>(symbols_.size()) - 1;
  }

  void noteComparison(int symbol, int64_t c) {
    auto& values = comparedWith_[symbol];
    if (values.size() >= 64) return;
    for (int64_t d : {int64_t(0), int64_t(1), int64_t(-1)})
      if ((d >= 0 || c > INT64_MIN) && (d <= 0 || c < INT64_MAX)) values.push_back(c + d);
  }

  // One node as Z3 reads it: booleans are 0/1, integers unbounded, div/mod Euclidean.
  static std::optional<Wide> eval(const Node& n, const std::vector<Wide>& v, const std::vector<int64_t>& point) {
    using K = Expr::Kind;
    auto arg = [&](int i) { return v[n.args[i]]; };
    Wide r = 0;
    switch (n.kind) {
      case K::Const: return Wide(n.value);
      case K::Param:
      case K::LoopVar:
      case K::BlockIdx:
      case K::BlockNum:
      case K::Unknown: return Wide(point[n.symbol]);
      case K::Add: r = arg(0) + arg(1); break;
      case K::Sub: r = arg(0) - arg(1); break;
      case K::Mul: r = arg(0) * arg(1); break;
      case K::Div:
      case K::Rem: {
        Wide a = arg(0), b = arg(1);
        if (b == 0) return std::nullopt;  // Z3 leaves it unconstrained: no certain value
        Wide m = a % b;
        if (m < 0) m += b < 0 ? -b : b;
        r = n.kind == K::Rem ? m : (a - m) / b;
        break;
      }
      case K::Min: r = arg(0) < arg(1) ? arg(0) : arg(1); break;
      case K::Max: r = arg(0) > arg(1) ? arg(0) : arg(1); break;
      case K::Select: r = arg(0) != 0 ? arg(1) : arg(2); break;
      case K::Not: r = arg(0) == 0; break;
      case K::And: r = arg(0) != 0 && arg(1) != 0; break;
      case K::Or: r = arg(0) != 0 || arg(1) != 0; break;
      case K::Cmp:
        switch (n.pred) {
          case Pred::Eq: r = arg(0) == arg(1); break;
          case Pred::Ne: r = arg(0) != arg(1); break;
          case Pred::Lt: r = arg(0) < arg(1); break;
          case Pred::Le: r = arg(0) <= arg(1); break;
          case Pred::Gt: r = arg(0) > arg(1); break;
          case Pred::Ge: r = arg(0) >= arg(1); break;
        }
        break;
    }
    if (r >= kLimit || r <= -kLimit) return std::nullopt;
    return r;
  }

  struct Root {
    int node;
    size_t end;  // nodes [0, end) are all it needs
  };
  size_t maxNodes_;
  std::vector<Node> nodes_;
  std::vector<Root> roots_;
  std::unordered_map<const Expr*, int> index_;
  std::vector<std::string> symbols_;
  std::vector<std::vector<int64_t>> comparedWith_;
  std::unordered_map<std::string, int> symbolIndex_;
};

// A fixed pseudo-random sequence (splitmix64): the same query gets the same answer every run.
struct Points {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Sizes, lane counts and their neighbours, where guards of generated kernels change value.
  int64_t value() {
    static const int64_t kInteresting[] = {0,   1,   2,    3,    4,    5,    7,    8,    9,    15,   16,  17,
                                           31,  32,  33,   63,   64,   65,   127,  128,  255,  256,  511, 512,
                                           1000, 1023, 1024, 4095, 4096, 8191, 8192, -1, -2, -8};
    uint64_t r = next();
    switch (r % 4) {
      case 0: return kInteresting[(r / 4) % (sizeof kInteresting / sizeof kInteresting[0])];
      case 1: return static_cast<int64_t>((r / 4) % 64);
      case 2: return static_cast<int64_t>((r / 4) % 1024);
      default: return static_cast<int64_t>((r / 4) % 10000);
    }
  }
};

}  // namespace

namespace {
bool namesLane(const std::vector<std::string>& names) {
  auto lane = [](const std::string& n) { return n.find("block_idx") != std::string::npos; };
  return std::any_of(names.begin(), names.end(), lane);
}
}  // namespace

bool satisfiedAtSamplePoint(const std::vector<ExprPtr>& assertions,
                            const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges) {
  return samplePointModel(assertions, paramRanges).has_value();
}

std::optional<std::map<std::string, int64_t>> samplePointModel(
    const std::vector<ExprPtr>& assertions, const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges) {
  Program program;
  for (const auto& a : assertions)
    if (!program.add(a)) return std::nullopt;
  const std::vector<std::string>& names = program.symbols();
  const std::pair<int64_t, int64_t>* laneRange = nullptr;
  if (auto r = paramRanges.find("block_num"); r != paramRanges.end()) laneRange = &r->second;
  std::vector<const std::pair<int64_t, int64_t>*> ranges;
  for (const auto& n : names) {
    auto r = paramRanges.find(withoutPercent(n));
    ranges.push_back(r == paramRanges.end() ? nullptr : &r->second);
  }
  auto within = [](int64_t v, const std::pair<int64_t, int64_t>* r) { return !r || (v >= r->first && v <= r->second); };
  Points gen;
  std::vector<int64_t> point(names.size());
  std::vector<Wide> values;
  int points = static_cast<int>(std::min<size_t>(kPoints, 1 + kNodeEvaluations / std::max<size_t>(1, program.size())));
  for (int p = 0; p < points; ++p) {
    // Point 0 is all zeros (one lane), point 1 all ones; then values from the sequence, moved
    // into the configured range where one is given.
    auto pick = [&](const std::pair<int64_t, int64_t>* r, const std::vector<int64_t>& compared) -> int64_t {
      int64_t v = p == 0 ? 0 : p == 1 ? 1 : gen.value();
      if (p > 1 && !compared.empty() && gen.next() % 2 == 0) v = compared[gen.next() % compared.size()];
      if (within(v, r)) return v;
      uint64_t width = static_cast<uint64_t>(r->second) - static_cast<uint64_t>(r->first);
      return static_cast<int64_t>(static_cast<uint64_t>(r->first) + (width == UINT64_MAX ? gen.next() : gen.next() % (width + 1)));
    };
    int64_t lanes = std::max<int64_t>(1, pick(laneRange, {}));
    if (lanes > 4096) lanes = 1 + lanes % 64;
    if (!within(lanes, laneRange)) continue;
    bool valid = true;
    for (size_t s = 0; s < names.size() && valid; ++s) {
      if (names[s] == "block_num") point[s] = lanes;
      else if (names[s].find("block_idx") != std::string::npos)
        point[s] = p == 0 ? 0 : p == 1 ? lanes - 1 : static_cast<int64_t>(gen.next() % static_cast<uint64_t>(lanes));
      else point[s] = pick(ranges[s], program.comparedWith()[s]);
      valid = within(point[s], ranges[s]);
    }
    if (valid && program.holds(point, values)) {
      std::map<std::string, int64_t> model;
      for (size_t s = 0; s < names.size(); ++s) model[names[s]] = point[s];
      if (namesLane(names)) model.emplace("block_num", lanes);
      return model;
    }
  }
  return std::nullopt;
}

namespace {

// The witness measure Solver minimises: |x| counted twice, a negative value one more, so the
// values in order of cost are 0, 1, -1, 2, -2, ...
uint64_t witnessCost(int64_t x) {
  if (x == 0) return 0;
  return x > 0 ? 2 * static_cast<uint64_t>(x) : 2 * static_cast<uint64_t>(-(x + 1)) + 3;
}

// One symbol's values within [lo, hi], in order of cost (lo <= hi).
struct ValuesByCost {
  int64_t lo, hi;
  // The k-th value, or nullopt past the last one.
  std::optional<int64_t> at(uint64_t k) const {
    uint64_t width = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (lo >= 0) return k <= width ? std::optional<int64_t>(lo + static_cast<int64_t>(k)) : std::nullopt;
    if (hi <= 0) return k <= width ? std::optional<int64_t>(hi - static_cast<int64_t>(k)) : std::nullopt;
    // 0, 1, -1, 2, -2, ... until one side ends, then the other side alone.
    uint64_t pos = static_cast<uint64_t>(hi), neg = static_cast<uint64_t>(-(lo + 1)) + 1;
    uint64_t both = 2 * std::min(pos, neg);
    if (k == 0) return 0;
    if (k <= both) return k % 2 ? static_cast<int64_t>((k + 1) / 2) : -static_cast<int64_t>(k / 2);
    uint64_t rest = k - both;
    if (pos > neg) return rest <= pos - neg ? std::optional<int64_t>(static_cast<int64_t>(neg + rest)) : std::nullopt;
    return rest <= neg - pos ? std::optional<int64_t>(-static_cast<int64_t>(pos + rest)) : std::nullopt;
  }
  bool finite;  // the symbol's own range is bounded (lo and hi here may be narrower)
};

// A question over one unbounded integer symbol x, decided exactly without Z3 (docs/solver.md,
// "One symbol"). Write x = s*P*j + r with s = +1 or -1, r in [0, P), j >= 0, where P is the
// least common multiple of the divisor products on each term's way down to x. On each line every sub-term of a formula built from
// +, -, constant *, div and mod by constants, min, max, select and comparisons is exactly
// a*j + b from some j on, with integers a and b (P makes every division exact in j), and every
// comparison keeps one truth value from some j on. So the formula's truth is settled beyond
// j = F, and reading every point with |x| <= P*(F+1) decides it. Anything else (products of
// two symbolic terms, symbolic divisors, a divisor of zero, values too large) leaves it open.
class OneSymbolDecision {
 public:
  // `free` is the symbol decided over; every other symbol has its value in `fixed`.
  OneSymbolDecision(const Program& program, int free, const std::vector<int64_t>& fixed)
      : program_(program), free_(free), fixed_(fixed) {}

  // Where the truth settles on each line: nullopt when the formula is outside what this handles.
  struct Settled {
    Wide period = 1;
    // Per line, index (s == 1 ? 0 : period) + r: from which j on the truth is `truth`.
    std::vector<Wide> from;
    std::vector<bool> truth;
    // The points with |x| < bound hold every unsettled stretch and each settled one's first point.
    Wide bound = 0;
    // Is the point x on its line's settled stretch, and if so, what is the formula there?
    std::optional<bool> at(Wide x) const {
      Wide r = x % period;
      if (r < 0) r += period;
      bool up = x >= 0;
      Wide j = up ? x / period : (r - x) / period;
      size_t line = static_cast<size_t>((up ? 0 : period) + r);
      if (j < from[line]) return std::nullopt;
      return truth[line];
    }
  };
  // `evaluations` (node evaluations left) pays for the analysis: two lines per residue.
  std::optional<Settled> settle(size_t& evaluations) {
    Settled out;
    // The period a term needs: the product of the divisors on its way down to x, and the least
    // common multiple over its operands (ten copies of `(x - 2) / 2` need 2, not 2^10).
    const auto& nodes = program_.nodes();
    std::vector<Wide> period(nodes.size(), 1);
    for (size_t i = 0; i < program_.assertedEnd(); ++i) {
      const Node& n = nodes[i];
      int operands = n.kind == Expr::Kind::Select ? 3 : n.kind == Expr::Kind::Not ? 1 : n.args[1] >= 0 ? 2 : n.args[0] >= 0 ? 1 : 0;
      for (int a = 0; a < operands; ++a) period[i] = std::lcm(period[i], period[n.args[a]]);
      if (n.kind == Expr::Kind::Div || n.kind == Expr::Kind::Rem) {
        const Node& d = nodes[n.args[1]];
        if (d.kind != Expr::Kind::Const || d.value == 0) return std::nullopt;  // left to Z3
        period[i] = period[n.args[0]] * (d.value < 0 ? -Wide(d.value) : Wide(d.value));
      }
      if (period[i] > kMaxPeriod) return std::nullopt;
    }
    for (int root : program_.rootNodes()) out.period = std::lcm(out.period, period[root]);
    if (out.period > kMaxPeriod) return std::nullopt;
    size_t work = 2 * static_cast<size_t>(out.period) * program_.assertedEnd();
    if (work > evaluations) return std::nullopt;
    evaluations -= work;
    Wide settled = 0;
    for (int sign : {1, -1})
      for (Wide r = 0; r < out.period; ++r) {
        auto end = settledFrom(sign * out.period, r);
        if (!end) return std::nullopt;
        settled = std::max(settled, end->first);
        out.from.push_back(end->first);
        out.truth.push_back(end->second);
      }
    out.bound = out.period * (settled + 1);
    if (out.bound > kMaxBound) return std::nullopt;
    return out;
  }

 private:
  static constexpr Wide kMaxPeriod = 4096;
  static constexpr Wide kMaxBound = 10000;
  static constexpr Wide kMaxValue = Wide(1) << 60;

  struct Line {
    Wide a = 0, b = 0;  // the term is a*j + b for every j >= from
    Wide from = 0;
  };

  // Where the truth of the conjunction settles on x = step*j + r, and to what.
  std::optional<std::pair<Wide, bool>> settledFrom(Wide step, Wide r) {
    const auto& nodes = program_.nodes();
    std::vector<Line> line(nodes.size());
    for (size_t i = 0; i < program_.assertedEnd(); ++i) {
      auto l = lineOf(nodes[i], line, step, r);
      if (!l) return std::nullopt;
      line[i] = *l;
    }
    Wide from = 0;
    bool all = true;
    for (int root : program_.rootNodes()) {
      auto t = truthOf(line[root]);
      from = std::max(from, t.from);
      all = all && t.b != 0;
    }
    return std::make_pair(from, all);
  }

  static bool tooLarge(const Line& l) {
    auto big = [](Wide v) { return v > kMaxValue || v < -kMaxValue; };
    return big(l.a) || big(l.b) || big(l.from);
  }
  static Wide floorDiv(Wide a, Wide b) {  // b > 0
    Wide q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
  }
  // The smallest j >= 0 from which a*j + b > 0 holds (a > 0).
  static Wide positiveFrom(Wide a, Wide b) { return std::max<Wide>(0, floorDiv(-b, a) + 1); }
  // An integer term read as a truth value: non-zero from some j on, or constant.
  static Line truthOf(const Line& l) {
    if (l.a == 0) return {0, l.b != 0 ? 1 : 0, l.from};
    Wide a = l.a < 0 ? -l.a : l.a, b = l.a < 0 ? -l.b : l.b;  // |a*j + b| has the sign of a from here
    return {0, 1, std::max(l.from, positiveFrom(a, b))};
  }
  // Euclidean quotient and remainder, as Z3 reads div and mod.
  static std::pair<Wide, Wide> euclid(Wide a, Wide d) {
    Wide m = a % d;
    if (m < 0) m += d < 0 ? -d : d;
    return {(a - m) / d, m};
  }

  std::optional<Line> lineOf(const Node& n, const std::vector<Line>& line, Wide step, Wide r) const {
    using K = Expr::Kind;
    auto arg = [&](int i) { return line[n.args[i]]; };
    Line out;
    switch (n.kind) {
      case K::Const: out = {0, n.value, 0}; break;
      case K::Param:
      case K::LoopVar:
      case K::BlockIdx:
      case K::BlockNum:
      case K::Unknown: out = n.symbol == free_ ? Line{step, r, 0} : Line{0, fixed_[n.symbol], 0}; break;
      case K::Add: out = {arg(0).a + arg(1).a, arg(0).b + arg(1).b, std::max(arg(0).from, arg(1).from)}; break;
      case K::Sub: out = {arg(0).a - arg(1).a, arg(0).b - arg(1).b, std::max(arg(0).from, arg(1).from)}; break;
      case K::Mul: {
        Line x = arg(0), y = arg(1);
        if (x.a != 0 && y.a != 0) return std::nullopt;  // a product of two symbolic terms
        if (x.a != 0) std::swap(x, y);                    // x is the constant factor
        out = {x.b * y.a, x.b * y.b, std::max(x.from, y.from)};
        break;
      }
      case K::Div:
      case K::Rem: {
        Line u = arg(0), d = arg(1);
        if (d.a != 0 || d.b == 0 || u.a % d.b != 0) return std::nullopt;
        auto [q, m] = euclid(u.b, d.b);
        out = n.kind == K::Div ? Line{u.a / d.b, q, std::max(u.from, d.from)} : Line{0, m, std::max(u.from, d.from)};
        break;
      }
      case K::Min:
      case K::Max: {
        Line x = arg(0), y = arg(1);
        Wide from = std::max(x.from, y.from);
        if (x.a == y.a) {
          out = {x.a, n.kind == K::Min ? std::min(x.b, y.b) : std::max(x.b, y.b), from};
          break;
        }
        // The smaller slope wins a min (the larger a max) once the other is no smaller.
        bool xWins = (x.a < y.a) == (n.kind == K::Min);
        const Line& win = xWins ? x : y;
        const Line& lose = xWins ? y : x;
        Wide gap = lose.a > win.a ? lose.a - win.a : win.a - lose.a;
        Wide lead = lose.a > win.a ? lose.b - win.b : win.b - lose.b;  // the loser is behind from here
        out = {win.a, win.b, std::max({from, positiveFrom(gap, lead + 1) })};
        break;
      }
      case K::Select: {
        Line c = truthOf(arg(0));
        Line chosen = c.b != 0 ? arg(1) : arg(2);
        out = {chosen.a, chosen.b, std::max(c.from, chosen.from)};
        break;
      }
      case K::Not: {
        Line t = truthOf(arg(0));
        out = {0, t.b == 0 ? 1 : 0, t.from};
        break;
      }
      case K::And:
      case K::Or: {
        Line x = truthOf(arg(0)), y = truthOf(arg(1));
        bool v = n.kind == K::And ? (x.b != 0 && y.b != 0) : (x.b != 0 || y.b != 0);
        out = {0, v ? 1 : 0, std::max(x.from, y.from)};
        break;
      }
      case K::Cmp: {
        Line w{arg(0).a - arg(1).a, arg(0).b - arg(1).b, std::max(arg(0).from, arg(1).from)};
        // sign(w) from some j on: the sign of its slope, else of its constant.
        int sign = w.a > 0 ? 1 : w.a < 0 ? -1 : (w.b > 0) - (w.b < 0);
        Wide from = w.a > 0 ? positiveFrom(w.a, w.b) : w.a < 0 ? positiveFrom(-w.a, -w.b) : 0;
        bool v = false;
        switch (n.pred) {
          case Pred::Eq: v = sign == 0; break;
          case Pred::Ne: v = sign != 0; break;
          case Pred::Lt: v = sign < 0; break;
          case Pred::Le: v = sign <= 0; break;
          case Pred::Gt: v = sign > 0; break;
          case Pred::Ge: v = sign >= 0; break;
        }
        out = {0, v ? 1 : 0, std::max(w.from, from)};
        break;
      }
    }
    if (tooLarge(out)) return std::nullopt;
    return out;
  }

  const Program& program_;
  int free_;
  const std::vector<int64_t>& fixed_;
};

class CostOrderSearch {
 public:
  // The symbols in `values` are searched; a lane count the query does not name is one more slot
  // of the point, set to the least value `lanes` allows above every block index (so the witness
  // measure, like Z3's, does not count it).
  struct Lanes {
    std::vector<int> indices;  // symbols that are block indices
    int count = -1;            // the block_num slot, -1 when there is none
    bool derived = false;
    ValuesByCost range{1, INT64_MAX, false};
  };
  // How a point is read: by default the program at the point; a caller may decide more there
  // (and complete the point), or stop the search (its budget is spent).
  using Reader = std::function<Program::Truth(std::vector<int64_t>& point, bool& stop)>;
  CostOrderSearch(const Program& program, std::vector<ValuesByCost> values, Lanes lanes, size_t maxPoints,
                  Reader reader = nullptr)
      : program_(program), values_(std::move(values)), lanes_(std::move(lanes)), maxPoints_(maxPoints),
        reader_(std::move(reader)), point_(values_.size() + (lanes_.derived ? 1 : 0)),
        lowestFrom_(values_.size() + 1, 0) {
    for (size_t i = values_.size(); i-- > 0;) lowestFrom_[i] = lowestFrom_[i + 1] + witnessCost(*values_[i].at(0));
  }

  enum class End { Found, Exhausted, OutOfBudget };

  End run() {
    uint64_t lowest = lowestFrom_[0], highest = 0;
    bool finite = true;
    for (const auto& v : values_) {
      finite = finite && v.finite;
      if (finite) highest += std::max(witnessCost(v.lo), witnessCost(v.hi));
    }
    for (uint64_t level = lowest; !finite || level <= highest; ++level) {
      if (atLevel(0, level)) return End::Found;
      if (outOfBudget()) return End::OutOfBudget;
    }
    return unreadable_ ? End::OutOfBudget : End::Exhausted;
  }
  const std::vector<int64_t>& point() const { return point_; }

 private:
  // Assigns symbols [i, n) so that their costs sum to exactly `left`; true once a point holds.
  bool atLevel(size_t i, uint64_t left) {
    if (outOfBudget()) return false;
    ++steps_;
    if (i + 1 == values_.size()) {  // the last symbol: the one value of cost `left`, if any
      auto v = valueOfCost(left);
      if (!v || *v < values_[i].lo || *v > values_[i].hi) return false;
      point_[i] = *v;
      return test();
    }
    if (i == values_.size()) return left == 0 && test();  // no symbols at all
    uint64_t restLowest = lowestFrom_[i + 1];
    for (uint64_t k = 0;; ++k) {
      auto v = values_[i].at(k);
      if (!v || witnessCost(*v) + restLowest > left) return false;
      point_[i] = *v;
      if (atLevel(i + 1, left - witnessCost(*v))) return true;
      if (outOfBudget()) return false;
    }
  }
  static std::optional<int64_t> valueOfCost(uint64_t cost) {
    if (cost == 0) return 0;
    if (cost == 1 || cost > (uint64_t(1) << 42)) return std::nullopt;
    return cost % 2 == 0 ? static_cast<int64_t>(cost / 2) : -static_cast<int64_t>((cost - 1) / 2);
  }
  // Assignments tried count as well as points read: most partial ones lead to no point.
  bool outOfBudget() const { return stopped_ || points_ >= maxPoints_ || steps_ >= 8 * maxPoints_; }
  bool test() {
    ++points_;
    // Every lane index lies below the lane count.
    if (lanes_.derived) {
      int64_t least = lanes_.range.lo;
      for (int s : lanes_.indices) least = std::max(least, point_[s] + 1);
      if (least > lanes_.range.hi) return false;
      point_[lanes_.count] = least;
    }
    if (lanes_.count >= 0)
      for (int s : lanes_.indices)
        if (point_[s] >= point_[lanes_.count]) return false;
    auto truth = reader_ ? reader_(point_, stopped_) : program_.truthAt(point_, scratch_);
    if (truth == Program::Truth::Unreadable) unreadable_ = true;
    return truth == Program::Truth::Holds;
  }

  const Program& program_;
  std::vector<ValuesByCost> values_;
  Lanes lanes_;
  size_t maxPoints_;
  Reader reader_;
  bool stopped_ = false;
  std::vector<int64_t> point_;
  std::vector<uint64_t> lowestFrom_;  // [i]: the least cost of symbols i .. n-1 together
  std::vector<Wide> scratch_;
  size_t points_ = 0;
  size_t steps_ = 0;
  bool unreadable_ = false;
};

}  // namespace

// The free symbol's points in order of cost (the others fixed in `point`), up to the bound
// OneSymbolDecision gives: Holds leaves the cheapest one in `point`; Fails is a proof that no
// value of it satisfies the formula (none read true, and the formula is false on every settled
// stretch); Unreadable when it cannot decide, `evaluations` (node evaluations left) included.
// A point on a settled stretch is not evaluated: its truth is the stretch's.
Program::Truth decideOneSymbol(const Program& program, int free, std::vector<int64_t>& point, size_t& evaluations) {
  using T = Program::Truth;
  auto settled = OneSymbolDecision(program, free, point).settle(evaluations);
  if (!settled) return T::Unreadable;
  ValuesByCost xs{-static_cast<int64_t>(settled->bound), static_cast<int64_t>(settled->bound), true};
  std::vector<Wide> v;
  for (uint64_t k = 0;; ++k) {
    auto x = xs.at(k);
    if (!x) break;
    auto known = settled->at(*x);
    if (known == false) continue;
    if (evaluations < program.size()) return T::Unreadable;  // left to Z3
    evaluations -= program.size();
    point[free] = *x;
    auto truth = program.truthAt(point, v);
    if (truth != T::Fails) return truth;
    if (known == true) return T::Unreadable;  // the analysis and the evaluator disagree: claim nothing
  }
  // Every line's settled stretch starts within the bound, so a formula true on one was read true
  // at its first point.
  bool trueBeyond = std::find(settled->truth.begin(), settled->truth.end(), true) != settled->truth.end();
  return trueBeyond ? T::Unreadable : T::Fails;
}

// The witness of a point found: every symbol's value and each `evaluate` expression's.
PointSearch witnessAt(const Program& program, const std::vector<int64_t>& point, const std::vector<int>& valueNodes,
                      const std::vector<std::string>& names) {
  PointSearch out;
  std::vector<Wide> v;
  if (!program.evaluateAll(point, v)) return out;  // a witness value without a certain value: Z3 decides
  for (int node : valueNodes) out.values.push_back(static_cast<int64_t>(v[node]));
  for (size_t s = 0; s < names.size(); ++s) out.symbols[names[s]] = point[s];
  out.outcome = PointSearch::Outcome::Satisfiable;
  return out;
}

PointSearch smallestSatisfyingPoint(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate,
                                    const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges,
                                    bool onlyIfFinite) {
  PointSearch out;
  Program program;
  for (const auto& a : assertions)
    if (!program.add(a)) return out;
  std::vector<int> valueNodes;
  for (const auto& e : evaluate) {
    int node = program.addValue(e);
    if (node < 0) return out;
    valueNodes.push_back(node);
  }
  std::vector<std::string> names = program.symbols();
  auto range = [&](const std::string& name) {
    auto r = paramRanges.find(withoutPercent(name));
    return r == paramRanges.end() ? std::pair<int64_t, int64_t>{INT64_MIN, INT64_MAX} : r->second;
  };
  // Block indices need the lane count, named or not (Solver adds it the same way).
  CostOrderSearch::Lanes lanes;
  for (size_t s = 0; s < names.size(); ++s)
    if (names[s] == "block_num") lanes.count = static_cast<int>(s);
  bool anyLane = namesLane(names);
  if (anyLane && lanes.count < 0) {
    auto [lo, hi] = range("block_num");
    lanes.count = static_cast<int>(names.size());
    lanes.derived = true;
    lanes.range = {std::max<int64_t>(lo, 1), hi, false};
    if (lanes.range.lo > lanes.range.hi) {
      out.outcome = PointSearch::Outcome::Unsatisfiable;
      return out;
    }
  }
  std::vector<ValuesByCost> values;
  for (size_t s = 0; s < names.size(); ++s) {
    auto [lo, hi] = range(names[s]);
    if (names[s] == "block_num") lo = std::max<int64_t>(lo, 1);
    if (names[s].find("block_idx") != std::string::npos) {
      lanes.indices.push_back(static_cast<int>(s));
      lo = std::max<int64_t>(lo, 0);
      auto lanesRange = range("block_num");
      if (lanesRange.second < INT64_MAX) hi = std::min(hi, lanesRange.second - 1);
    }
    if (lo > hi) {
      out.outcome = PointSearch::Outcome::Unsatisfiable;  // an empty range: nothing holds
      return out;
    }
    bool finite = lo > INT64_MIN && hi < INT64_MAX;
    // Values this far out are not tried (the evaluator would drop most points anyway); a
    // range that lies wholly beyond is left to Z3.
    constexpr int64_t kFar = int64_t(1) << 40;
    lo = std::max(lo, -kFar);
    hi = std::min(hi, kFar);
    if (lo > hi) return out;
    values.push_back({lo, hi, finite && hi - lo < kFar});
  }
  // Symbols met only in comparisons with constants and with each other ("order only"): any order
  // of them among the constants is met with values within n of the constants (n such symbols),
  // whatever the other symbols are, so that box is all of their values to read (docs/solver.md).
  // Lane indices and the lane count are order only together or not at all (the launch facts
  // compare them).
  std::vector<int64_t> constants{0, 1};  // the launch facts' bounds
  std::vector<bool> orderOnly = program.orderOnlySymbols(constants);
  bool lanesOrderOnly = true;
  for (size_t s = 0; s < names.size(); ++s)
    if (names[s].find("block_") != std::string::npos) lanesOrderOnly = lanesOrderOnly && orderOnly[s];
  std::vector<int> arithmetic;  // the symbols that are not order only
  for (size_t s = 0; s < names.size(); ++s) {
    if (names[s].find("block_") != std::string::npos) orderOnly[s] = lanesOrderOnly;
    if (!orderOnly[s]) arithmetic.push_back(static_cast<int>(s));
  }
  auto addBounds = [&](std::pair<int64_t, int64_t> r) {
    if (r.first != INT64_MIN) constants.push_back(r.first);
    if (r.second != INT64_MAX) constants.push_back(r.second);
  };
  int64_t boxed = lanes.derived && lanesOrderOnly ? 1 : 0;
  for (size_t s = 0; s < names.size(); ++s)
    if (orderOnly[s]) addBounds(range(names[s])), ++boxed;
  if (lanes.derived && lanesOrderOnly) addBounds(range("block_num"));
  int64_t least = *std::min_element(constants.begin(), constants.end());
  int64_t most = *std::max_element(constants.begin(), constants.end());
  bool boxable = least > -(int64_t(1) << 40) && most < (int64_t(1) << 40);
  for (size_t s = 0; s < names.size() && boxable; ++s) {
    if (!orderOnly[s]) continue;
    values[s].lo = std::max(values[s].lo, least - boxed);
    values[s].hi = std::min(values[s].hi, most + boxed);
    values[s].finite = true;
    if (values[s].lo > values[s].hi) return out;  // not expected: the range's own bounds are in the box
  }
  // One arithmetic symbol with no range and no launch facts: decided exactly, for each value of
  // the order-only ones in their box (none when it is the only symbol).
  size_t maxPoints = std::min<size_t>(kMaxSearchPoints, 1 + kSearchNodeEvaluations / std::max<size_t>(1, program.size()));
  if (lanes.derived) names.push_back("block_num");
  if (boxable && arithmetic.size() == 1 && names[arithmetic[0]].find("block_") == std::string::npos &&
      range(names[arithmetic[0]]) == std::pair<int64_t, int64_t>{INT64_MIN, INT64_MAX}) {
    int free = arithmetic[0];
    std::vector<ValuesByCost> others = values;
    others[free] = {0, 0, true};  // one placeholder value: the decision picks it
    size_t evaluations = kDecisionNodeEvaluations;
    auto decide = [&](std::vector<int64_t>& point, bool& stop) {
      Program::Truth t = decideOneSymbol(program, free, point, evaluations);
      if (t == Program::Truth::Unreadable) stop = true;
      return t;
    };
    CostOrderSearch split(program, std::move(others), lanes, maxPoints, decide);
    switch (split.run()) {
      case CostOrderSearch::End::Exhausted: out.outcome = PointSearch::Outcome::Unsatisfiable; return out;
      case CostOrderSearch::End::Found: return witnessAt(program, split.point(), valueNodes, names);
      case CostOrderSearch::End::OutOfBudget: break;  // the search below may still find a witness
    }
  }
  if (onlyIfFinite && !std::all_of(values.begin(), values.end(), [](const ValuesByCost& v) { return v.finite; }))
    return out;
  CostOrderSearch search(program, std::move(values), lanes, maxPoints);
  switch (search.run()) {
    case CostOrderSearch::End::OutOfBudget: return out;
    case CostOrderSearch::End::Exhausted: out.outcome = PointSearch::Outcome::Unsatisfiable; return out;
    case CostOrderSearch::End::Found: break;
  }
  return witnessAt(program, search.point(), valueNodes, names);
}

std::optional<ModelValues> valuesAtModel(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate,
                                         const std::map<std::string, int64_t>& model,
                                         const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges) {
  Program program(SIZE_MAX);  // one pass over the nodes, no search: any size
  for (const auto& a : assertions)
    if (!program.add(a)) return std::nullopt;
  std::vector<int> valueNodes;
  for (const auto& e : evaluate) {
    int node = program.addValue(e);
    if (node < 0) return std::nullopt;
    valueNodes.push_back(node);
  }
  const std::vector<std::string>& names = program.symbols();
  ModelValues out;
  std::vector<int64_t> point(names.size());
  // A symbol's value: the model's, else its cheapest in its range (lane indices 0: lane 0 runs in
  // every launch; the lane count at least 1).
  auto valueOf = [&](const std::string& name) {
    if (auto known = model.find(name); known != model.end()) return known->second;
    auto r = paramRanges.find(withoutPercent(name));
    ValuesByCost range{r == paramRanges.end() ? INT64_MIN : r->second.first,
                       r == paramRanges.end() ? INT64_MAX : r->second.second, false};
    if (name == "block_num") range.lo = std::max<int64_t>(range.lo, 1);
    return range.at(0).value_or(range.lo);
  };
  for (size_t s = 0; s < names.size(); ++s) out.symbols[names[s]] = point[s] = valueOf(names[s]);
  // The lane count a witness shows wherever lanes occur.
  if (namesLane(names)) out.symbols.emplace("block_num", valueOf("block_num"));
  std::vector<std::optional<Wide>> v = program.evaluateWhatCan(point);
  for (int root : program.rootNodes())
    if (!v[root] || *v[root] == 0) return std::nullopt;  // not a model of these assertions here
  for (int node : valueNodes)
    out.values.push_back(v[node] ? std::optional<int64_t>(static_cast<int64_t>(*v[node])) : std::nullopt);
  return out;
}

}  // namespace ptov
