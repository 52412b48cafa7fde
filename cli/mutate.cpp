#include "cli/mutate.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <functional>
#include <ostream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/mlir/parser.h"
#include "analyzer/model/flow.h"
#include "analyzer/pto/lifter.h"
#include "rules/model_queries.h"

namespace ptov {

const std::vector<MutationOperator>& mutationOperators() {
  static const std::vector<MutationOperator> ops = {
      {"delete-fence", {"comm-publish-fence", "comm-put-drain"}, "delete a pto.fence.barrier_all", true},
      {"delete-cacheinvalid-all", {"comm-wait-invalidate", "comm-publish-fence"}, "delete a cacheinvalid all", true},
      {"delete-cacheinvalid-line",
       {"comm-publish-fence", "comm-wait-invalidate"},
       "delete a single_cache_line cacheinvalid",
       true},
      {"delete-wait-flag", {"sync-exit-balance", "sync-event-pairing"}, "delete a wait_flag", true},
      {"delete-set-flag", {"sync-deadlock"}, "delete a set_flag", true},
      {"swap-wait-event-id", {"sync-deadlock", "sync-exit-balance"}, "change the event id of one wait_flag", true},
      {"swap-src-dst-pipe",
       {"sync-deadlock", "sync-exit-balance"},
       "swap src and dst pipe of a set_flag/wait_flag",
       true},
      {"move-notify-before-store", {"comm-publish-fence"}, "move a tnotify before the GM write preceding it", true},
      {"delete-barrier-after-tput", {"comm-put-drain"}, "delete the pto.barrier <PIPE_ALL> right after a tput", true},
      {"shift-tile-address", {"ub-range"}, "move a constant tile address into its neighbour tile", true},
      {"drop-cache-offset", {"cache-bypass-offset", "cache-policy-param"}, "drop the offset operand of a tload", true},
      {"bypass-written-load", {"cache-bypass-written"}, "mark a load of a tensor the kernel writes as l2_bypass", true},
      {"swap-kernel-params",
       {"xcheck-abi-order"},
       "swap two kernel parameters of the same type (needs the C++ cross-check)",
       false},
  };
  return ops;
}

namespace {

// One input file: its text, the generic op tree (exact token positions) and the model.
struct Source {
  std::string path;
  std::string text;
  std::vector<size_t> lineStart;
  mlir::ParsedFile parsed;
  std::vector<Kernel> kernels;
  std::map<std::pair<int, int>, const mlir::Op*> byLoc;

  Source(std::string p, std::string t, const std::string& arch) : path(std::move(p)), text(std::move(t)) {
    lineStart.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStart.push_back(i + 1);
    parsed = mlir::parseText(text, path);
    std::vector<InputDiagnostic> diags;
    pto::LiftOptions lo;
    lo.defaultArch = arch;
    kernels = pto::lift(parsed, lo, diags);
    for (const auto& split : parsed.splits) index(split.ops);
  }

  void index(const std::vector<mlir::Op>& ops) {
    for (const auto& op : ops) {
      byLoc[{op.loc.line, op.loc.col}] = &op;
      for (const auto& r : op.regions)
        for (const auto& b : r.blocks) index(b.ops);
    }
  }

  size_t offset(int line, int col) const { return lineStart[line - 1] + col - 1; }

  const mlir::Op* generic(const Op& op) const {
    auto it = byLoc.find({op.loc.line, op.loc.col});
    return it == byLoc.end() ? nullptr : it->second;
  }

  // [begin, end) of the op's own text.
  std::pair<size_t, size_t> extent(const mlir::Op& g) const {
    size_t begin = offset(g.loc.line, g.loc.col);
    size_t end = begin;
    for (const auto& t : g.tokens) end = std::max(end, offset(t.line, t.col) + t.text.size());
    return {begin, end};
  }

