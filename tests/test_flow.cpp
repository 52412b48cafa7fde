#include <doctest/doctest.h>

#include <set>

#include "analyzer/model/flow.h"
#include "tests/helpers.h"

using namespace ptov;
using namespace ptov::test;

namespace {
// Which ops may have executed before reaching each node ("seen" sets, joined by union).
struct Seen {
  std::set<std::string> names;
  bool join(const Seen& o) {
    size_t before = names.size();
    names.insert(o.names.begin(), o.names.end());
    return names.size() != before;
  }
};

Seen atExit(const Kernel& k) {
  Flow f = Flow::build(*k.body);
  auto in = solveForward(f, Seen{}, [](const FlowNode& n, Seen& s) {
    if (n.op && n.op->kind == OpKind::PipeBarrier) s.names.insert(pipeName(n.op->barrierPipe));
  });
  return in[f.exit];
}

// Can the exit be reached without executing the PIPE_V barrier?
bool exitAvoidsV(const Kernel& k) {
  Flow f = Flow::build(*k.body);
  struct State {
    bool clean = true;  // no V barrier on this path
    bool join(const State& o) {
      bool c = !clean && o.clean;
      clean |= o.clean;
      return c;
    }
  };
  auto in = solveForward(f, State{}, [](const FlowNode& n, State& s) {
    if (n.op && n.op->kind == OpKind::PipeBarrier && n.op->barrierPipe == Pipe::V) s.clean = false;
  });
  return in[f.exit].clean;
}
}  // namespace

TEST_CASE("flow: loops with unknown trip count can be skipped, constant trip >= 1 cannot") {
  auto loopTo = [](const std::string& ub) {
    return liftText(kernelText("%n: index", "    %c0 = arith.constant 0 : index\n"
                                            "    %c1 = arith.constant 1 : index\n"
                                            "    %c4 = arith.constant 4 : index\n"
                                            "    scf.for %i = %c0 to " + ub + " step %c1 {\n"
                                            "      pto.barrier <PIPE_V>\n"
                                            "    }\n"));
  };
  CHECK(exitAvoidsV(loopTo("%n").at(0)));         // unknown trip count: may run zero times
  CHECK_FALSE(exitAvoidsV(loopTo("%c4").at(0)));  // 4 iterations: cannot be skipped
  CHECK(exitAvoidsV(loopTo("%c0").at(0)));        // constant zero trips
}

TEST_CASE("flow: if without else, early return, and cf branches") {
  auto k = liftText(kernelText("%c: i1", R"(
    scf.if %c {
      pto.barrier <PIPE_V>
    }
)"));
  CHECK(exitAvoidsV(k.at(0)));
  CHECK(atExit(k.at(0)).names.count("PIPE_V"));
  auto cf = liftText(R"(func.func @k(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  pto.barrier <PIPE_V>
  cf.br ^bb2
^bb2:
  pto.barrier <PIPE_ALL>
  return
}
)");
  REQUIRE(cf.size() == 1);
  CHECK(exitAvoidsV(cf[0]));
  CHECK(atExit(cf[0]).names.count("PIPE_ALL"));
  auto ret = liftText(R"(func.func @k(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  pto.barrier <PIPE_V>
  return
}
)");
  CHECK(exitAvoidsV(ret.at(0)));
}
