// The op registry every front end reads (analyzer/model/op_registry): one row per op whatever
// its spelling, the pipes resolvePipes decides by each rule, and the PTO-ISA rows' agreement with
// pto-isa's own op-to-pipe table.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/model/op_registry.h"
#include "tests/helpers.h"
#include "tests/real_corpus.h"

using namespace ptov;

TEST_CASE("isa table: one entry per instruction, whatever the front end's spelling") {
  const ops::OpRow* a = ops::lookup("TMATMUL_ACC");
  REQUIRE(a);
  CHECK(a == ops::lookupPto("pto.tmatmul.acc"));
  CHECK(a == ops::lookupPto("pto.tmatmul_acc"));
  CHECK(a == ops::lookupCpp("pto::TMATMUL_ACC"));
  CHECK(a->pipes == std::vector<Pipe>{Pipe::M});
  CHECK(ops::lookup("TNOSUCHOP") == nullptr);
  // Identity is the declaration's qualified name: a user's TSTAGE_SET or an unqualified TLOAD
  // is no instruction.
  CHECK(ops::lookupCpp("TLOAD") == nullptr);
  CHECK(ops::lookupCpp("pto::TSTAGE_SET") == nullptr);
  // The tile TGATHER and the collective TGATHER are two instructions.
  CHECK(ops::lookupCpp("pto::TGATHER")->kind == OpKind::Compute);
  CHECK(ops::lookupCpp("pto::comm::TGATHER")->kind == OpKind::Collective);
  CHECK(ops::lookupPto("pto.comm.tgather") == ops::lookupCpp("pto::comm::TGATHER"));
  // Sync, cache and barrier instructions are in it too.
  CHECK(ops::lookupCpp("set_flag") == ops::lookupPto("pto.set_flag"));
  CHECK(ops::lookupCpp("pipe_barrier") == ops::lookupPto("pto.barrier"));
  CHECK(ops::lookupCpp("dcci") == ops::lookupPto("pto.cmo.cacheinvalid"));
  CHECK(ops::lookupCpp("pto::comm::TNOTIFY") == ops::lookupPto("pto.comm.tnotify"));
}

TEST_CASE("isa table: pipes by operand spaces and overload") {
  auto pipesFor = [](const ops::OpRow& row, MemSpace src, MemSpace dst, bool hasTmp = false) {
    ops::PipeOperands o;
    o.src = src;
    o.dst = dst;
    o.hasTmp = hasTmp;
    return ops::resolvePipes(row, o);
  };
  const ops::OpRow& mov = *ops::lookup("TMOV");
  CHECK(pipesFor(mov, MemSpace::L1, MemSpace::L0A) == std::vector<Pipe>{Pipe::MTE1});
  CHECK(pipesFor(mov, MemSpace::L1, MemSpace::Bias) == std::vector<Pipe>{Pipe::MTE1});
  CHECK(pipesFor(mov, MemSpace::L0C, MemSpace::L1) == std::vector<Pipe>{Pipe::FIX});
  CHECK(pipesFor(mov, MemSpace::UB, MemSpace::UB) == std::vector<Pipe>{Pipe::V});
  CHECK(pipesFor(mov, MemSpace::UB, MemSpace::L1) == std::vector<Pipe>{Pipe::FIX});
  CHECK(pipesFor(*ops::lookup("TINSERT"), MemSpace::L0C, MemSpace::L1) == std::vector<Pipe>{Pipe::FIX});
  const ops::OpRow& store = *ops::lookup("TSTORE");
  CHECK(pipesFor(store, MemSpace::L0C, MemSpace::GM) == std::vector<Pipe>{Pipe::FIX});
  CHECK(pipesFor(store, MemSpace::UB, MemSpace::GM) == std::vector<Pipe>{Pipe::MTE3});
  // TCI: the scalar loop without a tmp tile, vector code with one.
  const ops::OpRow& ci = *ops::lookup("TCI");
  CHECK(pipesFor(ci, MemSpace::None, MemSpace::UB, false) == std::vector<Pipe>{Pipe::S});
  CHECK(pipesFor(ci, MemSpace::None, MemSpace::UB, true) == std::vector<Pipe>{Pipe::V});
  // The signal word of TNOTIFY is stored by the scalar unit in both front ends.
  CHECK(ops::lookup("TNOTIFY")->pipes == std::vector<Pipe>{Pipe::S});
  CHECK(ops::lookup("TREDUCE")->pipes == std::vector<Pipe>{Pipe::MTE2, Pipe::V, Pipe::MTE3});
}