  // The op's whole lines when nothing else shares them (comments aside), else its extent.
  std::pair<size_t, size_t> lineExtent(const mlir::Op& g) const {
    auto [begin, end] = extent(g);
    size_t ls = begin;
    while (ls > 0 && text[ls - 1] != '\n') --ls;
    for (size_t i = ls; i < begin; ++i)
      if (text[i] != ' ' && text[i] != '\t') return {begin, end};
    size_t le = end;
    while (le < text.size() && (text[le] == ' ' || text[le] == '\t' || text[le] == '\r')) ++le;
    if (le + 1 < text.size() && text[le] == '/' && text[le + 1] == '/')
      while (le < text.size() && text[le] != '\n') ++le;
    if (le < text.size() && text[le] != '\n') return {begin, end};
    return {ls, le < text.size() ? le + 1 : le};
  }

  std::string indentOf(size_t at) const {
    size_t ls = at;
    while (ls > 0 && text[ls - 1] != '\n') --ls;
    size_t e = ls;
    while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
    return text.substr(ls, e - ls);
  }
};

// Breadth-first search from `from`'s successors (predecessors when going backward) that does
// not pass through ops matching `stop`: does it reach a node for which `hit` holds?
bool searchFlow(const Flow& flow, int from, bool forward, const std::function<bool(int)>& hit,
                const std::function<bool(const Op&)>& stop) {
  auto next = [&](int n) -> const std::vector<int>& { return forward ? flow.nodes[n].succ : flow.nodes[n].pred; };
  std::vector<bool> seen(flow.nodes.size(), false);
  std::deque<int> work(next(from).begin(), next(from).end());
  while (!work.empty()) {
    int n = work.front();
    work.pop_front();
    if (seen[n]) continue;
    seen[n] = true;
    if (hit(n)) return true;
    const Op* op = flow.nodes[n].op;
    if (op && stop(*op)) continue;
    for (int m : next(n)) work.push_back(m);
  }
  return false;
}

// Backward from `from`, not through `stop` ops: does it reach an op matching `hit`?
bool reachesBackward(const Flow& flow, int from, const std::function<bool(const Op&)>& hit,
                     const std::function<bool(const Op&)>& stop) {
  return searchFlow(
      flow, from, false, [&](int n) { return flow.nodes[n].op && hit(*flow.nodes[n].op); }, stop);
}

bool isFence(const Op& op) { return op.kind == OpKind::Fence; }

// From `from`, can a notify be reached without passing an op that `stop` matches? (The end of
// the kernel needs no release: kernel completion drains every write, docs/publishing.md.)
bool reachesNotify(const Flow& flow, int from, const std::function<bool(const Op&)>& stop) {
  auto notify = [&](int n) { return flow.nodes[n].op && flow.nodes[n].op->kind == OpKind::Notify; };
  return searchFlow(flow, from, true, notify, stop);
}

bool isInvalidateAll(const Op& op) { return op.kind == OpKind::CacheInvalidate && op.invalidateAll; }
bool isAcquire(const Op& op) { return op.kind == OpKind::Wait || op.kind == OpKind::Test; }
bool isGmWriteOrPut(const Op& op) { return isGmWriteOp(op) || op.kind == OpKind::Put; }

class Generator {
 public:
  Generator(const Source& src, const std::vector<std::string>& only, std::vector<Mutant>& out)
      : src_(src), only_(only), out_(out) {}

  void run() {
    for (const Kernel& k : src_.kernels) {
      Flow flow = Flow::build(*k.body);
      std::map<const Op*, int> node;
      for (size_t i = 0; i < flow.nodes.size(); ++i)
        if (flow.nodes[i].op) node[flow.nodes[i].op] = static_cast<int>(i);
      forEachOp(*k.body, [&](const Op& op) { perOp(k, flow, node.at(&op), op); });
      walkSequences(*k.body);
      shiftTileAddresses(k);
      swapKernelParams(k);
    }
  }

 private:
  bool enabled(const std::string& op) const {
    return only_.empty() || std::find(only_.begin(), only_.end(), op) != only_.end();
  }

  void add(const std::string& op, const Op& at, const std::string& what, std::vector<TextEdit> edits,
           const std::string& equivalentWhy = "") {
    if (!enabled(op)) return;
    out_.push_back({op, src_.path, at.loc.line, what, std::move(edits), equivalentWhy});
  }

