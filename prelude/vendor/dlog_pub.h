// Stand-in for CANN's device log header: levels, module ids and the log entry points.
#pragma once
#include <cstdint>

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4
#define DLOG_EVENT 0x10
#define RUN_LOG_MASK 0x01000000

// Module ids a log line is filed under.
enum {
  SLOG = 0, IDEDD, HCCL, FMK, DVPP, RUNTIME, CCE, HDC, DRV, DEVMM, KERNEL, LIBMEDIA, CCECPU, ROS, HCCP, ROCE,
  TEFUSION, PROFILING, DP, APP, TS, TSDUMP, AICPU, LP, TDT, FE, MD, MB, ME, IMU, IMP, GE, CAMERA, ASCENDCL,
  TEEOS, ISP, SIS, HSM, DSS, PROCMGR, BBOX, AIVECTOR, TBE, FV, TUNE, HSS, FFTS, OP, UDF, HICAID, TSYNC, AUDIO,
  TPRT, ASCENDCKERNEL, ASYS, ATRACE, RTC, SYSMONITOR, AML, ADETECT, PYPTO, INVLID_MOUDLE_ID
};

extern "C" {
int CheckLogLevel(int moduleId, int logLevel);
int dlog_getlevel(int moduleId, int* enableEvent);
int dlog_setlevel(int moduleId, int level, int enableEvent);
void DlogRecord(int moduleId, int level, const char* fmt, ...);
void DlogErrorInner(int moduleId, const char* fmt, ...);
void DlogWarnInner(int moduleId, const char* fmt, ...);
void DlogInfoInner(int moduleId, const char* fmt, ...);
void DlogDebugInner(int moduleId, const char* fmt, ...);
void DlogEventInner(int moduleId, const char* fmt, ...);
void DlogInner(int moduleId, int level, const char* fmt, ...);
}
#define dlog_error(moduleId, fmt, ...) DlogErrorInner(moduleId, fmt, ##__VA_ARGS__)
#define dlog_warn(moduleId, fmt, ...) DlogWarnInner(moduleId, fmt, ##__VA_ARGS__)
#define dlog_info(moduleId, fmt, ...) DlogInfoInner(moduleId, fmt, ##__VA_ARGS__)
#define dlog_debug(moduleId, fmt, ...) DlogDebugInner(moduleId, fmt, ##__VA_ARGS__)
#define dlog_event(moduleId, fmt, ...) DlogEventInner(moduleId, fmt, ##__VA_ARGS__)
extern "C" int DlogReportInitialize();
extern "C" int DlogReportFinalize();
