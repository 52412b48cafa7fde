#pragma once
// One path engine for the control-code walkers (machine.cpp): the paths through a function's
// clang::CFG from a point on. A two-way branch asks the walker for its condition as a path
// literal (a decided condition takes one side; a side that contradicts the path is pruned); a
// switch branches per case group; loops are not entered (their exit edge is taken: the walkers
// ask what happens after them, the loop itself is shown to the walker whole).
#include <clang/AST/ParentMap.h>
#include <clang/Analysis/CFG.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "analyzer/model/machine_facts.h"

namespace ptov::cpp {

// A function's CFG with where each statement sits in it.
class FunctionCfg {
 public:
  FunctionCfg(const clang::FunctionDecl& fn, clang::ASTContext& ctx);
  bool ok() const { return cfg_ != nullptr; }
  const clang::CFGBlock* entry() const { return ok() ? &cfg_->getEntry() : nullptr; }
  // The block and element index of a statement the CFG holds as an element.
  std::optional<std::pair<const clang::CFGBlock*, unsigned>> elementOf(const clang::Stmt* s) const;
  // The successor `index` of the block `terminator` ends (0: true / then, 1: false / else).
  const clang::CFGBlock* successorOf(const clang::Stmt* terminator, unsigned index) const;
  // Is `s` `region` or inside it (by the AST's parents); `region` null: the whole body.
  bool inside(const clang::Stmt* s, const clang::Stmt* region) const;
  // A statement of the block that the AST knows (its terminator or an element), or null.
  const clang::Stmt* anchor(const clang::CFGBlock* b) const;
  // A condition's evaluation as one unit: Clang's CFG splits `a && b`, `a || b` and `c ? x : y`
  // into blocks, but a branch is decided on the whole condition as written (`DEV_IF_INFO`
  // expands to `if (unlikely(!HardBranchTrue(v) || IsLogEnableInfo()))`: one condition to the
  // reader). For a terminator `t` that is part of a larger condition: the expression `within`
  // whose blocks are walked together, and the block `end` the walk goes on from (the owning
  // statement's or `?:`'s, or the one holding a value's whole `a && b`). Null `end`: `t` is a
  // `?:` of its own (a value), branched on its condition.
  struct Unit {
    const clang::Expr* within = nullptr;
    const clang::CFGBlock* end = nullptr;
  };
  Unit unitOf(const clang::Stmt* t) const;
  // The blocks of a unit after `from`, in the order they are evaluated.
  std::vector<const clang::CFGBlock*> unitBlocks(const clang::CFGBlock* from, const Unit& u) const;
  // The loop or switch a `break` leaves.
  const clang::Stmt* breakTarget(const clang::Stmt* brk) const;
  // The `do ... while (c)` loops (not `while (0)` wrappers) whose bodies hold the block.
  std::vector<const clang::Stmt*> doLoopsHolding(const clang::CFGBlock* b) const;

 private:
  std::unique_ptr<clang::CFG> cfg_;
  std::unique_ptr<clang::ParentMap> parents_;
  const clang::Stmt* body_ = nullptr;
  std::map<const clang::Stmt*, std::pair<const clang::CFGBlock*, unsigned>> elements_;
  std::map<const clang::Stmt*, const clang::CFGBlock*> terminators_;
  mutable std::map<const clang::CFGBlock*, std::vector<const clang::Stmt*>> doLoops_;
};

// Is `s` `outer` or one of its sub-statements?
bool contains(const clang::Stmt* outer, const clang::Stmt* s);

// `do { ... } while (0)`: a macro's statement wrapper, not a loop.
bool onceOnly(const clang::Stmt* s);
bool isLoop(const clang::Stmt* s);

struct Branch {
  std::optional<bool> decided;
  PathLiteral lit;
};
enum class PathEnd { Return, Break, FallThrough };

// What every walker's path state holds; the engine keeps it.
struct PathState {
  std::vector<PathLiteral> when;            // the conditions the path took
  std::map<const clang::Stmt*, bool> arms;  // `?:`, `&&`, `||` on the path: the side taken
  const clang::Stmt* last = nullptr;        // the last element walked
};

// A walker provides, for its State (derived from PathState):
//   bool element(const clang::Stmt*, State&)    an element of a block; false ends the path
//   bool loop(const clang::Stmt*, State&)       a loop the path passes without entering; false ends it
//   Branch branch(const clang::Expr*, const State&)   a two-way condition
//   PathLiteral switchCase(const clang::SwitchStmt*, const std::vector<const clang::SwitchCase*>&, const State&)
//   void end(PathEnd, const clang::Stmt*, State&)     Return (the return statement), Break (a
//                                                     break out of the region), FallThrough
//                                                     (the path left the region or the function)
template <class State, class Walker>
class PathEngine {
 public:
  // `region`: the statement whose paths are walked (null: the whole function); `start`: a
  // statement inside it the walk begins in (loops holding it are left by their exits, not passed).
  PathEngine(const FunctionCfg& g, Walker& w, const clang::Stmt* region, const clang::Stmt* start, size_t maxForks)
      : g_(g), w_(w), region_(region), start_(start), forksLeft_(maxForks) {}

