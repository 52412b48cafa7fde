#pragma once
// A control-flow graph over a kernel's ops, and a forward "may" dataflow solver on it.
// Loops get a back edge; a loop whose trip count is not known to be >= 1 can also be skipped,
// so zero-trip paths (PTOAS #533) are real paths here.
#include <deque>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov {

struct FlowNode {
  enum class Kind { Entry, Exit, Op, LoopHead, LoopExit, Join };
  Kind kind = Kind::Op;
  const Op* op = nullptr;  // for Kind::Op
  const Stmt* stmt = nullptr;
  std::vector<int> succ;
  std::vector<int> pred;
};

struct Flow {
  std::vector<FlowNode> nodes;
  int entry = 0;
  int exit = 1;
  static Flow build(const Stmt& body);
};

// Iterates `transfer(node, state)` to a fixpoint from `entryState` at the entry node and
// returns the state on entry to each node. State must provide
// `bool join(const State& other)` (returns true when it grew) and be copyable.
template <class State, class Transfer>
std::vector<State> solveForward(const Flow& flow, const State& entryState, Transfer&& transfer) {
  std::vector<State> in(flow.nodes.size());
  std::vector<bool> reached(flow.nodes.size(), false);
  std::vector<bool> queued(flow.nodes.size(), false);
  std::deque<int> work;
  in[flow.entry] = entryState;
  reached[flow.entry] = true;
  work.push_back(flow.entry);
  queued[flow.entry] = true;
  while (!work.empty()) {
    int n = work.front();
    work.pop_front();
    queued[n] = false;
    State out = in[n];
    transfer(flow.nodes[n], out);
    for (int s : flow.nodes[n].succ) {
      bool changed;
      if (!reached[s]) {
        in[s] = out;
        reached[s] = true;
        changed = true;
      } else {
        changed = in[s].join(out);
      }
      if (changed && !queued[s]) {
        queued[s] = true;
        work.push_back(s);
      }
    }
  }
  return in;
}

}  // namespace ptov

namespace ptov {

// Solves to a fixpoint with `transfer(node, state, /*report=*/false)`, then replays every
// node once from its fixpoint entry state with report=true. Rules report only in the replay,
// so each finding is emitted once per node, from the state that holds over all paths.
template <class State, class Transfer>
void solveThenReport(const Flow& flow, const State& entryState, Transfer&& transfer) {
  auto in = solveForward(flow, entryState, [&](const FlowNode& n, State& s) { transfer(n, s, false); });
  for (size_t i = 0; i < flow.nodes.size(); ++i) {
    State s = in[i];
    transfer(flow.nodes[i], s, true);
  }
}

}  // namespace ptov