TEST_CASE("isa table: TPUT's phases and its own event") {
  const ops::OpRow& put = *ops::lookup("TPUT");
  MemRef dst, src, stage;
  dst.param = 0;
  src.param = 1;
  stage.space = ptov::MemSpace::UB;
  stage.value = "%ping";
  Op op;
  op.kind = OpKind::Put;
  op.name = "TPUT";
  // Its load into the staging tile, its own set/wait on EVENT_ID0, the put itself, then its
  // closing set/wait MTE3 -> MTE2 (every path of TPUT_IMPL ends with it).
  std::vector<Op> ops = ops::stagedOps(put, {&dst, &src, &stage}, op);
  REQUIRE(ops.size() == 6);
  CHECK(ops[0].kind == OpKind::Load);
  REQUIRE(ops[0].writes.size() == 1);
  CHECK(ops[0].writes[0].value == "%ping");
  CHECK(ops[0].writes[0].pipe == Pipe::MTE2);
  CHECK(ops[1].kind == OpKind::SetFlag);
  CHECK(ops[2].kind == OpKind::WaitFlag);
  CHECK(*ops[1].event.id == 0);
  CHECK(ops[1].event.src == Pipe::MTE2);
  CHECK(ops[1].event.dst == Pipe::MTE3);
  const Op& main = ops[3];
  CHECK(main.kind == OpKind::Put);
  REQUIRE(main.reads.size() == 2);
  REQUIRE(main.writes.size() == 1);
  CHECK(main.reads[0].param == 1);
  CHECK(main.reads[0].pipe == Pipe::MTE2);
  CHECK(main.reads[1].value == "%ping");
  CHECK(main.reads[1].pipe == Pipe::MTE3);
  CHECK(main.writes[0].param == 0);
  CHECK(main.writes[0].pipe == Pipe::MTE3);
  CHECK(ops[4].kind == OpKind::SetFlag);
  CHECK(ops[4].event.src == Pipe::MTE3);
  CHECK(ops[4].event.dst == Pipe::MTE2);
  CHECK(ops[5].kind == OpKind::WaitFlag);
  CHECK(*ops[5].event.id == 0);
  // A pong tile: EVENT_ID1 too, in both pairs.
  MemRef pong = stage;
  pong.value = "%pong";
  CHECK(ops::stagedOps(put, {&dst, &src, &stage, &pong}, op).size() == 10);
}

TEST_CASE("isa table: pipes each core kind has") {
  CHECK_FALSE(ops::coreHasPipe(KernelKind::Vector, Pipe::FIX));
  CHECK_FALSE(ops::coreHasPipe(KernelKind::Vector, Pipe::M));
  CHECK_FALSE(ops::coreHasPipe(KernelKind::Vector, Pipe::MTE1));
  CHECK(ops::coreHasPipe(KernelKind::Vector, Pipe::MTE3));
  CHECK(ops::coreHasPipe(KernelKind::Vector, Pipe::ALL));
  CHECK_FALSE(ops::coreHasPipe(KernelKind::Cube, Pipe::V));
  CHECK(ops::coreHasPipe(KernelKind::Cube, Pipe::FIX));
  CHECK(ops::coreHasPipe(KernelKind::Mix, Pipe::FIX));
  CHECK(ops::coreHasPipe(KernelKind::Unknown, Pipe::V));
}

