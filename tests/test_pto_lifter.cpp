#include <doctest/doctest.h>

#include "tests/helpers.h"

using namespace ptov;
using namespace ptov::test;

namespace {
std::vector<const Op*> opsOf(const Kernel& k) {
  std::vector<const Op*> out;
  forEachOp(*k.body, [&](const Op& op) { out.push_back(&op); });
  return out;
}
}  // namespace

TEST_CASE("lifter: params, arch, kernel kind, value origins through views and peer addptr") {
  auto ks = liftText(R"(module attributes {pto.target_arch = "a5"} {
  func.func private @CommRemoteOffset_i8(i32) -> index
  func.func @k(%arg0: !pto.ptr<i8>, %arg1: !pto.ptr<i32>, %peer: i32, %__pypto_l2_cache_offset: i64) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c1 = arith.constant 1 : index
    %off = func.call @CommRemoteOffset_i8(%peer) : (i32) -> index
    %p = pto.addptr %arg0, %off : !pto.ptr<i8> -> !pto.ptr<i8>
    %v = pto.make_tensor_view %p, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi8>
    %pv = pto.partition_view %v, offsets = [%c1], sizes = [%c1] : !pto.tensor_view<1xi8> -> !pto.partition_tensor_view<1xi8>
    %t = pto.alloc_tile addr = %c1 : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%pv : !pto.partition_tensor_view<1xi8>)
    pto.store_scalar %peer, %arg1[%c1] : !pto.ptr<i32>, i32
    return
  }
})");
  REQUIRE(ks.size() == 1);  // the declaration is not a kernel
  const Kernel& k = ks[0];
  CHECK(k.arch == "a5");
  CHECK(k.kind == KernelKind::Vector);
  REQUIRE(k.params.size() == 4);
  CHECK(k.params[0].isPointer);
  CHECK(k.params[0].elemType == "i8");
  CHECK(k.params[3].synthetic);
  auto ops = opsOf(k);
  const Op* store = nullptr;
  const Op* scalarStore = nullptr;
  const Op* alloc = nullptr;
  for (const Op* op : ops) {
    if (op->kind == OpKind::Store) store = op;
    if (op->kind == OpKind::ScalarStore) scalarStore = op;
    if (op->kind == OpKind::TileAlloc) alloc = op;
  }
  REQUIRE(store);
  REQUIRE(store->writes.size() == 1);
  CHECK(store->writes[0].param == 0);
  CHECK(store->writes[0].peer);
  CHECK(store->pipes == std::vector<Pipe>{Pipe::MTE3});
  REQUIRE(scalarStore);
  CHECK(scalarStore->writes[0].param == 1);
  CHECK_FALSE(scalarStore->writes[0].peer);
  REQUIRE(alloc);
  CHECK(alloc->tileSpace == MemSpace::UB);
  CHECK(alloc->tileBytes == 32);
  CHECK(*alloc->tileAddr == 1);
}

TEST_CASE("lifter: sync ops in every spelling") {
  auto ks = liftText(kernelText("%a: !pto.ptr<f32>", R"(
    %e = arith.constant 3 : index
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID5>]
    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_MTE3>, %e]
    pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID2>]
    pto.barrier #pto.pipe<PIPE_V>
    pto.barrier <PIPE_ALL>
    pto.fence.barrier_all #pto.fence_scope<gm>
    pto.sync.set <PIPE_FIX>, 4 {ffts_mode = 0 : i32}
    pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>
)"));
  REQUIRE(ks.size() == 1);
  auto ops = opsOf(ks[0]);
  REQUIRE(ops.size() == 10);
  CHECK(ops[9]->kind == OpKind::Return);
  CHECK(ops[0]->kind == OpKind::SetFlag);
  CHECK(ops[0]->event.src == Pipe::MTE2);
  CHECK(ops[0]->event.dst == Pipe::V);
  CHECK(*ops[0]->event.id == 0);
  CHECK(*ops[1]->event.id == 5);
  CHECK(ops[2]->event.dst == Pipe::MTE3);
  CHECK(*ops[2]->event.id == 3);  // constant-folded dynamic id
  CHECK(ops[3]->event.src == Pipe::MTE2);
  CHECK(ops[3]->event.dst == Pipe::V);
  CHECK(*ops[3]->event.id == 2);
  CHECK(ops[4]->barrierPipe == Pipe::V);
  CHECK(ops[5]->barrierPipe == Pipe::ALL);
  CHECK(ops[6]->fenceScope == FenceScope::GM);
  CHECK(ops[7]->kind == OpKind::CrossCoreSet);
  CHECK(*ops[7]->event.id == 4);
  CHECK(ops[8]->syncMode == SyncMode::Hard);
  CHECK(ops[8]->coreType == CoreType::Mix);
  CHECK(ops[8]->dialect == Dialect::Pto);
}

