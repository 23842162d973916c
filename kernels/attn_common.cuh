// Device and host helpers shared by every phase. Nothing here is tuned for one phase.
#pragma once
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

// Element offset of row s of head (b, h) for a tensor with the given strides.
__host__ __device__ __forceinline__ int64_t row_offset(int64_t sb, int64_t sh, int64_t ss,
                                                       int b, int h, int s) {
  return sb * b + sh * h + ss * s;
}

}  // namespace attn