TEST_CASE("op registry: one lookup for every dialect's MLIR names") {
  const ops::OpRow* bias = ops::lookupMlir("pto.tmatmul.bias");
  REQUIRE(bias);
  CHECK(bias->kind == OpKind::Compute);
  CHECK(bias->pipes == std::vector<Pipe>{Pipe::M});
  CHECK(ops::lookupMlir("pto.tload")->kind == OpKind::Load);
  CHECK(ops::lookupMlir("pto.comm.tnotify")->pipes == std::vector<Pipe>{Pipe::S});
  CHECK(ops::lookupMlir("pto.set_flag")->kind == OpKind::SetFlag);
  CHECK(ops::lookupMlir("pto.load_scalar")->kind == OpKind::ScalarLoad);
  CHECK(ops::lookupMlir("hivm.hir.load")->pipes == std::vector<Pipe>{Pipe::MTE2});
  // Prefix rows: every other hivm vector op on V; arith ops the lifter does not follow.
  CHECK(ops::lookupMlir("hivm.hir.vadd")->pipes == std::vector<Pipe>{Pipe::V});
  CHECK(ops::lookupMlir("arith.shli")->lift == ops::Lift::Unfollowed);
  CHECK(ops::lookupMlir("arith.addi")->expr == Expr::Kind::Add);
  CHECK(ops::lookupMlir("tensor.empty")->kind == OpKind::Other);
  // The cube-macro list is the rows' flag.
  CHECK(ops::lookupMlir("hivm.hir.mmadL1")->cubeMacro);
  CHECK_FALSE(ops::lookupMlir("hivm.hir.Conv2dL1")->cubeMacro);
  // An op no row knows is not guessed at: the lifter counts it as a gap.
  CHECK(ops::lookupMlir("pto.tfrobnicate") == nullptr);
  CHECK(ops::lookupMlir("hivm.hir.frobnicate") == nullptr);
  // `ptoverify isa` prints the PTO-ISA rows only.
  for (const auto& in : ops::all()) CHECK(in.dialect == ops::Dialect::PtoIsa);
}

TEST_CASE("op registry: resolvePipes decides every pipe rule from the operands") {
  auto pipes = [](const char* mlirName, const ops::PipeOperands& o) { return ops::resolvePipes(*ops::lookupMlir(mlirName), o); };
  using V = std::vector<Pipe>;
  ops::PipeOperands none;
  // Fixed: the row's pipes whatever the operands.
  ops::PipeOperands l0c;
  l0c.src = MemSpace::L0C;
  CHECK(pipes("pto.tload", l0c) == V{Pipe::MTE2});
  // ByForm: by the spaces, else the default.
  CHECK(pipes("pto.tstore", l0c) == V{Pipe::FIX});
  CHECK(pipes("pto.tstore", none) == V{Pipe::MTE3});
  ops::PipeOperands gmToL1;
  gmToL1.src = MemSpace::GM;
  gmToL1.dst = MemSpace::L1;
  CHECK(pipes("hivm.hir.copy", gmToL1) == V{Pipe::MTE2});
  CHECK(pipes("hivm.hir.copy", none) == V{Pipe::V});
  // ByForm by a sync object's producer type.
  ops::PipeOperands cube;
  cube.producer = "TSTORE_C2GM";
  CHECK(ops::resolvePipes(*ops::lookupCpp("pto::TSync_Custom::record"), cube) == V{Pipe::FIX});
  // TmpVector: V with a tmp tile.
  ops::PipeOperands tmp;
  tmp.hasTmp = true;
  CHECK(pipes("pto.tci", tmp) == V{Pipe::V});
  CHECK(pipes("pto.tci", none) == V{Pipe::S});
  // EventSource: a set on its source pipe, a wait on its destination, in every dialect.
  ops::PipeOperands ends;
  ends.eventSrc = Pipe::MTE2;
  ends.eventDst = Pipe::V;
  CHECK(pipes("pto.set_flag", ends) == V{Pipe::MTE2});
  CHECK(pipes("pto.wait_flag", ends) == V{Pipe::V});
  CHECK(pipes("hivm.hir.set_flag", ends) == V{Pipe::MTE2});
  CHECK(pipes("hivm.hir.wait_flag", ends) == V{Pipe::V});
  CHECK(pipes("hivm.hir.sync_block_set", ends) == V{Pipe::MTE2});
  CHECK(pipes("hivm.hir.sync_block_wait", ends) == V{Pipe::V});
  CHECK(ops::resolvePipes(*ops::lookupCpp("AscendC::WaitFlag"), ends) == V{Pipe::V});
  CHECK(ops::eventPipes(OpKind::SetFlag, Pipe::FIX, Pipe::M) == V{Pipe::FIX});
  CHECK(ops::eventPipes(OpKind::WaitFlag, Pipe::FIX, Pipe::M) == V{Pipe::M});
  // Named: the pipe the barrier names.
  ops::PipeOperands named;
  named.named = Pipe::MTE3;
  CHECK(pipes("pto.barrier", named) == V{Pipe::MTE3});
  CHECK(pipes("hivm.hir.pipe_barrier", named) == V{Pipe::MTE3});
  CHECK(ops::resolvePipes(*ops::lookupCpp("pipe_barrier"), named) == V{Pipe::MTE3});
}