  TextEdit deletion(const mlir::Op& g) const {
    auto [b, e] = src_.lineExtent(g);
    return {b, e - b, ""};
  }

  void perOp(const Kernel& k, const Flow& flow, int n, const Op& op) {
    const mlir::Op* g = src_.generic(op);
    if (!g) return;
    switch (op.kind) {
      case OpKind::Fence: {
        std::string why;
        if (!reachesBackward(flow, n, isGmWriteOrPut, isFence)) why = "no GM write or put reaches this fence: it orders nothing";
        else if (!reachesNotify(flow, n, isFence))
          why = "every path from it meets another GM fence before any notify, or no notify follows it";
        add("delete-fence", op, "delete '" + op.name + "'", {deletion(*g)}, why);
        break;
      }
      case OpKind::CacheInvalidate: {
        if (op.invalidateAll) {
          bool acquire = reachesBackward(flow, n, isAcquire, isInvalidateAll);
          bool release = reachesBackward(flow, n, isGmWriteOrPut, isFence);
          add("delete-cacheinvalid-all", op, "delete 'cacheinvalid all'", {deletion(*g)},
              acquire || release ? "" : "no wait and no unfenced GM write reaches this invalidate");
        } else {
          MemRef target = op.target;
          bool release = reachesBackward(
              flow, n,
              [&](const Op& w) {
                for (const auto& m : w.writes)
                  if (isGmWriteOrPut(w) && m.sameBuffer(target)) return true;
                return false;
              },
              isFence);
          release = release && reachesNotify(flow, n, [](const Op&) { return false; });
          bool acquire = reachesBackward(flow, n, isAcquire, isInvalidateAll);
          add("delete-cacheinvalid-line", op, "delete 'cacheinvalid single_cache_line'", {deletion(*g)},
              acquire || release ? ""
                                 : "no wait reaches this invalidate, and no write of this buffer that a notify "
                                   "follows");
        }
        break;
      }
      case OpKind::WaitFlag:
      case OpKind::SetFlag: {
        if (!op.event.id || op.event.idExpr) break;  // static ids only: the text names them
        bool wait = op.kind == OpKind::WaitFlag;
        add(wait ? "delete-wait-flag" : "delete-set-flag", op, "delete '" + op.name + "'", {deletion(*g)});
        if (wait) swapEventId(op, *g);
        swapPipes(op, *g);
        break;
      }
      case OpKind::Load:
        dropCacheOffset(op, *g);
        bypassWrittenLoad(k, op, *g);
        break;
      default:
        break;
    }
  }

  void swapEventId(const Op& op, const mlir::Op& g) {
    auto [b, e] = src_.extent(g);
    std::string text = src_.text.substr(b, e - b);
    static const std::regex kId("EVENT_ID([0-7])");
    std::smatch m;
    if (!std::regex_search(text, m, kId)) return;
    int id = std::stoi(m[1]);
    int other = (id + 1) % 8;
    add("swap-wait-event-id", op, "wait on EVENT_ID" + std::to_string(other) + " instead of EVENT_ID" + std::to_string(id),
        {{b + m.position(1), 1, std::to_string(other)}});
  }

  void swapPipes(const Op& op, const mlir::Op& g) {
    if (op.name == "pto.record_event" || op.name == "pto.wait_event") return;  // op types, not pipes
    auto [b, e] = src_.extent(g);
    std::string text = src_.text.substr(b, e - b);
    static const std::regex kPipe("PIPE_[A-Z0-9_]+");
    auto it = std::sregex_iterator(text.begin(), text.end(), kPipe);
    if (it == std::sregex_iterator()) return;
    std::smatch first = *it++;
    if (it == std::sregex_iterator()) return;
    std::smatch second = *it;
    if (first.str() == second.str()) return;
    size_t from = first.position(), to = second.position() + second.length();
    std::string middle = text.substr(first.position() + first.length(), second.position() - first.position() - first.length());
    add("swap-src-dst-pipe", op, "swap " + first.str() + " and " + second.str() + " in '" + op.name + "'",
        {{b + from, to - from, second.str() + middle + first.str()}});
  }

