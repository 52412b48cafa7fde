// ptoverify's stand-in for the CCE compiler's intrinsic functions, builtin types, enums and macros
// that pto-isa's real headers use (include/pto/npu/a2a3, npu/a5, common, comm), so that those
// headers parse under stock Clang 14 in device mode (__CCE_AICORE__ defined). Read after
// ptoverify_cce.h (qualifiers, half, bfloat16_t, pipes, events, sync, lane ids, FFTS).
//
// Every declaration here is written from how the headers use the name, never copied from the
// compiler's own headers. Nothing pto-isa defines itself is declared here: that would hide the
// real API. The intrinsics are catch-alls (a variadic template): the front end reads a call by
// name and arguments, and a catch-all accepts every signature the headers and kernels use.
// Every intrinsic carries the annotation "ptoverify.intrinsic", so the front end tells an
// intrinsic call from a user's function (but the two that return their argument, which touch no
// memory). The data-movement ones are rows of ptoverify's op table (analyzer/model/
// op_registry.cpp), which gives each its pipe and operands. Never compiled into a real kernel.
#pragma once
#include <cstdint>
#include <type_traits>

#define PTOVERIFY_INTRINSIC __attribute__((annotate("ptoverify.intrinsic")))
// An intrinsic whose result the headers do not use.
#define PTOVERIFY_CCE_VOID(NAME) \
  template <class... A>          \
  PTOVERIFY_INTRINSIC __aicore__ void NAME(A...);
// An intrinsic whose result the headers use as a value of type T.
#define PTOVERIFY_CCE_RET(T, NAME) \
  template <class... A>            \
  PTOVERIFY_INTRINSIC __aicore__ T NAME(A...);

// ---------------------------------------------------------------------------------------------
// Builtin element types
// ---------------------------------------------------------------------------------------------
// The device compiler's names for half and float (pto-isa typedefs them only for CPU simulation).
using float16_t = half;
using float32_t = float;
// The device compiler's __fp16 is half (clang on x86-64 rejects __fp16 parameters and results).
#define __fp16 half

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310
// a5's 8-bit and packed 4-bit floating-point types: one byte each, distinct from each other and
// from the integer types (pto-isa specialises traits on each).
#define PTOVERIFY_CCE_BYTE_FLOAT(NAME) \
  struct NAME {                        \
    uint8_t bits;                      \
    NAME() = default;                  \
    template <class T> NAME(T) {}      \
    operator float() const { return 0.0f; } \
  };
PTOVERIFY_CCE_BYTE_FLOAT(float8_e4m3_t)
PTOVERIFY_CCE_BYTE_FLOAT(float8_e5m2_t)
PTOVERIFY_CCE_BYTE_FLOAT(float8_e8m0_t)
PTOVERIFY_CCE_BYTE_FLOAT(hifloat8_t)
PTOVERIFY_CCE_BYTE_FLOAT(float4_e2m1x2_t)
PTOVERIFY_CCE_BYTE_FLOAT(float4_e1m2x2_t)
#undef PTOVERIFY_CCE_BYTE_FLOAT
#endif

