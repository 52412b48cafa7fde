// Unit tests per rule: a bad kernel that must fire and a good one that must not.
#include <doctest/doctest.h>

#include <algorithm>

#include <pthread.h>

#include <atomic>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/threads.h"
#include "tests/helpers.h"

using namespace ptov;
using namespace ptov::test;

namespace {
const char* kCommParams = "%payload: !pto.ptr<i32>, %signal: !pto.ptr<i32>, %n: index, %go: i1";
const char* kSignalView = R"(
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = arith.constant 7 : i32
    %sv = pto.make_tensor_view %signal, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>
    %sig = pto.partition_view %sv, offsets = [%c0], sizes = [%c1] : !pto.tensor_view<1xi32> -> !pto.partition_tensor_view<1xi32>
)";
std::string comm(const std::string& body) { return kernelText(kCommParams, std::string(kSignalView) + body); }
const char* kNotify = "    pto.comm.tnotify(%sig, %v : !pto.partition_tensor_view<1xi32>, i32) {notifyOp = #pto<notify_op set>}\n";
const char* kWait = "    pto.comm.twait(%sig, %v : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp ge>}\n";
}  // namespace

TEST_CASE("every rule has a stable id, a family, a summary and a doc page") {
  for (const auto& r : allRules()) {
    const RuleInfo& i = r->info();
    CAPTURE(i.id);
    CHECK(i.id.rfind(i.family + "-", 0) == 0);
    CHECK_FALSE(i.summary.empty());
    CHECK_FALSE(i.references.empty());
    CHECK_FALSE(ruleDoc(i.id).empty());
  }
}

namespace {
// The bullets of a page's "What it does not check" section, each joined onto one line.
std::vector<std::string> notCoveredOnPage(const std::string& page) {
  const std::string heading = "\n## What it does not check\n";
  size_t start = page.find(heading);
  if (start == std::string::npos) return {};
  size_t end = page.find("\n## ", start + heading.size());
  std::istringstream section(page.substr(start + heading.size(), end - start - heading.size()));
  std::vector<std::string> items;
  for (std::string line; std::getline(section, line);) {
    if (line.rfind("- ", 0) == 0) items.push_back(line.substr(2));
    else if (line.rfind("  ", 0) == 0 && !items.empty()) items.back() += " " + line.substr(line.find_first_not_of(' '));
  }
  return items;
}
}  // namespace

TEST_CASE("every rule says what it does not check, and its page says the same") {
  for (const auto& r : allRules()) {
    const RuleInfo& i = r->info();
    CAPTURE(i.id);
    CHECK_FALSE(i.notCovered.empty());
    CHECK(notCoveredOnPage(ruleDoc(i.id)) == i.notCovered);
  }
  CHECK(notCoveredOnPage("# x\n\n## What it does not check\n\n- one\n  line\n- two\n\n## References\n") ==
        std::vector<std::string>{"one line", "two"});
  CHECK(notCoveredOnPage("# x\n\n## Limits\n\n- one\n").empty());
}

