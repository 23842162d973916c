// Control p_round_toward_zero: rounds each softmax weight to the input type toward zero before
// P.V (as a kernel that feeds P to the tensor cores through a _rz conversion would), while the
// row sum keeps the unrounded weights. Every weight loses up to one ulp in the same direction, so
// the output is biased low by a fraction of the unit roundoff; each element's error stays within
// 2x SDPA's (simulated), which is why the correctness gate also bounds the output's relative gain.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <typename T> __device__ __forceinline__ float round_toward_zero(float x);
template <> __device__ __forceinline__ float round_toward_zero<__half>(float x) {
  return __half2float(__float2half_rz(x));
}
template <> __device__ __forceinline__ float round_toward_zero<__nv_bfloat16>(float x) {
  return __bfloat162float(__float2bfloat16_rz(x));
}

#define CONTROL_P_VALUE(x) round_toward_zero<T>(x)
#include "../_common/control_base.cuh"
