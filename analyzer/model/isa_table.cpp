#include "analyzer/model/isa_table.h"

#include <cctype>
#include <map>
#include <string_view>

namespace ptov::ptoisa {

namespace {
using P = Pipe;
using R = PipeRule;
using S = CallShape;
using K = OpKind;

Instr entry(const char* name, K kind, S shape, R rule, std::vector<Pipe> pipes, std::vector<std::string> cpp,
            std::vector<std::string> pto) {
  Instr in;
  in.name = name;
  in.kind = kind;
  in.shape = shape;
  in.rule = rule;
  in.pipes = std::move(pipes);
  in.cpp = std::move(cpp);
  in.pto = std::move(pto);
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
Instr tile(const char* name, K kind, std::vector<Pipe> pipes, std::vector<Form> forms = {}) {
  Instr in = entry(name, kind, S::Tile, forms.empty() ? R::Fixed : R::ByForm, std::move(pipes), {}, {});
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

std::vector<Instr> build() {
  std::vector<Instr> t;
  auto add = [&](Instr in) { t.push_back(std::move(in)); };

  // ---- data movement ------------------------------------------------------------------------
  add(tile("TLOAD", K::Load, {P::MTE2}));
  add(tile("TPREFETCH", K::Prefetch, {P::MTE2}));
  {
    Instr st = tile("TSTORE", K::Store, {P::MTE3},
                    {{"TSTORE_ACC", "l0c", "", P::FIX}, {"TSTORE_MAT", "l1", "", P::MTE3}, {"TSTORE_VEC", "ub", "", P::MTE3}});
    st.gmDestination = true;
    add(st);
    Instr fp = tile("TSTORE_FP", K::Store, {P::FIX});
    fp.gmDestination = true;
    add(fp);
  }
  // Moves between spaces run on the pipe of their direction.
  const size_t firstMove = t.size();
  add(tile("TMOV", K::Compute, {P::V},
           {{"TMOV_V2V", "ub", "ub", P::V},     {"TMOV_V2M", "ub", "l1", P::FIX},    {"TMOV_M2B", "l1", "bias", P::MTE1},
            {"TMOV_M2L", "l1", "l0a", P::MTE1}, {"TMOV_M2R", "l1", "l0b", P::MTE1},  {"TMOV_M2S", "l1", "scaling", P::FIX},
            {"TMOV_A2V", "l0c", "ub", P::FIX},  {"TMOV_A2M", "l0c", "l1", P::FIX},   {nullptr, "l0c", "", P::FIX},
            {nullptr, "gm", "", P::MTE2},       {nullptr, "ub", "gm", P::MTE3}}));
  add(tile("TEXTRACT", K::Compute, {P::V},
           {{"TEXTRACT_V2M", "ub", "l1", P::FIX}, {"TEXTRACT_M2LR", "l1", "l0a", P::MTE1},
            {"TEXTRACT_M2LR", "l1", "l0b", P::MTE1}, {"TEXTRACT_A2M", "l0c", "l1", P::FIX}, {nullptr, "l1", "bias", P::MTE1},
            {nullptr, "l1", "scaling", P::MTE1}, {nullptr, "l0c", "", P::FIX}}));
  add(tile("TINSERT", K::Compute, {P::V},
           {{"TINSERT_A2M", "l0c", "l1", P::FIX}, {nullptr, "l0c", "", P::FIX}, {nullptr, "ub", "l1", P::MTE3}}));
  for (size_t i = firstMove; i < t.size(); ++i) t[i].window = true;  // the three moves above
  add(tile("TIMG2COL", K::Compute, {P::MTE1}));
  // Fill, broadcast and gather into L1 go through MTE2; into UB they are vector work.
  add(tile("TEXPANDS", K::Compute, {P::V}, {{"TEXPANDS_MAT", "", "l1", P::MTE2}, {"TEXPANDS", "", "", P::V}}));
  add(tile("TFILLPAD", K::Compute, {P::V}, {{"TFILLPAD_MAT", "", "l1", P::MTE2}, {"TFILLPAD_VEC", "", "", P::V}}));
  add(tile("MGATHER", K::Compute, {P::V}, {{"MGATHER_MAT", "", "l1", P::MTE2}, {"MGATHER_VEC", "", "", P::V}}));
  add(tile("MSCATTER", K::Compute, {P::V}));

  // ---- cube -------------------------------------------------------------------------------
  add(tile("TMATMUL", K::Compute, {P::M}, {{"TMATMUL", "", "", P::M}}));
  for (const char* n : {"TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX"})
    add(tile(n, K::Compute, {P::M}, {{"TMATMUL", "", "", P::M}}));
  add(tile("TGEMV", K::Compute, {P::M}, {{"TGEMV", "", "", P::M}}));
  for (const char* n : {"TGEMV_ACC", "TGEMV_BIAS"}) add(tile(n, K::Compute, {P::M}, {{"TGEMV", "", "", P::M}}));
  for (const char* n : {"SETFMATRIX", "SET_IMG2COL_RPT", "SET_IMG2COL_PADDING"}) add(tile(n, K::Compute, {P::S}));

  // ---- vector -------------------------------------------------------------------------------
  for (const char* n : kVectorOps) add(tile(n, K::Compute, {P::V}));
  // The tmp overload of TCI is vector code; the plain one a scalar loop (PTOAS #735, #1532).
  {
    Instr ci = tile("TCI", K::Compute, {P::S}, {{"TCI", "", "", P::S}});
    ci.rule = R::TmpVector;
    ci.tmp = 2;
    add(ci);
    Instr tr = tile("TTRANS", K::Compute, {P::V});
    tr.tmp = 2;  // A2/A3 transposes through its tmp tile
    tr.tileSources = 1;
    add(tr);
  }
  {
    // A reinterpretation of the source's bytes as the destination's type: no data moves, so the
    // destination is not written (it names bytes that already hold a value).
    Instr reshape = tile("TRESHAPE", K::Other, {P::S});
    reshape.written = -1;
    add(reshape);
  }
  // Pipe classes pto-isa's own event helpers name for untyped scalar and vector work.
  for (auto [n, p] : {std::pair{"SCALAR", P::S}, std::pair{"VECTOR", P::V}}) {
    Instr c = tile(n, K::Other, {p});
    c.shape = S::None;
    add(c);
  }
  {
    Instr assign = tile("TASSIGN", K::TileAssign, {});
    assign.shape = S::TileAssign;
    add(assign);
  }

  // ---- communication ----------------------------------------------------------------------
  // The signal word is written or polled by the scalar unit (TNOTIFY_IMPL's store runs on S;
  // PTOAS #711).
  add(entry("TNOTIFY", K::Notify, S::Signal, R::Fixed, {P::S}, {"pto::comm::TNOTIFY"}, {"pto.comm.tnotify"}));
  add(entry("TWAIT", K::Wait, S::Signal, R::Fixed, {P::S}, {"pto::comm::TWAIT"}, {"pto.comm.twait"}));
  add(entry("TTEST", K::Test, S::Signal, R::Fixed, {P::S}, {"pto::comm::TTEST"}, {"pto.comm.ttest"}));
  // TPUT / TGET read the source into the staging tile on MTE2 and write the destination from it
  // on MTE3, ordered by their own set/wait on EVENT_ID0 (PTOAS #706, #721).
  for (auto [n, kind] : {std::pair{"TPUT", K::Put}, std::pair{"TGET", K::Get}, std::pair{"TPUT_ASYNC", K::Put},
                         std::pair{"TGET_ASYNC", K::Get}}) {
    Instr in = entry(n, kind, S::Staged, R::Fixed, {P::MTE2, P::MTE3}, {std::string("pto::comm::") + n},
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
    add(in);
  }
  for (const char* n : {"TBROADCAST", "TGATHER", "TSCATTER"}) {
    add(entry(n, K::Collective, S::Collective, R::Fixed, {P::MTE2, P::MTE3}, {std::string("pto::comm::") + n},
              {"pto.comm." + ptoSpelling(n, false)}));
  }
  add(entry("TREDUCE", K::Collective, S::Collective, R::Fixed, {P::MTE2, P::V, P::MTE3}, {"pto::comm::TREDUCE"},
       {"pto.comm.treduce"}));
  add(entry("WAIT_ASYNC_EVENT", K::AsyncWait, S::AsyncWait, R::Fixed, {P::S},
            {"pto::comm::AsyncEvent::Wait", "pto::comm::AsyncEvent::Test"},
       {"pto.comm.wait_async_event", "pto.comm.test_async_event"}));

  // ---- intra-core sync ----------------------------------------------------------------------
  add(entry("SET_FLAG", K::SetFlag, S::Event, R::EventSource, {}, {"set_flag"},
       {"pto.set_flag", "pto.set_flag_dyn", "pto.record_event"}));
  add(entry("WAIT_FLAG", K::WaitFlag, S::Event, R::EventSource, {}, {"wait_flag"},
       {"pto.wait_flag", "pto.wait_flag_dyn", "pto.wait_event"}));
  add(entry("SETFLAG", K::SetFlag, S::HardEvent, R::EventSource, {}, {"AscendC::SetFlag"}, {}));
  add(entry("WAITFLAG", K::WaitFlag, S::HardEvent, R::EventSource, {}, {"AscendC::WaitFlag"}, {}));
  add(entry("PIPE_BARRIER", K::PipeBarrier, S::Barrier, R::Named, {}, {"pipe_barrier"}, {"pto.barrier", "pto.pipe_barrier"}));
  add(entry("PIPEBARRIER", K::PipeBarrier, S::BarrierTemplate, R::Named, {}, {"AscendC::PipeBarrier"}, {}));

  // ---- fences and cache maintenance -----------------------------------------------------------
  add(entry("DSB", K::Fence, S::Dsb, R::Fixed, {}, {"dsb"}, {}));
  add(entry("FENCE_BARRIER_ALL", K::Fence, S::None, R::Fixed, {P::ALL}, {}, {"pto.fence.barrier_all"}));
  add(entry("DCCI", K::CacheInvalidate, S::CacheLine, R::Fixed, {P::S}, {"dcci"}, {"pto.cmo.cacheinvalid"}));

  // ---- cross-core and all-core sync ---------------------------------------------------------
  add(entry("FFTS_CROSS_CORE_SYNC", K::CrossCoreSet, S::CrossCoreSet, R::Fixed, {},
       {"ffts_cross_core_sync", "__builtin_cce_ffts_cross_core_sync", "AscendC::CrossCoreSetFlag"},
       {"pto.sync.set", "pto.set_intra_block", "pto.set_cross_block"}));
  add(entry("WAIT_FLAG_DEV", K::CrossCoreWait, S::CrossCoreWait, R::Fixed, {},
       {"wait_flag_dev", "__builtin_cce_wait_flag_dev", "AscendC::CrossCoreWaitFlag"},
       {"pto.sync.wait", "pto.wait_intra_block", "pto.wait_cross_block"}));
  // pto-isa's a2a3 custom cube <-> vector flags (pto/npu/a2a3/custom/TSync_Custom.hpp), one
  // TSync_Custom{flag_id} per producer -> consumer buffer: record() sets flag_id after the
  // producer's store (FIX for a cube TSTORE, MTE3 for a vector one), wait() waits on it;
  // allocate() waits on flag_id + 1, which the consumer's free() sets from MTE2.
  Instr record = entry("TSYNC_RECORD", K::CrossCoreSet, S::SyncObject, R::ByForm, {P::MTE3},
                       {"pto::TSync_Custom::record"}, {});
  record.forms = {{nullptr, "TSTORE_C2GM", "", P::FIX}, {nullptr, "TSTORE_V2GM", "", P::MTE3}};
  add(record);
  add(entry("TSYNC_WAIT", K::CrossCoreWait, S::SyncObject, R::Fixed, {}, {"pto::TSync_Custom::wait"}, {}));
  Instr allocate =
      entry("TSYNC_ALLOCATE", K::CrossCoreWait, S::SyncObject, R::Fixed, {}, {"pto::TSync_Custom::allocate"}, {});
  allocate.flag = 1;
  add(allocate);
  Instr release =
      entry("TSYNC_FREE", K::CrossCoreSet, S::SyncObject, R::Fixed, {P::MTE2}, {"pto::TSync_Custom::free"}, {});
  release.flag = 1;
  add(release);
  // TSYNC_CVID (pto/npu/a2a3/custom/TSyncCVID.hpp): the cube core writes its core id to its GM
  // slot, cleans the line and sets CV_COMM_CTRL (12) from MTE2; the vector core waits on that
  // flag and reads the slot. Both halves are done inside the call.
  Instr cvid = entry("TSYNC_CVID", K::CrossCoreSet, S::CvSlot, R::Fixed, {P::MTE2}, {"pto::TSYNC_CVID"}, {});
  cvid.flag = 12;
  add(cvid);
  add(entry("SET_FFTS_BASE_ADDR", K::SetFfts, S::SetFfts, R::Fixed, {P::S}, {"set_ffts_base_addr"}, {"pto.set_ffts"}));
  add(entry("SYNCALL", K::SyncAll, S::SyncAllPto, R::Fixed, {P::ALL}, {"pto::SYNCALL"}, {"pto.syncall"}));
  add(entry("SYNCALL_SOFT_AIV_BARRIER", K::SyncAll, S::SyncAllIndexed, R::Fixed, {P::ALL}, {"pto::SYNCALL_SOFT_AIV_BARRIER"},
       {}));
  add(entry("SYNCALL_ASCENDC", K::SyncAll, S::SyncAllAscendC, R::Fixed, {P::ALL}, {"AscendC::SyncAll"}, {}));

  // ---- lane facts -------------------------------------------------------------------------
  add(entry("GET_BLOCK_IDX", K::Other, S::LaneId, R::Fixed, {}, {"get_block_idx", "get_sub_block_id", "get_subblockid"}, {}));
  add(entry("GET_BLOCK_NUM", K::Other, S::LaneCount, R::Fixed, {}, {"get_block_num"}, {}));
  add(entry("GET_L2_CACHE_OFFSET", K::Other, S::CacheOffset, R::Fixed, {}, {"get_l2_cache_offset"}, {}));

  // Tile instructions: their default spellings.
  for (Instr& in : t) {
    if (in.shape != S::Tile && in.shape != S::TileAssign) continue;
    in.cpp = {std::string("pto::") + in.name};
    in.pto = {"pto." + ptoSpelling(in.name, true)};
  }
  return t;
}

struct Index {
  std::vector<Instr> table = build();
  std::map<std::string, const Instr*> byCpp, byPto, byName;
  Index() {
    for (const Instr& in : table) {
      byName.emplace(in.name, &in);
      for (const auto& n : in.cpp) byCpp.emplace(n, &in);
      for (const auto& n : in.pto) byPto.emplace(n, &in);
    }
  }
};

const Index& index() {
  static const Index i;
  return i;
}

const Instr* find(const std::map<std::string, const Instr*>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : it->second;
}

bool spaceMatches(const char* want, MemSpace have) { return !*want || std::string_view(memSpaceName(have)) == want; }

// The form that decides the pipe for these spaces, or null (then `pipes` apply).
const Form* formFor(const Instr& in, MemSpace src, MemSpace dst) {
  for (const Form& f : in.forms)
    if (spaceMatches(f.src, src) && spaceMatches(f.dst, dst)) return &f;
  return nullptr;
}

// How the pipe is chosen, for `ptoverify isa`.
std::string describePipes(const Instr& in) {
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

const std::vector<Instr>& all() { return index().table; }
const Instr* lookupCpp(const std::string& n) { return find(index().byCpp, n); }
const Instr* lookupPto(const std::string& n) {
  if (const Instr* in = find(index().byPto, n)) return in;
  // pto.tstore_fp and pto.tstore.fp are one op.
  if (n.rfind("pto.t", 0) != 0 || n.find('_') == std::string::npos) return nullptr;
  std::string dotted = n;
  for (char& c : dotted) c = c == '_' ? '.' : c;
  return find(index().byPto, dotted);
}
const Instr* lookup(const std::string& n) { return find(index().byName, n); }


std::vector<Pipe> pipesFor(const Instr& in, MemSpace src, MemSpace dst, bool hasTmp) {
  switch (in.rule) {
    case R::TmpVector: return {hasTmp ? P::V : in.pipes.front()};
    case R::ByForm:
      if (const Form* f = formFor(in, src, dst)) return {f->pipe};
      return in.pipes;
    default: return in.pipes;
  }
}

std::vector<Pipe> pipesForProducer(const Instr& in, const std::string& producer) {
  for (const Form& f : in.forms)
    if (f.src == producer) return {f.pipe};
  return in.pipes;
}

std::vector<Op> stagedOps(const Instr& in, const std::vector<const MemRef*>& operands, Op op) {
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
        ev.pipes = {kind == OpKind::SetFlag ? e.src : e.dst};
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

bool coreHasPipe(KernelKind core, Pipe p) {
  if (core == KernelKind::Vector) return p != P::M && p != P::MTE1 && p != P::FIX;
  if (core == KernelKind::Cube) return p != P::V;
  return true;
}

const std::string& preludeDeclarations() {
  static const std::string text = [] {
    std::string t = "#pragma once\n";
    for (const auto& in : all())
      if (in.shape == S::Tile) t += std::string("PTOVERIFY_TILE_OP(") + in.name + ")\n";
    return t;
  }();
  return text;
}


std::string describe(const Instr& in) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("-") : s;
  };
  std::string line = std::string(in.name) + " " + opKindName(in.kind) + " cpp=" + join(in.cpp) + " pto=" + join(in.pto) +
                     " pipe: " + describePipes(in);
  if (in.tmp >= 0) line += "; writes its tmp operand " + std::to_string(in.tmp);
  for (const HiddenAccess& h : in.hidden)
    line += std::string("; ") + (h.write ? "writes" : "reads") + " operand " + std::to_string(h.operand) + " on " +
            pipeName(h.pipe);
  for (const InternalEvent& e : in.events)
    line += std::string("; its own set/wait ") + pipeName(e.src) + "->" + pipeName(e.dst) + " EVENT_ID" +
            std::to_string(e.id) + (e.afterLastPhase ? " after its last phase" : "");
  return line;
}

}  // namespace ptov::ptoisa