TEST_CASE("comm-publish-fence") {
  std::string store = "    pto.store_scalar %v, %payload[%c0] : !pto.ptr<i32>, i32\n";
  std::string inval = "    pto.cmo.cacheinvalid %payload single_cache_line : !pto.ptr<i32>\n";
  std::string invalOther = "    pto.cmo.cacheinvalid %signal single_cache_line : !pto.ptr<i32>\n";
  std::string fence = "    pto.fence.barrier_all #pto.fence_scope<gm>\n";
  CHECK(findingsOf("comm-publish-fence", comm(store + inval + fence + kNotify)).empty());
  CHECK(findingsOf("comm-publish-fence", comm(store + fence + inval + kNotify)).size() == 1);   // fence before cmo
  CHECK(findingsOf("comm-publish-fence", comm(inval + store + fence + kNotify)).size() == 1);   // cmo before store
  CHECK(findingsOf("comm-publish-fence", comm(store + invalOther + fence + kNotify)).size() == 1);  // other buffer
  CHECK(findingsOf("comm-publish-fence", comm(store + kNotify)).size() == 1);
  // No notify after the write: not publishing.
  CHECK(findingsOf("comm-publish-fence", comm(std::string(kNotify) + store)).empty());
  // ...even when the kernel marks it with a single-line invalidate: the kernel's end releases it.
  CHECK(findingsOf("comm-publish-fence", comm(store + inval)).empty());
  CHECK(findingsOf("comm-publish-fence", comm(store + inval + fence)).empty());
  // Write and notify in different loops (PyPTO's InsertCommFence pass): the fence must come
  // after the write.
  std::string loops = "    scf.for %i = %c0 to %c1 step %c1 {\n" + store + "    }\n    scf.for %j = %c0 to %c1 step %c1 {\n" +
                      kNotify + "    }\n";
  auto f = findingsOf("comm-publish-fence", comm(loops));
  REQUIRE(f.size() == 1);
  CHECK(f[0].loc.line == 10);
  CHECK(f[0].notes.size() == 1);
  // Notify before the write in a loop body: the next iteration's notify publishes it.
  std::string loopBack = "    scf.for %i = %c0 to %n step %c1 {\n" + std::string(kNotify) + store + "    }\n";
  auto back = findingsOf("comm-publish-fence", comm(loopBack));
  REQUIRE(back.size() == 1);
  REQUIRE(static_cast<bool>(back[0].witness));
  CHECK(back[0].witness->values.front() == std::pair<std::string, int64_t>{"%n", 2});
  // With exactly one iteration there is no next notify: the path query proves it.
  CHECK(findingsOf("comm-publish-fence", comm("    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kNotify) +
                                              store + "    }\n"))
            .empty());
  // The same condition guards the write and its release: the dataflow merges the two ifs,
  // the path query does not.
  std::string correlated = "    scf.if %go {\n" + store + "    }\n    scf.if %go {\n" + inval + fence + "    }\n" + kNotify;
  CHECK(findingsOf("comm-publish-fence", comm(correlated)).empty());
  std::string crossed = "    scf.if %go {\n" + store + "    } else {\n" + inval + fence + "    }\n" + kNotify;
  CHECK(findingsOf("comm-publish-fence", comm(crossed)).size() == 1);
  CHECK(findingsOf("comm-publish-fence", comm("    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kNotify) + store +
                                              inval + fence + "    }\n"))
            .empty());
  // Invalidate + fence only on one branch.
  std::string branch = store + "    %b = arith.cmpi eq, %c0, %c1 : index\n    scf.if %b {\n" + inval + fence + "    }\n" + kNotify;
  CHECK(findingsOf("comm-publish-fence", comm(branch)).size() == 1);
}

