// ptoverify prelude, part 2: the AscendC surface that hand-written and vendored kernels use
// (CANN attention headers, extern kernels). Types are catch-alls so that templates built on
// them instantiate; the calls the model reads (SetFlag / WaitFlag / PipeBarrier / SyncAll /
// cross-core flags) are translated by analyzer/cpp, the rest are opaque.
#pragma once

#define GM_ADDR __gm__ uint8_t*

// Fixpipe quantisation modes (QuantMode_t, a global unscoped enum of the CCE compiler): declared
// by ptoverify_cce_intrinsics.h, which ptoverify_cce.h includes.

// The core kinds a kernel of the AscendC operator framework runs on (KERNEL_TASK_TYPE_DEFAULT).
// A MIX type is launched by that framework on cube and vector cores together; the front end
// records the type (CppFacts::taskType).
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE, KERNEL_TYPE_MAX
};
__attribute__((annotate("ptoverify.task_type"))) void ptoverify_kernel_task_type(KernelMetaType type);
#define KERNEL_TASK_TYPE_DEFAULT(type) ptoverify_kernel_task_type(type)

namespace AscendC {
enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM, SPM, SHM, TSCM, C2PIPE2GM, MAX };
using QuePosition = TPosition;
// HardEvent names a (source pipe, destination pipe) pair: MTE2_V is set on MTE2, waited on V.
enum class HardEvent {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
  MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
  MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE3_FIX, S_FIX, FIX_V, V_FIX, MAX
};
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class ReduceOrder { ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class FmatrixMode { FMATRIX_LEFT, FMATRIX_RIGHT };
enum class SELMODE { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class CMPMODE { LT, GT, EQ, LE, GE, NE };
using ::QuantMode_t;
enum class CubeFormat { ND, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class IsResetLoad { NO_RESET, RESET };
struct IsResetLoad3dConfig {
  bool isSetFMatrix = false, isSetPadding = false;
};
struct FixpipeConfig {
  int format = 0;
};
constexpr FixpipeConfig CFG_ROW_MAJOR{0};
constexpr FixpipeConfig CFG_NZ{1};
constexpr int AIV = 0;
constexpr int AIC = 1;
namespace Pattern {
namespace Reduce {
struct AR {};
struct RA {};
}  // namespace Reduce
}  // namespace Pattern
namespace Std {
template <class A, class B> constexpr auto min(A a, B b) { return a < b ? a : b; }
template <class A, class B> constexpr auto max(A a, B b) { return a < b ? b : a; }
}  // namespace Std

// A parameter block: constructed from any arguments; the fields kernels assign exist.
#define PTOVERIFY_PARAMS(NAME)                 \
  struct NAME {                                \
    NAME() = default;                          \
    template <class... A> NAME(const A&...) {} \
  uint64_t addrMode = 0, blockCount = 0, blockLen = 0, channelSize = 0, cmatrixInitVal = 0; \
  uint64_t cmatrixSource = 0, dValue = 0, dstBlkStride = 0, dstFracGap = 0, dstGap = 0, dstNzC0Stride = 0; \
  uint64_t dstNzMatrixStride = 0, dstNzNStride = 0, dstRepStride = 0, dstRepeatSize = 0, dstStride = 0; \
  uint64_t enTranspose = 0, fMatrixCtrl = 0, ifTranspose = 0, isBias = 0, isPad = 0, k = 0; \
  uint64_t kDirectionAlign = 0, kExtension = 0, leftPadding = 0, m = 0, mExtension = 0, mSize = 0, n = 0; \
  uint64_t nSize = 0, nValue = 0, ndNum = 0, quantPre = 0, reluEn = 0, repeatTimes = 0, rightPadding = 0; \
  uint64_t sid = 0, src0BlkStride = 0, src0RepStride = 0, src1BlkStride = 0, src1RepStride = 0; \
  uint64_t srcBlkStride = 0, srcDValue = 0, srcNdMatrixStride = 0, srcRepStride = 0, srcRepeatSize = 0; \
  uint64_t srcStride = 0, startIndex = 0, unitFlag = 0; \
  };
PTOVERIFY_PARAMS(DataCopyParams)
PTOVERIFY_PARAMS(DataCopyExtParams)
PTOVERIFY_PARAMS(BinaryRepeatParams)
PTOVERIFY_PARAMS(UnaryRepeatParams)
PTOVERIFY_PARAMS(BrcbRepeatParams)
PTOVERIFY_PARAMS(CopyRepeatParams)
PTOVERIFY_PARAMS(MmadParams)
PTOVERIFY_PARAMS(Nd2NzParams)
PTOVERIFY_PARAMS(LoadData2DParams)
PTOVERIFY_PARAMS(LoadData2dTransposeParams)
template <class T> PTOVERIFY_PARAMS(LoadData3DParamsV2)
PTOVERIFY_PARAMS(FixpipeParamsV220)
template <class T> PTOVERIFY_PARAMS(DataCopyPadExtParams)
template <class T, class U = T> PTOVERIFY_PARAMS(FixpipeParamsV)

// Tensors: the model reads neither; only their types must exist.
template <class T> struct LocalTensor {
  LocalTensor() = default;
  template <class... A> LocalTensor(const A&...) {}
  template <class I> LocalTensor operator[](I) const { return *this; }
  template <class U> LocalTensor<U> ReinterpretCast() const { return {}; }
  template <class... A> T GetValue(const A&...) const { return T(); }
  template <class... A> void SetValue(const A&...) {}
  template <class... A> void SetSize(const A&...) {}
  uint64_t GetPhyAddr() const { return 0; }
  uint32_t GetSize() const { return 0; }
};
template <class T> struct GlobalTensor {
  GlobalTensor() = default;
  template <class... A> void SetGlobalBuffer(const A&...) {}
  template <class I> GlobalTensor operator[](I) const { return *this; }
  template <class... A> T GetValue(const A&...) const { return T(); }
  template <class... A> void SetValue(const A&...) {}
  __gm__ T* GetPhyAddr() const { return nullptr; }
};
template <TPosition P = TPosition::VECCALC> struct TBuf {
  template <class T> LocalTensor<T> Get() const { return {}; }
  template <class T, class N> LocalTensor<T> Get(N) const { return {}; }
  void Destroy() {}
};
struct TPipe {
  template <class... A> void InitBuffer(const A&...) {}
  template <class... A> void Init(const A&...) {}
  void Destroy() {}
};

// Intra-core events on a HardEvent's pipe pair.
template <class T> float ToFloat(const T&) { return 0.0f; }
template <HardEvent E> void SetFlag(int id) {}
template <HardEvent E> void WaitFlag(int id) {}
inline int64_t GetBlockIdx() { return 0; }
inline int64_t GetBlockNum() { return 0; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 0; }

template <class... A> void SetAtomicNone(const A&...) {}

// Opaque data movement and computation: any arguments, any explicit template arguments.
#define PTOVERIFY_ASCENDC_OP(NAME)                                                  \
  template <class... A> void NAME(const A&...) {}                                  \
  template <class T1, auto... Vs, class... A> void NAME(const A&...) {}            \
  template <class T1, class T2, auto... Vs, class... A> void NAME(const A&...) {}  \
  template <auto V1, auto... Vs, class... A> void NAME(const A&...) {}
PTOVERIFY_ASCENDC_OP(DataCopy)
PTOVERIFY_ASCENDC_OP(DataCopyPad)
PTOVERIFY_ASCENDC_OP(LoadData)
PTOVERIFY_ASCENDC_OP(LoadDataWithTranspose)
PTOVERIFY_ASCENDC_OP(Mmad)
PTOVERIFY_ASCENDC_OP(Fixpipe)
PTOVERIFY_ASCENDC_OP(Copy)
PTOVERIFY_ASCENDC_OP(SetFmatrix)
PTOVERIFY_ASCENDC_OP(SetLoadDataPaddingValue)
PTOVERIFY_ASCENDC_OP(SetVectorMask)
PTOVERIFY_ASCENDC_OP(SetMaskNorm)
PTOVERIFY_ASCENDC_OP(SetMaskCount)
PTOVERIFY_ASCENDC_OP(ResetMask)
PTOVERIFY_ASCENDC_OP(Add)
PTOVERIFY_ASCENDC_OP(Adds)
PTOVERIFY_ASCENDC_OP(Sub)
PTOVERIFY_ASCENDC_OP(Mul)
PTOVERIFY_ASCENDC_OP(Muls)
PTOVERIFY_ASCENDC_OP(Div)
PTOVERIFY_ASCENDC_OP(Max)
PTOVERIFY_ASCENDC_OP(Maxs)
PTOVERIFY_ASCENDC_OP(Min)
PTOVERIFY_ASCENDC_OP(Mins)
PTOVERIFY_ASCENDC_OP(Exp)
PTOVERIFY_ASCENDC_OP(Ln)
PTOVERIFY_ASCENDC_OP(Sqrt)
PTOVERIFY_ASCENDC_OP(Rsqrt)
PTOVERIFY_ASCENDC_OP(Abs)
PTOVERIFY_ASCENDC_OP(Cast)
PTOVERIFY_ASCENDC_OP(Duplicate)
PTOVERIFY_ASCENDC_OP(Brcb)
PTOVERIFY_ASCENDC_OP(BroadCast)
PTOVERIFY_ASCENDC_OP(Select)
PTOVERIFY_ASCENDC_OP(Compare)
PTOVERIFY_ASCENDC_OP(CompareScalar)
PTOVERIFY_ASCENDC_OP(BlockReduceSum)
PTOVERIFY_ASCENDC_OP(BlockReduceMax)
PTOVERIFY_ASCENDC_OP(WholeReduceSum)
PTOVERIFY_ASCENDC_OP(WholeReduceMax)
PTOVERIFY_ASCENDC_OP(ReduceSum)
PTOVERIFY_ASCENDC_OP(ReduceMax)
PTOVERIFY_ASCENDC_OP(Gather)
PTOVERIFY_ASCENDC_OP(DumpTensor)
PTOVERIFY_ASCENDC_OP(printf)
}  // namespace AscendC

// Globals of CANN's kernel headers. The front end parses the vector side (__DAV_C220_VEC__).
inline AscendC::TPipe* GetTPipePtr() { return nullptr; }
constexpr int g_coreType = AscendC::AIV;
