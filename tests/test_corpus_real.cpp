// The tool against real upstream inputs in ../shared/corpus-real (never copied into the project).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "analyzer/frontend.h"
#include "analyzer/mlir/parser.h"
#include "analyzer/pto/lifter.h"
#include "real_corpus.h"
#include "rules/rule.h"

using namespace ptov;
namespace fs = std::filesystem;

namespace {

LoadedFile load(const std::string& rel) {
  std::string path = realCorpusDir() + "/" + rel;
  REQUIRE_MESSAGE(fs::exists(path), "missing real input " << path << " ");
  return loadFile(path, FrontendOptions{});
}

// kernel name -> the set of rule ids with findings at or above `min`
std::map<std::string, std::set<std::string>> rulesPerKernel(const LoadedFile& f, Severity min = Severity::Note) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& k : f.kernels) {
    auto& s = out[k.name];
    for (const auto& finding : runRules(k, {}))
      if (finding.severity >= min) s.insert(finding.ruleId);
  }
  return out;
}

std::vector<std::string> filesUnder(const std::string& rel, const std::string& ext) {
  std::vector<std::string> out;
  std::string root = realCorpusDir() + "/" + rel;
  REQUIRE_MESSAGE(fs::is_directory(root), "missing " << root);
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("corpus-real: every PTOAS .pto file is read and lifted without an input error") {
  SKIP_WITHOUT_REAL_CORPUS();
  auto files = filesUnder("ptoas", ".pto");
  CHECK(files.size() >= 50);
  size_t kernels = 0;
  for (const auto& path : files) {
    CAPTURE(path);
    LoadedFile f = loadFile(path, FrontendOptions{});
    for (const auto& d : f.diagnostics) CHECK_MESSAGE(d.level != InputDiagnostic::Level::Error, d.loc.line << ":" << d.loc.col << ": " << d.message);
    CHECK(!f.kernels.empty());
    kernels += f.kernels.size();
  }
  CHECK(kernels >= 100);
}

TEST_CASE("corpus-real: every HIVM .mlir file is read and lifted without an input error") {
  SKIP_WITHOUT_REAL_CORPUS();
  auto files = filesUnder("hivm", ".mlir");
  CHECK(files.size() >= 50);
  size_t kernels = 0, syncOps = 0;
  for (const auto& path : files) {
    CAPTURE(path);
    LoadedFile f = loadFile(path, FrontendOptions{});
    for (const auto& d : f.diagnostics) CHECK_MESSAGE(d.level != InputDiagnostic::Level::Error, d.loc.line << ":" << d.loc.col << ": " << d.message);
    kernels += f.kernels.size();
    for (const auto& k : f.kernels)
      forEachOp(*k.body, [&](const Op& op) {
        syncOps += op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag || op.kind == OpKind::CrossCoreSet ||
                   op.kind == OpKind::CrossCoreWait;
      });
  }
  CHECK(kernels >= 500);
  CHECK(syncOps >= 300);  // the hivm.hir sync ops of the inputs (CHECK lines are comments)
}

TEST_CASE("corpus-real: every error-level finding on the HIVM files is one docs/hivm.md explains") {
  SKIP_WITHOUT_REAL_CORPUS();
  const std::set<std::pair<std::string, std::string>> expected = {
      // IR/sync-ops.mlir round-trips op syntax; its functions are not kernels.
      {"Dialect/HIVM/IR/sync-ops.mlir", "sync-deadlock"},
      {"Dialect/HIVM/IR/sync-ops.mlir", "sync-exit-balance"},
      {"Dialect/HIVM/IR/sync-ops.mlir", "sync-event-pairing"},
      {"Dialect/HIVM/IR/sync-ops.mlir", "sync-ffts-base"},
      // Pass-intermediate fragments on 910B with cross-core sync and no FFTS base or argument.
      {"Dialect/HFusion/outline-vector-function.mlir", "sync-ffts-base"},
      {"Dialect/HIVM/Analysis/hivm-dimension-analyzer.mlir", "sync-ffts-base"},
      {"Dialect/HIVM/SyncSolver/hivm-gss.mlir", "sync-ffts-base"},
      {"Dialect/HIVM/hivm-create-preload.mlir", "sync-ffts-base"},
      {"Dialect/HIVM/tile-and-bind-sub-block.mlir", "sync-ffts-base"},
      // The decomposition test lowers two ALL_SUB_VECTOR barriers on one flag (the !2814 shape).
      {"Dialect/HIVM/hivm-op-decompose.mlir", "sync-block-pairing"},
  };
  // The `unknown`s: a GSS input whose body branches with cf.cond_br, which the trace does not
  // unroll (docs/hivm.md), and kernels with ops of other dialects whose effects the model does
  // not have (vector.transfer_read, linalg, llvm.store, custom macros): each rule says so rather
  // than passing them.
  const std::set<std::tuple<std::string, std::string, std::string>> expectedUnknown = {
      {"Dialect/HIVM/SyncSolver/hivm-gss.mlir", "test_branchop_inplace", "sync-pipe-race"},
  };
  std::set<std::pair<std::string, std::string>> got;
  std::set<std::tuple<std::string, std::string, std::string>> gotUnknown;
  for (const auto& path : filesUnder("hivm", ".mlir")) {
    LoadedFile f = loadFile(path, FrontendOptions{});
    std::string rel = path.substr(path.find("/test/") + 6);
    for (const auto& k : f.kernels)
      for (const auto& finding : runRules(k, {})) {
        bool opaque = std::any_of(k.gaps.begin(), k.gaps.end(),
                                  [](const ModelGap& g) { return g.kind == ModelGap::Kind::OpaqueOp; });
        if (finding.unknown && opaque) {
          INFO(rel << ": " << finding.message);
          CHECK(finding.message.find("op of unknown effect") != std::string::npos);
        } else if (finding.unknown) {
          INFO(rel << ": " << finding.message);
          CHECK(finding.message.find("multi-block") != std::string::npos);
          gotUnknown.insert({rel, k.name, finding.ruleId});
        }
        if (finding.severity == Severity::Error) got.insert({rel, finding.ruleId});
      }
  }
  CHECK(got == expected);
  CHECK(gotUnknown == expectedUnknown);
}

TEST_CASE("corpus-real: the functions PTOAS v0.50 rejected are flagged by the matching rule") {
  SKIP_WITHOUT_REAL_CORPUS();
  LoadedFile f = load("ptoas/_v0.50_snapshot_1c903483/test/lit/pto/memory_consistency_invalid.pto");
  auto rules = rulesPerKernel(f, Severity::Error);
  REQUIRE(rules.size() == 4);
  CHECK(rules["scalar_release_cmo_after_fence"] == std::set<std::string>{"comm-publish-fence"});
  CHECK(rules["scalar_release_addressed_cmo_before_store"] == std::set<std::string>{"comm-publish-fence"});
  CHECK(rules["missing_acquire_invalidate"] == std::set<std::string>{"comm-wait-invalidate"});
  CHECK(rules["dirty_cache_before_acquire_load"] == std::set<std::string>{"comm-wait-invalidate"});
}

TEST_CASE("corpus-real: DeepSeek-V4 A3 aiv kernels are known-good, the batching note fires on the wait loops") {
  SKIP_WITHOUT_REAL_CORPUS();
  const std::string dir = "ptoas/main_e32488c9/test/samples/DeepseekV4DecodeA3/kernels/aiv/";
  const std::set<std::string> waitKernels = {"combine_wait", "dispatch_wait", "lm_head_combine_wait", "lm_head_dispatch_wait"};
  int files = 0;
  for (const auto& path : filesUnder(dir, ".pto")) {
    ++files;
    CAPTURE(path);
    LoadedFile f = loadFile(path, FrontendOptions{});
    REQUIRE(f.kernels.size() == 1);
    const Kernel& k = f.kernels[0];
    std::set<std::string> notes;
    for (const auto& finding : runRules(k, {})) {
      CHECK_MESSAGE(finding.severity != Severity::Error, finding.ruleId << " at line " << finding.loc.line << ": " << finding.message);
      CHECK_MESSAGE(finding.severity != Severity::Warning, finding.ruleId << " at line " << finding.loc.line << ": " << finding.message);
      if (finding.severity == Severity::Note) notes.insert(finding.ruleId);
    }
    if (waitKernels.count(k.name)) CHECK(notes == std::set<std::string>{"comm-wait-batching"});
    else CHECK(notes.empty());
  }
  CHECK(files == 6);
}

TEST_CASE("corpus-real: oracle_event_pair_guards — the three unbalanced placements are flagged") {
  SKIP_WITHOUT_REAL_CORPUS();
  LoadedFile f = load("ptoas/_index_hw-native-sys_newer/test/lit/pto/Inputs/oracle_event_pair_guards.pto");
  auto rules = rulesPerKernel(f);
  // The oracle judges pairing only; its kernels also load and store one tile, and on the
  // paths where the pair does not run nothing orders the two (sync-pipe-race, docs/solver.md).
  for (const char* k : {"pair_split_across_arms", "guarded_set_plain_wait", "plain_set_guarded_wait", "pair_on_one_arm"})
    CHECK(rules[k].erase("sync-pipe-race") == 1);
  // Set on one arm, wait on the other: the wait can starve (p = 0) and the set can leak (p = 1).
  CHECK(rules["pair_split_across_arms"] == std::set<std::string>{"sync-deadlock", "sync-exit-balance"});
  CHECK(rules["guarded_set_plain_wait"] == std::set<std::string>{"sync-deadlock"});
  CHECK(rules["plain_set_guarded_wait"] == std::set<std::string>{"sync-exit-balance"});
  CHECK(rules["pair_on_one_arm"].empty());
  // The oracle calls one set before a 4-trip loop of waits legal; a wait consumes the binary
  // flag (AscendNPU IR's Auto-Sync design, the HIVM SyncTester model), so the second iteration's
  // wait blocks MTE3.
  // docs/solver.md records the disagreement.
  CHECK(rules["set_outside_loop_wait_inside"] == std::set<std::string>{"sync-deadlock"});
}

TEST_CASE("corpus-real: PTOAS lit inputs with known defects") {
  SKIP_WITHOUT_REAL_CORPUS();
  // tassign_addr_alignment_invalid: PTOAS' own verifier rejects the 70660 address.
  auto align = rulesPerKernel(load("ptoas/main_e32488c9/test/lit/pto/tassign_addr_alignment_invalid.pto"));
  bool ub = false;
  for (const auto& [k, r] : align) ub |= r.count("ub-range") > 0;
  CHECK(ub);
  // issue872: chunked tput followed by a notify: the put is never drained by PIPE_ALL before the fence.
  auto put = rulesPerKernel(load("ptoas/_v0.50_snapshot_1c903483/test/lit/pto/issue872_tput_tnotify_release.pto"));
  bool drain = false;
  for (const auto& [k, r] : put) drain |= r.count("comm-put-drain") > 0;
  CHECK(drain);
  // eventid_array_get_set_get: the slot is rewritten between the two gets, so the set and the
  // wait use different ids (EVENT_ID1 vs EVENT_ID2); eventid_array_dyn_sync pairs correctly.
  auto ids = rulesPerKernel(load("ptoas/main_e32488c9/test/lit/pto/eventid_array_get_set_get.pto"), Severity::Error);
  CHECK(ids["eventid_array_get_set_get"] == std::set<std::string>{"sync-deadlock"});
  auto dyn = rulesPerKernel(load("ptoas/main_e32488c9/test/lit/pto/eventid_array_dyn_sync.pto"));
  CHECK(dyn["eventid_array_dyn_sync"].empty());
  // tload_cache_policy (v0.61): l2_bypass without the v0.64 offset operand on a2a3.
  auto cache = rulesPerKernel(load("ptoas/_index_hw-native-sys_newer/test/lit/pto/tload_cache_policy.pto"));
  bool offset = false;
  for (const auto& [k, r] : cache) offset |= r.count("cache-bypass-offset") > 0;
  CHECK(offset);
}

TEST_CASE("corpus-real: every proof verdict on the PTOAS files is the one docs/solver.md lists") {
  SKIP_WITHOUT_REAL_CORPUS();
  // (file name relative to corpus-real, rule) for every proof finding; none may be unknown.
  const std::set<std::pair<std::string, std::string>> expected = {
      {"ptoas/_index_hw-native-sys_newer/test/lit/pto/Inputs/oracle_event_pair_guards.pto", "sync-deadlock"},
      {"ptoas/_index_hw-native-sys_newer/test/lit/pto/Inputs/oracle_event_pair_guards.pto", "sync-exit-balance"},
      {"ptoas/_index_hw-native-sys_newer/test/lit/pto/Inputs/oracle_event_pair_guards.pto", "sync-pipe-race"},
      {"ptoas/main_e32488c9/test/lit/pto/eventid_array_get_set_get.pto", "sync-deadlock"},
      {"ptoas/_v0.50_snapshot_1c903483/test/lit/pto/issue711_tnotify_mte_drain.pto", "sync-pipe-race"},
      {"ptoas/main_e32488c9/test/lit/pto/issue706_tput_hidden_mte2_sync.pto", "sync-pipe-race"},
  };
  const std::set<std::string> proofRules = {"sync-deadlock", "sync-exit-balance", "sync-pipe-race", "barrier-arrival"};
  // ... except where an op has effects the model does not have: the cube <-> vector FIFO
  // (pto.initialize_l2g2l_pipe, pto.tpush / pto.tpop / pto.tfree) and pto.tprint. There every
  // rule says unknown, naming the op.
  const std::set<std::string> opaque = {
      "ptoas/main_e32488c9/test/lit/pto/issue622_v_mte2_eventid_overlap_reproducer.pto",
      "ptoas/main_e32488c9/test/lit/pto/tassign_level3_loop_rebind.pto",
      "ptoas/main_e32488c9/test/lit/pto/tassign_level3_missing_alloc_addr.pto",
  };
  std::set<std::pair<std::string, std::string>> got;
  std::set<std::string> gotOpaque;
  for (const auto& path : filesUnder("ptoas", ".pto")) {
    LoadedFile f = loadFile(path, FrontendOptions{});
    std::string rel = path.substr(realCorpusDir().size() + 1);
    for (const auto& k : f.kernels)
      for (const auto& finding : runRules(k, {})) {
        bool explained = finding.message.find("op of unknown effect") != std::string::npos;
        CHECK_MESSAGE((!finding.unknown || (opaque.count(rel) && explained)), rel << ": " << finding.message);
        if (finding.unknown && explained) gotOpaque.insert(rel);
        if (proofRules.count(finding.ruleId) && !finding.unknown) got.insert({rel, finding.ruleId});
      }
  }
  CHECK(got == expected);
  CHECK(gotOpaque == opaque);
}

TEST_CASE("corpus-real: sync-core-pipe finds nothing on the PTOAS and HIVM files, and fires on a PIPE_FIX mutant") {
  SKIP_WITHOUT_REAL_CORPUS();
  for (const char* dir : {"ptoas", "hivm"})
    for (const auto& path : filesUnder(dir, std::string(dir) == "ptoas" ? ".pto" : ".mlir")) {
      LoadedFile f = loadFile(path, FrontendOptions{});
      for (const auto& k : f.kernels)
        for (const auto& finding : runRules(k, {"sync-core-pipe"}))  // unknown only over unmodelled ops
          CHECK_MESSAGE((finding.unknown && finding.message.find("op of unknown effect") != std::string::npos),
                        path << ":" << finding.loc.line << ": " << finding.message);
    }
  // The PTOAS #872 input, a vector kernel: its PIPE_ALL drain turned into PTOAS #1026's PIPE_FIX.
  std::ifstream in(realCorpusDir() + "/ptoas/main_e32488c9/test/lit/pto/issue872_tput_tnotify_release.pto");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t at = text.find("pto.barrier <PIPE_ALL>");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("pto.barrier <PIPE_ALL>").size(), "pto.barrier <PIPE_FIX>");
  mlir::ParsedFile parsed = mlir::parseText(text, "mutant.pto");
  std::vector<InputDiagnostic> diags;
  size_t found = 0;
  for (const auto& k : pto::lift(parsed, pto::LiftOptions{}, diags)) found += runRules(k, {"sync-core-pipe"}).size();
  CHECK(found == 1);
}
