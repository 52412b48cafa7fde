#pragma once
// The kernel model: every front end (.pto, HIVM, C++) fills it; every rule reads only it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"
#include "analyzer/source_loc.h"

namespace ptov {

enum class Pipe { S, V, M, MTE1, MTE2, MTE3, ALL, MTE4, MTE5, V2, FIX, Unknown };
const char* pipeName(Pipe p);
Pipe pipeFromName(const std::string& name);  // "PIPE_MTE2" or "MTE2"; Unknown otherwise

enum class OpKind {
  Load,            // GM -> local tile (tload): pipe MTE2
  Prefetch,        // tprefetch
  Store,           // local tile -> GM (tstore): MTE3 or FIX
  ScalarLoad,      // load_scalar / load from a pointer: S
  ScalarStore,     // store_scalar / store to a pointer: S
  SetFlag,         // intra-core event set (src pipe -> dst pipe, id)
  WaitFlag,        // intra-core event wait
  PipeBarrier,     // pipe_barrier(pipe)
  Fence,           // GM fence (fence.barrier_all): drains + dsb(DDR)
  CacheInvalidate, // data-cache invalidate: all, or the line(s) of one address
  Notify,          // comm signal publish (tnotify)
  Wait,            // comm signal wait (twait)
  Test,            // comm signal test (ttest)
  Put,             // remote write through a staging tile (tput, tput_async)
  Get,             // remote read into local GM (tget, tget_async)
  Collective,      // tbroadcast / tgather / tscatter / treduce
  AsyncWait,       // wait/test of an async DMA event
  CrossCoreSet,    // FFTS / intra-block / cross-block set
  CrossCoreWait,   // FFTS / intra-block / cross-block wait
  SetFfts,         // set_ffts_base_addr
  SyncAll,         // all-core barrier
  TileAlloc,       // alloc_tile (optionally with a fixed address)
  TileAssign,      // tassign: rebinds a tile to an address
  Compute,         // vector / cube tile computation
  Call,            // call of another function
  Return,
  Branch,          // cf.br / cf.cond_br (successors in Op::successors)
  Other,           // recognized but irrelevant to every rule (views, arith, ...)
};
const char* opKindName(OpKind k);

// Where a buffer lives: global memory, or a core's local buffer (UB the vector core's, the cube's
// L1, L0A/L0B/L0C, bias table and fixpipe scaling buffer). None: no buffer, or not known; Other: a
// space the front end names but the model has no place for.
enum class MemSpace : uint8_t { None, GM, UB, L1, L0A, L0B, L0C, Bias, Scaling, Other };
// "gm", "ub", "l1", "l0a", "l0b", "l0c", "bias", "scaling", "other"; "" for None.
const char* memSpaceName(MemSpace s);

// A fence's scope: .pto's #pto.fence_scope<local_memory|gm|all>; Dsb for a C++ dsb that may
// not order the GM writes in flight at it (the translator decides which are GM fences).
enum class FenceScope : uint8_t { Unknown, LocalMemory, GM, All, Dsb };

// The dialect an op is written in: the namespace of its MLIR name (pto., hivm.; arith, scf,
// func, cf and memref are Generic), or a call in C++ (pto-isa, CCE intrinsics, AscendC).
enum class Dialect : uint8_t { Generic, Pto, Hivm, Cpp };
// Pto for "pto.*", Hivm for "hivm.*", else Generic.
Dialect dialectOfMlirName(const std::string& opName);

// The cores a barrier or cross-core op concerns: an all-core barrier's core type (C++
// `SYNCALL<.., AIVOnly>`, pto.syncall's core_type) or the core an HIVM sync_block_set/wait runs
// on (HIVM's TCoreType). None: not given.
enum class CoreType : uint8_t { None, Vector, Cube, Mix, CubeOrVector, CubeAndVector, Other };
// As the op's dialect spells it: C++ "aiv" / "aic" / "mix", .pto "aiv_only" / "aic_only" / "mix",
// HIVM "VECTOR" / "CUBE" / "CUBE_OR_VECTOR" / "CUBE_AND_VECTOR"; "" for None.
const char* coreTypeName(CoreType c, Dialect d);
// Any dialect's spelling; Other for one no dialect has, None for "".
CoreType coreTypeFromName(const std::string& name);

// An all-core barrier's form (C++ and .pto: hard or soft; HIVM sync_block: which cores it
// joins), or an HIVM sync_block_set/wait's instruction mode.
enum class SyncMode : uint8_t {
  None,
  Hard,
  Soft,
  AllCube,
  AllVector,
  AllSubVector,
  BarrierCube,
  BarrierVector,
  All,
  IntraBlock,
  InterBlock,
  InterSubBlock,
  Other,
};
// The mode as its dialect spells it: "hard", "soft", "ALL_CUBE", "INTRA_BLOCK_SYNCHRONIZATION", ...
const char* syncModeName(SyncMode m);
// The inverse of syncModeName; Other for a spelling it does not know, None for "".
SyncMode syncModeFromName(const std::string& name);

// A load's cache policy: none given, PTOAS's `l2_bypass` (C++: the NotAlloc cache hints), or
// another one.
enum class CachePolicy : uint8_t { Default, L2Bypass, Other };
// "" / "l2_bypass" / "other".
const char* cachePolicyName(CachePolicy p);
// The inverse of cachePolicyName: Default for "", Other for a policy it does not know.
CachePolicy cachePolicyFromName(const std::string& name);

// Where a memory access goes. `param` is the kernel parameter the address derives from
// (through make_tensor_view / partition_view / addptr chains), -1 when unknown or local.
struct MemRef {
  MemSpace space = MemSpace::GM;
  int param = -1;
  bool peer = false;         // address offset to another rank's copy (CommRemoteOffset*)
  std::string value;         // the SSA value / expression that names it in the source
  // GM region when known: a partition of tensor view `view` (the make_tensor_view value), with
  // per-dimension offsets and sizes in elements. Two regions of one view overlap iff their
  // boxes overlap in every dimension. A slot of a multi-tile buffer (pto.multi_tile_get) has one
  // dimension: its byte offset in the root, an expression of the loop counters, and its bytes.
  std::string view;
  std::vector<ExprPtr> offsets, sizes;
  // A local tile reached through a view of it (pto.subview, pto.treshape, a HIVM memref alias):
  // `value` names the root tile, `tileView` the view, and, when its place in the root is known,
  // it covers bytes [*tileViewOffset, *tileViewOffset + tileViewBytes) of the root. Without an
  // offset the view may be anywhere in the root.
  std::string tileView;
  std::optional<int64_t> tileViewOffset;
  int64_t tileViewBytes = 0;
  // Without one offset: the offsets the view takes over the iterations of its loops (pto.subview
  // at the loop counters), each covering tileViewBytes; empty when not known either.
  std::vector<int64_t> tileViewOffsetChoices;
  // The same view's offset in each iteration of the loops enclosing it, in the order they run
  // (their counters, outermost first, in tileViewLoops): two views in one loop nest are compared
  // iteration by iteration (analysis/tile_values.cpp). Empty when not known.
  std::vector<int64_t> tileViewOffsetPerIteration;
  std::vector<std::string> tileViewLoops;
  // A view of some columns of a row-major tile (rows of a column-major one) is strided: from its
  // offset, tileViewLines lines of tileViewLineBytes, tileViewStride apart (the span above is
  // from the first line's start to the last line's end). tileViewLineBytes 0: contiguous.
  int64_t tileViewLines = 1, tileViewStride = 0, tileViewLineBytes = 0;
  // A local tile access in a plain row-major layout: bytes per element and elements per row of
  // what the op sees (the view's own shape); 0 when not known. An elementwise op walks its
  // operands' elements in that order (analysis/tile_values.cpp).
  int elementBytes = 0;
  int64_t rowElements = 0;
  // A tile write that sets every byte it covers (the whole shape valid, so no padding keeps an
  // older value), and a write of an instruction's tmp tile (scratch, no value to read later).
  bool fullyValid = false;
  bool scratch = false;
  // The bytes of the root [begin, end) it covers at root offset `offset`, line by line.
  std::vector<std::pair<int64_t, int64_t>> tileViewBytesAt(int64_t offset) const;
  // Two views of one root, both at known offsets: do they share a byte (line by line)?
  bool tileViewSharesBytes(const MemRef& other) const;
  // A scalar GM access or a single-line invalidate: where its bytes start, from the base of
  // `param`'s buffer (an expression of the loop counters; null: not known), how many (the
  // element; an invalidate's 64-byte line), and the bytes it covers over every iteration of its
  // loops [begin, end) when those are known (an invalidate: the one line all iterations name).
  ExprPtr byteStart;
  int64_t byteSize = 0;
  std::optional<std::pair<int64_t, int64_t>> byteRange;
  // A single-line dcci in a walk over cache lines (`for (line = first; line < end; line += 64)`,
  // `first` aligned down to a line, `end` at or past an address X + n): the bytes from the
  // buffer's base its lines hold at least over the whole walk, [walkFrom, walkTo) (expressions
  // of the enclosing loops' counters), and the walk loop's counter.
  ExprPtr walkFrom, walkTo;
  std::string walkLoop;
  // A GM region of rows (a GlobalTensor of shape [1, 1, 1, R, C] with unit column stride): R
  // rows of rowBytes, rowStrideBytes apart, from offsets[0]; 0 rows when not known.
  int64_t rows = 0, rowBytes = 0, rowStrideBytes = 0;
  // The pipe this access runs on when the op's phases use different pipes (TPUT: MTE2 reads its
  // source, MTE3 writes its destination); Unknown: the op's own pipe.
  Pipe pipe = Pipe::Unknown;
  bool valid() const { return param >= 0 || !value.empty(); }
  // A C++ GM access's region: bytes [offsets[0], offsets[0] + sizes[0]) from the base of its
  // buffer (a parameter, or a kernel_entry's args[i]), in the view bytesView names.
  std::string bytesView() const { return param >= 0 ? "bytes of param " + std::to_string(param) : "bytes of " + value; }
  bool inBytesView() const { return valid() && view == bytesView() && offsets.size() == 1 && sizes.size() == 1; }
  // Same buffer: same parameter and same peer-ness (or the same named value if no param).
  bool sameBuffer(const MemRef& o) const;
};

// The data cache's line: a single-line invalidate or writeback drops the one holding its address.
constexpr int64_t kCacheLineBytes = 64;
inline int64_t cacheLineStart(int64_t byte) {
  return (byte >= 0 ? byte : byte - (kCacheLineBytes - 1)) / kCacheLineBytes * kCacheLineBytes;
}

// Do two lists of byte ranges [begin, end), each sorted upwards, share a byte?
bool rangesMeet(const std::vector<std::pair<int64_t, int64_t>>& a, const std::vector<std::pair<int64_t, int64_t>>& b);

struct EventRef {
  Pipe src = Pipe::Unknown;
  Pipe dst = Pipe::Unknown;
  std::optional<int64_t> id;  // static id, or a constant-folded dynamic id
  ExprPtr idExpr;             // dynamic id expression (set_flag_dyn)
};

struct Op {
  OpKind kind = OpKind::Other;
  std::string name;  // source spelling, e.g. "pto.tstore"
  Dialect dialect = Dialect::Generic;
  SourceLoc loc;
  // C++: the call of the inlined function whose body holds this op (a barrier written once in a
  // helper is reached from several call sites); empty when the op is written in the root.
  SourceLoc callSite;
  std::vector<Pipe> pipes;     // pipes the op runs on
  std::vector<MemRef> reads;   // memory it reads
  std::vector<MemRef> writes;  // memory it writes

