#include "solver/sample_points.h"

#include <algorithm>
#include <unordered_map>

namespace ptov {

std::string solverSymbolName(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::BlockIdx: return "block_idx";
    case Expr::Kind::BlockNum: return "block_num";
    case Expr::Kind::Unknown: return "?" + e.name;
    default: return e.name;
  }
}

namespace {

__extension__ typedef __int128 Wide;  // products of two in-range values fit
// Values beyond this are not evaluated: the point is dropped rather than risk an overflow.
constexpr Wide kLimit = Wide(1) << 62;
constexpr size_t kMaxNodes = 20000;
// Points tried: up to kPoints, fewer for big formulas (about 100,000 node evaluations, a tenth
// of what a small Z3 query costs); a formula that no point satisfies pays this on top of Z3.
constexpr int kPoints = 512;
constexpr size_t kNodeEvaluations = 100000;

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
      if (nodes_.size() >= kMaxNodes || !push(*e)) return false;
    }
    roots_.push_back({index_.at(root.get()), nodes_.size()});
    return true;
  }

  size_t size() const { return nodes_.size(); }

  const std::vector<std::string>& symbols() const { return symbols_; }
  // The constants a symbol is compared with directly (`args[16] == 2`, a variant switch): a
  // point must hit them exactly, which random values rarely do.
  const std::vector<std::vector<int64_t>>& comparedWith() const { return comparedWith_; }

  // Do all roots hold (are non-zero) at `point` (one value per symbol)? False also when a
  // division by zero or a value out of range makes the point unreadable.
  // Each root is checked as soon as its nodes are evaluated: most points fail an early one.
  bool holds(const std::vector<int64_t>& point, std::vector<Wide>& v) const {
    v.resize(nodes_.size());
    size_t done = 0;
    for (const Root& root : roots_) {
      for (; done < root.end; ++done) {
        auto r = eval(nodes_[done], v, point);
        if (!r) return false;
        v[done] = *r;
      }
      if (v[root.node] == 0) return false;
    }
    return true;
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

std::string withoutPercent(const std::string& s) { return !s.empty() && s[0] == '%' ? s.substr(1) : s; }

}  // namespace

bool satisfiedAtSamplePoint(const std::vector<ExprPtr>& assertions,
                            const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges) {
  Program program;
  for (const auto& a : assertions)
    if (!program.add(a)) return false;
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
    if (valid && program.holds(point, values)) return true;
  }
  return false;
}

}  // namespace ptov