  size_t forksLeft() const { return forksLeft_; }
  // Did the walk leave paths unwalked (its fork budget, or a path past its block limit)?
  bool cut() const { return cut_; }

  void run(const clang::CFGBlock* block, unsigned element, State state) {
    if (!block) return;
    std::vector<Item> todo{{block, element, std::move(state), 0, {}, false}};
    while (!todo.empty()) {
      Item item = std::move(todo.back());
      todo.pop_back();
      step(item, todo);
    }
  }

 private:
  struct Item {
    const clang::CFGBlock* block;
    unsigned element;
    State state;
    size_t blocks;                         // blocks walked on this path (a backward goto cannot spin)
    std::vector<const clang::Stmt*> inDo;  // the do-loops the path is inside
    bool escaped = false;                  // left the region by `goto`: followed to the function's end
  };

  void step(Item& it, std::vector<Item>& todo) {
    const clang::CFGBlock* b = it.block;
    State& st = it.state;
    if (++it.blocks > kMaxBlocksPerPath) {
      cut_ = true;
      return;
    }
    if (const clang::Stmt* a = g_.anchor(b)) {
      if (!it.escaped && !g_.inside(a, region_)) return w_.end(PathEnd::FallThrough, st.last, st);
      it.inDo = g_.doLoopsHolding(b);
    }
    for (unsigned i = it.element; i < b->size(); ++i) {
      auto e = (*b)[i].template getAs<clang::CFGStmt>();
      if (!e) continue;
      const clang::Stmt* s = e->getStmt();
      if (const auto* ret = llvm::dyn_cast<clang::ReturnStmt>(s)) return w_.end(PathEnd::Return, ret, st);
      if (!w_.element(s, st)) return;
      st.last = s;
    }
    const clang::Stmt* t = b->getTerminatorStmt();
    if (b->succ_empty()) return w_.end(PathEnd::FallThrough, st.last, st);
    if (t && llvm::isa<clang::BreakStmt>(t) && !it.escaped && !g_.inside(g_.breakTarget(t), region_))
      return w_.end(PathEnd::Break, t, st);
    if (const auto* jump = llvm::dyn_cast_or_null<clang::GotoStmt>(t))
      it.escaped |= !g_.inside(jump->getLabel()->getStmt(), region_);
    if (t && isLoop(t)) {
      if (!contains(t, start_) && !w_.loop(t, st)) return;
      return follow(b, 1, std::move(it), todo);
    }
    if (t && onceOnly(t)) return follow(b, 1, std::move(it), todo);
    if (const auto* sw = llvm::dyn_cast_or_null<clang::SwitchStmt>(t)) return cases(sw, b, std::move(it), todo);
    if (t && (llvm::isa<clang::BinaryOperator>(t) || llvm::isa<clang::AbstractConditionalOperator>(t)))
      if (auto u = g_.unitOf(t); u.end) return unit(b, u, std::move(it), todo);
    if (b->succ_size() == 2 && t) return branch(t, b, std::move(it), todo);
    follow(b, 0, std::move(it), todo);
  }

  // Goes on along successor `index` of `from` (skipping any do-loop the edge enters).
  void follow(const clang::CFGBlock* from, unsigned index, Item it, std::vector<Item>& todo) {
    // (`it.inDo` is where the path was: a block the AST cannot place does not change it.)
    if (index >= from->succ_size()) return;
    const clang::CFGBlock* next = *(from->succ_begin() + index);
    if (!next) return;
    for (const clang::Stmt* d : g_.doLoopsHolding(next))
      if (std::find(it.inDo.begin(), it.inDo.end(), d) == it.inDo.end() && !contains(d, start_)) {
        if (!w_.loop(d, it.state)) return;
        next = g_.successorOf(d, 1);
        if (!next) return;
        break;
      }
    todo.push_back({next, 0, std::move(it.state), it.blocks, std::move(it.inDo), it.escaped});
  }

