// Stand-in for CANN's device trace types.
#pragma once
#include <cstdint>

typedef int32_t TraStatus;
typedef intptr_t TraHandle;
typedef intptr_t TraEventHandle;
enum TracerType { TRACER_TYPE_SCHEDULE = 0, TRACER_TYPE_PROGRESS, TRACER_TYPE_STATISTICS, TRACER_TYPE_MAX };
#define TRACE_SUCCESS 0
#define TRACE_FAILURE (-1)
#define TRA_BLOCK 0
#define TRA_NONBLOCK 1
struct TraceGlobalAttr {
  uint8_t saveMode;
  uint8_t deviceId;
  uint32_t pid;
  uint8_t reserve[32];
};
