// Mutation operators: each one's edit on a small kernel, and the fates the engine assigns.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/mutate.h"
#include "tests/helpers.h"

using namespace ptov;
using namespace ptov::test;

namespace {
const std::string kKernel = R"(module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%win: !pto.ptr<i32>, %signal: !pto.ptr<i32>, %x: !pto.ptr<f32>, %__pypto_l2_cache_offset: i64, %y: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = arith.constant 1 : i32
    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 256 : i64
    %xv = pto.make_tensor_view %x, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    %t = pto.alloc_tile addr = %a0 : !pto.tile_buf<vec, 1x64xf32>
    %u = pto.alloc_tile addr = %a1 : !pto.tile_buf<vec, 1x64xf32>
    pto.tload ins(%xv : !pto.tensor_view<1xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf32>) {cache_policy = #pto.load_cache_policy<l2_bypass>} offset = %__pypto_l2_cache_offset : i64
    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    pto.tadd ins(%t, %u : !pto.tile_buf<vec, 1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) outs(%u : !pto.tile_buf<vec, 1x64xf32>)
    pto.store_scalar %v, %win[%c0] : !pto.ptr<i32>, i32
    pto.cmo.cacheinvalid %win single_cache_line : !pto.ptr<i32>
    pto.fence.barrier_all #pto.fence_scope<gm>
    %sv = pto.make_tensor_view %signal, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>
    pto.comm.tnotify(%sv, %v : !pto.tensor_view<1xi32>, i32) {notifyOp = #pto<notify_op set>}
    pto.comm.twait(%sv, %v : !pto.tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp ge>}
    pto.cmo.cacheinvalid all #pto.address_space<gm>
    pto.barrier <PIPE_ALL>
    %yv = pto.make_tensor_view %y, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    pto.tstore ins(%u : !pto.tile_buf<vec, 1x64xf32>) outs(%yv : !pto.tensor_view<1xf32>)
    return
  }
}
)";

// The mutated text of the only mutant an operator produces on kKernel.
std::string mutateOnce(const std::string& op) {
  auto ms = generateMutants("k.pto", kKernel, {op}, "a2a3");
  REQUIRE_MESSAGE(ms.size() == 1, op << " produced " << ms.size() << " mutants");
  return applyEdits(kKernel, ms[0].edits);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("the original kernel is clean, so every finding on a mutant comes from the mutation") {
  std::vector<Finding> all;
  for (const auto& k : liftText(kKernel))
    for (const auto& f : runRules(k, {}))
      if (f.severity != Severity::Note) all.push_back(f);
  CHECK(all.empty());
}

TEST_CASE("mutation operators edit the text they name") {
  CHECK_FALSE(contains(mutateOnce("delete-fence"), "pto.fence.barrier_all"));
  CHECK_FALSE(contains(mutateOnce("delete-cacheinvalid-all"), "cacheinvalid all"));
  CHECK_FALSE(contains(mutateOnce("delete-cacheinvalid-line"), "single_cache_line"));
  CHECK_FALSE(contains(mutateOnce("delete-wait-flag"), "pto.wait_flag"));
  CHECK_FALSE(contains(mutateOnce("delete-set-flag"), "pto.set_flag"));
  CHECK(contains(mutateOnce("swap-wait-event-id"), "pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID4>]"));
  CHECK(contains(mutateOnce("drop-cache-offset"), "l2_bypass>}\n"));
  std::string moved = mutateOnce("move-notify-before-store");
  CHECK(moved.find("pto.comm.tnotify") < moved.find("pto.store_scalar"));
  // %t moves one alignment step inside %u (256 + 32), and %u into %t.
  auto shifts = generateMutants("k.pto", kKernel, {"shift-tile-address"}, "a2a3");
  REQUIRE(shifts.size() == 2);
  CHECK(contains(applyEdits(kKernel, shifts[0].edits), "= arith.constant 288 : i64"));
  CHECK(contains(applyEdits(kKernel, shifts[1].edits), "= arith.constant 32 : i64"));
  std::string params = mutateOnce("swap-kernel-params");
  CHECK(contains(params, "@k(%signal: !pto.ptr<i32>, %win: !pto.ptr<i32>"));
  // Both pipes of the set and the wait can be swapped: two mutants.
  CHECK(generateMutants("k.pto", kKernel, {"swap-src-dst-pipe"}, "a2a3").size() == 2);
  // No tput: no barrier to delete; the bypass load reads a tensor nobody writes.
  CHECK(generateMutants("k.pto", kKernel, {"delete-barrier-after-tput"}, "a2a3").empty());
  CHECK(generateMutants("k.pto", kKernel, {"bypass-written-load"}, "a2a3").empty());
}

TEST_CASE("runMutate: kills by the intended rule, the report, and the gate") {
  std::string dir = std::string(PTOVERIFY_SOURCE_DIR) + "/tests/inputs/mutate";
  MutateRequest req;
  req.paths = {dir};
  req.minKillRate = 90;
  std::ostringstream out;
  int code = runMutate(req, out);
  INFO(out.str());
  CHECK(code == 0);
  CHECK(contains(out.str(), "delete-fence"));
  CHECK(contains(out.str(), "kills per rule:"));
  // swap-kernel-params has no rule yet: it survives, is listed, and is not gated.
  CHECK(contains(out.str(), "survived [swap-kernel-params]"));
  CHECK(contains(out.str(), "n/a"));

  // Every fence deletion in that input is killed, so even a 100% requirement holds...
  MutateRequest strict = req;
  strict.operators = {"delete-fence"};
  strict.perOperatorMinKillRate["delete-fence"] = 100;
  std::ostringstream out2;
  CHECK(runMutate(strict, out2) == 0);
  // ...while a surviving mutant (one the oracle cannot show harmless) fails the gate and prints
  // its diff.
  MutateRequest gap = strict;
  gap.operators = {"delete-cacheinvalid-line"};
  gap.perOperatorMinKillRate = {{"delete-cacheinvalid-line", 100}};
  gap.paths = {std::string(PTOVERIFY_SOURCE_DIR) + "/tests/inputs/mutate_gap"};
  std::ostringstream out4;
  CHECK(runMutate(gap, out4) == 1);
  CHECK(contains(out4.str(), "BELOW"));
  CHECK(contains(out4.str(), " - " ));
  CHECK(contains(out4.str(), "pto.cmo.cacheinvalid %payload single_cache_line"));
  MutateRequest unknown = req;
  unknown.operators = {"no-such-operator"};
  std::ostringstream out3;
  CHECK(runMutate(unknown, out3) == kExitInputError);
}