  void dropCacheOffset(const Op& op, const mlir::Op& g) {
    if (op.offsetValue.empty()) return;
    const auto& tk = g.tokens;
    for (size_t i = 0; i + 3 < tk.size(); ++i) {
      if (!(tk[i].kind == mlir::Tok::BareId && tk[i].text == "offset" && tk[i + 1].text == "=")) continue;
      size_t begin = src_.offset(tk[i].line, tk[i].col);
      size_t last = i + 2;  // the offset value, and its `: type` when present
      if (last + 2 < tk.size() && tk[last + 1].text == ":") last += 2;
      size_t end = src_.offset(tk[last].line, tk[last].col) + tk[last].text.size();
      while (begin > 0 && src_.text[begin - 1] == ' ') --begin;
      add("drop-cache-offset", op, "drop 'offset = " + op.offsetValue + "'", {{begin, end - begin, ""}});
      return;
    }
  }

  void bypassWrittenLoad(const Kernel& k, const Op& op, const mlir::Op& g) {
    if (op.cachePolicy != CachePolicy::Default || !g.attrs.empty() || op.reads.empty() || op.reads[0].param < 0) return;
    int param = op.reads[0].param;
    bool written = false;
    forEachOp(*k.body, [&](const Op& w) {
      for (const auto& m : w.writes) written |= m.space == MemSpace::GM && m.param == param && !m.peer;
    });
    if (!written) return;
    std::string insert = " {cache_policy = #pto.load_cache_policy<l2_bypass>}";
    if (k.arch == "a2a3" && k.paramIndex("%__pypto_l2_cache_offset") >= 0) insert += " offset = %__pypto_l2_cache_offset : i64";
    size_t end = src_.extent(g).second;
    add("bypass-written-load", op, "mark the load of " + k.params[param].name + " (written by the kernel) l2_bypass",
        {{end, 0, insert}});
  }

  // Operators that need sibling order: a notify after a write, a barrier right after a put.
  void walkSequences(const Stmt& s) {
    if (s.kind == Stmt::Kind::Seq || s.kind == Stmt::Kind::Blocks) {
      const Op* lastWrite = nullptr;
      const Op* prev = nullptr;
      for (const auto& c : s.children) {
        if (c->kind != Stmt::Kind::OpStmt) {
          prev = nullptr;
          continue;
        }
        const Op& op = c->op;
        if (op.kind == OpKind::Notify && lastWrite) moveNotify(op, *lastWrite);
        if (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL && prev && prev->kind == OpKind::Put) {
          if (const mlir::Op* g = src_.generic(op))
            add("delete-barrier-after-tput", op, "delete the PIPE_ALL barrier after '" + prev->name + "'", {deletion(*g)});
        }
        if (isGmWriteOp(op)) lastWrite = &op;
        prev = &op;
      }
    }
    for (const auto& c : s.children)
      if (c) walkSequences(*c);
  }

  void moveNotify(const Op& notify, const Op& write) {
    const mlir::Op* gn = src_.generic(notify);
    const mlir::Op* gw = src_.generic(write);
    if (!gn || !gw) return;
    auto [nb, ne] = src_.lineExtent(*gn);
    size_t wb = src_.lineExtent(*gw).first;
    if (src_.text[ne - 1] != '\n' || (wb > 0 && src_.text[wb - 1] != '\n')) return;  // needs whole lines
    add("move-notify-before-store", notify, "move the notify before '" + write.name + "' (line " +
                                                std::to_string(write.loc.line) + ")",
        {{wb, 0, src_.text.substr(nb, ne - nb)}, {nb, ne - nb, ""}});
  }

