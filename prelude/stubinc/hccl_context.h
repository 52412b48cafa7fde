// ptoverify stub for the HCCL device window context header that pto-isa's communication tests
// include: the context a kernel receives, whose windowsIn[r] is rank r's window address.
#pragma once
#include <cstdint>

static constexpr uint32_t HCCL_MAX_RANK_NUM = 64;

struct CommDeviceContext {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;
  uint32_t rankNum;
  uint64_t winSize;
  uint64_t windowsIn[HCCL_MAX_RANK_NUM];
  uint64_t windowsOut[HCCL_MAX_RANK_NUM];
};
using HcclDeviceContext = CommDeviceContext;
