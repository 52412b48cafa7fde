#include "analyzer/model/op_registry.h"

#include <cctype>
#include <deque>
#include <map>
#include <unordered_map>

namespace ptov::ops {

namespace {
using P = Pipe;
using R = PipeRule;
using S = CallShape;
using K = OpKind;
using L = Lift;
using D = Dialect;
using E = Expr::Kind;

OpRow entry(const char* name, K kind, S shape, R rule, std::vector<Pipe> pipes, std::vector<std::string> cpp,
            std::vector<std::string> mlir) {
  OpRow in;
  in.name = name;
  in.kind = kind;
  in.shape = shape;
  in.rule = rule;
  in.pipes = std::move(pipes);
  in.cpp = std::move(cpp);
  in.mlir = std::move(mlir);
  in.written = -1;
  return in;
}

// A mnemonic as .pto spells it: lower case, with dots for underscores where `dots` (pto.tmatmul.acc).
std::string ptoSpelling(const char* name, bool dots) {
  std::string s = name;
  for (char& c : s) c = dots && c == '_' ? '.' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A tile instruction spelt pto::NAME in C++ and pto.name (dots for underscores) in .pto.
OpRow tile(const char* name, K kind, std::vector<Pipe> pipes, std::vector<Form> forms = {}) {
  OpRow in = entry(name, kind, S::Tile, forms.empty() ? R::Fixed : R::ByForm, std::move(pipes), {}, {});
  in.written = 0;
  in.forms = std::move(forms);
  return in;
}

// Every vector computation of pto-isa's table and of PTOAS: first operand written, the other
// tiles read, PIPE_V.
const char* const kVectorOps[] = {
    "TADD", "TADDS", "TAXPY", "TSUB", "TSUBS", "TMUL", "TMULS", "TDIV", "TDIVS", "TMIN", "TMINS", "TMAX", "TMAXS",
    "TAND", "TANDS", "TOR", "TORS", "TXOR", "TXORS", "TNOT", "TSHL", "TSHLS", "TSHR", "TSHRS", "TSEL", "TSELS",
    "TEXP", "TLOG", "TSQRT", "TRSQRT", "TRECIP", "TABS", "TNEG", "TRELU", "TPRELU", "TLRELU", "TPOW", "TPOWS",
    "TREM", "TREMS", "TFMOD", "TFMODS", "TCMP", "TCMPS", "TCVT", "TPARTADD", "TPARTMUL", "TPARTMAX", "TPARTMIN",
    "TPARTARGMAX", "TPARTARGMIN", "TMRGSORT", "TSORT32", "TGATHER", "TGATHERB", "TSCATTER", "TSCATTERB",
    "TROWSUM", "TROWPROD", "TROWMAX", "TROWMIN", "TROWARGMAX", "TROWARGMIN", "TCOLSUM", "TCOLPROD", "TCOLMAX",
    "TCOLMIN", "TCOLARGMAX", "TCOLARGMIN", "TROWEXPAND", "TROWEXPANDADD", "TROWEXPANDSUB", "TROWEXPANDMUL",
    "TROWEXPANDDIV", "TROWEXPANDMAX", "TROWEXPANDMIN", "TROWEXPANDEXPDIF", "TCOLEXPAND", "TCOLEXPANDADD",
    "TCOLEXPANDSUB", "TCOLEXPANDMUL", "TCOLEXPANDDIV", "TCOLEXPANDMAX", "TCOLEXPANDMIN", "TCOLEXPANDEXPDIF",
    "TRANDOM", "TTRI", "TCONCAT", "TDEQUANT", "TQUANT", "TADDDEQRELU", "TPAIRREDUCESUM", "TSUBRELUCONV",
    "TADDRELUCONV", "TFUSEDMULADD", "TMULADDDST", "TSUBRELU", "TFUSEDMULADDRELU", "THISTOGRAM", "TINTERLEAVE",
    "TDEINTERLEAVE",
};

// Loads, stores and moves between spaces; the PTOAS sync op types of each (record_event
// [TSTORE_VEC, ...]) are its forms' upstream names.
void addDataMovement(std::vector<OpRow>& t) {
  OpRow load = tile("TLOAD", K::Load, {P::MTE2});
  load.syncTypes = {"TLOAD"};
  t.push_back(load);
  t.push_back(tile("TPREFETCH", K::Prefetch, {P::MTE2}));
  OpRow st = tile("TSTORE", K::Store, {P::MTE3},
                  {{"TSTORE_ACC", "l0c", "", P::FIX}, {"TSTORE_MAT", "l1", "", P::MTE3}, {"TSTORE_VEC", "ub", "", P::MTE3}});
  st.gmDestination = true;
  st.syncTypes = {"TSTORE_VEC", "TSTORE_ACC"};
  t.push_back(st);
  OpRow fp = tile("TSTORE_FP", K::Store, {P::FIX});
  fp.gmDestination = true;
  t.push_back(fp);
  // Moves between spaces run on the pipe of their direction. PTOAS's TMOV_M2V (L1 -> UB) has no
  // form of its own: a move into UB is vector work, the default.
  OpRow mov = tile("TMOV", K::Compute, {P::V},
                   {{"TMOV_V2V", "ub", "ub", P::V},     {"TMOV_V2M", "ub", "l1", P::FIX},    {"TMOV_M2B", "l1", "bias", P::MTE1},
                    {"TMOV_M2L", "l1", "l0a", P::MTE1}, {"TMOV_M2R", "l1", "l0b", P::MTE1},  {"TMOV_M2S", "l1", "scaling", P::FIX},
                    {"TMOV_A2V", "l0c", "ub", P::FIX},  {"TMOV_A2M", "l0c", "l1", P::FIX},   {nullptr, "l0c", "", P::FIX},
                    {nullptr, "gm", "", P::MTE2},       {nullptr, "ub", "gm", P::MTE3}});
  mov.syncTypes = {"TMOV_M2L", "TMOV_M2B", "TMOV_M2S", "TMOV_M2V", "TMOV_V2M"};
  mov.window = true;
  t.push_back(mov);
  OpRow extract = tile("TEXTRACT", K::Compute, {P::V},
                       {{"TEXTRACT_V2M", "ub", "l1", P::FIX}, {"TEXTRACT_M2LR", "l1", "l0a", P::MTE1},
                        {"TEXTRACT_M2LR", "l1", "l0b", P::MTE1}, {"TEXTRACT_A2M", "l0c", "l1", P::FIX},
                        {nullptr, "l1", "bias", P::MTE1}, {nullptr, "l1", "scaling", P::MTE1}, {nullptr, "l0c", "", P::FIX}});
  extract.window = true;
  t.push_back(extract);
  OpRow insert = tile("TINSERT", K::Compute, {P::V},
                      {{"TINSERT_A2M", "l0c", "l1", P::FIX}, {nullptr, "l0c", "", P::FIX}, {nullptr, "ub", "l1", P::MTE3}});
  insert.window = true;
  t.push_back(insert);
  t.push_back(tile("TIMG2COL", K::Compute, {P::MTE1}));
  // Fill, broadcast and gather into L1 go through MTE2; into UB they are vector work.
  t.push_back(tile("TEXPANDS", K::Compute, {P::V}, {{"TEXPANDS_MAT", "", "l1", P::MTE2}, {"TEXPANDS", "", "", P::V}}));
  t.push_back(tile("TFILLPAD", K::Compute, {P::V}, {{"TFILLPAD_MAT", "", "l1", P::MTE2}, {"TFILLPAD_VEC", "", "", P::V}}));
  t.push_back(tile("MGATHER", K::Compute, {P::V}, {{"MGATHER_MAT", "", "l1", P::MTE2}, {"MGATHER_VEC", "", "", P::V}}));
  t.push_back(tile("MSCATTER", K::Compute, {P::V}));
}

// The CCE data-movement intrinsics pto-isa's headers and hand-written kernels call, each
// (dst, src, ...) in the spaces its name says (ubuf UB, cbuf L1, ca/cb L0A/L0B, cc L0C, bt the
// bias table, fbuf the fixpipe buffer), on the pipe of its direction. The pipes are pto-isa's:
// its op-to-pipe table (include/pto/common/event.hpp) gives the instruction each one implements
// (TLOAD MTE2: copy_gm_to_*; TSTORE_VEC MTE3: copy_ubuf_to_gm*; TSTORE_MAT MTE3: copy_cbuf_to_gm;
// TSTORE_ACC, TMOV_A2M, TMOV_A2V FIX: copy_matrix_cc_to_*; TMOV_M2L, TEXTRACT_M2LR MTE1:
// load_cbuf_to_*; TMOV_M2B MTE1: copy_cbuf_to_bt; TMOV_M2S FIX: copy_cbuf_to_fbuf; TMOV_V2V V:
// copy_ubuf_to_ubuf; TEXPANDS_MAT MTE2: create_cbuf_matrix; TIMG2COL MTE1: img2colv2_*), and its
// a5 kernels' flags around the raw moves between UB and L1 (tinsert_kernel.cpp waits V -> MTE3
// before copy_ubuf_to_cbuf; tmov_ub2l1_kernel.cpp waits MTE3 -> MTE1 before copy_cbuf_to_ubuf).
struct Intrinsic {
  const char* cpp;
  MemSpace dst, src;  // src None: the intrinsic reads no memory operand
  Pipe pipe;
};
const Intrinsic kIntrinsics[] = {
    {"copy_gm_to_ubuf", MemSpace::UB, MemSpace::GM, P::MTE2},
    {"copy_gm_to_ubuf_align_b8", MemSpace::UB, MemSpace::GM, P::MTE2},
    {"copy_gm_to_ubuf_align_b16", MemSpace::UB, MemSpace::GM, P::MTE2},
    {"copy_gm_to_ubuf_align_b32", MemSpace::UB, MemSpace::GM, P::MTE2},
    {"copy_gm_to_ubuf_align_v2", MemSpace::UB, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_align", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_align_v2", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_multi_nd2nz", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_multi_nd2nz_b8", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_multi_nd2nz_b16", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_multi_nd2nz_b32s", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_gm_to_cbuf_multi_dn2nz", MemSpace::L1, MemSpace::GM, P::MTE2},
    {"copy_ubuf_to_gm", MemSpace::GM, MemSpace::UB, P::MTE3},
    {"copy_ubuf_to_gm_align_b8", MemSpace::GM, MemSpace::UB, P::MTE3},
    {"copy_ubuf_to_gm_align_b16", MemSpace::GM, MemSpace::UB, P::MTE3},
    {"copy_ubuf_to_gm_align_b32", MemSpace::GM, MemSpace::UB, P::MTE3},
    {"copy_ubuf_to_gm_align_v2", MemSpace::GM, MemSpace::UB, P::MTE3},
    {"copy_cbuf_to_gm", MemSpace::GM, MemSpace::L1, P::MTE3},
    {"copy_ubuf_to_cbuf", MemSpace::L1, MemSpace::UB, P::MTE3},
    {"copy_cbuf_to_ubuf", MemSpace::UB, MemSpace::L1, P::MTE1},
    {"copy_cbuf_to_bt", MemSpace::Bias, MemSpace::L1, P::MTE1},
    {"copy_cbuf_to_fbuf", MemSpace::Scaling, MemSpace::L1, P::FIX},
    {"load_cbuf_to_ca", MemSpace::L0A, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_cb", MemSpace::L0B, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_ca_transpose", MemSpace::L0A, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_cb_transpose", MemSpace::L0B, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_ca_s4", MemSpace::L0A, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_cb_s4", MemSpace::L0B, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_ca_mx", MemSpace::L0A, MemSpace::L1, P::MTE1},
    {"load_cbuf_to_cb_mx", MemSpace::L0B, MemSpace::L1, P::MTE1},
    {"img2colv2_cbuf_to_ca", MemSpace::L0A, MemSpace::L1, P::MTE1},
    {"img2colv2_cbuf_to_cb", MemSpace::L0B, MemSpace::L1, P::MTE1},
    {"copy_matrix_cc_to_gm", MemSpace::GM, MemSpace::L0C, P::FIX},
    {"copy_matrix_cc_to_cbuf", MemSpace::L1, MemSpace::L0C, P::FIX},
    {"copy_matrix_cc_to_ub", MemSpace::UB, MemSpace::L0C, P::FIX},
    {"copy_ubuf_to_ubuf", MemSpace::UB, MemSpace::UB, P::V},
    {"create_cbuf_matrix", MemSpace::L1, MemSpace::None, P::MTE2},
    {"create_cbuf_matrix_bf16", MemSpace::L1, MemSpace::None, P::MTE2},
};

// One row per intrinsic, named by its upper-case spelling: a load from GM, a store to GM, or a
// move between on-chip buffers.
void addIntrinsics(std::vector<OpRow>& t) {
  for (const Intrinsic& i : kIntrinsics) {
    K kind = i.src == MemSpace::GM ? K::Load : i.dst == MemSpace::GM ? K::Store : K::Compute;
    OpRow in = entry("", kind, S::Copy, R::Fixed, {i.pipe}, {i.cpp}, {});
    in.written = 0;
    in.gmDestination = i.dst == MemSpace::GM;
    in.copy.dstSpace = i.dst;
    in.copy.srcSpace = i.src;
    if (i.src == MemSpace::None) in.copy.src = -1;
    t.push_back(in);
  }
}

// Cube and vector computations.
void addCompute(std::vector<OpRow>& t) {
  OpRow mm = tile("TMATMUL", K::Compute, {P::M}, {{"TMATMUL", "", "", P::M}});
  mm.syncTypes = {"TMATMUL"};
  t.push_back(mm);
  for (const char* n : {"TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX"})
    t.push_back(tile(n, K::Compute, {P::M}, {{"TMATMUL", "", "", P::M}}));
  t.push_back(tile("TGEMV", K::Compute, {P::M}, {{"TGEMV", "", "", P::M}}));
  for (const char* n : {"TGEMV_ACC", "TGEMV_BIAS"}) t.push_back(tile(n, K::Compute, {P::M}, {{"TGEMV", "", "", P::M}}));
  for (const char* n : {"SETFMATRIX", "SET_IMG2COL_RPT", "SET_IMG2COL_PADDING"}) t.push_back(tile(n, K::Compute, {P::S}));

  for (const char* n : kVectorOps) t.push_back(tile(n, K::Compute, {P::V}));
  // The tmp overload of TCI is vector code; the plain one a scalar loop (PTOAS #735, #1532).
  OpRow ci = tile("TCI", K::Compute, {P::S}, {{"TCI", "", "", P::S}});
  ci.rule = R::TmpVector;
  ci.tmp = 2;
  t.push_back(ci);
  OpRow tr = tile("TTRANS", K::Compute, {P::V});
  tr.tmp = 2;  // A2/A3 transposes through its tmp tile
  tr.tileSources = 1;
  t.push_back(tr);
  // A reinterpretation of the source's bytes as the destination's type: no data moves, so the
  // destination is not written (it names bytes that already hold a value). Of a tile, the .pto
  // lifter makes it a view.
  OpRow reshape = tile("TRESHAPE", K::Other, {P::S});
  reshape.written = -1;
  reshape.lift = L::TileView;
  t.push_back(reshape);
  // Pipe classes pto-isa's own event helpers name for untyped scalar and vector work; PTOAS's
  // vector op types.
  for (auto [n, p] : {std::pair{"SCALAR", P::S}, std::pair{"VECTOR", P::V}}) {
    OpRow c = tile(n, K::Other, {p});
    c.shape = S::None;
    t.push_back(c);
  }
  t.back().syncTypes = {"TVEC", "TVECWAIT_EVENT"};
  OpRow assign = tile("TASSIGN", K::TileAssign, {});
  assign.shape = S::TileAssign;
  t.push_back(assign);
}

void addCommunication(std::vector<OpRow>& t) {
  // The signal word is written or polled by the scalar unit (TNOTIFY_IMPL's store runs on S;
  // PTOAS #711).
  t.push_back(entry("TNOTIFY", K::Notify, S::Signal, R::Fixed, {P::S}, {"pto::comm::TNOTIFY"}, {"pto.comm.tnotify"}));
  t.push_back(entry("TWAIT", K::Wait, S::Signal, R::Fixed, {P::S}, {"pto::comm::TWAIT"}, {"pto.comm.twait"}));
  t.push_back(entry("TTEST", K::Test, S::Signal, R::Fixed, {P::S}, {"pto::comm::TTEST"}, {"pto.comm.ttest"}));
  // TPUT / TGET read the source into the staging tile on MTE2 and write the destination from it
  // on MTE3, ordered by their own set/wait on EVENT_ID0 (PTOAS #706, #721).
  for (auto [n, kind] : {std::pair{"TPUT", K::Put}, std::pair{"TGET", K::Get}, std::pair{"TPUT_ASYNC", K::Put},
                         std::pair{"TGET_ASYNC", K::Get}}) {
    OpRow in = entry(n, kind, S::Staged, R::Fixed, {P::MTE2, P::MTE3}, {std::string("pto::comm::") + n},
                     {"pto.comm." + ptoSpelling(n, false)});
    if (in.name[4] == '_') {  // the async forms run on a session's DMA engine: no staging phases
      in.hidden = {{1, false, P::MTE2, false}, {0, true, P::MTE3, false}};
    } else {  // [dst, src, ping(, pong)]
      in.hidden = {{1, false, P::MTE2, false}, {0, true, P::MTE3, false}, {2, true, P::MTE2, true},
                   {2, false, P::MTE3, false}, {3, true, P::MTE2, true}, {3, false, P::MTE3, false}};
      // EVENT_ID1 with a pong tile. Every path of TPUT_IMPL / TGET_IMPL ends with a set/wait
      // MTE3 -> MTE2 after its last store, so what follows it on MTE2 is ordered after the store.
      in.events = {{P::MTE2, P::MTE3, 0, -1},       {P::MTE2, P::MTE3, 1, 3},
                   {P::MTE3, P::MTE2, 0, -1, true}, {P::MTE3, P::MTE2, 1, 3, true}};
    }
    t.push_back(in);
  }
  for (const char* n : {"TBROADCAST", "TGATHER", "TSCATTER"})
    t.push_back(entry(n, K::Collective, S::Collective, R::Fixed, {P::MTE2, P::MTE3}, {std::string("pto::comm::") + n},
                      {"pto.comm." + ptoSpelling(n, false)}));
  t.push_back(entry("TREDUCE", K::Collective, S::Collective, R::Fixed, {P::MTE2, P::V, P::MTE3}, {"pto::comm::TREDUCE"},
                    {"pto.comm.treduce"}));
  t.push_back(entry("WAIT_ASYNC_EVENT", K::AsyncWait, S::AsyncWait, R::Fixed, {P::S},
                    {"pto::comm::AsyncEvent::Wait", "pto::comm::AsyncEvent::Test"},
                    {"pto.comm.wait_async_event", "pto.comm.test_async_event"}));
}

// Intra-core sync, fences and cache maintenance.
void addIntraCoreSync(std::vector<OpRow>& t) {
  t.push_back(entry("SET_FLAG", K::SetFlag, S::Event, R::EventSource, {}, {"set_flag"},
                    {"pto.set_flag", "pto.set_flag_dyn", "pto.record_event"}));
  t.back().byOpType = {"pto.record_event"};
  t.push_back(entry("WAIT_FLAG", K::WaitFlag, S::Event, R::EventSource, {}, {"wait_flag"},
                    {"pto.wait_flag", "pto.wait_flag_dyn", "pto.wait_event"}));
  t.back().byOpType = {"pto.wait_event"};
  t.push_back(entry("SETFLAG", K::SetFlag, S::HardEvent, R::EventSource, {}, {"AscendC::SetFlag"}, {}));
  t.push_back(entry("WAITFLAG", K::WaitFlag, S::HardEvent, R::EventSource, {}, {"AscendC::WaitFlag"}, {}));
  t.push_back(entry("PIPE_BARRIER", K::PipeBarrier, S::Barrier, R::Named, {}, {"pipe_barrier"},
                    {"pto.barrier", "pto.pipe_barrier"}));
  t.push_back(entry("PIPEBARRIER", K::PipeBarrier, S::BarrierTemplate, R::Named, {}, {"AscendC::PipeBarrier"}, {}));

  t.push_back(entry("DSB", K::Fence, S::Dsb, R::Fixed, {}, {"dsb"}, {}));
  t.push_back(entry("FENCE_BARRIER_ALL", K::Fence, S::None, R::Fixed, {P::ALL}, {}, {"pto.fence.barrier_all"}));
  t.push_back(entry("DCCI", K::CacheInvalidate, S::CacheLine, R::Fixed, {P::S}, {"dcci"}, {"pto.cmo.cacheinvalid"}));
}

// Cross-core and all-core sync, and lane facts.
void addCrossCoreSync(std::vector<OpRow>& t) {
  t.push_back(entry("FFTS_CROSS_CORE_SYNC", K::CrossCoreSet, S::CrossCoreSet, R::Fixed, {},
                    {"ffts_cross_core_sync", "__builtin_cce_ffts_cross_core_sync", "AscendC::CrossCoreSetFlag"},
                    {"pto.sync.set", "pto.set_cross_block"}));
  t.push_back(entry("WAIT_FLAG_DEV", K::CrossCoreWait, S::CrossCoreWait, R::Fixed, {},
                    {"wait_flag_dev", "__builtin_cce_wait_flag_dev", "AscendC::CrossCoreWaitFlag"},
                    {"pto.sync.wait", "pto.wait_cross_block"}));
  // a5's flags between the cube core and its vector cores (pto-isa's a5 TPUSH / TPOP, SYNCALL,
  // TSync_Custom): the set names its pipe and the flag, as .pto's set/wait_intra_block do.
  t.push_back(entry("SET_INTRA_BLOCK", K::CrossCoreSet, S::IntraBlock, R::Fixed, {}, {"set_intra_block"},
                    {"pto.set_intra_block"}));
  t.push_back(entry("WAIT_INTRA_BLOCK", K::CrossCoreWait, S::IntraBlock, R::Fixed, {}, {"wait_intra_block"},
                    {"pto.wait_intra_block"}));
  // pto-isa's a2a3 custom cube <-> vector flags (pto/npu/a2a3/custom/TSync_Custom.hpp), one
  // TSync_Custom{flag_id} per producer -> consumer buffer: record() sets flag_id after the
  // producer's store (FIX for a cube TSTORE, MTE3 for a vector one), wait() waits on it;
  // allocate() waits on flag_id + 1, which the consumer's free() sets from MTE2.
  OpRow record = entry("TSYNC_RECORD", K::CrossCoreSet, S::SyncObject, R::ByForm, {P::MTE3},
                       {"pto::TSync_Custom::record"}, {});
  record.forms = {{nullptr, "TSTORE_C2GM", "", P::FIX}, {nullptr, "TSTORE_V2GM", "", P::MTE3}};
  t.push_back(record);
  t.push_back(entry("TSYNC_WAIT", K::CrossCoreWait, S::SyncObject, R::Fixed, {}, {"pto::TSync_Custom::wait"}, {}));
  OpRow allocate =
      entry("TSYNC_ALLOCATE", K::CrossCoreWait, S::SyncObject, R::Fixed, {}, {"pto::TSync_Custom::allocate"}, {});
  allocate.flag = 1;
  t.push_back(allocate);
  OpRow release = entry("TSYNC_FREE", K::CrossCoreSet, S::SyncObject, R::Fixed, {P::MTE2}, {"pto::TSync_Custom::free"}, {});
  release.flag = 1;
  t.push_back(release);
  // TSYNC_CVID (pto/npu/a2a3/custom/TSyncCVID.hpp): the cube core writes its core id to its GM
  // slot, cleans the line and sets CV_COMM_CTRL (12) from MTE2; the vector core waits on that
  // flag and reads the slot. Both halves are done inside the call.
  OpRow cvid = entry("TSYNC_CVID", K::CrossCoreSet, S::CvSlot, R::Fixed, {P::MTE2}, {"pto::TSYNC_CVID"}, {});
  cvid.flag = 12;
  t.push_back(cvid);
  t.push_back(entry("SET_FFTS_BASE_ADDR", K::SetFfts, S::SetFfts, R::Fixed, {P::S}, {"set_ffts_base_addr"}, {"pto.set_ffts"}));
  t.push_back(entry("SYNCALL", K::SyncAll, S::SyncAllPto, R::Fixed, {P::ALL}, {"pto::SYNCALL"}, {"pto.syncall"}));
  t.push_back(entry("SYNCALL_SOFT_AIV_BARRIER", K::SyncAll, S::SyncAllIndexed, R::Fixed, {P::ALL},
                    {"pto::SYNCALL_SOFT_AIV_BARRIER"}, {}));
  t.push_back(entry("SYNCALL_ASCENDC", K::SyncAll, S::SyncAllAscendC, R::Fixed, {P::ALL}, {"AscendC::SyncAll"}, {}));

  t.push_back(entry("GET_BLOCK_IDX", K::Other, S::LaneId, R::Fixed, {},
                    {"get_block_idx", "get_sub_block_id", "get_subblockid"}, {}));
  t.push_back(entry("GET_BLOCK_NUM", K::Other, S::LaneCount, R::Fixed, {}, {"get_block_num"}, {}));
  t.push_back(entry("GET_L2_CACHE_OFFSET", K::Other, S::CacheOffset, R::Fixed, {}, {"get_l2_cache_offset"}, {}));
}

// A row of the MLIR dialects: its spellings, kind, pipes and how it is lifted.
OpRow op(D dialect, std::vector<std::string> names, K kind, std::vector<Pipe> pipes = {}, L lift = L::Op) {
  OpRow r = entry("", kind, S::None, R::Fixed, std::move(pipes), {}, std::move(names));
  r.dialect = dialect;
  r.lift = lift;
  return r;
}
OpRow lift(D dialect, std::vector<std::string> names, L how, E expr = E::Add) {
  OpRow r = op(dialect, std::move(names), K::Other, {}, how);
  r.expr = expr;
  return r;
}

// .pto ops that are not PTO-ISA instructions.
void addPto(std::vector<OpRow>& t) {
  t.push_back(op(D::Pto, {"pto.load_scalar", "pto.load"}, K::ScalarLoad, {P::S}));
  t.push_back(op(D::Pto, {"pto.store_scalar", "pto.store"}, K::ScalarStore, {P::S}));
  t.push_back(op(D::Pto, {"pto.alloc_tile", "pto.alloc_multi_tile"}, K::TileAlloc));  // multi: N slots
  // Regions whose bodies run in place.
  t.push_back(op(D::Pto, {"pto.section.vector", "pto.section.cube", "pto.fusion_region", "pto.vecscope",
                          "pto.strict_vecscope"}, K::Other));
  // Values and descriptors: no memory access, no pipe, no synchronisation.
  t.push_back(op(D::Pto, {"pto.yield", "pto.inttoptr", "pto.ptrtoint", "pto.get_l2_cache_offset",
                          "pto.import_reserved_buffer", "pto.reserve_buffer", "pto.comm.build_async_session"}, K::Other));
  t.push_back(lift(D::Pto, {"pto.get_block_idx"}, L::BlockIdx));
  t.push_back(lift(D::Pto, {"pto.get_block_num"}, L::BlockNum));
  t.push_back(lift(D::Pto, {"pto.subview"}, L::Subview));
  t.push_back(lift(D::Pto, {"pto.bitcast", "pto.reshape"}, L::View));
  t.push_back(lift(D::Pto, {"pto.make_tensor_view"}, L::MakeTensorView));
  t.push_back(lift(D::Pto, {"pto.partition_view"}, L::PartitionView));
  t.push_back(lift(D::Pto, {"pto.castptr"}, L::CastPtr));
  t.push_back(lift(D::Pto, {"pto.addptr"}, L::AddPtr));
  t.push_back(lift(D::Pto, {"pto.multi_tile_get"}, L::SlotView));
  t.push_back(lift(D::Pto, {"pto.declare_eventid_array"}, L::EventArrayDeclare));
  t.push_back(lift(D::Pto, {"pto.eventid_array_set"}, L::EventArraySet));
  t.push_back(lift(D::Pto, {"pto.eventid_array_get"}, L::EventArrayGet));
  // Used by the lifter, but as ops not modelled: with too few operands they are gaps.
  for (size_t i = t.size() - 3; i < t.size(); ++i) t[i].modelled = false;
}

// Generic MLIR ops.
void addMlir(std::vector<OpRow>& t) {
  t.push_back(op(D::Mlir, {"func.call", "call"}, K::Call));
  t.push_back(op(D::Mlir, {"return", "func.return"}, K::Return));
  t.push_back(op(D::Mlir, {"cf.br", "cf.cond_br"}, K::Branch));
  // Values and index arithmetic (taken as unknown), regions run in place, allocations.
  t.push_back(op(D::Mlir, {"builtin.unrealized_conversion_cast", "scope.scope", "scope.return", "affine.apply",
                           "affine.min", "affine.max", "memref.extract_strided_metadata", "memref.dim",
                           "llvm.inttoptr", "vector.multi_reduction", "memref_ext.alloc_workspace"}, K::Other));
  // Value-semantic dialects (before bufferization) and math on values: no memory, no pipe.
  t.push_back(op(D::Mlir, {"tensor.", "math."}, K::Other));
  t.back().prefix = true;
  t.push_back(lift(D::Mlir, {"scf.for"}, L::For));
  t.push_back(lift(D::Mlir, {"scf.if"}, L::If));
  t.push_back(lift(D::Mlir, {"scf.while"}, L::While));
  t.push_back(lift(D::Mlir, {"scf.yield", "scf.condition"}, L::Skip));
  t.push_back(lift(D::Mlir, {"arith.constant"}, L::Constant));
  t.push_back(lift(D::Mlir, {"arith.addi"}, L::Binary, E::Add));
  t.push_back(lift(D::Mlir, {"arith.subi"}, L::Binary, E::Sub));
  t.push_back(lift(D::Mlir, {"arith.muli"}, L::Binary, E::Mul));
  t.push_back(lift(D::Mlir, {"arith.divsi", "arith.divui", "arith.floordivsi", "arith.ceildivsi", "arith.ceildivui"},
                   L::Binary, E::Div));
  t.push_back(lift(D::Mlir, {"arith.remsi", "arith.remui"}, L::Binary, E::Rem));
  t.push_back(lift(D::Mlir, {"arith.minsi", "arith.minui"}, L::Binary, E::Min));
  t.push_back(lift(D::Mlir, {"arith.maxsi", "arith.maxui"}, L::Binary, E::Max));
  t.push_back(lift(D::Mlir, {"arith.andi"}, L::Binary, E::And));
  t.push_back(lift(D::Mlir, {"arith.ori"}, L::Binary, E::Or));
  t.push_back(lift(D::Mlir, {"arith.xori"}, L::Xor));  // `p ^= 1` alternates slots and events
  t.push_back(lift(D::Mlir, {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
                             "arith.bitcast"}, L::Cast));
  t.push_back(lift(D::Mlir, {"arith.cmpi"}, L::Compare));
  t.push_back(lift(D::Mlir, {"arith.select"}, L::Select));
  t.push_back(lift(D::Mlir, {"arith."}, L::Unfollowed));  // floats, shifts, ...: not followed
  t.back().prefix = true;
  // Aliases followed to the root buffer (AscendNPU IR's HIVM alias analysis, Utils.cpp).
  t.push_back(lift(D::Mlir, {"memref.subview", "memref.view", "memref.reinterpret_cast", "memref.cast",
                             "memref.collapse_shape", "memref.expand_shape", "memref.reshape", "memref.transpose",
                             "memref.memory_space_cast", "hivm.hir.bitcast", "bufferization.to_tensor",
                             "bufferization.to_memref", "tensor.extract_slice"}, L::MemrefAlias));
  t.push_back(lift(D::Mlir, {"memref.alloc", "memref.alloca"}, L::Alloc));
  t.push_back(op(D::Mlir, {"memref.load"}, K::ScalarLoad, {P::S}, L::ScalarMemory));
  t.push_back(op(D::Mlir, {"memref.store"}, K::ScalarStore, {P::S}, L::ScalarMemory));
  t.push_back(lift(D::Mlir, {"annotation.mark"}, L::Skip));
}

// AscendNPU IR's hivm.hir ops, with the pipes of its HIVM dialect's pipe interface (GetPipe.cpp
// in bishengir/lib/Dialect/HIVM/IR/OpPipeInterface, https://gitcode.com/Ascend/AscendNPU-IR).
void addHivm(std::vector<OpRow>& t) {
  auto hivm = [&](std::vector<std::string> names, K kind, std::vector<Pipe> pipes = {}, L how = L::Op) {
    t.push_back(op(D::Hivm, std::move(names), kind, std::move(pipes), how));
    return &t.back();
  };
  hivm({"hivm.hir.set_flag"}, K::SetFlag)->rule = R::EventSource;
  hivm({"hivm.hir.wait_flag"}, K::WaitFlag)->rule = R::EventSource;
  hivm({"hivm.hir.pipe_barrier"}, K::PipeBarrier)->rule = R::Named;
  hivm({"hivm.hir.sync_block_set"}, K::CrossCoreSet)->rule = R::EventSource;
  hivm({"hivm.hir.sync_block_wait"}, K::CrossCoreWait)->rule = R::EventSource;
  hivm({"hivm.hir.sync_block"}, K::SyncAll, {P::ALL});
  hivm({"hivm.hir.set_ffts_base_addr"}, K::SetFfts, {P::S});
  hivm({"hivm.hir.load", "hivm.hir.nd2nz", "hivm.hir.load_scale"}, K::Load, {P::MTE2});
  hivm({"hivm.hir.store", "hivm.hir.nz2nd"}, K::Store, {P::MTE3});
  hivm({"hivm.hir.fixpipe"}, K::Compute, {P::FIX});
  hivm({"hivm.hir.l12ub"}, K::Compute, {P::MTE1});
  // copy and vbrc run on the pipe of their direction.
  OpRow* copy = hivm({"hivm.hir.copy"}, K::Compute, {P::V});
  copy->rule = R::ByForm;
  copy->forms = {{nullptr, "l0c", "", P::FIX}, {nullptr, "gm", "l1", P::MTE2}, {nullptr, "ub", "l1", P::MTE3}};
  OpRow* brc = hivm({"hivm.hir.vbrc"}, K::Compute, {P::V});
  brc->rule = R::ByForm;
  brc->forms = {{nullptr, "", "l1", P::MTE2}};
  // Cube macros: read L1 on MTE1, write L0C on M; one pipe per op in this model, M. mmadL1 and
  // its kin wait and set the events the IR passes in sync_related_args (HIVMMacroOps.td): [MTE2 ->
  // MTE1 wait A, wait B, MTE1 -> MTE2 set A, set B, k-loop cond, backward M -> MTE1 event 0,
  // event 1]; the library pairs the backward ones itself.
  for (const char* n : {"hivm.hir.mmadL1", "hivm.hir.batchMmadL1", "hivm.hir.mmadmxL1"}) {
    OpRow* macro = hivm({n}, K::Compute, {P::M});
    macro->cubeMacro = true;
    macro->argEvents = {{K::WaitFlag, P::MTE2, P::MTE1, 0}, {K::WaitFlag, P::MTE2, P::MTE1, 1},
                        {K::SetFlag, P::MTE1, P::MTE2, 2}, {K::SetFlag, P::MTE1, P::MTE2, 3}};
    macro->pairedArgs = {5, 6};
  }
  hivm({"hivm.hir.Conv1dL1", "hivm.hir.Conv2dL1", "hivm.hir.Conv3dL1"}, K::Compute, {P::M});
  hivm({"hivm.hir.gather_load", "hivm.hir.scatter_store", "hivm.hir.stride_load", "hivm.hir.stride_store",
        "hivm.hir.indirect_load", "hivm.hir.indirect_store"}, K::Compute, {P::V});
  hivm({"hivm.hir.return"}, K::Return);
  hivm({"hivm.hir.v"}, K::Compute, {P::V})->prefix = true;  // every other vector op (vadd, vcast, ...)
  hivm({"hivm.hir.anchor", "hivm.hir.set_ctrl", "hivm.hir.set_mask_norm", "hivm.hir.debug"}, K::Other, {}, L::Skip);
  hivm({"hivm.hir.get_block_idx"}, K::Other, {}, L::BlockIdx);
  hivm({"hivm.hir.get_block_num"}, K::Other, {}, L::BlockNum);
  hivm({"hivm.hir.get_sub_block_idx"}, K::Other, {}, L::Unfollowed);  // which vector core of the pair
  hivm({"hivm.hir.pointer_cast"}, K::Other, {}, L::PointerCast);
  hivm({"hivm.hir.create_sync_block_lock", "hivm.hir.sync_block_lock", "hivm.hir.sync_block_unlock",
        "hivm.hir.free_lock_var"}, K::Other, {}, L::Lock);
  hivm({"hivm.hir.custom_macro", "hivm.hir.custom"}, K::Other, {}, L::CustomMacro)->modelled = false;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

struct Index {
  std::deque<std::string> intrinsicNames;  // storage of the intrinsic rows' names (stable addresses)
  std::vector<OpRow> table;
  size_t isaRows = 0;  // the PTO-ISA rows come first
  std::map<std::string, const OpRow*> byCpp, byName;
  std::unordered_map<std::string_view, const OpRow*> byMlir;
  std::vector<std::pair<std::string_view, const OpRow*>> prefixes;
  std::map<std::string, Pipe> bySyncType;
  Index() {
    addDataMovement(table);
    addCompute(table);
    addCommunication(table);
    addIntraCoreSync(table);
    addCrossCoreSync(table);
    addIntrinsics(table);
    // Tile instructions: their default spellings.
    for (OpRow& in : table) {
      if (in.shape != S::Tile && in.shape != S::TileAssign) continue;
      in.cpp = {std::string("pto::") + in.name};
      in.mlir = {"pto." + ptoSpelling(in.name, true)};
    }
    // An intrinsic's mnemonic is its C++ spelling in upper case (COPY_GM_TO_UBUF).
    for (OpRow& in : table)
      if (in.shape == S::Copy) in.name = intrinsicNames.emplace_back(upper(in.cpp.front())).c_str();
    isaRows = table.size();
    addPto(table);
    addMlir(table);
    addHivm(table);
    for (OpRow& in : table) {
      if (in.dialect != D::PtoIsa) in.name = in.mlir.front().c_str();
      if (in.dialect == D::PtoIsa) byName.emplace(in.name, &in);
      for (const auto& n : in.cpp) byCpp.emplace(n, &in);
      for (const auto& n : in.mlir) {
        if (in.prefix) prefixes.emplace_back(n, &in);
        else byMlir.emplace(n, &in);
      }
      for (const auto& s : in.syncTypes) bySyncType.emplace(s, syncTypePipeOf(in, s));
    }
  }
  static Pipe syncTypePipeOf(const OpRow& in, const std::string& type) {
    for (const Form& f : in.forms)
      if (f.upstream && type == f.upstream) return f.pipe;
    return in.pipes.empty() ? Pipe::Unknown : in.pipes.front();
  }
};

const Index& index() {
  static const Index i;
  return i;
}

template <class Map>
const OpRow* find(const Map& m, const typename Map::key_type& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : it->second;
}

bool spaceMatches(const char* want, MemSpace have) { return !*want || std::string_view(memSpaceName(have)) == want; }

// The form that decides the pipe for these operands, or null (then `pipes` apply): a sync
// object's producer by name, else the spaces.
const Form* formFor(const OpRow& in, const PipeOperands& o) {
  for (const Form& f : in.forms)
    if (o.producer.empty() ? spaceMatches(f.src, o.src) && spaceMatches(f.dst, o.dst) : o.producer == f.src) return &f;
  return nullptr;
}

// How the pipe is chosen, for `ptoverify isa`.
std::string describePipes(const OpRow& in) {
  auto list = [](const std::vector<Pipe>& ps) {
    std::string s;
    for (Pipe p : ps) s += std::string(s.empty() ? "" : ",") + pipeName(p);
    return s.empty() ? "-" : s;
  };
  switch (in.rule) {
    case R::EventSource: return "the set's source / the wait's destination pipe";
    case R::Named: return "the pipe it names";
    case R::TmpVector: return "V with a tmp tile, else " + list(in.pipes);
    case R::ByForm: {
      std::string s;
      for (const Form& f : in.forms)
        s += std::string(s.empty() ? "" : "; ") + (*f.src ? f.src : "*") + "->" + (*f.dst ? f.dst : "*") + " " +
             pipeName(f.pipe) + (f.upstream ? std::string(" (") + f.upstream + ")" : "");
      return s + "; else " + list(in.pipes);
    }
    case R::Fixed: break;
  }
  return list(in.pipes);
}

}  // namespace

Rows all() {
  const Index& i = index();
  return {i.table.data(), i.table.data() + i.isaRows};
}
const OpRow* lookupCpp(const std::string& n) { return find(index().byCpp, n); }
const OpRow* lookup(const std::string& n) { return find(index().byName, n); }

const OpRow* lookupMlir(std::string_view n) {
  const Index& i = index();
  if (const OpRow* in = find(i.byMlir, n)) return in;
  // pto.tstore_fp and pto.tstore.fp are one op.
  if (n.rfind("pto.t", 0) == 0 && n.find('_') != std::string_view::npos) {
    std::string dotted(n);
    for (char& c : dotted) c = c == '_' ? '.' : c;
    if (const OpRow* in = find(i.byMlir, dotted); in && in->dialect == D::PtoIsa) return in;
  }
  for (const auto& [prefix, in] : i.prefixes)
    if (n.rfind(prefix, 0) == 0) return in;
  return nullptr;
}

const OpRow* lookupPto(const std::string& n) {
  const OpRow* in = lookupMlir(n);
  return in && in->dialect == D::PtoIsa ? in : nullptr;
}

std::vector<Pipe> resolvePipes(const OpRow& in, const PipeOperands& o) {
  switch (in.rule) {
    case R::Fixed: return in.pipes;
    case R::TmpVector: return {o.hasTmp ? P::V : in.pipes.front()};
    case R::ByForm:
      if (const Form* f = formFor(in, o)) return {f->pipe};
      return in.pipes;
    case R::EventSource:
      return {in.kind == K::SetFlag || in.kind == K::CrossCoreSet ? o.eventSrc : o.eventDst};
    case R::Named: return {o.named};
  }
  return in.pipes;
}

std::vector<Pipe> eventPipes(OpKind kind, Pipe src, Pipe dst) {
  static const OpRow& set = *lookup("SET_FLAG");
  static const OpRow& wait = *lookup("WAIT_FLAG");
  PipeOperands o;
  o.eventSrc = src;
  o.eventDst = dst;
  return resolvePipes(kind == K::SetFlag ? set : wait, o);
}

Pipe syncTypePipe(const std::string& opType) {
  const auto& m = index().bySyncType;
  auto it = m.find(opType);
  return it == m.end() ? Pipe::Unknown : it->second;
}

Pipe issuePipe(const Op& op) {
  if (op.kind == K::SetFlag || op.kind == K::WaitFlag) return eventPipes(op.kind, op.event.src, op.event.dst).front();
  if (op.kind == K::PipeBarrier) {
    static const OpRow& barrier = *lookup("PIPE_BARRIER");
    PipeOperands o;
    o.named = op.barrierPipe;
    return resolvePipes(barrier, o).front();
  }
  return op.pipes.empty() ? P::S : op.pipes.front();
}

Pipe accessPipe(const Op& op, const MemRef& m) {
  if (m.pipe != P::Unknown) return m.pipe;
  switch (op.kind) {
    case K::Load:
    case K::Store:
    case K::ScalarLoad:
    case K::ScalarStore:
    case K::Compute:
      if (op.pipes.empty() || op.pipes.front() == P::ALL) return P::Unknown;
      return op.pipes.front();
    default:
      return P::Unknown;
  }
}

bool runsOffScalar(const Op& op) {
  for (Pipe p : op.pipes)
    if (p != P::S) return true;
  return false;
}

std::vector<Op> stagedOps(const OpRow& in, const std::vector<const MemRef*>& operands, Op op) {
  std::vector<Op> out;
  Op load;
  load.kind = OpKind::Load;
  load.name = op.name + " (its load into the staging tile)";
  load.dialect = op.dialect;
  load.loc = op.loc;
  load.callSite = op.callSite;
  load.pipes = {P::MTE2};
  for (const HiddenAccess& h : in.hidden) {
    if (h.operand < 0 || h.operand >= static_cast<int>(operands.size()) || !operands[h.operand]) continue;
    MemRef m = *operands[h.operand];
    m.pipe = h.pipe;
    Op& into = h.beforeEvents ? load : op;
    (h.write ? into.writes : into.reads).push_back(std::move(m));
  }
  if (!load.writes.empty() || !load.reads.empty()) out.push_back(std::move(load));
  auto events = [&](bool afterLastPhase, std::vector<Op>& into) {
    for (const InternalEvent& e : in.events) {
      if (e.afterLastPhase != afterLastPhase || e.onlyWithOperand >= static_cast<int>(operands.size())) continue;
      for (OpKind kind : {OpKind::SetFlag, OpKind::WaitFlag}) {
        Op ev;
        ev.kind = kind;
        ev.dialect = op.dialect;
        ev.name = op.name + " (its own " + (kind == OpKind::SetFlag ? "set_flag" : "wait_flag") + " on EVENT_ID" +
                  std::to_string(e.id) + ")";
        ev.loc = op.loc;
        ev.callSite = op.callSite;
        ev.event.src = e.src;
        ev.event.dst = e.dst;
        ev.event.id = e.id;
        ev.pipes = eventPipes(kind, e.src, e.dst);
        into.push_back(std::move(ev));
      }
    }
  };
  std::vector<Op> closing;  // after the instruction itself
  events(false, out);
  events(true, closing);
  out.push_back(std::move(op));
  for (Op& ev : closing) out.push_back(std::move(ev));
  return out;
}

// HIVMDecomposeOp (AscendNPU IR's HIVM transforms) hard-codes the flag of each mode's barrier:
// interCube 15, interVector 14, and for ALL blockAllInterCube 13 (with 12, 11, 10 on its other steps).
int defaultSyncBlockFlag(SyncMode mode) {
  using M = SyncMode;
  static const std::map<SyncMode, int> flags = {
      {M::AllCube, 15}, {M::BarrierCube, 15}, {M::AllVector, 14}, {M::AllSubVector, 14}, {M::BarrierVector, 14},
      {M::All, 13}};
  auto it = flags.find(mode);
  return it == flags.end() ? -1 : it->second;
}

bool coreHasPipe(KernelKind core, Pipe p) {
  if (core == KernelKind::Vector) return p != P::M && p != P::MTE1 && p != P::FIX;
  if (core == KernelKind::Cube) return p != P::V;
  return true;
}

const std::string& preludeDeclarations() {
  static const std::string text = [] {
    std::string t = "// Generated from ptoverify's op registry; included twice by its prelude.\n#ifdef PTOVERIFY_PIPE\n";
    for (int p = 0; p < kPipeCount; ++p) t += std::string("PTOVERIFY_PIPE(") + (pipeName(Pipe(p)) + 5) + ")\n";
    t += "#else\n";
    for (const auto& in : all())
      if (in.shape == S::Tile) t += std::string("PTOVERIFY_TILE_OP(") + in.name + ")\n";
    return t + "#endif\n";
  }();
  return text;
}

std::string describe(const OpRow& in) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("-") : s;
  };
  std::string line = std::string(in.name) + " " + opKindName(in.kind) + " cpp=" + join(in.cpp) +
                     " pto=" + join(in.mlir) + " pipe: " + describePipes(in);
  if (in.tmp >= 0) line += "; writes its tmp operand " + std::to_string(in.tmp);
  if (in.shape == S::Copy) {
    line += std::string("; writes operand ") + std::to_string(in.copy.dst) + " (" + memSpaceName(in.copy.dstSpace) + ")";
    if (in.copy.src >= 0)
      line += std::string(", reads operand ") + std::to_string(in.copy.src) + " (" + memSpaceName(in.copy.srcSpace) + ")";
  }
  for (const HiddenAccess& h : in.hidden)
    line += std::string("; ") + (h.write ? "writes" : "reads") + " operand " + std::to_string(h.operand) + " on " +
            pipeName(h.pipe);
  for (const InternalEvent& e : in.events)
    line += std::string("; its own set/wait ") + pipeName(e.src) + "->" + pipeName(e.dst) + " EVENT_ID" +
            std::to_string(e.id) + (e.afterLastPhase ? " after its last phase" : "");
  return line;
}

}  // namespace ptov::ops
