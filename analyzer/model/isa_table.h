#pragma once
// One table of PTO-ISA instruction facts, read by every front end: `pto.tmov` in a .pto file and
// `pto::TMOV(...)` in C++ are the same instruction, with the same kind, pipes, operand roles,
// hidden accesses and internal events. Tile, communication, sync, cache and barrier instructions
// are all here (analyzer/model/isa_table.cpp); `ptoverify isa` prints it. Rules never see this
// table; they read the facts it puts into the model.
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov::ptoisa {

// How an instruction's pipe is decided.
enum class PipeRule {
  Fixed,       // always `pipes`
  ByForm,      // the first form whose operand spaces match; `pipes` when none does
  TmpVector,   // V when the call passes a tmp tile (the vector overload), else `pipes`
  EventSource, // set_flag / wait_flag: the set's source or the wait's destination pipe
  Named,       // pipe_barrier: the pipe it names
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
  AsyncWait,       // event.Wait(session) / event.Test(session) on TPUT_ASYNC's returned event
  SyncObject,      // sync.record() / wait() / allocate() / free() on a TSync_Custom{flag_id}
  CvSlot,          // TSYNC_CVID(block, buffer): the cube core sets `flag`, the vector core waits on it
  SetFfts,         // set_ffts_base_addr(addr)
  LaneId,          // get_block_idx / get_sub_block_id: the lane's index
  LaneCount,       // get_block_num
  CacheOffset,     // get_l2_cache_offset(args)
  None,            // .pto only, or a pipe class pto-isa's own sync helpers name
};

// One operand-dependent form: when the instruction's source and destination are in these spaces
// ("" any), it runs on `pipe`. `upstream` names the same form in pto-isa's op-to-pipe table
// (include/pto/common/event.hpp), null when pto-isa has no separate entry for it.
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

struct Instr {
  const char* name = "";  // upper-case mnemonic: TMOV, SET_FLAG, TNOTIFY
  OpKind kind = OpKind::Other;
  CallShape shape = CallShape::None;
  PipeRule rule = PipeRule::Fixed;
  std::vector<Pipe> pipes;  // Fixed: the pipes; ByForm / TmpVector: when no form applies
  std::vector<std::string> cpp;  // qualified C++ names as the prelude declares them
  std::vector<std::string> pto;  // .pto op names
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
  std::vector<HiddenAccess> hidden;
  std::vector<InternalEvent> events;
};

// Every instruction, in table order.
const std::vector<Instr>& all();

// The instruction for a qualified C++ name ("pto::TMOV", "set_flag", "pto::comm::TPUT"), or null.
const Instr* lookupCpp(const std::string& qualifiedName);
// The instruction for a .pto op name ("pto.tmatmul.acc", "pto.comm.tput"), or null.
const Instr* lookupPto(const std::string& opName);
// By mnemonic ("TMATMUL_ACC"), or null.
const Instr* lookup(const std::string& name);

// The pipes the instruction runs on, given the spaces of what it reads and writes (None unknown)
// and whether a tmp tile is passed.
std::vector<Pipe> pipesFor(const Instr& in, MemSpace srcSpace, MemSpace dstSpace, bool hasTmp = false);
// A sync object's record(): the pipe its form gives for the producer type named in the object's
// template (the form's `src`, "TSTORE_C2GM"), else the instruction's pipes.
std::vector<Pipe> pipesForProducer(const Instr& in, const std::string& producer);

// A Staged instruction as the ops it issues, in order, from its operands (null: not a memory
// operand here): its load into the staging tile(s) on MTE2, the set_flag / wait_flag pairs it
// issues inside itself (so the rules see an event id the user holds across it being taken, and
// the load ordered before the store), then `op` itself with its other accesses, each on the pipe
// of its phase.
std::vector<Op> stagedOps(const Instr& in, const std::vector<const MemRef*>& operands, Op op);

// Pipes a core kind has. AIV (vector core): S, V, MTE2, MTE3; AIC (cube core): S, M, MTE1, MTE2,
// MTE3, FIX. Mix and the other kinds have every pipe. PIPE_ALL is on every core.
bool coreHasPipe(KernelKind core, Pipe p);

// The C++ prelude's declarations of the tile instructions (ptoverify_isa_ops.h, included inside
// namespace pto): one catch-all template set each.
const std::string& preludeDeclarations();

// One line for `ptoverify isa`: mnemonic, kind, C++ and .pto spellings, pipes, hidden accesses
// and internal events.
std::string describe(const Instr& in);

}  // namespace ptov::ptoisa