  // The rest of a condition's blocks, walked once each; then on from the unit's end.
  void unit(const clang::CFGBlock* b, const FunctionCfg::Unit& u, Item it, std::vector<Item>& todo) {
    for (const clang::CFGBlock* part : g_.unitBlocks(b, u))
      for (const clang::CFGElement& e : *part)
        if (auto s = e.template getAs<clang::CFGStmt>()) {
          if (!w_.element(s->getStmt(), it.state)) return;
          it.state.last = s->getStmt();
        }
    todo.push_back({u.end, 0, std::move(it.state), it.blocks, std::move(it.inDo), it.escaped});
  }

  void branch(const clang::Stmt* t, const clang::CFGBlock* b, Item it, std::vector<Item>& todo) {
    const clang::Expr* cond = fullCondition(t);
    if (!cond) cond = b->getLastCondition();
    if (!cond) return follow(b, 0, std::move(it), todo);
    Branch c = w_.branch(cond, it.state);
    bool records = llvm::isa<clang::AbstractConditionalOperator>(t) || llvm::isa<clang::BinaryOperator>(t);
    if (c.decided) {
      if (records) it.state.arms[t] = *c.decided;
      return follow(b, *c.decided ? 0 : 1, std::move(it), todo);
    }
    if (forksLeft_ == 0) {
      cut_ = true;
      return;
    }
    --forksLeft_;
    Item other = it;
    // The false side is pushed first so that the true side is walked first.
    if (addLiteral(other.state.when, c.lit.negated())) {
      if (records) other.state.arms[t] = false;
      follow(b, 1, std::move(other), todo);
    }
    if (addLiteral(it.state.when, c.lit)) {
      if (records) it.state.arms[t] = true;
      follow(b, 0, std::move(it), todo);
    }
  }

  // One path per group of case labels that share a body; the path past every case (no default)
  // carries no literal.
  void cases(const clang::SwitchStmt* sw, const clang::CFGBlock* b, Item it, std::vector<Item>& todo) {
    struct Group {
      std::vector<const clang::SwitchCase*> labels;
      unsigned index;
    };
    std::vector<Group> groups;
    std::optional<unsigned> noCase;
    std::map<const clang::CFGBlock*, const clang::CFGBlock*> fallsInto;  // label-only block -> next
    for (unsigned i = 0; i < b->succ_size(); ++i) {
      const clang::CFGBlock* s = *(b->succ_begin() + i);
      if (!s) continue;
      const auto* label = llvm::dyn_cast_or_null<clang::SwitchCase>(s->getLabel());
      if (!label) {
        noCase = i;
        continue;
      }
      groups.push_back({{label}, i});
      if (s->empty() && !s->getTerminatorStmt() && s->succ_size() == 1) fallsInto[s] = *s->succ_begin();
    }
    // `case A: case B: body`: A's empty block falls into B's: one group.
    std::sort(groups.begin(), groups.end(),
              [](const Group& x, const Group& y) { return x.labels[0]->getBeginLoc() < y.labels[0]->getBeginLoc(); });
    std::vector<Group> merged;
    for (size_t i = 0; i < groups.size(); ++i) {
      const clang::CFGBlock* s = *(b->succ_begin() + groups[i].index);
      if (!merged.empty() && merged.back().index != groups[i].index) {
        const clang::CFGBlock* prev = *(b->succ_begin() + merged.back().index);
        if (fallsInto.count(prev) && fallsInto[prev] == s) {
          merged.back().labels.push_back(groups[i].labels[0]);
          merged.back().index = groups[i].index;
          continue;
        }
      }
      merged.push_back(groups[i]);
    }
    if (forksLeft_ < merged.size()) {
      cut_ = true;
      return;
    }
    forksLeft_ -= merged.size();
    if (noCase) follow(b, *noCase, it, todo);
    for (auto g = merged.rbegin(); g != merged.rend(); ++g) {
      Item path = it;
      if (addLiteral(path.state.when, w_.switchCase(sw, g->labels, it.state)))
        follow(b, g->index, std::move(path), todo);
    }
  }

  // The condition a statement or `?:` branches on, whole.
  static const clang::Expr* fullCondition(const clang::Stmt* t) {
    if (const auto* s = llvm::dyn_cast<clang::IfStmt>(t)) return s->getCond();
    if (const auto* s = llvm::dyn_cast<clang::AbstractConditionalOperator>(t)) return s->getCond();
    return nullptr;
  }

  static constexpr size_t kMaxBlocksPerPath = 4096;
  const FunctionCfg& g_;
  Walker& w_;
  const clang::Stmt* region_;
  const clang::Stmt* start_;
  size_t forksLeft_;
  bool cut_ = false;
};

}  // namespace ptov::cpp
