// ptoverify prelude: declarations of the CCE / pto-isa / runtime surface that generated kernels,
// kernel_entry wrappers and orchestration code use, so they parse without vendor headers.
// Only what the C++ front end needs to see is declared; every tile operation is a catch-all.
// Force-included (-include) by analyzer/cpp; never compiled into a real kernel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

#include "ptoverify_cce.h"

// pto-isa's function qualifiers.
#define AICORE
#define PTO_INTERNAL __aicore__ inline
#define PTO_INST __aicore__ inline

// The runtime tensor descriptor a kernel_entry wrapper reads from args[i] (128 bytes).
struct Tensor {
  struct {
    uint64_t addr;
    uint64_t size;
  } buffer;
  uint64_t start_offset;
  uint64_t owner_task_id;
  uint64_t ndims;
  uint64_t shapes[5];
  uint64_t reserved[6];
};
using PyPTORuntimeTensor = Tensor;

// A tile-level operation: any arguments, and the explicit template arguments pto-isa's
// instructions take (types, then values).
#define PTOVERIFY_TILE_OP(NAME)                                     \
  template <class... A> void NAME(const A&...) {}                  \
  template <auto V, class... A> void NAME(const A&...) {}          \
  template <class T1, auto V, class... A> void NAME(const A&...) {} \
  template <class T1, class T2, auto V, class... A> void NAME(const A&...) {} \
  template <class T1, class T2, auto V, auto W, class... A> void NAME(const A&...) {} \
  template <class T1, class T2, class T3, auto V, class... A> void NAME(const A&...) {} \
  template <class T1, class T2, class T3, auto V, auto W, class... A> void NAME(const A&...) {} \
  template <class T1, class T2, class T3, class T4, auto V, class... A> void NAME(const A&...) {}

namespace pto {
enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue { Null, Zero, Max, Min };
enum class CompactMode { Null, Normal, RowPlusOne };
// Global-memory layouts (pto/common/type.hpp): row/column major, the cube fractal, and the
// convolution and scale layouts of hand-written cube kernels.
enum class Layout {
  ND, DN, NZ, SCALE, MX_A_ND, MX_A_DN, MX_A_ZZ, MX_B_ND, MX_B_DN, MX_B_NN, HIF4_A_ZZ, HIF4_B_NN,
  NC1HWC0, GNC1HWC0, NCHW, GNCHW, NHWC, NDC1HWC0, NCDHW, FRACTAL_Z, FRACTAL_Z_S16S8, FRACTAL_Z_3D, MAX
};
enum class TLoadL2Hint { Default, NotAllocKeep, NotAllocClear };
enum class STPhase { Unspecified, Partial, Final };
enum class AtomicType { AtomicNone, AtomicAdd };
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD };
enum class SaturationMode { OFF, ON };
constexpr int64_t TMP_UB_OFFSET = 184 * 1024;  // pto-isa's reserved temp region on A2/A3 UB

template <TileType Ty, class T, int R, int C, BLayout BL = BLayout::RowMajor, int VR = R, int VC = C,
          SLayout SL = SLayout::NoneBox, int Fractal = 512, PadValue Pad = PadValue::Null,
          CompactMode CM = CompactMode::Null>