TEST_CASE("comm-wait-invalidate") {
  std::string load = "    %x = pto.load_scalar %payload[%c0] : !pto.ptr<i32> -> i32\n";
  std::string invalAll = "    pto.cmo.cacheinvalid all #pto.address_space<gm>\n";
  CHECK(findingsOf("comm-wait-invalidate", comm(kWait + invalAll + load)).empty());
  CHECK(findingsOf("comm-wait-invalidate", comm(kWait + load)).size() == 1);
  CHECK(findingsOf("comm-wait-invalidate", comm(load + kWait + invalAll)).empty());
  // A wait that reaches the end of the kernel with no invalidate: a later kernel's scalar reads
  // may be stale, a warning (no read of this kernel is).
  auto atExit = findingsOf("comm-wait-invalidate", comm(load + kWait));
  REQUIRE(atExit.size() == 1);
  CHECK(atExit[0].message.find("before the kernel ends") != std::string::npos);
  CHECK(atExit[0].severity == Severity::Warning);
  // Single-line invalidate of exactly the address read is enough; of another one is not.
  CHECK(findingsOf("comm-wait-invalidate",
                   comm(kWait + std::string("    pto.cmo.cacheinvalid %payload single_cache_line : !pto.ptr<i32>\n") + load))
            .empty());
  CHECK(findingsOf("comm-wait-invalidate",
                   comm(kWait + std::string("    pto.cmo.cacheinvalid %signal single_cache_line : !pto.ptr<i32>\n") + load))
            .size() == 1);
  // A tload is a DMA read: it does not go through the data cache, so only the kernel-end
  // warning remains (the wait is not followed by an invalidate).
  std::string tload = R"(
    %pv = pto.make_tensor_view %payload, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xi32>
    pto.tload ins(%pv : !pto.tensor_view<1xi32>) outs(%t : !pto.tile_buf<vec, 1x8xi32>)
)";
  auto afterTload = findingsOf("comm-wait-invalidate", comm(kWait + tload));
  REQUIRE(afterTload.size() == 1);
  CHECK(afterTload[0].severity == Severity::Warning);
  // A scalar read of a buffer the kernel writes (a peer's copy, SPMD) is an error; of one no
  // code of the kernel writes, a warning: only another kernel could have made its lines stale.
  std::string write = "    pto.store_scalar %v, %payload[%c1] : !pto.ptr<i32>, i32\n";
  CHECK(findingsOf("comm-wait-invalidate", comm(write + kWait + tload + load)).at(0).severity == Severity::Error);
  CHECK(findingsOf("comm-wait-invalidate", comm(kWait + tload + load)).at(0).severity == Severity::Warning);
  // Wait in a loop, read after it.
  CHECK(findingsOf("comm-wait-invalidate", comm("    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kWait) + "    }\n" + load))
            .size() == 1);
}

TEST_CASE("comm-put-drain") {
  std::string params = "%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>";
  std::string setup = R"(
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dv = pto.make_tensor_view %dst, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    %sv = pto.make_tensor_view %src, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>
    pto.comm.tput(%dv, %sv, buf(%t) : !pto.tensor_view<1xf32>, !pto.tensor_view<1xf32>, !pto.tile_buf<vec, 1x8xf32>)
)";
  std::string tail = "    pto.cmo.cacheinvalid %dv single_cache_line : !pto.tensor_view<1xf32>\n"
                     "    pto.fence.barrier_all #pto.fence_scope<gm>\n";
  CHECK(findingsOf("comm-put-drain", kernelText(params, setup + "    pto.barrier <PIPE_ALL>\n" + tail)).empty());
  auto partial = findingsOf("comm-put-drain", kernelText(params, setup + "    pto.barrier <PIPE_MTE3>\n" + tail));
  REQUIRE(partial.size() == 1);
  CHECK(partial[0].message.find("narrower") != std::string::npos);
  CHECK(findingsOf("comm-put-drain", kernelText(params, setup + tail)).size() == 1);
  // In a vector kernel a GM fence lowers to pipe_barrier(PIPE_ALL) + dsb (PTOAS >= 0.54) and drains the put;
  // in a cube kernel it only drains MTE2/MTE3/FIX.
  std::string fenceOnly = setup + "    pto.fence.barrier_all #pto.fence_scope<gm>\n";
  CHECK(findingsOf("comm-put-drain", kernelText(params, fenceOnly)).empty());
  std::string cube = kernelText(params, fenceOnly);
  cube.replace(cube.find("<vector>"), 8, "<cube>");
  CHECK(findingsOf("comm-put-drain", cube).size() == 1);
}

TEST_CASE("comm-wait-batching") {
  std::string invalAll = "    pto.cmo.cacheinvalid all #pto.address_space<gm>\n";
  std::string pure = "    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kWait) + invalAll + "    }\n";
  auto f = findingsOf("comm-wait-batching", comm(pure));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Note);
  std::string batched = "    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kWait) + "    }\n" + invalAll;
  CHECK(findingsOf("comm-wait-batching", comm(batched)).empty());
  std::string ring = "    scf.for %i = %c0 to %c1 step %c1 {\n" + std::string(kWait) + invalAll +
                     "    %x = pto.load_scalar %payload[%c0] : !pto.ptr<i32> -> i32\n    }\n";
  CHECK(findingsOf("comm-wait-batching", comm(ring)).empty());  // wait; load is not a pure wait loop
  CHECK(findingsOf("comm-wait-batching", comm(std::string(kWait) + invalAll + kWait + invalAll)).size() == 1);
}

