// ptoverify prelude, part 3: the pto-isa surface that hand-written kernels use beyond generated
// bodies (pto-isa's demos, kernels/manual and tests): the rest of pto/common/type.hpp's enums
// and constants, compact cube tiles, convolution tiles, sort lists, the cube <-> vector FIFO
// (TPipe), the custom cube <-> vector flags (TSync_Custom, TSYNC_CVID) and the SDMA session
// types. Declarations only; what the model reads is decided by the ISA table.
#pragma once

namespace pto {
enum class MaskPattern : uint8_t { P0101 = 1, P1010, P0001, P0010, P0100, P1000, P1111 };
enum class CmpMode : uint8_t { EQ, NE, LT, LE, GT, GE };
enum class QuantType { MXFP8, MXFP4_E2M1, INT8_SYM, INT8_ASYM };
enum class VecStoreMode { ND, NZ };
enum class TCopyMode : uint8_t { SHALLOW_COPY, DEEP_COPY };
enum class AccToVecMode : uint8_t { SingleModeVec0, SingleModeVec1, DualModeSplitM, DualModeSplitN };
enum class ReluPreMode : uint8_t { NoRelu, NormalRelu };
enum class TFillPadMode : uint8_t { Normal, InPlace, Expand };
enum class PrintFormat : uint8_t { Width8_Precision4, Width8_Precision2, Width10_Precision6 };

// pto/common/constants.hpp: one cube fractal is 512 bytes, one vector block 32.
constexpr int CUBE_BLOCK_SIZE = 512;
constexpr int BLOCK_LEN = 16;
constexpr int ACC_C0_SIZE = 16;
constexpr uint64_t MASK_LEN = 64;
constexpr int BLOCK_BYTE_SIZE = 32;

// Cube operand tiles whose fractals are packed without padding (CompactMode::Normal).
template <class T, int R, int C, int VR = R, int VC = C>
using TileLeftCompact =
    Tile<TileType::Left, T, R, C, BLayout::RowMajor, VR, VC, SLayout::RowMajor, 512, PadValue::Null, CompactMode::Normal>;
template <class T, int R, int C, int VR = R, int VC = C>
using TileRightCompact =
    Tile<TileType::Right, T, R, C, BLayout::RowMajor, VR, VC, SLayout::ColMajor, 512, PadValue::Null, CompactMode::Normal>;
template <class T, int R, int C, int VR = R, int VC = C>
using TileAccCompact =
    Tile<TileType::Acc, T, R, C, BLayout::ColMajor, VR, VC, SLayout::RowMajor, 1024, PadValue::Null, CompactMode::Normal>;

// A convolution operand in L1 (pto/common/pto_tile.hpp): BufferSize bytes, laid out as its Layout
// (NC1HWC0 feature map, FRACTAL_Z weights) with the shape ConvTileShape gives; its feature-map
// geometry is set at run time for TIMG2COL.
template <int... Dims> struct ConvTileShape {};
template <TileType Ty, class T, int BufferSize, Layout L, class Shape>
struct ConvTile {
  using DType = T;
  static constexpr TileType Loc = Ty;
  static constexpr int Numel = BufferSize / static_cast<int>(sizeof(T));
  ConvTile() {}
  template <class... A> ConvTile(const A&...) {}
  __cbuf__ T* data() const { return nullptr; }
  template <class... A> void SetFmapH(const A&...) {}
  template <class... A> void SetFmapW(const A&...) {}
  template <class... A> void SetChannelSize(const A&...) {}
  template <class... A> void SetFilterH(const A&...) {}
  template <class... A> void SetFilterW(const A&...) {}
  template <class... A> void SetPadList(const A&...) {}
};

// TMRGSORT's report of how many elements of each input list it consumed. Its pto-isa header's
// guard is defined too: code that declares the struct itself when that header is absent tests it.
#define TMRGSORT_HPP
struct MrgSortExecutedNumList {
  uint16_t mrgSortList0 = 0, mrgSortList1 = 0, mrgSortList2 = 0, mrgSortList3 = 0;
};

// The cube <-> vector FIFO of a mixed kernel (pto/common/fifo.hpp). TPUSH / TPOP / TALLOC /
// TFREE move slots through it with cross-core flags the model does not read: each call is a gap.
enum Direction : uint8_t { DIR_C2V = 1, DIR_V2C = 2, DIR_BOTH = 3, DIR_V2C_CTRL = 4 };
template <uint8_t FlagId, uint8_t Dir, uint32_t SlotSize, uint32_t SlotNum, uint32_t LocalSlotNum = 2,
          bool IsNoSplit = false, bool UnitFlag = false>
struct TPipe {
  struct RingFiFo {  // the slots the FIFO cycles through
    static constexpr uint32_t SLOT_NUM = SlotNum;
    static constexpr uint32_t SLOT_SIZE = SlotSize;
  };
  template <class... A> TPipe(const A&...) {}
};
PTOVERIFY_TILE_OP(TPUSH)
PTOVERIFY_TILE_OP(TPOP)
PTOVERIFY_TILE_OP(TALLOC)
PTOVERIFY_TILE_OP(TFREE)

// Vector mask register writes (pto/common/utils.hpp): no memory, no pipe the model orders.
template <class T> __attribute__((annotate("ptoverify.no_memory"))) void SetFullVecMaskByDType();
__attribute__((annotate("ptoverify.no_memory"))) void SetVectorCount(uint64_t n);

// Cube <-> vector flags of the a2a3 custom headers (pto/npu/a2a3/custom/TSyncCVID.hpp and
// TSync_Custom.hpp). The ISA table gives each call its cross-core set or wait (TSYNC_*).
enum CVCommFftsEvent : uint16_t { CV_COMM_CTRL = 12, CV_COMM_RSVD_13, CV_COMM_RSVD_14, CV_COMM_RSVD_15 };
constexpr int kCvCommSlotBytes = 512;
constexpr int kCvMaxCores = 25;
enum CVSyncMode : uint16_t { C_ALL_CORE_SYNC = 0, V_ALL_CORE_SYNC = 0, V_SUBCORES_SYNC = 1, CV_CORE_SYNC = 2 };
uint16_t _getFFTSMsg(CVSyncMode mode, uint16_t flagId, uint16_t base = 1);
template <int SlotBytes = kCvCommSlotBytes, int MaxCores = kCvMaxCores>
int TSYNC_CVID(int blockIdx, __gm__ uint8_t* commBuffer);
enum class SyncOpType : uint8_t { TSTORE_C2GM, TSTORE_V2GM, TLOAD };
template <SyncOpType Producer, SyncOpType Consumer>
struct TSync_Custom {
  uint16_t flag_id;
  void record() const;
  void wait() const;
  void allocate() const;
  void free() const;
};

namespace comm {
// The SDMA engine's session configuration (pto/comm/async/sdma/sdma_types.hpp).
namespace sdma {
constexpr uint32_t UB_ALIGN_SIZE = 256;  // the UB scratch an SDMA session stages its flags in
constexpr uint32_t kSdmaMaxChannel = 48;
constexpr uint32_t kSdmaMinTransferBytes = 64;  // one send-staging slot
constexpr uint64_t kDefaultSdmaBlockBytes = 1024 * 1024;
struct SdmaBaseConfig {
  uint64_t block_bytes;
  uint64_t comm_block_offset;
  uint32_t queue_num;
};
// Host side: allocates the SDMA workspace a kernel's sessions use.
struct SdmaWorkspaceManager {
  template <class... A> bool Init(const A&...) { return true; }
  template <class... A> bool Finalize(const A&...) { return true; }
  void* GetWorkspaceAddr() const { return nullptr; }
};
}  // namespace sdma
}  // namespace comm
}  // namespace pto