struct Tile {
  using DType = T;
  static constexpr TileType Loc = Ty;
  static constexpr int Rows = R;
  static constexpr int Cols = C;
  static constexpr int ValidRow = VR;
  static constexpr int ValidCol = VC;
  static constexpr int Numel = R * C;
  static constexpr bool isRowMajor = BL == BLayout::RowMajor;
  static constexpr SLayout SFractal = SL;
  Tile() {}
  template <class... A> Tile(const A&...) {}
  __ubuf__ T* data() const { return nullptr; }
  template <class... A> void SetValidShape(const A&...) {}
  int GetValidRow() const { return VR; }
  int GetValidCol() const { return VC; }
  void SetKAligned(bool) {}
  // The run-time valid rows / columns a kernel may set directly on a dynamic tile.
  int RowMaskInternal = VR;
  int ColMaskInternal = VC;
};
// pto-isa's shapes and strides: five dimensions, each static or DYNAMIC (given at run time).
constexpr int DYNAMIC = -1;
constexpr int C0_SIZE_BYTE = 32;   // one fractal row of a cube operand
constexpr int FRACTAL_NZ_ROW = 16;
template <int N1 = DYNAMIC, int N2 = DYNAMIC, int N3 = DYNAMIC, int N4 = DYNAMIC, int N5 = DYNAMIC> struct Shape {
  static constexpr int staticShape[5] = {N1, N2, N3, N4, N5};
  int shape[5] = {1, 1, 1, 1, 1};
  Shape() {}
  template <class... A> Shape(const A&...) {}
};
template <int N1 = DYNAMIC, int N2 = DYNAMIC, int N3 = DYNAMIC, int N4 = DYNAMIC, int N5 = DYNAMIC> struct Stride {
  static constexpr int staticStride[5] = {N1, N2, N3, N4, N5};
  int stride[5] = {1, 1, 1, 1, 1};
  Stride() {}
  template <class... A> Stride(const A&...) {}
};
// 2-D shapes and strides of a tile-sized GM box (row-major ND; the cube layouts have the same size).
template <class T, int Rows = DYNAMIC, int Cols = DYNAMIC, Layout L = Layout::ND>
struct TileShape2D : Shape<1, 1, 1, Rows, Cols> {
  template <class... A> TileShape2D(const A&...) {}
};
template <class T, int Rows = DYNAMIC, int Cols = DYNAMIC, Layout L = Layout::ND>
struct BaseShape2D : Stride<(Rows == DYNAMIC || Cols == DYNAMIC) ? DYNAMIC : Rows * Cols,
                            (Rows == DYNAMIC || Cols == DYNAMIC) ? DYNAMIC : Rows * Cols,
                            (Rows == DYNAMIC || Cols == DYNAMIC) ? DYNAMIC : Rows * Cols, Cols, 1> {
  template <class... A> BaseShape2D(const A&...) {}
};
template <class T, class S = Shape<>, class St = Stride<>, Layout L = Layout::ND>
struct GlobalTensor {
  using DType = T;
  using Shape = S;
  using Stride = St;
  static constexpr Layout layout = L;
  GlobalTensor() {}
  template <class P, class... A> GlobalTensor(P, const A&...) {}
  __gm__ T* data() const { return nullptr; }
};

// The cube operand tiles (pto-isa pto_tile.hpp): L0A row-major with row-major fractals, L0B
// row-major with column-major fractals, L0C column-major with 1024-byte fractals.
template <class T, int R, int C, int VR = R, int VC = C>
using TileLeft = Tile<TileType::Left, T, R, C, BLayout::RowMajor, VR, VC, SLayout::RowMajor, 512>;
template <class T, int R, int C, int VR = R, int VC = C>
using TileRight = Tile<TileType::Right, T, R, C, BLayout::RowMajor, VR, VC, SLayout::ColMajor, 512>;
template <class T, int R, int C, int VR = R, int VC = C>
using TileAcc = Tile<TileType::Acc, T, R, C, BLayout::ColMajor, VR, VC, SLayout::RowMajor, 1024>;
template <class T> struct is_tile : std::false_type {};
template <TileType Ty, class T, int R, int C, BLayout BL, int VR, int VC, SLayout SL, int F, PadValue P, CompactMode CM>
struct is_tile<Tile<Ty, T, R, C, BL, VR, VC, SL, F, P, CM>> : std::true_type {};
template <class T> struct is_global : std::false_type {};
template <class T, class S, class St, Layout L> struct is_global<GlobalTensor<T, S, St, L>> : std::true_type {};
template <class T> constexpr bool is_tile_data_v = is_tile<T>::value;
template <class T> constexpr bool is_global_data_v = is_global<T>::value;
enum class AccPhase { Unknown, Partial, Final };
enum class TileSplitAxis { TILE_NO_SPLIT, TILE_UP_DOWN, TILE_LEFT_RIGHT, TILE_UP_DOWN_ODD, TILE_LEFT_RIGHT_ODD };

PTOVERIFY_TILE_OP(TASSIGN)
// Every tile instruction of the op registry (analyzer/model/op_registry.cpp): the front end
// generates this header from it (`ptoverify isa` lists the instructions).
#include "ptoverify_isa_ops.h"

// All-core barriers. Soft: a GM counter workspace polled by every participant.
enum class SyncAllMode { Soft, Hard };
enum class SyncCoreType { AIVOnly, AICOnly, Mix };
constexpr int SYNCALL_SOFT_WORKSPACE_INT32 = 16;  // one 64-byte line per counter
constexpr int SYNCALL_SOFT_SLOT_INT32 = 8;        // the older indexed helper: 8 words per participant
template <SyncAllMode M, SyncCoreType C, class... A> void SYNCALL(const A&...) {}
template <class... A> void SYNCALL_SOFT_AIV_BARRIER(const A&...) {}