TEST_CASE("sync-event-pairing, sync-deadlock, sync-exit-balance") {
  auto run = [](const std::string& rule, const std::string& body) {
    return findingsOf(rule, kernelText("%n: index", "    %c0 = arith.constant 0 : index\n"
                                                    "    %c1 = arith.constant 1 : index\n" + body));
  };
  auto deadlock = [&](const std::string& b) { return run("sync-deadlock", b); };
  auto leak = [&](const std::string& b) { return run("sync-exit-balance", b); };
  auto pairing = [&](const std::string& b) { return run("sync-event-pairing", b); };
  std::string set0 = "    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n";
  std::string wait0 = "    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n";
  CHECK(deadlock(set0 + wait0).empty());
  CHECK(leak(set0 + wait0).empty());
  auto lonelyWait = deadlock(wait0);
  REQUIRE(lonelyWait.size() == 1);
  CHECK(lonelyWait[0].severity == Severity::Error);
  REQUIRE(static_cast<bool>(lonelyWait[0].witness));
  CHECK(lonelyWait[0].witness->state.back() == "events set at this point: none");
  // Set twice: the second set is the cause (pairing), the second wait the symptom (deadlock).
  CHECK(pairing(set0 + set0 + wait0 + wait0).size() == 1);
  CHECK(deadlock(set0 + set0 + wait0 + wait0).size() == 1);
  auto leaked = leak(set0);
  REQUIRE(leaked.size() == 1);
  CHECK(leaked[0].message.find("ends") != std::string::npos);
  // Loop-carried pattern: pre-set, wait/set in the body, drain after: balanced on every path.
  std::string pipelined = set0 + "    scf.for %i = %c0 to %n step %c1 {\n" + wait0 + set0 + "    }\n" + wait0;
  CHECK(deadlock(pipelined).empty());
  CHECK(leak(pipelined).empty());
  CHECK(pairing(pipelined).empty());
  // Back-edge wait without a pre-loop set (PTOAS #428): the first iteration with n = 1, and
  // the drain after the loop with n = 0.
  std::string noPreset = "    scf.for %i = %c0 to %n step %c1 {\n" + wait0 + set0 + "    }\n" + wait0;
  auto backEdge = deadlock(noPreset);
  REQUIRE(backEdge.size() == 2);
  REQUIRE(static_cast<bool>(backEdge[0].witness));
  CHECK(backEdge[0].witness->values == std::vector<std::pair<std::string, int64_t>>{{"%n", 1}, {"%i", 0}});
  // Set hoisted out of an if while the wait stays inside (PTOAS #1149): leak when n != 0.
  std::string hoisted = set0 + "    %b = arith.cmpi eq, %n, %c0 : index\n    scf.if %b {\n" + wait0 + "    }\n";
  auto hoistedLeak = leak(hoisted);
  REQUIRE(hoistedLeak.size() == 1);
  CHECK(hoistedLeak[0].witness->values.front().second != 0);
  // Zero-trip loop that held the only set (PTOAS #533): the wait starves with n = 0.
  std::string zeroTrip = "    scf.for %i = %c0 to %n step %c1 {\n" + set0 + "    }\n" + wait0;
  auto zero = deadlock(zeroTrip);
  REQUIRE(zero.size() == 1);
  CHECK(zero[0].witness->values == std::vector<std::pair<std::string, int64_t>>{{"%n", 0}});
  // Event id out of range through a dynamic id.
  CHECK(pairing("    %e = arith.constant 9 : index\n    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n"
                "    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n")
            .size() == 2);  // the set and the wait
  // An id from a value ptoverify cannot compute: undecided, never a pass.
  auto opaque = deadlock("    %e = pto.load_scalar %n[%c0] : !pto.ptr<i32> -> i32\n"
                         "    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n");
  REQUIRE(opaque.size() == 1);
  CHECK(opaque[0].unknown);
  auto opaqueLeak = leak("    %e = pto.load_scalar %n[%c0] : !pto.ptr<i32> -> i32\n"
                         "    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n");
  REQUIRE(opaqueLeak.size() == 1);
  CHECK(opaqueLeak[0].unknown);
}

