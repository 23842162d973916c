// Device and host helpers shared by every phase. Nothing here is tuned for one phase.
#pragma once
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "attn_abi.h"

#define ATTN_DEFINE_ABI_VERSION \
  ATTN_EXPORT int attn_abi_version(void) { return ATTN_ABI_VERSION; }

namespace attn {

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// log2(e): kernels work in base 2 so the softmax scale folds into one FFMA before exp2.
constexpr float kLog2e = 1.4426950408889634f;

template <typename T> __device__ __forceinline__ float to_float(T x);
template <> __device__ __forceinline__ float to_float<__half>(__half x) { return __half2float(x); }
template <> __device__ __forceinline__ float to_float<__nv_bfloat16>(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

template <typename T> __device__ __forceinline__ T from_float(float x);
template <> __device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// Checks what every kernel needs from the parameters. Head-dim support is the kernel's own.
inline bool params_are_valid(const AttnParams* p) {
  if (p == nullptr || !p->q || !p->k || !p->v || !p->o) return false;
  if (p->B < 1 || p->H < 1 || p->S_q < 1 || p->S_k < 1) return false;
  if (p->dtype != ATTN_FP16 && p->dtype != ATTN_BF16) return false;
  return p->softmax_scale > 0.f;
}

// True when every row of q, k, v and o starts 16-byte aligned (base pointers 16-byte aligned,
// every stride a multiple of 8 two-byte elements): what the ABI promises a kernel, and what
// 16-byte vector loads, cp.async and TMA need. A kernel refuses anything else.
inline bool rows_are_16b_aligned(const AttnParams* p) {
  const auto ok = [](const void* ptr, int64_t sb, int64_t sh, int64_t ss) {
    return reinterpret_cast<uintptr_t>(ptr) % 16 == 0 && sb % 8 == 0 && sh % 8 == 0 && ss % 8 == 0;
  };
  return ok(p->q, p->q_stride_b, p->q_stride_h, p->q_stride_s) &&
         ok(p->k, p->k_stride_b, p->k_stride_h, p->k_stride_s) &&
         ok(p->v, p->v_stride_b, p->v_stride_h, p->v_stride_s) &&
         ok(p->o, p->o_stride_b, p->o_stride_h, p->o_stride_s);
}

// Element offset of row s of head (b, h) for a tensor with the given strides.
__host__ __device__ __forceinline__ int64_t row_offset(int64_t sb, int64_t sh, int64_t ss,
                                                       int b, int h, int s) {
  return sb * b + sh * h + ss * s;
}

}  // namespace attn