TEST_CASE("model: core types and sync modes read every dialect's spelling and print the op's own") {
  for (Dialect d : {Dialect::Cpp, Dialect::Pto, Dialect::Hivm})
    for (CoreType c : {CoreType::Vector, CoreType::Cube})
      CHECK(coreTypeFromName(coreTypeName(c, d)) == c);
  CHECK(std::string(coreTypeName(CoreType::Vector, Dialect::Pto)) == "aiv_only");
  CHECK(std::string(coreTypeName(CoreType::Vector, Dialect::Cpp)) == "aiv");
  CHECK(std::string(coreTypeName(CoreType::Cube, Dialect::Hivm)) == "CUBE");
  CHECK(std::string(coreTypeName(CoreType::Mix, Dialect::Pto)) == "mix");
  CHECK(coreTypeFromName("CUBE_OR_VECTOR") == CoreType::CubeOrVector);
  CHECK(coreTypeFromName("aiv_and_more") == CoreType::Other);
  CHECK(coreTypeFromName("") == CoreType::None);
  for (SyncMode m : {SyncMode::Hard, SyncMode::Soft, SyncMode::AllCube, SyncMode::AllSubVector, SyncMode::All,
                     SyncMode::IntraBlock, SyncMode::InterSubBlock})
    CHECK(syncModeFromName(syncModeName(m)) == m);
  CHECK(syncModeFromName("BARRIER_MAYBE") == SyncMode::Other);
  CHECK(cachePolicyFromName("l2_bypass") == CachePolicy::L2Bypass);
  CHECK(cachePolicyFromName("l2_keep") == CachePolicy::Other);
  CHECK(cachePolicyFromName("") == CachePolicy::Default);
  CHECK(dialectOfMlirName("pto.tload") == Dialect::Pto);
  CHECK(dialectOfMlirName("hivm.hir.sync_block") == Dialect::Hivm);
  CHECK(dialectOfMlirName("arith.addi") == Dialect::Generic);
}

TEST_CASE("lifter: tload cache policy and offset, loops with bounds, if conditions") {
  auto ks = liftText(kernelText("%a: !pto.ptr<f32>, %__pypto_l2_cache_offset: i64", R"(
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %v = pto.make_tensor_view %a, shape = [%c4], strides = [%c1] : !pto.tensor_view<4xf32>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %cond = arith.cmpi eq, %i, %c0 : index
      scf.if %cond {
        pto.tload ins(%v : !pto.tensor_view<4xf32>) outs(%t : !pto.tile_buf<vec, 1x4xf32>) {cache_policy = #pto.load_cache_policy<l2_bypass>} offset = %__pypto_l2_cache_offset : i64
      }
    }
)"));
  REQUIRE(ks.size() == 1);
  const Stmt& body = *ks[0].body;
  const Stmt* loop = nullptr;
  for (const auto& c : body.children)
    if (c->kind == Stmt::Kind::For) loop = c.get();
  REQUIRE(loop);
  CHECK(evalConst(loop->lb) == 0);
  CHECK(evalConst(loop->ub) == 4);
  const Stmt& ifs = *loop->children[0]->children[0];
  REQUIRE(ifs.kind == Stmt::Kind::If);
  CHECK(toString(ifs.cond) == "(%i eq 0)");
  const Op& load = ifs.children[0]->children[0]->op;
  CHECK(load.kind == OpKind::Load);
  CHECK(load.cachePolicy == CachePolicy::L2Bypass);
  CHECK(load.offsetValue == "%__pypto_l2_cache_offset");
  CHECK(load.offsetParam == 1);
  CHECK(load.reads[0].param == 0);
}

TEST_CASE("lifter: event-id arrays are tracked in program order and forgotten after nested sets") {
  auto ks = liftText(kernelText("%c: i1", R"(
    %arr = pto.declare_eventid_array -> !pto.eventid_array<4>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    pto.eventid_array_set %arr[%c0], %c1 : !pto.eventid_array<4>
    %e1 = pto.eventid_array_get %arr[%c0] : !pto.eventid_array<4>
    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_MTE3>, %e1]
    scf.if %c {
      pto.eventid_array_set %arr[%c0], %c2 : !pto.eventid_array<4>
    }
    %e2 = pto.eventid_array_get %arr[%c0] : !pto.eventid_array<4>
    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_MTE3>, %e2]
)"));
  REQUIRE(ks.size() == 1);
  std::vector<const Op*> events;
  forEachOp(*ks[0].body, [&](const Op& op) {
    if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) events.push_back(&op);
  });
  REQUIRE(events.size() == 2);
  CHECK(events[0]->event.id == 1);
  CHECK_FALSE(events[1]->event.id.has_value());  // the branch may have changed the slot
}