  void shiftTileAddresses(const Kernel& k) {
    OpNumbering num(*k.body);
    struct Tile {
      const Op* op;
      int64_t begin, end;
      int def, last;
    };
    std::vector<Tile> tiles;
    for (const Op* op : num.ops())
      if (op->kind == OpKind::TileAlloc && op->tileAddr && op->tileBytes > 0) {
        int def = num.index(op);
        tiles.push_back({op, *op->tileAddr, *op->tileAddr + op->tileBytes, def, num.lastUse(op->tileValue, def)});
      }
    int counter = 0;
    for (const Tile& t : tiles) {
      // The neighbour: the tile starting closest above this one in the same space (else below).
      const Tile* nb = nullptr;
      for (const Tile& o : tiles) {
        if (o.op->tileSpace != t.op->tileSpace || o.begin == t.begin) continue;
        bool above = o.begin > t.begin;
        if (!nb || (above && (nb->begin < t.begin || o.begin < nb->begin)) ||
            (!above && nb->begin < t.begin && o.begin > nb->begin))
          nb = &o;
      }
      if (!nb) continue;
      int64_t align = (t.op->tileSpace == MemSpace::L0A || t.op->tileSpace == MemSpace::L0B || t.op->tileSpace == MemSpace::L0C) ? 512 : 32;
      // Start one alignment step inside the neighbour, or, for a neighbour that small, end one
      // step inside it.
      int64_t shifted = nb->end - nb->begin > align ? nb->begin + align : nb->begin - (t.end - t.begin) + align;
      bool startsAnother = std::any_of(tiles.begin(), tiles.end(), [&](const Tile& o) {
        return o.op->tileSpace == t.op->tileSpace && o.begin == shifted;
      });
      if (shifted < 0 || shifted == t.begin || startsAnother) continue;
      const mlir::Op* g = src_.generic(*t.op);
      if (!g) continue;
      const auto& tk = g->tokens;
      for (size_t i = 0; i + 2 < tk.size(); ++i) {
        if (!(tk[i].text == "addr" && tk[i + 1].text == "=" && tk[i + 2].kind == mlir::Tok::ValueId)) continue;
        std::string name = "%__mutant_addr" + std::to_string(counter++);
        size_t at = src_.offset(tk[i + 2].line, tk[i + 2].col);
        size_t lb = src_.lineExtent(*g).first;
        // Sharing bytes destroys a value only when one tile is written while the other holds a
        // value of its own (written since its placement) that is read next, or when one op
        // reads the other and writes this one ahead of its reads: an elementwise op over two
        // whole plain tiles of one shape writes ahead only when the written one starts after
        // the read one (docs/rules/ub-range.md); any other op at different offsets now.
        auto startOf = [&](const Tile& x) { return &x == &t ? shifted : x.begin; };
        auto ref = [&](int i, const Tile& x, bool write) -> const MemRef* {
          for (const MemRef& m : write ? num.ops()[i]->writes : num.ops()[i]->reads)
            if (m.value == x.op->tileValue) return &m;
          return nullptr;
        };
        auto writesAhead = [&](int i, const Tile& w, const Tile& live) {
          const MemRef *out = ref(i, w, true), *in = ref(i, live, false);
          bool elementwise = out->tileView.empty() && in->tileView.empty() && out->elementBytes > 0 &&
                             out->elementBytes == in->elementBytes && out->rowElements == in->rowElements &&
                             w.end - w.begin == live.end - live.begin;
          return !elementwise || startOf(w) > startOf(live);
        };
        auto touches = [&](int i, const Tile& x, bool write) { return ref(i, x, write) != nullptr; };
        // Is the next use of `x` after op i a read (not a write that gives it a new value)?
        auto readNext = [&](const Tile& x, int i) {
          for (int j = i + 1; j <= x.last; ++j) {
            if (touches(j, x, false)) return true;
            if (touches(j, x, true)) return false;
          }
          return false;
        };
        auto destroys = [&](const Tile& w, const Tile& live) {
          for (int i = std::max(w.def, live.def); i <= std::min(w.last, live.last); ++i) {
            if (!touches(i, w, true)) continue;
            if (touches(i, live, false) && writesAhead(i, w, live)) return true;
            bool held = false;
            for (int j = live.def; j < i && !held; ++j) held = touches(j, live, true);
            if (held && readNext(live, i)) return true;
          }
          return false;
        };
        // A tile never written is a view of the value its bytes hold: moved, it reads other bytes
        // wherever a tile it sat on was written before the read.
        auto viewMoved = [&]() {
          for (int i = t.def; i <= t.last; ++i)
            if (touches(i, t, true)) return false;
          for (int i = t.def; i <= t.last; ++i) {
            if (!touches(i, t, false)) continue;
            for (const Tile& o : tiles)
              if (&o != &t && o.op->tileSpace == t.op->tileSpace && o.begin < t.end && t.begin < o.end)
                for (int j = o.def; j < i; ++j)
                  if (touches(j, o, true)) return true;
          }
          return false;
        };
        bool harmful = viewMoved();
        for (const Tile& o : tiles)
          if (&o != &t && o.op->tileSpace == t.op->tileSpace && o.begin < shifted + (t.end - t.begin) && shifted < o.end)
            harmful |= destroys(t, o) || destroys(o, t);
        add("shift-tile-address", *t.op,
            "move " + t.op->tileValue + " from " + std::to_string(t.begin) + " to " + std::to_string(shifted) + ", inside " +
                nb->op->tileValue,
            {{lb, 0, src_.indentOf(lb) + name + " = arith.constant " + std::to_string(shifted) + " : i64\n"},
             {at, tk[i + 2].text.size(), name}},
            harmful ? "" : "no tile it now overlaps is written while the other holds a value still to be used");
        break;
      }
    }
  }

