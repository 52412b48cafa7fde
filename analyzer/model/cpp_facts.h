#pragma once
// Facts of generated C++ that are not ops: where lane ids come from, how a kernel_entry wrapper
// unpacks args[] and forwards them, the ABI constants and static_asserts, UB scratch regions, and
// (in orchestration code) how each kernel is launched. Filled by analyzer/cpp; read by rules.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"
#include "analyzer/model/machine_facts.h"
#include "analyzer/source_loc.h"

namespace ptov {

// One read of a lane id: get_block_idx(args) (logical, dense) or get_block_idx() (physical).
struct LaneRead {
  SourceLoc loc;
  std::string call;  // get_block_idx, get_sub_block_id, get_subblockid
  bool logical = false;
};

// `for (i = <lane>; i < bound; i += stride)`: the work of one phase spread over the lanes.
struct GridStrideLoop {
  SourceLoc loc;
  ExprPtr start, bound, stride;
  bool logicalLane = false;  // the start is get_block_idx(args)
  // All-core barriers the kernel issues before the loop (in the order the front end walks it):
  // the loop is phase work between barrier n-1 and barrier n.
  int barriersBefore = 0;
};

// The model's name of `args[i]`: the parameter a wrapper scalar becomes, the buffer a tensor is.
inline std::string argsSlot(int64_t index) { return "args[" + std::to_string(index) + "]"; }

// `args[i]` read in a kernel_entry wrapper.
struct ArgUnpack {
  SourceLoc loc;
  std::optional<int64_t> index;  // constant-folded index
  std::string indexText;         // its spelling (kScale0, 3, ...)
  bool tensor = false;           // read as a tensor descriptor (pointer), else a scalar
  std::string var;               // the variable it initialises, "" if none
};

// The call a wrapper forwards its unpacked arguments to.
struct ForwardedArg {
  std::string text;                 // the argument's spelling
  std::optional<int64_t> argsIndex;  // the args[i] it comes from, if any
  bool pointer = false;              // a pointer / tensor argument
  std::string source;               // "args", "block_idx", "block_num", "subblock_idx",
                                    // "l2_cache_offset", "dim" (a tensor's shape), "" otherwise
};
struct ForwardedCall {
  SourceLoc loc;
  std::string callee;
  std::vector<ForwardedArg> args;
  std::vector<std::string> paramNames;  // the callee's parameters
  std::vector<bool> paramPointer;
};

struct NamedConstant {
  SourceLoc loc;
  int64_t value = 0;
  std::string enumName;  // the enum it belongs to, "" for a constexpr variable
};

// A value the front end cannot compute but knows the range of (the slot TSYNC_CVID returns lies
// in [0, its core cap)): the proofs assume lo <= value <= hi.
struct BoundedValue {
  ExprPtr value;
  int64_t lo = 0, hi = 0;
};

struct StaticAssert {
  SourceLoc loc;
  std::string text;
  std::optional<bool> holds;  // nullopt when it could not be evaluated
};

// A constant UB address range used outside the generated bodies (a soft barrier's scratch).
struct UbScratch {
  SourceLoc loc;
  std::string name;
  int64_t addr = 0, bytes = 0;
};

// The highest UB byte a generated body's TASSIGNs reach.
struct BodyHighWater {
  SourceLoc loc;    // the TASSIGN that reaches it
  std::string body;  // the function
  int64_t end = 0;
};

// `get_l2_cache_offset(args)` in a wrapper.
struct CacheOffsetRead {
  SourceLoc loc;
  bool atEntry = false;  // at the wrapper's top level, not in a loop or branch
};


// Orchestration code (the PTO2 runtime API, reference/pypto-generated-kernels.md section 8).
// A tensor the orchestration function creates: `uint32_t s[1] = {32}; TensorCreateInfo ci(s, 1,
// DataType::INT32); ci.set_initial_value(0); TaskOutputTensors a = alloc_tensors(ci);
// const Tensor& ws = a.get_ref(0);`.
struct CreatedTensor {
  SourceLoc loc;                     // the TensorCreateInfo
  std::string name;                  // the tensor variable (ws), else the create-info's name
  std::optional<int64_t> words;      // product of the shape
  std::optional<int64_t> initValue;  // nullopt: not initialised
  std::optional<int64_t> startOffset;
  SourceLoc startOffsetLoc;
  bool manualDep = false;            // TensorCreateInfo(..., /*manual_dep=*/true)
};
// One add_input / add_output / add_inout / add_no_dep / add_scalar call, in call order.
struct LaunchArg {
  SourceLoc loc;
  std::string method;  // add_input, add_output, add_inout, add_no_dep, add_scalar
  std::string name;    // the argument's spelling, for messages
  int created = -1;    // index into LaunchFacts::created when the function created it
};
// One entry of the task's dependency list (`deps[n++] = id; args.set_dependencies(deps, n)`).
struct LaunchDep {
  SourceLoc loc;
  std::string name;   // the id's spelling
  int producer = -1;  // index of the launch (in the same function) whose task id it is, -1: unknown
  // That launch's kernel, submit call and early-resolve setting (copied: a launch stands alone).
  std::string producerKernel;
  SourceLoc producerLoc, producerEarlyResolveLoc;
  std::optional<bool> producerEarlyResolve;
};
struct LaunchFacts {
  SourceLoc loc;           // the submit call
  std::string kernel;      // the launched kernel's name: `// Task N: name` / `// Spmd group: name`
  std::optional<int64_t> kernelId;  // rt_submit_aiv_task(<id>, ...)
  std::string submit;      // rt_submit_aiv_task, rt_submit_aic_task, ...
  std::string function;    // the orchestration function
  int index = 0;           // position among the function's launches
  std::optional<int64_t> blockNum;
  SourceLoc blockNumLoc;
  std::optional<bool> requireSyncStart;
  std::optional<bool> allowEarlyResolve;
  SourceLoc allowEarlyResolveLoc;
  std::vector<LaunchArg> args;
  bool hasDeps = false;            // set_dependencies was called
  SourceLoc depsLoc;               // the dependency array
  std::optional<int64_t> depSlots; // its declared size
  std::vector<LaunchDep> deps;
  std::vector<CreatedTensor> created;  // tensors created in the function (shared by its launches)
  std::vector<int> loopShared;  // created tensors made outside the loop that submits this task
};

struct CppFacts {
  bool wrapper = false;  // kernel_entry(args)
  bool mixed = false;    // the source also has cube code (__DAV_CUBE__ / __DAV_C220_CUBE__ blocks)
  // The AscendC task type the kernel declares (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)),
  // "" when none: such a kernel is launched by the AscendC operator framework.
  std::string taskType;
  std::vector<LaneRead> laneReads;
  std::vector<GridStrideLoop> gridLoops;
  std::vector<ArgUnpack> unpacks;
  std::vector<ForwardedCall> forwarded;
  std::vector<CacheOffsetRead> cacheOffsetReads;
  std::vector<UbScratch> ubScratch;
  std::vector<BodyHighWater> highWater;
  std::map<std::string, NamedConstant> constants;  // enumerators and constexpr integers
  std::vector<StaticAssert> staticAsserts;
  std::vector<LaunchFacts> launches;  // orchestration functions only
  // Launch parameters the kernel reads as values: a tensor argument's shape (`args[k]->shapes[d]`,
  // through helpers such as tensor_dim(args, k, d)). Named, non-negative, the same on every lane.
  std::vector<std::string> shapeParams;
  std::vector<BoundedValue> bounded;
  // Device code: the user functions this kernel runs (its root and what it inlines, by qualified
  // name), and of the set_flag / wait_flag / pipe_barrier calls written in them, how many its
  // model holds (or lie in code of those functions that does not run here).
  std::set<std::string> functionsRun;
  int syncWritten = 0, syncModelled = 0;
  std::optional<MachineFacts> machine;  // device-side control code (kernel kind "machine") only
};

}  // namespace ptov