TEST_CASE("lifter: tile computations read their ins and write their outs") {
  auto ks = liftText(kernelText("", R"(
    %a = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>
    %b = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>
    %c = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>
    pto.tadd ins(%a, %b : !pto.tile_buf<vec, 1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) outs(%c : !pto.tile_buf<vec, 1x64xf32>)
)"));
  const Op* add = nullptr;
  forEachOp(*ks.at(0).body, [&](const Op& op) {
    if (op.kind == OpKind::Compute) add = &op;
  });
  REQUIRE(add);
  REQUIRE(add->reads.size() == 2);
  CHECK(add->reads[0].value == "%a");
  CHECK(add->reads[0].space == MemSpace::UB);
  REQUIRE(add->writes.size() == 1);
  CHECK(add->writes[0].value == "%c");
  CHECK_FALSE(add->writesGm());
}

TEST_CASE("lifter: HIVM sync ops, buffers and library events") {
  const char* text = R"(module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @k_mix_aic(%a: memref<?xf16, #hivm.address_space<gm>>, %ffts: i64) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c0_i64 = arith.constant 0 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c1_i64 = arith.constant 1 : i64
    %cm1_i64 = arith.constant -1 : i64
    %l1 = hivm.hir.pointer_cast(%c4096_i64) : memref<16x16xf16, #hivm.address_space<cbuf>>
    %cc = hivm.hir.pointer_cast(%c0_i64, %c4096_i64) : memref<16x16xf32, #hivm.address_space<cc>>
    %sub = memref.subview %l1[0, 0] [8, 16] [1, 1] : memref<16x16xf16, #hivm.address_space<cbuf>> to memref<8x16xf16, #hivm.address_space<cbuf>>
    hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.nd2nz ins(%a : memref<?xf16, #hivm.address_space<gm>>) outs(%sub : memref<8x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, #hivm.event<EVENT_ID1>]
    hivm.hir.mmadL1 ins(%l1, %l1 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%cc : memref<16x16xf32, #hivm.address_space<cc>>) sync_related_args(%c1_i64, %cm1_i64, %cm1_i64, %cm1_i64, %cm1_i64, %cm1_i64, %cm1_i64 : i64, i64, i64, i64, i64, i64, i64)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 3 ffts_base_addr = %ffts
    return
  }
})";
  std::vector<InputDiagnostic> diags;
  auto ks = test::liftText(text, &diags);
  REQUIRE(ks.size() == 1);
  const Kernel& k = ks[0];
  CHECK(k.arch == "a5");
  CHECK(k.kind == KernelKind::Cube);
  CHECK(k.params[0].isPointer);
  std::vector<const Op*> ops;
  forEachOp(*k.body, [&](const Op& op) { ops.push_back(&op); });
  // pointer_cast placements: one constant address, and a two-slot multi-buffer.
  REQUIRE(ops.size() >= 7);
  CHECK(ops[0]->kind == OpKind::TileAlloc);
  CHECK(ops[0]->tileSpace == MemSpace::L1);
  CHECK(ops[0]->tileAddr == 4096);
  CHECK(ops[0]->tileBytes == 512);
  CHECK(ops[1]->tileAddrChoices == std::vector<int64_t>{0, 4096});
  CHECK(ops[2]->kind == OpKind::SetFfts);
  // nd2nz writes the subview's root buffer on MTE2.
  CHECK(ops[3]->kind == OpKind::Load);
  REQUIRE(ops[3]->writes.size() == 1);
  CHECK(ops[3]->writes[0].value == "%l1");
  CHECK(ops[3]->writes[0].space == MemSpace::L1);
  CHECK(ops[3]->reads[0].space == MemSpace::GM);
  CHECK(ops[4]->kind == OpKind::SetFlag);
  CHECK(ops[4]->event.id == 1);
  // mmadL1's library waits on the MTE2 -> MTE1 event it is given, then computes on M.
  CHECK(ops[5]->kind == OpKind::WaitFlag);
  CHECK(ops[5]->event.src == Pipe::MTE2);
  CHECK(ops[5]->event.dst == Pipe::MTE1);
  CHECK(ops[5]->event.id == 1);
  CHECK(ops[6]->name == "hivm.hir.mmadL1");
  CHECK(ops[6]->pipes == std::vector<Pipe>{Pipe::M});
  const Op* set = ops.back()->kind == OpKind::Return ? ops[ops.size() - 2] : ops.back();
  CHECK(set->kind == OpKind::CrossCoreSet);
  CHECK(set->coreType == CoreType::Cube);
  CHECK(set->dialect == Dialect::Hivm);
  CHECK(set->event.src == Pipe::FIX);
  CHECK(set->event.dst == Pipe::S);
  CHECK(set->event.id == 3);
  CHECK(set->fftsBase);
  CHECK(set->syncMode == SyncMode::IntraBlock);
}