  void swapKernelParams(const Kernel& k) {
    if (!enabled("swap-kernel-params")) return;
    for (size_t i = 0; i + 1 < k.params.size(); ++i) {
      if (k.params[i].type != k.params[i + 1].type) continue;
      // The kernel's func.func op: its loc is the kernel's loc.
      auto it = src_.byLoc.find({k.loc.line, k.loc.col});
      if (it == src_.byLoc.end()) return;
      std::vector<TextEdit> edits;
      for (const auto& t : it->second->tokens) {
        if (t.kind != mlir::Tok::ValueId) continue;
        if (t.text == k.params[i].name) edits.push_back({src_.offset(t.line, t.col), t.text.size(), k.params[i + 1].name});
        else if (t.text == k.params[i + 1].name) edits.push_back({src_.offset(t.line, t.col), t.text.size(), k.params[i].name});
        if (edits.size() == 2) break;
      }
      if (edits.size() != 2) return;
      Op at;
      at.loc = k.loc;
      add("swap-kernel-params", at, "swap parameters " + k.params[i].name + " and " + k.params[i + 1].name + " of @" + k.name,
          edits);
      return;  // one per kernel
    }
  }

  const Source& src_;
  const std::vector<std::string>& only_;
  std::vector<Mutant>& out_;
};

// Findings at warning level and above, as (rule, message) multiset entries. An undecided proof
// (unknown) kills nothing.
std::multiset<std::pair<std::string, std::string>> findingsOf(const std::string& path, const std::string& text,
                                                              const std::string& arch, bool& inputError) {
  CheckRequest req;
  req.arch = arch;
  FileResult r = checkText(path, text, req);
  inputError = r.hasInputErrors();
  std::multiset<std::pair<std::string, std::string>> out;
  for (const auto& f : r.findings)
    if (f.severity >= Severity::Warning && !f.unknown) out.insert({f.ruleId, f.message});
  return out;
}

// The changed lines: everything between the common leading and trailing lines of both texts.
std::string diffOf(const std::string& original, const std::string& mutated) {
  auto lines = [](const std::string& t) {
    std::vector<std::string> out;
    std::istringstream in(t);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
  };
  std::vector<std::string> a = lines(original), b = lines(mutated);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  std::ostringstream d;
  for (size_t i = head; i < a.size() - tail; ++i) d << "      " << (i + 1) << " - " << a[i] << '\n';
  for (size_t i = head; i < b.size() - tail; ++i) d << "      " << (head + 1) << " + " << b[i] << '\n';
  return d.str();
}

const char* fateName(MutantFate f) {
  switch (f) {
    case MutantFate::KilledByIntended: return "killed";
    case MutantFate::KilledByOther: return "killed by another rule";
    case MutantFate::Survived: return "survived";
    case MutantFate::Equivalent: return "equivalent";
    case MutantFate::Invalid: return "invalid";
  }
  return "";
}

}  // namespace

std::vector<Mutant> generateMutants(const std::string& path, const std::string& text,
                                    const std::vector<std::string>& operators, const std::string& defaultArch) {
  Source src(path, text, defaultArch);
  std::vector<Mutant> out;
  if (src.parsed.hasErrors()) return out;
  Generator(src, operators, out).run();
  return out;
}

std::string applyEdits(const std::string& text, const std::vector<TextEdit>& edits) {
  std::vector<TextEdit> sorted = edits;
  std::sort(sorted.begin(), sorted.end(), [](const TextEdit& a, const TextEdit& b) { return a.offset > b.offset; });
  std::string out = text;
  for (const auto& e : sorted) out.replace(e.offset, e.length, e.replacement);
  return out;
}

int runMutate(const MutateRequest& req, std::ostream& out) {
  for (const auto& name : req.operators) {
    bool known = false;
    for (const auto& op : mutationOperators()) known |= op.name == name;
    if (!known) {
      out << "ptoverify: error: unknown mutation operator '" << name << "'\n";
      return kExitInputError;
    }
  }
  std::vector<std::string> problems;
  std::vector<std::string> files = collectInputs(req.paths, problems);
  for (const auto& m : problems) out << m << '\n';
  if (!problems.empty()) return kExitInputError;

  struct Loaded {
    std::string text;
    std::multiset<std::pair<std::string, std::string>> baseline;
  };
  std::map<std::string, Loaded> loaded;
  std::vector<Mutant> mutants;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    bool err = false;
    Loaded l{ss.str(), {}};
    l.baseline = findingsOf(f, l.text, req.arch, err);
    if (err) {
      out << f << ": error: input does not parse; no mutants generated\n";
      continue;
    }
    auto ms = generateMutants(f, l.text, req.operators, req.arch);
    mutants.insert(mutants.end(), ms.begin(), ms.end());
    loaded[f] = std::move(l);
  }
  if (req.max > 0 && mutants.size() > req.max) {
    std::mt19937 rng(req.seed);
    std::shuffle(mutants.begin(), mutants.end(), rng);
    mutants.resize(req.max);
    std::stable_sort(mutants.begin(), mutants.end(), [](const Mutant& a, const Mutant& b) {
      return a.file != b.file ? a.file < b.file : a.line < b.line;
    });
  }

