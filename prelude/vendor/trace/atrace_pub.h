// Stand-in for CANN's device trace entry points.
#pragma once
#include "trace/atrace_types.h"

extern "C" {
TraHandle AtraceCreate(TracerType tracerType, const char* objName);
void AtraceDestroy(TraHandle handle);
TraStatus AtraceSubmit(TraHandle handle, const void* buffer, uint32_t bufSize);
TraStatus AtraceSave(TracerType tracerType, bool syncFlag);
TraEventHandle AtraceEventCreate(const char* eventName);
TraStatus AtraceEventBindTrace(TraEventHandle eventHandle, TraHandle handle);
TraStatus AtraceEventReport(TraEventHandle eventHandle);
TraStatus AtraceEventReportSync(TraEventHandle eventHandle);
void AtraceEventDestroy(TraEventHandle eventHandle);
TraStatus AtraceSetGlobalAttr(const TraceGlobalAttr* attr);
}
