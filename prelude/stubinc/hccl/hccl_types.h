// ptoverify stub for HCCL's hccl_types.h: the result code and communicator handle that host code
// of communication kernels names (host code is skipped; these only let the file parse).
#pragma once
#include <cstdint>

enum HcclResult { HCCL_SUCCESS = 0 };
using HcclComm = void*;
// The root rank's identity, broadcast to the others to build a communicator.
struct HcclRootInfo {
  char internal[4108];
};