  std::map<std::string, const MutationOperator*> opInfo;
  for (const auto& op : mutationOperators()) opInfo[op.name] = &op;
  std::vector<MutantResult> results;
  std::map<std::string, int> killsPerRule;
  for (const auto& m : mutants) {
    MutantResult r;
    r.mutant = m;
    const Loaded& base = loaded.at(m.file);
    bool err = false;
    auto got = findingsOf(m.file, applyEdits(base.text, m.edits), req.arch, err);
    if (err) {
      r.fate = m.equivalentWhy.empty() ? MutantFate::Invalid : MutantFate::Equivalent;
      results.push_back(r);
      continue;
    }
    // A rule kills the mutant when it reports something the original did not.
    std::multiset<std::pair<std::string, std::string>> extra;
    std::set_difference(got.begin(), got.end(), base.baseline.begin(), base.baseline.end(),
                        std::inserter(extra, extra.begin()));
    std::set<std::string> killers;
    for (const auto& [rule, msg] : extra) killers.insert(rule);
    r.killers.assign(killers.begin(), killers.end());
    // An equivalent mutant is still run: a finding on it means the judge or the rule is wrong,
    // and the listing says so.
    if (!m.equivalentWhy.empty()) {
      r.fate = MutantFate::Equivalent;
      results.push_back(r);
      continue;
    }
    const auto& intended = opInfo.at(m.op)->intendedRules;
    bool byIntended = std::any_of(killers.begin(), killers.end(), [&](const std::string& k) {
      return std::find(intended.begin(), intended.end(), k) != intended.end();
    });
    r.fate = byIntended ? MutantFate::KilledByIntended : killers.empty() ? MutantFate::Survived : MutantFate::KilledByOther;
    for (const auto& k : killers) ++killsPerRule[k];
    if (r.fate == MutantFate::Survived) r.diff = diffOf(base.text, applyEdits(base.text, m.edits));
    results.push_back(r);
  }