TEST_CASE("op registry: PTOAS sync op types are forms of the rows they belong to") {
  CHECK(ops::syncTypePipe("TLOAD") == Pipe::MTE2);
  CHECK(ops::syncTypePipe("TSTORE_VEC") == Pipe::MTE3);
  CHECK(ops::syncTypePipe("TSTORE_ACC") == Pipe::FIX);
  CHECK(ops::syncTypePipe("TMOV_M2L") == Pipe::MTE1);
  CHECK(ops::syncTypePipe("TMOV_M2B") == Pipe::MTE1);
  CHECK(ops::syncTypePipe("TMOV_M2S") == Pipe::FIX);
  CHECK(ops::syncTypePipe("TMOV_M2V") == Pipe::V);
  CHECK(ops::syncTypePipe("TMOV_V2M") == Pipe::FIX);
  CHECK(ops::syncTypePipe("TMATMUL") == Pipe::M);
  CHECK(ops::syncTypePipe("TVEC") == Pipe::V);
  CHECK(ops::syncTypePipe("TVECWAIT_EVENT") == Pipe::V);
  // Only the op types PTOAS's record_event takes: a mnemonic is not one.
  CHECK(ops::syncTypePipe("TADD") == Pipe::Unknown);
  CHECK(ops::syncTypePipe("PIPE_MTE2") == Pipe::Unknown);
}

TEST_CASE("op registry: the pipe a model op issues on and its accesses are made on") {
  Op set;
  set.kind = OpKind::SetFlag;
  set.event.src = Pipe::MTE2;
  set.event.dst = Pipe::V;
  CHECK(ops::issuePipe(set) == Pipe::MTE2);
  set.kind = OpKind::WaitFlag;
  CHECK(ops::issuePipe(set) == Pipe::V);
  Op barrier;
  barrier.kind = OpKind::PipeBarrier;
  barrier.barrierPipe = Pipe::ALL;
  CHECK(ops::issuePipe(barrier) == Pipe::ALL);
  Op scalar;
  scalar.kind = OpKind::Other;
  CHECK(ops::issuePipe(scalar) == Pipe::S);
  Op load;
  load.kind = OpKind::Load;
  load.pipes = {Pipe::MTE2};
  MemRef plain, phase;
  phase.pipe = Pipe::MTE3;
  CHECK(ops::accessPipe(load, plain) == Pipe::MTE2);
  CHECK(ops::accessPipe(load, phase) == Pipe::MTE3);
  load.pipes = {Pipe::ALL};
  CHECK(ops::accessPipe(load, plain) == Pipe::Unknown);
  CHECK(ops::runsOffScalar(load));
  scalar.pipes = {Pipe::S};
  CHECK_FALSE(ops::runsOffScalar(scalar));
}

TEST_CASE("op registry: the prelude's pipe_t is generated in the model's order") {
  const std::string& text = ops::preludeDeclarations();
  CHECK(text.find("PTOVERIFY_PIPE(S)\nPTOVERIFY_PIPE(V)\nPTOVERIFY_PIPE(M)\n") != std::string::npos);
  CHECK(text.find("PTOVERIFY_PIPE(FIX)\n#else") != std::string::npos);
  CHECK(kPipeCount == 11);
}