TEST_CASE("sync-event-pairing: user MTE2->MTE3 event outstanding across a tput") {
  // TPUT sets and waits MTE2->MTE3 EVENT_ID0 inside itself, and EVENT_ID1 too with a pong tile
  // (PTOAS #706): a user's EVENT_ID1 is taken only by the ping-pong form.
  auto body = [](const std::string& bufs) {
    return R"(
    %c1 = arith.constant 1 : index
    %dv = pto.make_tensor_view %dst, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>
    %u = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>
    pto.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
    pto.comm.tput(%dv, %dv, buf()" + bufs + R"() : !pto.tensor_view<1xf32>, !pto.tensor_view<1xf32>, !pto.tile_buf<vec, 1x8xf32>)
    pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
)";
  };
  CHECK(findingsOf("sync-event-pairing", kernelText("%dst: !pto.ptr<f32>", body("%t"))).empty());
  auto f = findingsOf("sync-event-pairing", kernelText("%dst: !pto.ptr<f32>", body("%t, %u")));
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("still set") != std::string::npos);
  // The library's wait took the user's set: the user's wait hangs.
  CHECK(findingsOf("sync-deadlock", kernelText("%dst: !pto.ptr<f32>", body("%t, %u"))).size() == 1);
}

TEST_CASE("ub-range: capacity per arch, alignment, overlap while live") {
  auto tile = [](const std::string& name, int64_t addr, int rows) {
    return "    %a_" + name + " = arith.constant " + std::to_string(addr) + " : i64\n    %" + name +
           " = pto.alloc_tile addr = %a_" + name + " : !pto.tile_buf<loc=vec, dtype=f32, rows=" + std::to_string(rows) +
           ", cols=64, v_row=1, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n";
  };
  auto use = [](const std::string& a, const std::string& b) {
    return "    pto.tadd ins(%" + a + ", %" + a + " : !pto.tile_buf<vec, 1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) outs(%" + b +
           " : !pto.tile_buf<vec, 1x64xf32>)\n";
  };
  // 768 rows x 64 x 4 B = 196608 B: exactly the a2a3 UB.
  CHECK(findingsOf("ub-range", kernelText("", tile("t", 0, 768))).empty());
  CHECK(findingsOf("ub-range", kernelText("", tile("t", 256, 768))).size() == 1);
  CHECK(findingsOf("ub-range", kernelText("", tile("t", 256, 768), "a5"), "a5").empty());
  CHECK(findingsOf("ub-range", kernelText("", tile("t", 48, 1))).size() == 1);  // misaligned
  // The tadd results below are never read (a lost value, a warning); the overlaps are errors.
  auto errors = [](const std::vector<Finding>& fs) {
    return std::count_if(fs.begin(), fs.end(), [](const Finding& f) { return f.severity == Severity::Error; });
  };
  // Overlap: [0, 256) and [128, 384) both live at the tadd.
  CHECK(errors(findingsOf("ub-range", kernelText("", tile("a", 0, 1) + tile("b", 128, 1) + use("a", "b")))) == 1);
  CHECK(errors(findingsOf("ub-range", kernelText("", tile("a", 0, 1) + tile("b", 256, 1) + use("a", "b")))) == 0);
  // Same start address: two views of one buffer (level-3 in-place ops), not a placement bug.
  CHECK(errors(findingsOf("ub-range", kernelText("", tile("a", 0, 1) + tile("b", 0, 1) + use("a", "b")))) == 0);
  // An address chosen by scf.if: each alternative is checked (here 48 is misaligned).
  auto ifAddr = [](int64_t a, int64_t b) {
    return "    %x = arith.constant " + std::to_string(a) + " : i64\n    %y = arith.constant " + std::to_string(b) +
           " : i64\n    %addr = scf.if %c -> (i64) {\n      scf.yield %x : i64\n    } else {\n      scf.yield %y : i64\n    }\n"
           "    %m = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
           "    %t = pto.tassign %m, %addr : !pto.tile_buf<vec, 1x64xf32> -> !pto.tile_buf<vec, 1x64xf32>\n";
  };
  CHECK(findingsOf("ub-range", kernelText("%c: i1", ifAddr(0, 32768))).empty());
  auto bad = findingsOf("ub-range", kernelText("%c: i1", ifAddr(0, 48)));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].message.find("at 48") != std::string::npos);
  // Reuse after the first tile's last use is fine.
  CHECK(errors(findingsOf("ub-range", kernelText("", tile("a", 0, 1) + use("a", "a") + tile("b", 0, 1) + use("b", "b")))) == 0);
}