// ---------------------------------------------------------------------------------------------
// Builtin enums and constants (arguments of the intrinsics below)
// ---------------------------------------------------------------------------------------------
// The event token __pto_set_flag returns and __pto_wait_flag takes.
using CceEventIdType = event_t;
// Fixpipe / L0C quantisation mode: a global unscoped enum that converts to the 64-bit register
// field (pto-isa also names it as a type, as QuantMode_t::X and as a template parameter type).
// The prelude's AscendC stand-in uses the same enum; its first seven keep their values.
enum QuantMode_t : uint64_t {
  NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, REQ8, VREQ8, SHIFTS322S16,
  VSHIFTS322S16, VQF322B8_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE,
  QF322F32_PRE, VQF322F32_PRE, QF322FP8_PRE, VQF322FP8_PRE, QF322HIF8_PRE, VQF322HIF8_PRE,
  QS322BF16_PRE, VQS322BF16_PRE,
};
// Address registers of scatter_vnchwconv (set by set_va_reg_sb).
enum ub_addr8_t : int { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
// Store-atomic configuration (set_st_atomic_cfg) and the atomic kind a5's stores take.
enum atomic_type_t : int { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum atomic_op_t : int { ATOMIC_SUM = 0, ATOMIC_MAX, ATOMIC_MIN };
// Order of vcmax/vcmin's (value, index) results.
enum Order_t : int { VALUE_INDEX = 0, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX };
// Padding of copy_gm_to_cbuf (headers pass (pad_t)0 only).
enum pad_t : int {};
// Address step of load_cbuf_to_ca/cb (headers pass addr_cal_mode_t(0) only).
namespace __cce_scalar {
enum addr_cal_mode_t : int {};
}

// ---------------------------------------------------------------------------------------------
// Data movement between GM, UB (ubuf), L1 (cbuf), L0A/L0B (ca/cb), L0C (cc), BT and FB, with the
// pipe each runs on: (dst, src, ...). The op table's rows (kIntrinsics in
// analyzer/model/op_registry.cpp) say the same, with pto-isa's sources for each pipe.
// ---------------------------------------------------------------------------------------------
// data movement
PTOVERIFY_CCE_VOID(copy_gm_to_ubuf)                   // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_ubuf_align_b8)          // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_ubuf_align_b16)         // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_ubuf_align_b32)         // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_ubuf_align_v2)          // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf)                   // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_align)             // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_align_v2)          // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_multi_nd2nz)       // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_multi_nd2nz_b8)    // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_multi_nd2nz_b16)   // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_multi_nd2nz_b32s)  // MTE2
PTOVERIFY_CCE_VOID(copy_gm_to_cbuf_multi_dn2nz)       // MTE2
PTOVERIFY_CCE_VOID(copy_ubuf_to_gm)                   // MTE3
PTOVERIFY_CCE_VOID(copy_ubuf_to_gm_align_b8)          // MTE3
PTOVERIFY_CCE_VOID(copy_ubuf_to_gm_align_b16)         // MTE3
PTOVERIFY_CCE_VOID(copy_ubuf_to_gm_align_b32)         // MTE3
PTOVERIFY_CCE_VOID(copy_ubuf_to_gm_align_v2)          // MTE3
PTOVERIFY_CCE_VOID(copy_ubuf_to_cbuf)                 // MTE3
PTOVERIFY_CCE_VOID(copy_cbuf_to_gm)                   // MTE3
PTOVERIFY_CCE_VOID(copy_cbuf_to_ubuf)                 // MTE1
PTOVERIFY_CCE_VOID(copy_cbuf_to_bt)                   // MTE1
PTOVERIFY_CCE_VOID(copy_cbuf_to_fbuf)                 // FIX
PTOVERIFY_CCE_VOID(load_cbuf_to_ca)                   // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_cb)                   // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_ca_transpose)         // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_cb_transpose)         // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_ca_s4)                // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_cb_s4)                // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_ca_mx)                // MTE1
PTOVERIFY_CCE_VOID(load_cbuf_to_cb_mx)                // MTE1
PTOVERIFY_CCE_VOID(img2colv2_cbuf_to_ca)              // MTE1
PTOVERIFY_CCE_VOID(img2colv2_cbuf_to_cb)              // MTE1
PTOVERIFY_CCE_VOID(copy_matrix_cc_to_gm)              // FIX
PTOVERIFY_CCE_VOID(copy_matrix_cc_to_cbuf)            // FIX
PTOVERIFY_CCE_VOID(copy_matrix_cc_to_ub)              // FIX
PTOVERIFY_CCE_VOID(copy_ubuf_to_ubuf)                 // V
PTOVERIFY_CCE_VOID(create_cbuf_matrix)                // MTE2 (fills L1 with a value)
PTOVERIFY_CCE_VOID(create_cbuf_matrix_bf16)           // MTE2 (fills L1 with a value)

// ---------------------------------------------------------------------------------------------
// Cube
// ---------------------------------------------------------------------------------------------
PTOVERIFY_CCE_VOID(mad) PTOVERIFY_CCE_VOID(mad_mx)

// ---------------------------------------------------------------------------------------------
// Vector (a2a3's repeat-form instructions on UB; a5's vector-function forms of the same names on
// registers go through the same catch-alls)
// ---------------------------------------------------------------------------------------------
PTOVERIFY_CCE_VOID(vabs) PTOVERIFY_CCE_VOID(vadd) PTOVERIFY_CCE_VOID(vaddreluconv_f162s8)
PTOVERIFY_CCE_VOID(vaddreluconv_f322f16) PTOVERIFY_CCE_VOID(vaddreluconv_s162s8)
PTOVERIFY_CCE_VOID(vadds) PTOVERIFY_CCE_VOID(vand) PTOVERIFY_CCE_VOID(vaxpy)
PTOVERIFY_CCE_VOID(vbitsort) PTOVERIFY_CCE_VOID(vbrcb) PTOVERIFY_CCE_VOID(vcadd)
PTOVERIFY_CCE_VOID(vcgadd) PTOVERIFY_CCE_VOID(vcgmax) PTOVERIFY_CCE_VOID(vcgmin)
PTOVERIFY_CCE_VOID(vcmax) PTOVERIFY_CCE_VOID(vcmin) PTOVERIFY_CCE_VOID(vcmp_eq)
PTOVERIFY_CCE_VOID(vcmp_ge) PTOVERIFY_CCE_VOID(vcmp_gt) PTOVERIFY_CCE_VOID(vcmp_le)
PTOVERIFY_CCE_VOID(vcmp_lt) PTOVERIFY_CCE_VOID(vcmp_ne) PTOVERIFY_CCE_VOID(vcmps_eq)
PTOVERIFY_CCE_VOID(vcmps_ge) PTOVERIFY_CCE_VOID(vcmps_gt) PTOVERIFY_CCE_VOID(vcmps_le)
PTOVERIFY_CCE_VOID(vcmps_lt) PTOVERIFY_CCE_VOID(vcmps_ne) PTOVERIFY_CCE_VOID(vcmpv_eq)
PTOVERIFY_CCE_VOID(vcmpv_ge) PTOVERIFY_CCE_VOID(vcmpv_gt) PTOVERIFY_CCE_VOID(vcmpv_le)
PTOVERIFY_CCE_VOID(vcmpv_lt) PTOVERIFY_CCE_VOID(vcmpvs_eq) PTOVERIFY_CCE_VOID(vcmpvs_ge)
PTOVERIFY_CCE_VOID(vcmpvs_gt) PTOVERIFY_CCE_VOID(vcmpvs_le) PTOVERIFY_CCE_VOID(vcmpvs_lt)
PTOVERIFY_CCE_VOID(vcopy) PTOVERIFY_CCE_VOID(vdiv) PTOVERIFY_CCE_VOID(vector_dup)
PTOVERIFY_CCE_VOID(vexp) PTOVERIFY_CCE_VOID(vgather) PTOVERIFY_CCE_VOID(vln)
PTOVERIFY_CCE_VOID(vlrelu) PTOVERIFY_CCE_VOID(vmadd) PTOVERIFY_CCE_VOID(vmaddrelu)
PTOVERIFY_CCE_VOID(vmax) PTOVERIFY_CCE_VOID(vmaxs) PTOVERIFY_CCE_VOID(vmin)
PTOVERIFY_CCE_VOID(vmins) PTOVERIFY_CCE_VOID(vmla) PTOVERIFY_CCE_VOID(vmrgsort4)
PTOVERIFY_CCE_VOID(vmul) PTOVERIFY_CCE_VOID(vmuls) PTOVERIFY_CCE_VOID(vnot) PTOVERIFY_CCE_VOID(vor)
PTOVERIFY_CCE_VOID(vreducev2) PTOVERIFY_CCE_VOID(vrelu) PTOVERIFY_CCE_VOID(vrsqrt)
PTOVERIFY_CCE_VOID(vsel) PTOVERIFY_CCE_VOID(vshl) PTOVERIFY_CCE_VOID(vshls) PTOVERIFY_CCE_VOID(vshr)
PTOVERIFY_CCE_VOID(vshrs) PTOVERIFY_CCE_VOID(vsqrt) PTOVERIFY_CCE_VOID(vsub)
PTOVERIFY_CCE_VOID(vsubrelu) PTOVERIFY_CCE_VOID(vsubreluconv_f162s8)
PTOVERIFY_CCE_VOID(vsubreluconv_f322f16) PTOVERIFY_CCE_VOID(vsubreluconv_s162s8)
PTOVERIFY_CCE_VOID(vxor)
// a2a3's transposing scatter through the VA address registers.
PTOVERIFY_CCE_VOID(scatter_vnchwconv_b8) PTOVERIFY_CCE_VOID(scatter_vnchwconv_b16)
PTOVERIFY_CCE_VOID(scatter_vnchwconv_b32)
// Pair-wise reduction, gather by blocks, exp-of-difference (a2a3 and a5).
PTOVERIFY_CCE_VOID(vcpadd) PTOVERIFY_CCE_VOID(vgatherb) PTOVERIFY_CCE_VOID(vexpdif)
// Conversions: vconv_<from>2<to>[rounding].
PTOVERIFY_CCE_VOID(vconv_bf162f32) PTOVERIFY_CCE_VOID(vconv_bf162s32a)
PTOVERIFY_CCE_VOID(vconv_bf162s32c) PTOVERIFY_CCE_VOID(vconv_bf162s32f)
PTOVERIFY_CCE_VOID(vconv_bf162s32r) PTOVERIFY_CCE_VOID(vconv_bf162s32z)
PTOVERIFY_CCE_VOID(vconv_deq) PTOVERIFY_CCE_VOID(vconv_f162f32) PTOVERIFY_CCE_VOID(vconv_f162s16a)
PTOVERIFY_CCE_VOID(vconv_f162s16c) PTOVERIFY_CCE_VOID(vconv_f162s16f)
PTOVERIFY_CCE_VOID(vconv_f162s16r) PTOVERIFY_CCE_VOID(vconv_f162s16z)
PTOVERIFY_CCE_VOID(vconv_f162s32a) PTOVERIFY_CCE_VOID(vconv_f162s32c)
PTOVERIFY_CCE_VOID(vconv_f162s32f) PTOVERIFY_CCE_VOID(vconv_f162s32r)
PTOVERIFY_CCE_VOID(vconv_f162s32z) PTOVERIFY_CCE_VOID(vconv_f162s4)
PTOVERIFY_CCE_VOID(vconv_f162s4a) PTOVERIFY_CCE_VOID(vconv_f162s4c)
PTOVERIFY_CCE_VOID(vconv_f162s4f) PTOVERIFY_CCE_VOID(vconv_f162s4r)
PTOVERIFY_CCE_VOID(vconv_f162s4z) PTOVERIFY_CCE_VOID(vconv_f162s8a)
PTOVERIFY_CCE_VOID(vconv_f162s8c) PTOVERIFY_CCE_VOID(vconv_f162s8f)
PTOVERIFY_CCE_VOID(vconv_f162s8r) PTOVERIFY_CCE_VOID(vconv_f162s8z)
PTOVERIFY_CCE_VOID(vconv_f162u8a) PTOVERIFY_CCE_VOID(vconv_f162u8c)
PTOVERIFY_CCE_VOID(vconv_f162u8f) PTOVERIFY_CCE_VOID(vconv_f162u8r)
PTOVERIFY_CCE_VOID(vconv_f162u8z) PTOVERIFY_CCE_VOID(vconv_f322bf16a)
PTOVERIFY_CCE_VOID(vconv_f322bf16c) PTOVERIFY_CCE_VOID(vconv_f322bf16f)
PTOVERIFY_CCE_VOID(vconv_f322bf16r) PTOVERIFY_CCE_VOID(vconv_f322bf16z)
PTOVERIFY_CCE_VOID(vconv_f322f16) PTOVERIFY_CCE_VOID(vconv_f322f16a)
PTOVERIFY_CCE_VOID(vconv_f322f16c) PTOVERIFY_CCE_VOID(vconv_f322f16f)
PTOVERIFY_CCE_VOID(vconv_f322f16o) PTOVERIFY_CCE_VOID(vconv_f322f16r)
PTOVERIFY_CCE_VOID(vconv_f322f16z) PTOVERIFY_CCE_VOID(vconv_f322f32a)
PTOVERIFY_CCE_VOID(vconv_f322f32c) PTOVERIFY_CCE_VOID(vconv_f322f32f)
PTOVERIFY_CCE_VOID(vconv_f322f32r) PTOVERIFY_CCE_VOID(vconv_f322f32z)
PTOVERIFY_CCE_VOID(vconv_f322s16a) PTOVERIFY_CCE_VOID(vconv_f322s16c)
PTOVERIFY_CCE_VOID(vconv_f322s16f) PTOVERIFY_CCE_VOID(vconv_f322s16r)
PTOVERIFY_CCE_VOID(vconv_f322s16z) PTOVERIFY_CCE_VOID(vconv_f322s32a)
PTOVERIFY_CCE_VOID(vconv_f322s32c) PTOVERIFY_CCE_VOID(vconv_f322s32f)
PTOVERIFY_CCE_VOID(vconv_f322s32r) PTOVERIFY_CCE_VOID(vconv_f322s32z)
PTOVERIFY_CCE_VOID(vconv_f322s64a) PTOVERIFY_CCE_VOID(vconv_f322s64c)
PTOVERIFY_CCE_VOID(vconv_f322s64f) PTOVERIFY_CCE_VOID(vconv_f322s64r)
PTOVERIFY_CCE_VOID(vconv_f322s64z) PTOVERIFY_CCE_VOID(vconv_s162f16)
PTOVERIFY_CCE_VOID(vconv_s162f16a) PTOVERIFY_CCE_VOID(vconv_s162f16c)
PTOVERIFY_CCE_VOID(vconv_s162f16f) PTOVERIFY_CCE_VOID(vconv_s162f16r)
PTOVERIFY_CCE_VOID(vconv_s162f16z) PTOVERIFY_CCE_VOID(vconv_s162f32)
PTOVERIFY_CCE_VOID(vconv_s322f32) PTOVERIFY_CCE_VOID(vconv_s322f32a)
PTOVERIFY_CCE_VOID(vconv_s322f32c) PTOVERIFY_CCE_VOID(vconv_s322f32f)
PTOVERIFY_CCE_VOID(vconv_s322f32r) PTOVERIFY_CCE_VOID(vconv_s322f32z)
PTOVERIFY_CCE_VOID(vconv_s322s16) PTOVERIFY_CCE_VOID(vconv_s322s64) PTOVERIFY_CCE_VOID(vconv_s42f16)
PTOVERIFY_CCE_VOID(vconv_s642f32a) PTOVERIFY_CCE_VOID(vconv_s642f32c)
PTOVERIFY_CCE_VOID(vconv_s642f32f) PTOVERIFY_CCE_VOID(vconv_s642f32r)
PTOVERIFY_CCE_VOID(vconv_s642f32z) PTOVERIFY_CCE_VOID(vconv_s642s32)
PTOVERIFY_CCE_VOID(vconv_s82f16) PTOVERIFY_CCE_VOID(vconv_u82f16)
// Result registers of the sort, gather and merge-sort instructions.
PTOVERIFY_CCE_RET(int64_t, get_rsvd_cnt)
PTOVERIFY_CCE_RET(int64_t, get_vms4_sr)

// ---------------------------------------------------------------------------------------------
// Masks, control and special registers, scalar GM access
// ---------------------------------------------------------------------------------------------
// set_mask_norm and set_vector_mask are in ptoverify_cce.h.
PTOVERIFY_CCE_VOID(set_mask_count)
PTOVERIFY_CCE_RET(uint64_t, get_ctrl)
PTOVERIFY_CCE_VOID(set_ctrl)
PTOVERIFY_CCE_RET(uint64_t, sbitset0)
PTOVERIFY_CCE_RET(uint64_t, sbitset1)
PTOVERIFY_CCE_VOID(set_cmpmask) PTOVERIFY_CCE_VOID(set_va_reg_sb) PTOVERIFY_CCE_VOID(set_deqscale)
PTOVERIFY_CCE_VOID(set_fpc) PTOVERIFY_CCE_VOID(set_quant_pre) PTOVERIFY_CCE_VOID(set_fmatrix)
PTOVERIFY_CCE_VOID(set_fmatrix_b) PTOVERIFY_CCE_VOID(set_padding) PTOVERIFY_CCE_VOID(set_padding_b)
PTOVERIFY_CCE_VOID(set_l3d_rpt) PTOVERIFY_CCE_VOID(set_l3d_rpt_b) PTOVERIFY_CCE_VOID(set_nd_para)
PTOVERIFY_CCE_VOID(set_mov_pad_val) PTOVERIFY_CCE_VOID(set_mte2_nz_para) PTOVERIFY_CCE_VOID(set_channel_para)
PTOVERIFY_CCE_VOID(set_loop1_stride_outtoub) PTOVERIFY_CCE_VOID(set_loop2_stride_outtoub)
PTOVERIFY_CCE_VOID(set_loop_size_outtoub) PTOVERIFY_CCE_VOID(set_loop1_stride_ubtoout)
PTOVERIFY_CCE_VOID(set_loop2_stride_ubtoout) PTOVERIFY_CCE_VOID(set_loop_size_ubtoout)
PTOVERIFY_CCE_VOID(set_loop1_stride_outtol1) PTOVERIFY_CCE_VOID(set_loop2_stride_outtol1)
PTOVERIFY_CCE_VOID(set_loop_size_outtol1) PTOVERIFY_CCE_VOID(set_loop3_para)
PTOVERIFY_CCE_VOID(set_pad_val_outtoub) PTOVERIFY_CCE_VOID(set_pad_val_outtol1)
PTOVERIFY_CCE_VOID(set_l0_set_value_h) PTOVERIFY_CCE_VOID(set_l0_set_value_ui) PTOVERIFY_CCE_VOID(set_l1_2d)
// Atomic accumulation of the next stores.
PTOVERIFY_CCE_VOID(set_atomic_add) PTOVERIFY_CCE_VOID(set_atomic_f32) PTOVERIFY_CCE_VOID(set_atomic_f16)
PTOVERIFY_CCE_VOID(set_atomic_bf16) PTOVERIFY_CCE_VOID(set_atomic_s32) PTOVERIFY_CCE_VOID(set_atomic_s16)
PTOVERIFY_CCE_VOID(set_atomic_s8) PTOVERIFY_CCE_VOID(set_st_atomic_cfg)
// Scalar reads and writes of GM that bypass the data cache, and an atomic scalar store.
template <class T, class... A> PTOVERIFY_INTRINSIC __aicore__ T ld_dev(T* addr, A...);
PTOVERIFY_CCE_VOID(st_dev)
PTOVERIFY_CCE_VOID(st_atomic)
// Scalar minimum and maximum (pto-isa calls them unqualified, on mixed integer types).
template <class A, class B> PTOVERIFY_INTRINSIC __aicore__ constexpr std::common_type_t<A, B> min(A a, B b);
template <class A, class B> PTOVERIFY_INTRINSIC __aicore__ constexpr std::common_type_t<A, B> max(A a, B b);
// Scalar immediates and ids.
PTOVERIFY_CCE_RET(uint64_t, get_imm)
PTOVERIFY_CCE_RET(int64_t, get_coreid)
PTOVERIFY_CCE_VOID(trap)
// Instruction-cache preload and its status (kernels call them directly).
PTOVERIFY_CCE_VOID(preload)
PTOVERIFY_CCE_RET(int64_t, get_icache_prl_st)

// ---------------------------------------------------------------------------------------------
// pto-isa's compiler hooks: tile pointers, aliases and flag tokens
// ---------------------------------------------------------------------------------------------
// A tile's data (a qualified pointer) as a pointer; a tile's data as the compiler allocates it.
// Both are the address they are given, touching no memory: the body lets the front end follow a
// copy's operand `__cce_get_tile_ptr(dst)` to the tile.
#define PTOVERIFY_SAME_ADDRESS __attribute__((annotate("ptoverify.no_memory")))
template <class T> PTOVERIFY_SAME_ADDRESS __aicore__ T __cce_get_tile_ptr(T data) { return data; }
template <class T> PTOVERIFY_SAME_ADDRESS __aicore__ T __cce_tinit(T data) { return data; }
#undef PTOVERIFY_SAME_ADDRESS
PTOVERIFY_CCE_VOID(__cce_alias)
PTOVERIFY_CCE_VOID(__cce_pto_get_mx_scale_tile)
// A set_flag whose event id the compiler picks, and its wait.
PTOVERIFY_CCE_RET(CceEventIdType, __pto_set_flag)
PTOVERIFY_CCE_VOID(__pto_wait_flag)
// Neighbour-core SRAM and counters (only under PTO_GRID_*_NATIVE_INTRINSIC).
PTOVERIFY_CCE_RET(uint64_t, __builtin_pto_get_neighbor_sram_addr)
PTOVERIFY_CCE_VOID(__builtin_pto_copy_sram_to_neighbor_sram)
PTOVERIFY_CCE_VOID(__builtin_pto_mtspr_neighbor_counter)
PTOVERIFY_CCE_VOID(__builtin_pto_wfe_neighbor_counter)

// Device printf.
namespace cce {
template <class... A> PTOVERIFY_INTRINSIC __aicore__ void printf(const char* format, A...);
}

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310
// ---------------------------------------------------------------------------------------------
// a5 vector functions (__VEC_SCOPE__): register types
// ---------------------------------------------------------------------------------------------
// One vector register (CCE_VL bytes) of elements E; each vector_* is a distinct type (pto-isa
// specialises TypeGet on each). vector_bool is a predicate register, vector_align an unaligned-
// access state, vector_address an address register.
// A C-style cast between two vector types reinterprets the register.
template <class E> struct __ptoverify_vreg {
  E lanes[256 / sizeof(E)];
  __ptoverify_vreg() = default;
  template <class F> explicit __ptoverify_vreg(const __ptoverify_vreg<F>&) {}
};
using vector_u8 = __ptoverify_vreg<uint8_t>;
using vector_s8 = __ptoverify_vreg<int8_t>;
using vector_u16 = __ptoverify_vreg<uint16_t>;
using vector_s16 = __ptoverify_vreg<int16_t>;
using vector_u32 = __ptoverify_vreg<uint32_t>;
using vector_s32 = __ptoverify_vreg<int32_t>;
using vector_u64 = __ptoverify_vreg<uint64_t>;
using vector_s64 = __ptoverify_vreg<int64_t>;
using vector_f16 = __ptoverify_vreg<half>;
using vector_bf16 = __ptoverify_vreg<bfloat16_t>;
using vector_f32 = __ptoverify_vreg<float>;
using vector_f8e4m3 = __ptoverify_vreg<float8_e4m3_t>;
using vector_f8e5m2 = __ptoverify_vreg<float8_e5m2_t>;
using vector_f8e8m0 = __ptoverify_vreg<float8_e8m0_t>;
using vector_hif8 = __ptoverify_vreg<hifloat8_t>;
using vector_f4e2m1x2 = __ptoverify_vreg<float4_e2m1x2_t>;
using vector_f4e1m2x2 = __ptoverify_vreg<float4_e1m2x2_t>;
struct vector_bool {
  uint8_t bits[32];
};
struct vector_align {
  uint8_t state[32];
};
struct vector_address {
  uint64_t addr;
};

// Vector length in bytes, and elements of 8/16/32 bits per register.
#define CCE_VL 256
constexpr uint32_t ELE_CNT_B8 = CCE_VL / 1;
constexpr uint32_t ELE_CNT_B16 = CCE_VL / 2;
constexpr uint32_t ELE_CNT_B32 = CCE_VL / 4;

// ---------------------------------------------------------------------------------------------
// a5 vector functions: mode operands. Each is a constant of a type of its own (pto-isa selects
// among them with decltype(...) and value-initialises the chosen type).
// ---------------------------------------------------------------------------------------------
#define PTOVERIFY_CCE_MODE(NAME) \
  namespace __cce_simd {         \
  struct NAME##_mode {};         \
  }                              \
  inline constexpr __cce_simd::NAME##_mode NAME{};
// Rounding of vcvt (pto-isa names the types __cce_simd::Round?Type).
namespace __cce_simd {
struct RoundRType {};
struct RoundAType {};
struct RoundFType {};
struct RoundCType {};
struct RoundZType {};
struct RoundOType {};
}  // namespace __cce_simd
inline constexpr __cce_simd::RoundRType ROUND_R{};
inline constexpr __cce_simd::RoundAType ROUND_A{};
inline constexpr __cce_simd::RoundFType ROUND_F{};
inline constexpr __cce_simd::RoundCType ROUND_C{};
inline constexpr __cce_simd::RoundZType ROUND_Z{};
inline constexpr __cce_simd::RoundOType ROUND_O{};
// Inactive lanes of a masked result: zeroed, kept (merging), or squeezed results stored.
PTOVERIFY_CCE_MODE(MODE_ZEROING) PTOVERIFY_CCE_MODE(MODE_MERGING) PTOVERIFY_CCE_MODE(MODE_STORED)
// Load (vlds) and store (vsts) distributions.
PTOVERIFY_CCE_MODE(NORM) PTOVERIFY_CCE_MODE(NORM_B8) PTOVERIFY_CCE_MODE(NORM_B16) PTOVERIFY_CCE_MODE(NORM_B32)
PTOVERIFY_CCE_MODE(BLK) PTOVERIFY_CCE_MODE(US) PTOVERIFY_CCE_MODE(PK) PTOVERIFY_CCE_MODE(PK_B16)
PTOVERIFY_CCE_MODE(PK_B32) PTOVERIFY_CCE_MODE(PK_B64) PTOVERIFY_CCE_MODE(PK4_B32) PTOVERIFY_CCE_MODE(UNPK_B8)
PTOVERIFY_CCE_MODE(UNPK_B16) PTOVERIFY_CCE_MODE(UNPK_B32) PTOVERIFY_CCE_MODE(UNPK4_B8) PTOVERIFY_CCE_MODE(BRC_B8)
PTOVERIFY_CCE_MODE(BRC_B16) PTOVERIFY_CCE_MODE(BRC_B32) PTOVERIFY_CCE_MODE(E2B_B16) PTOVERIFY_CCE_MODE(E2B_B32)
PTOVERIFY_CCE_MODE(ONEPT_B32) PTOVERIFY_CCE_MODE(DINTLV_B8) PTOVERIFY_CCE_MODE(DINTLV_B16)
PTOVERIFY_CCE_MODE(DINTLV_B32) PTOVERIFY_CCE_MODE(INTLV_B32)
// Address update of a load/store or predicate-from-count (plt_b*).
PTOVERIFY_CCE_MODE(POST_UPDATE)
// Predicate patterns (pset_b*, pge_b*).
PTOVERIFY_CCE_MODE(PAT_ALL) PTOVERIFY_CCE_MODE(PAT_ALLF) PTOVERIFY_CCE_MODE(PAT_H) PTOVERIFY_CCE_MODE(PAT_VL1)
PTOVERIFY_CCE_MODE(PAT_VL8) PTOVERIFY_CCE_MODE(PAT_VL16) PTOVERIFY_CCE_MODE(PAT_VL32)
// Which part of a wider/narrower register a conversion reads or writes.
PTOVERIFY_CCE_MODE(PART_EVEN) PTOVERIFY_CCE_MODE(PART_ODD) PTOVERIFY_CCE_MODE(PART_P0) PTOVERIFY_CCE_MODE(PART_P1)
PTOVERIFY_CCE_MODE(PART_P2) PTOVERIFY_CCE_MODE(PART_P3) PTOVERIFY_CCE_MODE(LOWER) PTOVERIFY_CCE_MODE(HIGHER)
// Saturation of a conversion.
PTOVERIFY_CCE_MODE(RS_ENABLE) PTOVERIFY_CCE_MODE(RS_DISABLE)
// Index order (vci), broadcast position (vdup).
PTOVERIFY_CCE_MODE(INC_ORDER) PTOVERIFY_CCE_MODE(DEC_ORDER) PTOVERIFY_CCE_MODE(POS_LOWEST)
// Memory barriers between vector loads and stores (mem_bar).
PTOVERIFY_CCE_MODE(VST_VLD) PTOVERIFY_CCE_MODE(VLD_VST) PTOVERIFY_CCE_MODE(VST_VST)
// Special-purpose registers (sprclr, sprsts; pto-isa also names one as static_cast<::Spr>(n)).
PTOVERIFY_CCE_MODE(SPR_AR)
enum class Spr : int {};
// Histogram bins of chistv2.
PTOVERIFY_CCE_MODE(Bin_N0) PTOVERIFY_CCE_MODE(Bin_N1)
#undef PTOVERIFY_CCE_MODE
// Store distribution and predicate-load distribution as enumerations (pto-isa casts its own
// pto::DistVST to ::DistVST and names Dist::DIST_US / Dist::DIST_NORM).
enum class DistVST : int {};
enum class Dist : int { DIST_NORM = 0, DIST_US, DIST_DS };

// ---------------------------------------------------------------------------------------------
// a5 vector functions: predicates (vector_bool)
// ---------------------------------------------------------------------------------------------
// A predicate of the first n lanes (n updated), of a pattern, or of a comparison.
PTOVERIFY_CCE_RET(vector_bool, plt_b8) PTOVERIFY_CCE_RET(vector_bool, plt_b16)
PTOVERIFY_CCE_RET(vector_bool, plt_b32)
PTOVERIFY_CCE_RET(vector_bool, pset_b8) PTOVERIFY_CCE_RET(vector_bool, pset_b16)
PTOVERIFY_CCE_RET(vector_bool, pset_b32)
PTOVERIFY_CCE_RET(vector_bool, pge_b8) PTOVERIFY_CCE_RET(vector_bool, pge_b16)
PTOVERIFY_CCE_RET(vector_bool, pge_b32)
PTOVERIFY_CCE_VOID(pand) PTOVERIFY_CCE_VOID(por) PTOVERIFY_CCE_VOID(pxor) PTOVERIFY_CCE_VOID(pnot)
PTOVERIFY_CCE_VOID(psel) PTOVERIFY_CCE_VOID(ppack) PTOVERIFY_CCE_VOID(punpack)
PTOVERIFY_CCE_VOID(pintlv_b8) PTOVERIFY_CCE_VOID(pintlv_b16) PTOVERIFY_CCE_VOID(pintlv_b32)
PTOVERIFY_CCE_VOID(pdintlv_b8) PTOVERIFY_CCE_VOID(plds) PTOVERIFY_CCE_VOID(psts)

// ---------------------------------------------------------------------------------------------
// a5 vector functions: register loads and stores, and register-only operations
// ---------------------------------------------------------------------------------------------
PTOVERIFY_CCE_VOID(vlds) PTOVERIFY_CCE_VOID(vsts) PTOVERIFY_CCE_VOID(vldas)
PTOVERIFY_CCE_VOID(vldus) PTOVERIFY_CCE_VOID(vstar) PTOVERIFY_CCE_VOID(vstas)
PTOVERIFY_CCE_VOID(vstur) PTOVERIFY_CCE_VOID(vstus) PTOVERIFY_CCE_VOID(vsstb)
PTOVERIFY_CCE_VOID(vgather2) PTOVERIFY_CCE_VOID(vgather2_bc) PTOVERIFY_CCE_VOID(vscatter)
PTOVERIFY_CCE_VOID(vdup) PTOVERIFY_CCE_VOID(vbr) PTOVERIFY_CCE_VOID(vcvt) PTOVERIFY_CCE_VOID(vsqz)
PTOVERIFY_CCE_VOID(vintlv) PTOVERIFY_CCE_VOID(vdintlv) PTOVERIFY_CCE_VOID(vpack)
PTOVERIFY_CCE_VOID(vselr) PTOVERIFY_CCE_VOID(vmull) PTOVERIFY_CCE_VOID(vmula)
PTOVERIFY_CCE_VOID(vaddc) PTOVERIFY_CCE_VOID(vsubc) PTOVERIFY_CCE_VOID(vaddcs)
PTOVERIFY_CCE_VOID(vsubcs) PTOVERIFY_CCE_VOID(vtrc) PTOVERIFY_CCE_VOID(vmov)
PTOVERIFY_CCE_VOID(vmod)
PTOVERIFY_CCE_VOID(vneg) PTOVERIFY_CCE_VOID(vci) PTOVERIFY_CCE_VOID(vprelu)
PTOVERIFY_CCE_VOID(chistv2)
PTOVERIFY_CCE_VOID(mem_bar) PTOVERIFY_CCE_VOID(sprclr) PTOVERIFY_CCE_VOID(sprsts)

// ---------------------------------------------------------------------------------------------
// a5 SIMT functions (__simt_vf__): thread ids and the launch of a SIMT function
// ---------------------------------------------------------------------------------------------
struct __ptoverify_dim3 {
  uint32_t x, y, z;
};
extern const __ptoverify_dim3 threadIdx;
// The same thread ids as builtins (kernels call them directly).
PTOVERIFY_INTRINSIC __aicore__ uint32_t __cce_simt_get_TID_X();
PTOVERIFY_INTRINSIC __aicore__ uint32_t __cce_simt_get_TID_Y();
PTOVERIFY_INTRINSIC __aicore__ uint32_t __cce_simt_get_TID_Z();
// Atomic add on GM or UB, returning the old value (SIMT and scalar code).
template <class T, class V> PTOVERIFY_INTRINSIC __aicore__ T atomicAdd(T* addr, V value);
template <class T, class V> PTOVERIFY_INTRINSIC __aicore__ T atomicMax(T* addr, V value);
template <class T, class V> PTOVERIFY_INTRINSIC __aicore__ T atomicMin(T* addr, V value);
// Barrier of the threads of a SIMT function; a warp's sum; the device exp (kernels call them).
PTOVERIFY_INTRINSIC __aicore__ void __sync_workitems();
PTOVERIFY_INTRINSIC __aicore__ float __builtin_cce_redux_add_f32(float value);
PTOVERIFY_INTRINSIC __aicore__ float __builtin_cce_expf(float value);
namespace cce {
struct dim3 {
  uint32_t x = 1, y = 1, z = 1;
};
// Runs F on a grid of threads (cce::async_invoke<F>(cce::dim3{...}, args...)).
template <auto F, class... A> PTOVERIFY_INTRINSIC __aicore__ void async_invoke(dim3 threads, A...);
}  // namespace cce
#endif