  // Per operator: mutants, intended kills, other kills, survivors, equivalent, invalid.
  struct Row {
    int total = 0, intended = 0, other = 0, survived = 0, equivalent = 0, invalid = 0;
  };
  std::map<std::string, Row> rows;
  for (const auto& r : results) {
    Row& row = rows[r.mutant.op];
    ++row.total;
    switch (r.fate) {
      case MutantFate::KilledByIntended: ++row.intended; break;
      case MutantFate::KilledByOther: ++row.other; break;
      case MutantFate::Survived: ++row.survived; break;
      case MutantFate::Equivalent: ++row.equivalent; break;
      case MutantFate::Invalid: ++row.invalid; break;
    }
  }
  bool gateFailed = false;
  char buf[256];
  out << "mutation report: " << files.size() << " file(s), " << results.size() << " mutant(s)\n";
  std::snprintf(buf, sizeof buf, "%-26s %7s %8s %6s %8s %10s %7s %9s %5s\n", "operator", "mutants", "intended", "other",
                "survived", "equivalent", "invalid", "kill-rate", "min");
  out << buf;
  for (const auto& op : mutationOperators()) {
    auto it = rows.find(op.name);
    if (it == rows.end()) continue;
    const Row& row = it->second;
    int counted = row.total - row.equivalent - row.invalid;
    double rate = counted > 0 ? 100.0 * (row.intended + row.other) / counted : 100.0;
    int min = req.minKillRate;
    auto per = req.perOperatorMinKillRate.find(op.name);
    if (per != req.perOperatorMinKillRate.end()) min = per->second;
    if (!op.gated) min = -1;
    std::string minText = min < 0 ? (op.gated ? "-" : "n/a") : std::to_string(min);
    bool below = min >= 0 && counted > 0 && rate + 1e-9 < min;
    gateFailed |= below;
    std::snprintf(buf, sizeof buf, "%-26s %7d %8d %6d %8d %10d %7d %8.1f%% %5s%s\n", op.name.c_str(), row.total,
                  row.intended, row.other, row.survived, row.equivalent, row.invalid, rate, minText.c_str(),
                  below ? "  BELOW" : "");
    out << buf;
  }
  out << "kills per rule:";
  for (const auto& [rule, n] : killsPerRule) out << ' ' << rule << '=' << n;
  out << '\n';
  for (const auto& r : results) {
    if (r.fate != MutantFate::Survived) continue;
    out << "survived [" << r.mutant.op << "] " << r.mutant.file << ":" << r.mutant.line << ": " << r.mutant.what << '\n'
        << r.diff;
  }
  for (const auto& r : results) {
    if (r.fate != MutantFate::Equivalent && r.fate != MutantFate::Invalid) continue;
    out << fateName(r.fate) << " [" << r.mutant.op << "] " << r.mutant.file << ":" << r.mutant.line << ": "
        << r.mutant.what << (r.mutant.equivalentWhy.empty() ? "" : " -- " + r.mutant.equivalentWhy);
    for (size_t i = 0; i < r.killers.size(); ++i) out << (i ? ", " : "; yet reported by ") << r.killers[i];
    out << '\n';
  }
  if (gateFailed) out << "mutate: kill rate below the minimum for at least one operator\n";
  return gateFailed ? 1 : 0;
}

}  // namespace ptov
