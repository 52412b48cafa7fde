// ptoverify stub of pto-isa's prefetch launcher: a host function that warms L2 with a GM range
// (by SDMA or a vector kernel). Host code is not modelled; this only declares it.
#pragma once
namespace pto {
template <bool UseSdma = true, int AivCores = -1>
void PTO_PREFETCH(__gm__ void* tensor, uint64_t bytes, void* stream);  // aclrtStream
}  // namespace pto