TEST_CASE("lifter: tile views are accesses of their root, fusion-region results name the yielded tile, sibling regions reuse names") {
  auto ks = liftText(R"(module {
  func.func @k(%i: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 8192 : i64
    %t = pto.alloc_tile addr = %a0 : !pto.tile_buf<vec, 8x64xf32>
    %rows = pto.subview %t[%c2, %c0] sizes [2, 64] : !pto.tile_buf<vec, 8x64xf32> -> !pto.tile_buf<vec, 2x64xf32>
    %cols = pto.subview %t[%c0, %c3] sizes [8, 4] : !pto.tile_buf<vec, 8x64xf32> -> !pto.tile_buf<vec, 8x4xf32>
    %dyn = pto.subview %t[%i, %c0] sizes [2, 64] : !pto.tile_buf<vec, 8x64xf32> -> !pto.tile_buf<vec, 2x64xf32>
    %flat = pto.treshape %rows : !pto.tile_buf<vec, 2x64xf32> -> !pto.tile_buf<vec, 1x128xf32>
    pto.texp ins(%rows : !pto.tile_buf<vec, 2x64xf32>) outs(%cols : !pto.tile_buf<vec, 8x4xf32>)
    pto.texp ins(%dyn : !pto.tile_buf<vec, 2x64xf32>) outs(%flat : !pto.tile_buf<vec, 1x128xf32>)
    %r1 = pto.fusion_region {
      %0 = pto.alloc_tile addr = %a1 : !pto.tile_buf<vec, 8x64xf32>
      pto.texp ins(%t : !pto.tile_buf<vec, 8x64xf32>) outs(%0 : !pto.tile_buf<vec, 8x64xf32>)
      pto.yield(%0) : (!pto.tile_buf<vec, 8x64xf32>) -> ()
    } : !pto.tile_buf<vec, 8x64xf32>
    %r2 = pto.fusion_region {
      %0 = pto.alloc_tile addr = %a1 : !pto.tile_buf<vec, 8x64xf32>
      pto.texp ins(%r1 : !pto.tile_buf<vec, 8x64xf32>) outs(%0 : !pto.tile_buf<vec, 8x64xf32>)
      pto.yield(%0) : (!pto.tile_buf<vec, 8x64xf32>) -> ()
    } : !pto.tile_buf<vec, 8x64xf32>
    pto.texp ins(%r2 : !pto.tile_buf<vec, 8x64xf32>) outs(%t : !pto.tile_buf<vec, 8x64xf32>)
    return
  }
})");
  REQUIRE(ks.size() == 1);
  std::vector<const Op*> exps;
  for (const Op* op : opsOf(ks[0]))
    if (op->name == "pto.texp") exps.push_back(op);
  REQUIRE(exps.size() == 5);
  // Rows 2..3 of a row-major 8x64 f32 tile: bytes [512, 1024); columns 3..6: from byte 12, with
  // a 256-byte row stride, 7 * 256 + 16 bytes long.
  const MemRef& rows = exps[0]->reads.at(0);
  CHECK(rows.value == "%t");
  CHECK(rows.tileView == "%rows");
  CHECK(rows.tileViewOffset == std::optional<int64_t>(512));
  CHECK(rows.tileViewBytes == 512);
  const MemRef& cols = exps[0]->writes.at(0);
  CHECK(cols.value == "%t");
  CHECK(cols.tileViewOffset == std::optional<int64_t>(12));
  CHECK(cols.tileViewBytes == 7 * 256 + 16);
  CHECK(cols.tileViewLines == 8);  // strided: 16 bytes of each 256-byte row
  CHECK(cols.tileViewStride == 256);
  CHECK(cols.tileViewLineBytes == 16);
  CHECK(cols.tileViewBytesAt(12).size() == 8);
  CHECK(cols.tileViewBytesAt(12).back() == std::make_pair(int64_t{12 + 7 * 256}, int64_t{12 + 7 * 256 + 16}));
  CHECK(rows.tileViewLines == 1);  // whole rows: contiguous
  // A dynamic offset: somewhere in %t. A reshape keeps its source's bytes.
  CHECK(exps[1]->reads.at(0).value == "%t");
  CHECK(!exps[1]->reads.at(0).tileViewOffset);
  CHECK(exps[1]->writes.at(0).value == "%t");
  CHECK(exps[1]->writes.at(0).tileViewOffset == std::optional<int64_t>(512));
  // The two regions' %0 are two tiles; each region's result names the tile it yields.
  std::string first = exps[2]->writes.at(0).value, second = exps[3]->writes.at(0).value;
  CHECK(first != second);
  CHECK(exps[3]->reads.at(0).value == first);
  CHECK(exps[4]->reads.at(0).value == second);
}