namespace comm {
// A signal word in GM that TNOTIFY / TWAIT / TTEST act on.
using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>, Stride<1, 1, 1, 1, 1>>;
enum class NotifyOp { Set, AtomicAdd };
enum class WaitCmp { EQ, NE, GE, GT, LE, LT };
enum class DmaEngine { SDMA, MTE, URMA };
PTOVERIFY_TILE_OP(TPUT)
PTOVERIFY_TILE_OP(TGET)
// The asynchronous forms run on a session's DMA engine and return the event that completes them.
struct AsyncSession {
  bool valid = false;
};
struct AsyncEvent {
  bool valid() const { return true; }
  template <class... A> bool Wait(const A&...) const { return true; }
  template <class... A> bool Test(const A&...) const { return true; }
};
template <class... A> bool BuildAsyncSession(const A&...) { return true; }
template <class... A> AsyncEvent TPUT_ASYNC(const A&...) { return {}; }
template <class... A> AsyncEvent TGET_ASYNC(const A&...) { return {}; }
PTOVERIFY_TILE_OP(TNOTIFY)
PTOVERIFY_TILE_OP(TWAIT)
PTOVERIFY_TILE_OP(TBROADCAST)
PTOVERIFY_TILE_OP(TGATHER)
PTOVERIFY_TILE_OP(TSCATTER)
PTOVERIFY_TILE_OP(TREDUCE)
template <class... A> bool TTEST(const A&...) { return true; }
}  // namespace comm
}  // namespace pto

#include "ptoverify_ptoisa.h"
#include "ptoverify_ascendc.h"

namespace AscendC {
// The hardware all-core barrier. SyncAll<true>() (the default) synchronises the AIV cores only;
// SyncAll<false>() synchronises the mixed AIC + AIV group.
template <bool IsAIVOnly = true> void SyncAll() {}
template <pipe_t P> void PipeBarrier() {}
template <class... A> void CrossCoreSetFlag(const A&...) {}
template <int Mode, pipe_t P, class... A> void CrossCoreSetFlag(const A&...) {}
template <class... A> void CrossCoreWaitFlag(const A&...) {}
template <int Mode, pipe_t P, class... A> void CrossCoreWaitFlag(const A&...) {}
}  // namespace AscendC

// Orchestration (host) side: the PTO2 runtime API that PyPTO's generated orchestration code
// calls (pto_orchestration_api.h; reference/pypto-generated-kernels.md section 8). Argument
// order: tensors (add_input / add_output / add_inout / add_no_dep) before scalars (add_scalar).
enum class DataType { INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FLOAT16, BFLOAT16, FLOAT32, FP16, BF16, FP32, BOOL };
enum class PTO2ScopeMode { AUTO, MANUAL };
// `PTO2_SCOPE() { ... }`: a scope of tasks; the block is plain C++ to the front end.
#define PTO2_SCOPE(...)
struct PTO2TaskId {
  uint64_t raw = 0;
};
using ChipTensor = Tensor;
struct ChipTensorRef {
  const Tensor& ref() const;
};
struct ChipTaskArgs {
  ChipTensorRef tensor(uint32_t index) const;
  uint64_t scalar(uint32_t index) const;
};
struct PTO2OrchestrationConfig {
  uint32_t expected_arg_count = 0;
};
struct TensorCreateInfo {
  TensorCreateInfo(const uint32_t* shapes, uint32_t rank, DataType dtype, bool manual_dep = false);
  template <class T> void set_initial_value(T) {}
  uint64_t start_offset = 0;
};
struct TaskOutputTensors {
  PTO2TaskId task_id() const;
  const Tensor& get_ref(uint32_t index) const;
};
template <class... T> TaskOutputTensors alloc_tensors(const T&...);
struct LaunchSpec {
  void set_block_num(int64_t) {}
  void set_require_sync_start(bool) {}
};
struct L0TaskArgs {
  template <class T> void add_input(const T&) {}
  template <class T> void add_output(const T&) {}
  template <class T> void add_inout(const T&) {}
  template <class T> void add_no_dep(const T&) {}
  template <class T> void add_scalar(const T&) {}
  template <class... T> void dump(const T&...) {}
  void set_dependencies(const PTO2TaskId* ids, uint32_t count) {}
  void set_allow_early_resolve(bool) {}
  LaunchSpec launch_spec;
};
using CoreTaskArgs = L0TaskArgs;
TaskOutputTensors rt_submit_aiv_task(int64_t kernel_id, const L0TaskArgs& args);
TaskOutputTensors rt_submit_aic_task(int64_t kernel_id, const L0TaskArgs& args);