  // SetFlag / WaitFlag / CrossCore*: the event or flag.
  EventRef event;
  // PipeBarrier: the pipe it drains.
  Pipe barrierPipe = Pipe::Unknown;
  // Fence: its scope.
  FenceScope fenceScope = FenceScope::Unknown;
  // CacheInvalidate: whole GM data cache, or the line(s) of `target`.
  bool invalidateAll = false;
  // CacheInvalidate (region form), Notify / Wait / Test (the signal): the address.
  MemRef target;
  // Load: cache policy attribute and the `offset =` operand.
  CachePolicy cachePolicy = CachePolicy::Default;
  std::string offsetValue;  // SSA name of the offset operand, "" if none
  int offsetParam = -1;     // kernel parameter the offset operand is, -1 if not a parameter
  // TileAlloc / TileAssign: the tile, its space, constant address and size in bytes.
  std::string tileValue;
  MemSpace tileSpace = MemSpace::None;
  std::optional<int64_t> tileAddr;
  std::vector<int64_t> tileAddrChoices;  // when the address is one of several constants (scf.if yield)
  int64_t tileBytes = 0;
  // SyncAll: mode (soft/hard; HIVM sync_block: ALL_CUBE, ALL_SUB_VECTOR, ...) and core type.
  // CrossCoreSet/Wait (HIVM sync_block_set/wait): coreType is the core that runs the op
  // (CUBE/VECTOR), event.src/dst the [set pipe, wait pipe], event.id the flag, syncMode the
  // instr mode (INTRA_BLOCK_SYNCHRONIZATION by default).
  SyncMode syncMode = SyncMode::None;
  CoreType coreType = CoreType::None;
  // SyncAll from C++: the participant count, the participant's own index (indexed soft
  // barriers), and the workspace offset in 32-bit words. Null when the form has none.
  ExprPtr participants, participantIndex, workspaceOffset;
  // CacheInvalidate with CACHELINE_OUT: writes the line back to memory (a publish), not only
  // drops it.
  bool writeback = false;
  // A tile move that copies a window of its source (TEXTRACT(dst, src, row, col)): the byte
  // offset of that window in the source, when the window is contiguous there (a one-row source,
  // or whole rows) and the indices are constants. A destination placed at source + this offset
  // receives the bytes it already holds: an in-place view, not a clobber (ub-range).
  std::optional<int64_t> sourceWindowByte;
  bool fftsBase = false;  // carries an ffts_base_addr operand
  bool unitFlag = false;  // mmadL1/fixpipe with a unit-flag handshake (hardware M <-> FIX sync)
  // Call: callee symbol.
  std::string callee;
  // Branch: successor block labels.
  std::vector<std::string> successors;
  // Every SSA value the op uses, and the values it defines (for liveness-style rules).
  std::vector<std::string> uses;
  std::vector<std::string> defs;

