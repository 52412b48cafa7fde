// ptoverify's stand-in for the CCE compiler's builtins: address-space and kernel qualifiers, the
// device element types, pipes and events, the synchronisation and cache intrinsics, lane ids and
// cross-core flags. Both ways of reading a kernel use it: under the prelude's stand-in for
// pto-isa, and alone under pto-isa's real headers. Never compiled into a real kernel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

// Address-space and kernel qualifiers: empty, the front end reads them from the spelling.
#define __gm__
#define __ubuf__
#define __ub__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __biasbuf__
#define __ssbuf__
#define __aicore__
#define __host_aicore__
#define __simd_callee__
#define __simt_callee__
#define __simt_vf__
#define LAUNCH_BOUND(threads)
#define __VEC_SCOPE__
#define __inline__ inline
// A device entry: the front end finds entries by this attribute, not by spelling.
#define __global__ __attribute__((annotate("ptoverify.global")))
#define __tf__
#define __in__
#define __out__

// Element types the host compiler does not have (clang 14 rejects _Float16 on x86-64).
// Two bytes each, as on the device: sizeof(T) in a TASSIGN offset must be the real size. A
// conversion from a number keeps its IEEE bits (rounded to nearest even), in constant
// expressions too: pto-isa's PadValueCustom((half)-1.0) reads them with __builtin_bit_cast.
constexpr uint16_t ptoverify_half_bits(float f) {
  const uint32_t x = __builtin_bit_cast(uint32_t, f);
  const uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
  if (((x >> 23) & 0xffu) == 0xffu) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  const uint32_t shift = exp > 0 ? 13u : static_cast<uint32_t>(14 - exp);  // subnormal below 1
  if (shift > 24) return static_cast<uint16_t>(sign);
  const uint32_t full = exp > 0 ? mant : (mant | 0x800000u);
  uint32_t h = (exp > 0 ? static_cast<uint32_t>(exp) << 10 : 0u) | (full >> shift);
  const uint32_t rest = full & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
  if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}
constexpr uint16_t ptoverify_bf16_bits(float f) {
  const uint32_t x = __builtin_bit_cast(uint32_t, f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
template <class T> constexpr float ptoverify_as_float(const T& v) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) return static_cast<float>(v);
  else return 0.0f;
}
struct half {
  uint16_t bits;
  half() = default;
  template <class T> constexpr half(T v) : bits(ptoverify_half_bits(ptoverify_as_float(v))) {}
  operator float() const { return 0.0f; }
};
struct bfloat16_t {
  uint16_t bits;
  bfloat16_t() = default;
  template <class T> constexpr bfloat16_t(T v) : bits(ptoverify_bf16_bits(ptoverify_as_float(v))) {}
  operator float() const { return 0.0f; }
};

// Pipes, events, barriers and cache maintenance (values are stable names, not hardware codes).
// pipe_t's enumerators are generated from ptoverify's model (ptoverify_isa_ops.h), in its order.
#define PTOVERIFY_PIPE(NAME) PIPE_##NAME,
enum pipe_t {
#include "ptoverify_isa_ops.h"
};
#undef PTOVERIFY_PIPE
enum event_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
enum mem_dsb_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
enum cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum dcci_dst_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

void set_flag(pipe_t src, pipe_t dst, event_t id);
void wait_flag(pipe_t src, pipe_t dst, event_t id);
void set_flag(pipe_t src, pipe_t dst, int id);
void wait_flag(pipe_t src, pipe_t dst, int id);
void pipe_barrier(pipe_t pipe);
void dsb(mem_dsb_t kind);
template <class P> void dcci(P addr, cache_line_t scope);
template <class P> void dcci(P addr, cache_line_t scope, dcci_dst_t dst);
#define PTOAS__DCCI_SINGLE_CACHE_LINE(p) dcci((p), SINGLE_CACHE_LINE)
void get_buf(pipe_t pipe, int id, int mode);
void rls_buf(pipe_t pipe, int id, int mode);
void set_mask_norm();
template <class... A> void set_vector_mask(const A&...);
void set_atomic_none();

// The CCE builtin lane variables (the physical block id and count, as get_block_idx()).
extern int64_t block_idx;
extern int64_t block_num;

// Lane ids. get_block_idx(args) / get_sub_block_id(args) are the runtime's dense logical ids;
// the argument-less forms read the physical core id.
uint32_t get_block_idx();  // uint32_t: pto-isa's grid_intrinsic.hpp redeclares it so
int64_t get_block_num();
int64_t get_subblockid();
int64_t get_subblockdim();
template <class A> int64_t get_block_idx(A args);
template <class A> int64_t get_block_num(A args);
template <class A> int64_t get_sub_block_id(A args);
template <class A> uint64_t get_l2_cache_offset(A args);
// The system cycle counter (profiling timestamps).
uint64_t get_sys_cnt();

// Cross-core (FFTS) synchronisation.
void set_ffts_base_addr(uint64_t addr);
uint64_t getFFTSMsg(int mode, int id);
void ffts_cross_core_sync(pipe_t pipe, uint64_t msg);
void wait_flag_dev(int id);
void wait_flag_dev(pipe_t pipe, int id);  // a5's form
void set_intra_block(pipe_t pipe, int id);
void wait_intra_block(pipe_t pipe, int id);
void __builtin_cce_ffts_cross_core_sync(pipe_t pipe, uint64_t msg);
void __builtin_cce_wait_flag_dev(int id);
#define FFTS_MODE_VAL 2
#include "ptoverify_cce_intrinsics.h"