TEST_CASE("isa table: the .pto front end gives TCI and TPUT the table's pipes and accesses") {
  const std::string tile = "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=32, v_row=1, v_col=32, "
                           "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  std::string body = "    %c0 = arith.constant 0 : i32\n"
                     "    %d = pto.alloc_tile : " + tile + "\n    %t = pto.alloc_tile : " + tile + "\n"
                     "    pto.tci ins(%c0 : i32) outs(%d : " + tile + ")\n"
                     "    pto.tci ins(%c0, %t : i32, " + tile + ") outs(%d : " + tile + ")\n";
  auto ks = test::liftText(test::kernelText("", body));
  REQUIRE(ks.size() == 1);
  std::vector<const Op*> cis;
  forEachOp(*ks[0].body, [&](const Op& op) {
    if (op.name == "pto.tci") cis.push_back(&op);
  });
  REQUIRE(cis.size() == 2);
  CHECK(cis[0]->pipes == std::vector<Pipe>{Pipe::S});
  CHECK(cis[1]->pipes == std::vector<Pipe>{Pipe::V});
  CHECK(cis[1]->writes.size() == 2);  // the tmp tile is written too
}

namespace {
// pto-isa's Op enum and PTO_DEFINE_OP_PIPE lines: upstream op -> pipe name ("" when the enum
// lists it without a pipe, which pto-isa then takes as PIPE_ALL).
std::map<std::string, std::string> upstreamPipes(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::map<std::string, std::string> out;
  size_t enumStart = text.find("enum class Op");
  size_t enumEnd = text.find("OP_COUNT", enumStart);
  std::regex member(R"(^\s*([A-Z][A-Z0-9_]*),)");
  std::istringstream lines(text.substr(enumStart, enumEnd - enumStart));
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, member)) out[m[1]] = "";
  }
  std::regex define(R"(PTO_DEFINE_OP_PIPE\(Op::([A-Z0-9_]+),\s*(PIPE_[A-Z0-9_]+)\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), define); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = (*it)[2];
  return out;
}

// The pipes the table gives an upstream op: a form that names it, or an instruction of that name
// with no upstream form (its fixed pipe; TCI's plain overload).
std::set<std::string> tablePipes(const std::string& upstream) {
  std::set<std::string> out;
  for (const auto& in : ops::all()) {
    // pto-isa's table is of tile instructions (and two pipe classes); the collective
    // pto::comm::TGATHER shares a mnemonic with the tile TGATHER.
    if (in.shape != ops::CallShape::Tile && in.shape != ops::CallShape::None) continue;
    bool namedForm = false;
    for (const auto& f : in.forms)
      if (f.upstream && upstream == f.upstream) out.insert(pipeName(f.pipe)), namedForm = true;
    bool anyUpstreamForm = false;
    for (const auto& f : in.forms) anyUpstreamForm |= f.upstream != nullptr;
    if (!namedForm && !anyUpstreamForm && upstream == in.name && !in.pipes.empty()) out.insert(pipeName(in.pipes.front()));
  }
  return out;
}
}  // namespace

TEST_CASE("corpus-real: the table agrees with pto-isa's op-to-pipe table (event.hpp) on every op") {
  SKIP_WITHOUT_REAL_CORPUS();
  auto upstream = upstreamPipes(realCorpusDir() + "/cpp/pto-isa_3186c381/include/pto/common/event.hpp");
  REQUIRE(upstream.size() >= 135);
  // Deliberate differences, each with its reason: none on a pipe pto-isa names. The table has
  // forms pto-isa does not list separately (TCI's tmp overload on V: PTOAS #1532; TMOV from GM on
  // MTE2); those carry no upstream name and are not compared.
  const std::map<std::string, std::string> deliberate = {};
  for (const auto& [op, pipe] : upstream) {
    CAPTURE(op);
    CHECK_MESSAGE(!pipe.empty(), "pto-isa lists " << op << " without a pipe");
    std::set<std::string> ours = tablePipes(op);
    CHECK_MESSAGE(!ours.empty(), op << " is not in the table");
    if (deliberate.count(op)) continue;
    for (const auto& p : ours) CHECK_MESSAGE(p == pipe, op << ": table " << p << ", pto-isa " << pipe);
  }
}

