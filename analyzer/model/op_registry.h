#pragma once
// The one registry of op facts, read by every front end. Each op of each dialect is a row beside
// its spellings: PTO-ISA instructions (`pto::TMOV(...)` in C++ and `pto.tmov` in .pto are one
// row), the .pto ops that are not instructions, AscendNPU IR's `hivm.hir` ops and the generic
// MLIR ops the lifters know (arith, scf, func, cf, memref, ...). A row gives the op's kind, how
// a C++ call carries its operands, how it is lifted from MLIR, its operand roles, the pipes it
// runs on (resolvePipes, the one place a pipe is decided), the PTOAS sync op types it answers
// to, and its hidden accesses and internal events. Front ends parse operands and look rows up;
// rules never see this table, they read the facts it puts into the model. `ptoverify isa`
// prints the PTO-ISA rows.
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/expr.h"
#include "analyzer/model/model.h"

namespace ptov {
// How many pipes model.h's Pipe enum has before Unknown. Its order is the device's pipe_t order:
// the C++ prelude's enum is generated from it (preludeDeclarations) and numeric pipe arguments
// are read by it.
constexpr int kPipeCount = static_cast<int>(Pipe::Unknown);
}  // namespace ptov

namespace ptov::ops {

enum class Dialect {
  PtoIsa,  // a PTO-ISA instruction or intrinsic: C++ and .pto spellings
  Pto,     // a .pto op that is not an instruction (scalar access, tile allocation, regions)
  Hivm,    // an AscendNPU IR hivm.hir op
  Mlir,    // a generic MLIR op (arith, scf, func, cf, memref, tensor, affine, ...)
};

// How an op's pipe is decided (resolvePipes).
enum class PipeRule {
  Fixed,        // always `pipes`
  ByForm,       // the first form whose operand spaces (or producer) match; `pipes` when none does
  TmpVector,    // V when the call passes a tmp tile (the vector overload), else `pipes`
  EventSource,  // a set (SetFlag, CrossCoreSet) runs on its source pipe, a wait on its destination
  Named,        // pipe_barrier: the pipe it names
};

// How a C++ call carries the instruction's operands (the .pto front end reads ins/outs groups
// and attributes instead). The C++ front end has one handler per shape, never per name.
enum class CallShape {
  Tile,            // tile and GM operands; roles by `written` / `tmp`
  Event,           // set_flag(src, dst, id) / wait_flag(src, dst, id)
  HardEvent,       // AscendC::SetFlag<HardEvent::SRC_DST>(id)
  Barrier,         // pipe_barrier(pipe)
  BarrierTemplate, // AscendC::PipeBarrier<pipe>()
  Dsb,             // dsb(kind): a GM fence once no pipe write is in flight
  CacheLine,       // dcci(addr, scope[, writeback])
  TileAssign,      // TASSIGN(tile, addr)
  Signal,          // TNOTIFY / TWAIT / TTEST(signal, ...)
  Staged,          // TPUT / TGET(dst, src, staging tile[, second staging tile])
  Collective,      // TBROADCAST / TGATHER / TSCATTER / TREDUCE: GM operands written
  SyncAllPto,      // pto::SYNCALL<Mode, Core>(workspace, participants)
  SyncAllIndexed,  // SYNCALL_SOFT_AIV_BARRIER(gm, ub, participants, index)
  SyncAllAscendC,  // AscendC::SyncAll<IsAIVOnly>()
  CrossCoreSet,    // ffts_cross_core_sync(pipe, getFFTSMsg(mode, id)) / CrossCoreSetFlag
  CrossCoreWait,   // wait_flag_dev(id) / CrossCoreWaitFlag
  IntraBlock,      // set_intra_block / wait_intra_block(pipe, id): a cross-core set from / wait on a pipe
  AsyncWait,       // event.Wait(session) / event.Test(session) on TPUT_ASYNC's returned event
  SyncObject,      // sync.record() / wait() / allocate() / free() on a TSync_Custom{flag_id}
  CvSlot,          // TSYNC_CVID(block, buffer): the cube core sets `flag`, the vector core waits on it
  SetFfts,         // set_ffts_base_addr(addr)
  LaneId,          // get_block_idx / get_sub_block_id: the lane's index
  LaneCount,       // get_block_num
  CacheOffset,     // get_l2_cache_offset(args)
  Copy,            // copy_gm_to_ubuf(dst, src, ...): a CCE data-movement intrinsic; its roles in `copy`
  None,            // not a C++ call, or a pipe class pto-isa's own sync helpers name
};

// How the MLIR lifters (analyzer/pto, analyzer/hivm) lift an op: one switch on this, no names.
enum class Lift {
  Op,           // a model op of the row's kind, its operands read by kind
  Skip,         // nothing to model (scf.yield, annotation.mark, hivm.hir.debug, ...)
  Unfollowed,   // results the model does not follow: each an unknown value
  Constant,     // arith.constant
  Binary,       // `expr` of the two operands
  Xor,          // a ^ b as (a | b) - (a & b)
  Cast,         // the operand's value, unchanged
  Compare,      // arith.cmpi
  Select,       // arith.select
  BlockIdx,     // the lane's index
  BlockNum,     // the lane count
  View,         // of a tile: a view of its bytes; of a pointer: the same origin, reinterpreted
  Subview,      // a View whose window of a tile's rows and columns is known
  TileView,     // of a tile: a view of its bytes; else the op itself
  MakeTensorView, PartitionView, CastPtr, AddPtr,  // views and pointer arithmetic of GM
  SlotView,     // pto.multi_tile_get: one slot of a multi-tile buffer
  EventArrayDeclare, EventArraySet, EventArrayGet,  // pto.declare_eventid_array and its slots
  For, If, While,
  MemrefAlias,  // another name for its first operand's buffer
  Alloc,        // a local buffer
  PointerCast,  // a local buffer placed at its operands' offsets
  ScalarMemory, // memref.load / memref.store of one element
  Lock,         // GM spin-locks between blocks (not modelled; noted)
  CustomMacro,  // a library macro whose inner sync is not modelled (noted, then the op)
};

// One operand-dependent form: when the op's source and destination are in these spaces ("" any),
// or a sync object's producer is named `src`, it runs on `pipe`. `upstream` names the same form in
// pto-isa's op-to-pipe table (include/pto/common/event.hpp), null when it has no separate entry.
struct Form {
  const char* upstream;
  const char* src;
  const char* dst;
  Pipe pipe;
};

// An access with the pipe that makes it, for instructions whose phases run on different pipes:
// TPUT reads its source on MTE2 into the staging tile and writes the destination from it on
// MTE3. A Staged instruction's accesses are exactly these.
struct HiddenAccess {
  int operand;  // C++ argument index; .pto: the same position in the op's operand list
  bool write;
  Pipe pipe;
  bool beforeEvents;  // issued before the instruction's own set/wait (TPUT's load phase)
};

// A set_flag/wait_flag pair the instruction issues inside itself on a fixed event id.
struct InternalEvent {
  Pipe src, dst;
  int id;
  int onlyWithOperand;  // issued only when the call has this operand (a pong tile); -1 always
  bool afterLastPhase = false;  // issued after the instruction's last phase (its closing drain)
};

// An event a HIVM cube macro's library code waits or sets on the id the IR passes as its
// sync_related_args[arg] (-1: none). The waits come before the macro, the sets after it.
struct ArgEvent {
  OpKind kind;  // WaitFlag or SetFlag
  Pipe src, dst;
  int arg;
};

// A CCE data-movement intrinsic's memory roles: the argument it writes and the one it reads (-1:
// none, as create_cbuf_matrix fills L1 from a value), each in the space its name says.
struct CopyRoles {
  int dst = 0, src = 1;
  MemSpace dstSpace = MemSpace::None, srcSpace = MemSpace::None;
};

struct OpRow {
  const char* name = "";  // PTO-ISA: the upper-case mnemonic (TMOV, SET_FLAG); else the op's name
  Dialect dialect = Dialect::PtoIsa;
  OpKind kind = OpKind::Other;
  bool modelled = true;  // false: the lifter has a use for the name, but the op is not modelled
  CallShape shape = CallShape::None;
  Lift lift = Lift::Op;
  Expr::Kind expr = Expr::Kind::Add;  // Lift::Binary: the expression it computes
  PipeRule rule = PipeRule::Fixed;
  std::vector<Pipe> pipes;  // Fixed: the pipes; ByForm / TmpVector: when no form applies
  std::vector<std::string> cpp;   // qualified C++ names as the prelude declares them
  std::vector<std::string> mlir;  // MLIR op names (.pto, hivm.hir, arith, ...)
  bool prefix = false;  // `mlir` names a prefix: every op whose name starts with it ("tensor.")
  // Spellings among `mlir` whose [src, dst] list names PTOAS op types (record_event), not pipes.
  std::vector<std::string> byOpType;
  // PTOAS sync op types that name this op (record_event [TLOAD, TSTORE_VEC, ...]): a form's
  // `upstream` name takes the form's pipe, any other the row's `pipes`.
  std::vector<std::string> syncTypes;
  bool cubeMacro = false;  // a HIVM cube macro whose library code sets and waits events it is passed
  std::vector<ArgEvent> argEvents;  // cube macro: the events it is passed, modelled
  std::vector<int> pairedArgs;      // cube macro: events it is passed and pairs inside (not modelled)
  // Operand roles in the C++ call order: the operand written (-1: none; every other tile or GM
  // operand is read), and a scratch tile the instruction also writes (-1: none).
  int written = 0;
  int tmp = -1;
  // .pto passes the tmp tile as the last of `ins`: how many tile sources come before it.
  int tileSources = 0;
  bool gmDestination = false;  // the written operand is GM (TSTORE), not a tile
  bool window = false;  // (dst, src, row, col): copies a window of its source (TEXTRACT)
  // SyncObject: added to the object's flag_id; CvSlot: the cross-core flag itself.
  int flag = 0;
  std::vector<Form> forms;
  CopyRoles copy;  // Copy: the intrinsic's destination and source
  std::vector<HiddenAccess> hidden;
  std::vector<InternalEvent> events;
};

// What resolvePipes reads of an op's operands, as the front end parsed them.
struct PipeOperands {
  MemSpace src = MemSpace::None, dst = MemSpace::None;  // ByForm: what it reads and writes
  std::string producer;                                 // ByForm: a sync object's producer type
  bool hasTmp = false;                                  // TmpVector: a tmp tile is passed
  Pipe eventSrc = Pipe::Unknown, eventDst = Pipe::Unknown;  // EventSource
  Pipe named = Pipe::Unknown;                               // Named
};

// The pipes an op of `row` runs on, given its operands: every PipeRule is decided here.
std::vector<Pipe> resolvePipes(const OpRow& row, const PipeOperands& operands);
// A set_flag / wait_flag the front end or an instruction issues (kind SetFlag or WaitFlag).
std::vector<Pipe> eventPipes(OpKind kind, Pipe src, Pipe dst);
// The pipe a PTOAS sync op type runs on (record_event [TLOAD, TSTORE_VEC, id]); Unknown if none.
Pipe syncTypePipe(const std::string& opType);

// The pipe a model op issues on, as the proofs lay out lanes: a set's source, a wait's
// destination, a barrier's pipe, else its first pipe (S when it has none).
Pipe issuePipe(const Op& op);
// The pipe an access of `op` is made on: the access's own (a phase of a staged op), else the
// op's pipe for the kinds whose accesses run on it; Unknown when that is not one pipe.
Pipe accessPipe(const Op& op, const MemRef& m);
// Whether some of the op's work runs on a pipe other than the scalar unit (so a pipe must drain
// before its writes are visible).
bool runsOffScalar(const Op& op);

// Every PTO-ISA instruction, in table order: what `ptoverify isa` prints.
struct Rows {
  const OpRow* first;
  const OpRow* last;
  const OpRow* begin() const { return first; }
  const OpRow* end() const { return last; }
};
Rows all();

// The row for a qualified C++ name ("pto::TMOV", "set_flag", "pto::comm::TPUT"), or null.
const OpRow* lookupCpp(const std::string& qualifiedName);
// The row for an MLIR op name ("pto.tmatmul.acc", "arith.addi", "hivm.hir.vadd"), or null: one
// hash lookup; prefix rows ("tensor.") and pto's underscore spellings (pto.tstore_fp) after a miss.
const OpRow* lookupMlir(std::string_view opName);
// A PTO-ISA row by MLIR name only, or null.
const OpRow* lookupPto(const std::string& opName);
// A PTO-ISA row by mnemonic ("TMATMUL_ACC"), or null.
const OpRow* lookup(const std::string& name);

// A Staged instruction as the ops it issues, in order, from its operands (null: not a memory
// operand here): its load into the staging tile(s) on MTE2, the set_flag / wait_flag pairs it
// issues inside itself (so the rules see an event id the user holds across it being taken, and
// the load ordered before the store), then `op` itself with its other accesses, each on the pipe
// of its phase.
std::vector<Op> stagedOps(const OpRow& in, const std::vector<const MemRef*>& operands, Op op);

// The cross-core flag hivm.hir.sync_block's barrier takes when the IR names none, by mode; -1.
int defaultSyncBlockFlag(SyncMode mode);

// Pipes a core kind has. AIV (vector core): S, V, MTE2, MTE3; AIC (cube core): S, M, MTE1, MTE2,
// MTE3, FIX. Mix and the other kinds have every pipe. PIPE_ALL is on every core.
bool coreHasPipe(KernelKind core, Pipe p);

// The C++ prelude's generated header (ptoverify_isa_ops.h): the pipe_t enumerators in the
// model's order (PTOVERIFY_PIPE) and the tile instructions (PTOVERIFY_TILE_OP), each part for the
// include site that defines its macro.
const std::string& preludeDeclarations();

// One line for `ptoverify isa`: mnemonic, kind, C++ and .pto spellings, pipes, hidden accesses
// and internal events.
std::string describe(const OpRow& in);

}  // namespace ptov::ops