  bool writesGm() const;
  bool readsGm() const;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  enum class Kind { Seq, For, If, While, OpStmt, Blocks };
  Kind kind = Kind::Seq;
  SourceLoc loc;
  // Seq: children. Blocks: one Seq per basic block, labels in `labels` (multi-block CFG bodies).
  std::vector<StmtPtr> children;
  std::vector<std::string> labels;
  // For: var, lb, ub, step; body = children[0]. atLeastOnce: the front end proved lb < ub
  // although neither is a constant (a walk over the cache lines of a non-empty range).
  std::string var;
  ExprPtr lb, ub, step;
  bool atLeastOnce = false;
  // For: the period of what the body does, in iterations: a long or symbolic loop is unrolled in
  // whole periods (solver/trace.cpp). 2 for double buffers; a flag flipped every c-th iteration
  // makes it 2c (the C++ front end).
  int period = 2;
  // If: cond; then = children[0], else = children[1] (may be an empty Seq).
  // While: cond computed by children[0] ("before" region), body = children[1].
  ExprPtr cond;
  Op op;

  static StmtPtr seq();
  static StmtPtr opStmt(Op op);
};

struct CppFacts;     // analyzer/model/cpp_facts.h
struct LaunchFacts;  // analyzer/model/cpp_facts.h

// Something a front end saw in a kernel and could not model (an undeclared call, an address it
// could not trace, a tile op the op table does not know). Rules whose facts it touches answer
// `unknown` instead of passing (rules/engine.cpp); the summary and JSON count them.
struct ModelGap {
  // SkippedCode: source the front end did not walk at all (nested past its depth limit), so it
  // may hold any op. OpaqueCall: a call of a user function whose body is not available, which
  // may do anything (sync included). UnknownOp: an op whose memory accesses or pipe are not
  // modelled (it does no synchronisation). OpaqueOp: an op the op table does not list (a `.pto`
  // op, a pto-isa function, a TPUSH / TPOP): it may access memory and synchronise.
  enum class Kind { UndeclaredCall, UnresolvedAddress, UnknownOp, SkippedCode, OpaqueCall, OpaqueOp };
  Kind kind = Kind::UndeclaredCall;
  SourceLoc loc;
  std::string what;  // "call of undeclared 'TNEG'", "dcci address", ...
};
const char* gapKindName(ModelGap::Kind k);

struct Param {
  std::string name;  // %arg0, %__pypto_l2_cache_offset
  std::string type;  // source spelling of the type
  bool isPointer = false;   // GM pointer / tensor
  std::string elemType;     // f32, i32, ...
  bool synthetic = false;   // added by the generator (__pypto_*)
};

// The front end that built a kernel: the .pto lifter, the HIVM lifter, or Clang's.
enum class FrontEnd : uint8_t { Pto, Hivm, Cpp };
// "pto", "hivm", "cpp".
const char* frontEndName(FrontEnd f);

// What a kernel is: device code for a kind of core (HIVM's AIV / AIC are Vector / Cube), AICPU
// control code, or host orchestration code.
enum class KernelKind : uint8_t { Unknown, Vector, Cube, Mix, Machine, Orchestration };
// "vector", "cube", "mix", "machine", "orchestration"; "" for Unknown.
const char* kernelKindName(KernelKind k);

// C++ device code that tests the core macros is compiled once per core kind: the view a model is
// of. Whole: the code was compiled once (it tests no core macro), or it is no C++.
enum class CoreView : uint8_t { Whole, Aiv, Aic };
// "aiv", "aic"; "" for Whole.
const char* coreViewName(CoreView v);

struct Kernel {
  std::string name;
  std::string arch = "a2a3";  // a2a3 or a5
  KernelKind kind = KernelKind::Unknown;
  CoreView view = CoreView::Whole;
  bool isEntry = false;
  std::vector<Param> params;
  StmtPtr body;
  SourceLoc loc;
  std::string file;
  // HIVM mix kernels: the other halves of the same MIX function in the same file
  // (`f_mix_aic` <-> `f_mix_aiv`), whose cross-core flags pair with this one's. Set by the
  // front end once the file's kernels are in place.
  std::vector<const Kernel*> mixPeers;
  // HIVM: an argument marked hacc.arg_type<ffts_base_address> (the pipeline sets the FFTS base
  // from it: InjectBlockSync / hivm-add-ffts-to-syncblocksetop).
  bool fftsArg = false;
  FrontEnd frontEnd = FrontEnd::Pto;
  // C++ only: facts of the source that are not ops (lane ids, ABI unpacking, constants, ...).
  std::shared_ptr<const CppFacts> cpp;
  // Set by linking the inputs of one run (analyzer/frontend.h linkInputs): the launches of this
  // kernel found in orchestration code, and the .pto kernel it was generated from.
  std::vector<const LaunchFacts*> launches;
  const Kernel* irPeer = nullptr;
  // What the front end could not model in this kernel.
  std::vector<ModelGap> gaps;

  int paramIndex(const std::string& name) const;
  // The block_num every linked launch gives, when they all give the same constant.
  std::optional<int64_t> launchedLanes() const;
};

// The same C++ entry modelled in two core views (Kernel::view Aic and Aiv).
bool areViewTwins(const Kernel& a, const Kernel& b);

struct Model {
  std::vector<Kernel> kernels;
};

// Loops with a constant trip count up to this are unrolled exactly (solver/trace.h).
constexpr int kExactTrip = 8;
// The longest Stmt::period a front end asks for: a long loop keeps 3 * period - 1 iterations.
constexpr int kMaxPeriod = 8;

// Replaces leaves of every expression in a statement tree (loop bounds, conditions, event ids,
// access boxes, barrier counts), as `substitute` does for one expression.
void substituteLeaves(Stmt& s, const std::function<ExprPtr(const Expr&)>& leaf);

// Visits every op of a statement tree in source order.
template <class F>
void forEachOp(const Stmt& s, F&& f) {
  if (s.kind == Stmt::Kind::OpStmt) {
    f(s.op);
    return;
  }
  for (const auto& c : s.children)
    if (c) forEachOp(*c, f);
}

}  // namespace ptov