TEST_CASE("op registry: the CCE data-movement intrinsics carry their pipes and memory roles") {
  struct Want {
    const char* cpp;
    OpKind kind;
    Pipe pipe;
    MemSpace dst, src;
  };
  // One of each direction: GM in on MTE2, UB / L1 out on MTE3, L1 to L0 on MTE1, L0C out on FIX,
  // UB to UB on V, an L1 fill from a value on MTE2.
  const Want wants[] = {
      {"copy_gm_to_ubuf", OpKind::Load, Pipe::MTE2, MemSpace::UB, MemSpace::GM},
      {"copy_gm_to_cbuf_multi_nd2nz_b16", OpKind::Load, Pipe::MTE2, MemSpace::L1, MemSpace::GM},
      {"copy_ubuf_to_gm_align_v2", OpKind::Store, Pipe::MTE3, MemSpace::GM, MemSpace::UB},
      {"copy_cbuf_to_gm", OpKind::Store, Pipe::MTE3, MemSpace::GM, MemSpace::L1},
      {"copy_ubuf_to_cbuf", OpKind::Compute, Pipe::MTE3, MemSpace::L1, MemSpace::UB},
      {"copy_cbuf_to_ubuf", OpKind::Compute, Pipe::MTE1, MemSpace::UB, MemSpace::L1},
      {"load_cbuf_to_cb", OpKind::Compute, Pipe::MTE1, MemSpace::L0B, MemSpace::L1},
      {"copy_matrix_cc_to_gm", OpKind::Store, Pipe::FIX, MemSpace::GM, MemSpace::L0C},
      {"copy_cbuf_to_fbuf", OpKind::Compute, Pipe::FIX, MemSpace::Scaling, MemSpace::L1},
      {"copy_ubuf_to_ubuf", OpKind::Compute, Pipe::V, MemSpace::UB, MemSpace::UB},
      {"create_cbuf_matrix", OpKind::Compute, Pipe::MTE2, MemSpace::L1, MemSpace::None},
  };
  for (const Want& w : wants) {
    CAPTURE(w.cpp);
    const ops::OpRow* in = ops::lookupCpp(w.cpp);
    REQUIRE(in);
    CHECK(in->shape == ops::CallShape::Copy);
    CHECK(in->kind == w.kind);
    CHECK(in->pipes == std::vector<Pipe>{w.pipe});
    CHECK(in->copy.dst == 0);
    CHECK(in->copy.src == (w.src == MemSpace::None ? -1 : 1));
    CHECK(in->copy.dstSpace == w.dst);
    CHECK(in->copy.srcSpace == w.src);
    CHECK(ops::lookup(in->name) == in);  // its mnemonic, COPY_GM_TO_UBUF
  }
}

TEST_CASE("op registry: the prelude declares each intrinsic row, and each data-movement intrinsic has one") {
  std::ifstream f(std::string(PTOVERIFY_SOURCE_DIR) + "/prelude/ptoverify_cce_intrinsics.h");
  std::stringstream text;
  text << f.rdbuf();
  const std::string s = text.str();
  // The block between the data-movement banner and the cube's.
  size_t from = s.find("// data movement"), to = s.find("// Cube", from);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  std::set<std::string> declared;
  std::regex decl(R"(PTOVERIFY_CCE_VOID\((\w+)\))");
  const std::string block = s.substr(from, to - from);
  for (auto it = std::sregex_iterator(block.begin(), block.end(), decl); it != std::sregex_iterator(); ++it)
    declared.insert((*it)[1]);
  REQUIRE(declared.size() >= 30);
  std::set<std::string> rows;
  for (const auto& in : ops::all())
    if (in.shape == ops::CallShape::Copy) rows.insert(in.cpp.front());
  CHECK(rows == declared);
}