TEST_CASE("ub-range: a value written and never read is lost, by bytes through any handle") {
  const std::string full = "!pto.tile_buf<vec, 8x64xf32>";
  const std::string partly = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=4, v_col=64, blayout=row_major, "
                             "slayout=none_box, fractal=512, pad=0>";
  auto tile = [](const std::string& name, int64_t addr, const std::string& type) {
    return "    %a_" + name + " = arith.constant " + std::to_string(addr) + " : i64\n    %" + name +
           " = pto.alloc_tile addr = %a_" + name + " : " + type + "\n";
  };
  auto fill = [](const std::string& out, const std::string& type) {
    return "    pto.texpands ins(%one : f32) outs(%" + out + " : " + type + ")\n";
  };
  auto adds = [&](const std::string& in, const std::string& out) {
    return "    pto.tadds ins(%" + in + ", %one : " + full + ", f32) outs(%" + out + " : " + full + ")\n";
  };
  auto lost = [](const std::string& body) {
    std::vector<std::string> out;
    for (const Finding& f : findingsOf("ub-range", kernelText("", "    %one = arith.constant 1.0 : f32\n" + body)))
      if (f.severity == Severity::Warning) out.push_back(f.message);
    return out;
  };
  auto mentions = [](const std::vector<std::string>& ms, const std::string& part) {
    return std::any_of(ms.begin(), ms.end(), [&](const std::string& m) { return m.find(part) != std::string::npos; });
  };
  // %a's value is overwritten by %b's (same bytes, not computed from it) before anything reads it.
  auto overwritten = lost(tile("a", 0, full) + tile("b", 0, full) + tile("c", 4096, full) + fill("a", full) +
                          adds("c", "b") + adds("b", "c"));
  CHECK(mentions(overwritten, "'pto.texpands' writes %a [0, 2048) and no op reads that value before its bytes are written again"));
  // Read through a second handle on the same bytes: not lost.
  auto viaView = lost(tile("a", 0, full) + tile("v", 0, full) + tile("c", 4096, full) + fill("a", full) + adds("v", "c") +
                      adds("c", "c"));
  CHECK_FALSE(mentions(viaView, "writes %a"));
  // A partly valid tile keeps its padding, so writing it does not retire the value before.
  auto padded = lost(tile("a", 0, full) + tile("p", 0, partly) + tile("c", 4096, full) + fill("a", full) +
                     fill("p", partly) + adds("a", "c") + adds("c", "c"));
  CHECK_FALSE(mentions(padded, "writes %a"));
  // The last value of a kernel that never stores it is lost too.
  CHECK(mentions(overwritten, "and no op reads that value before the kernel ends"));
}