TEST_CASE("lifter: a subview at the loop counter takes one offset per iteration") {
  auto ks = liftText(R"(module {
  func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %a0 = arith.constant 0 : i64
    %t = pto.alloc_tile addr = %a0 : !pto.tile_buf<vec, 8x64xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %col = arith.muli %j, %c16 : index
      %s = pto.subview %t[%c0, %col] sizes [8, 16] : !pto.tile_buf<vec, 8x64xf32> -> !pto.tile_buf<vec, 8x16xf32>
      pto.texp ins(%s : !pto.tile_buf<vec, 8x16xf32>) outs(%s : !pto.tile_buf<vec, 8x16xf32>)
    }
    return
  }
})");
  REQUIRE(ks.size() == 1);
  const Op* exp = nullptr;
  for (const Op* op : opsOf(ks[0]))
    if (op->name == "pto.texp") exp = op;
  REQUIRE(exp);
  const MemRef& s = exp->reads.at(0);
  CHECK(!s.tileViewOffset);
  CHECK(s.tileViewOffsetChoices == std::vector<int64_t>{0, 64, 128, 192});
  CHECK(s.tileViewLineBytes == 64);
}

TEST_CASE("model: two column slices of one tile share bytes only where their lines meet") {
  auto slice = [](int64_t col) {
    MemRef m;
    m.space = MemSpace::UB;
    m.value = "%t";
    m.tileView = "%s";
    m.tileViewOffset = col * 4;  // f32 columns of a row-major 8x64 tile: 256-byte rows
    m.tileViewLines = 8;
    m.tileViewStride = 256;
    m.tileViewLineBytes = 16;
    m.tileViewBytes = 7 * 256 + 16;
    return m;
  };
  CHECK(!slice(0).tileViewSharesBytes(slice(4)));  // columns 0..3 and 4..7: spans overlap, lines do not
  CHECK(slice(0).tileViewSharesBytes(slice(3)));
  MemRef rows;  // rows 2..3, contiguous
  rows.tileViewOffset = 512;
  rows.tileViewBytes = 512;
  CHECK(rows.tileViewSharesBytes(slice(60)));
  rows.tileViewOffset = 2048;  // past the slices' last line
  CHECK(!rows.tileViewSharesBytes(slice(0)));
}