TEST_CASE("cache rules: bypass offset per arch, written tensor, the synthetic parameter") {
  auto kernel = [](const std::string& params, const std::string& load, const std::string& extra, const std::string& arch) {
    return kernelText(params, R"(
    %c1 = arith.constant 1 : index
    %v = pto.make_tensor_view %b, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>
    %t = pto.alloc_tile : !pto.tile_buf<mat, 1x8xf32>
)" + load + extra, arch);
  };
  std::string withOffset = "%b: !pto.ptr<f32>, %__pypto_l2_cache_offset: i64";
  std::string bypassOff = "    pto.tload ins(%v : !pto.tensor_view<1xf32>) outs(%t : !pto.tile_buf<mat, 1x8xf32>) "
                          "{cache_policy = #pto.load_cache_policy<l2_bypass>} offset = %__pypto_l2_cache_offset : i64\n";
  std::string bypassNoOff = "    pto.tload ins(%v : !pto.tensor_view<1xf32>) outs(%t : !pto.tile_buf<mat, 1x8xf32>) "
                            "{cache_policy = #pto.load_cache_policy<l2_bypass>}\n";
  std::string plain = "    pto.tload ins(%v : !pto.tensor_view<1xf32>) outs(%t : !pto.tile_buf<mat, 1x8xf32>)\n";
  std::string write = "    pto.tstore ins(%t : !pto.tile_buf<mat, 1x8xf32>) outs(%v : !pto.tensor_view<1xf32>)\n";
  CHECK(findingsOf("cache-*", kernel(withOffset, bypassOff, "", "a2a3")).empty());
  CHECK(findingsOf("cache-bypass-offset", kernel("%b: !pto.ptr<f32>", bypassNoOff, "", "a2a3")).size() == 1);
  CHECK(findingsOf("cache-bypass-offset", kernel(withOffset, bypassOff, "", "a5"), "a5").size() == 1);
  CHECK(findingsOf("cache-bypass-offset", kernel("%b: !pto.ptr<f32>", bypassNoOff, "", "a5"), "a5").empty());
  CHECK(findingsOf("cache-bypass-written", kernel(withOffset, bypassOff, write, "a2a3")).size() == 1);
  CHECK(findingsOf("cache-bypass-written", kernel(withOffset, plain, write, "a2a3")).empty());
  CHECK(findingsOf("cache-policy-param", kernel(withOffset, plain, "", "a2a3")).size() == 1);  // unused param
  CHECK(findingsOf("cache-policy-param", kernel(withOffset, bypassOff, "", "a5"), "a5").size() == 1);
  CHECK(findingsOf("cache-policy-param", kernel("%b: !pto.ptr<f32>", plain, "", "a2a3")).empty());
}

TEST_CASE("runOnThreads runs every task once, each on an 8 MB stack, and hands back a task's exception") {
  for (unsigned threads : {1u, 3u, 2u, 8u, 1u}) {
    std::vector<std::atomic<int>> runs(97);
    std::atomic<bool> stacksAsSaid{true};
    ptov::runOnThreads(runs.size(), threads, [&](size_t i) {
      ++runs[i];
      pthread_attr_t attr;
      size_t size = 0;
      if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
      }
      if (size < ptov::kThreadStackBytes) stacksAsSaid = false;
    });
    bool once = true;
    for (const auto& r : runs) once &= r.load() == 1;
    CHECK_MESSAGE(once, threads << " thread(s): a task ran other than once");
    CHECK_MESSAGE(stacksAsSaid.load(), threads << " thread(s): a task ran on a stack under 8 MB");
  }
  ptov::runOnThreads(0, 4, [](size_t) { FAIL("no task to run"); });
  bool thrown = false;
  std::atomic<int> ran{0};
  try {
    ptov::runOnThreads(40, 4, [&](size_t i) {
      ++ran;
      if (i == 17) throw std::runtime_error("task 17");
    });
  } catch (const std::runtime_error& e) {
    thrown = std::string(e.what()) == "task 17";
  }
  CHECK(thrown);
  CHECK(ran.load() == 40);  // the other tasks still ran
}
