// Control bf16_via_fp16: reads bf16 inputs through an fp16 conversion (a shared fp16 staging
// path). bf16 values inside fp16's range convert exactly (bf16 has fewer mantissa bits), so only
// inputs beyond 65504 in magnitude show it: they become inf.
#include <cuda_fp16.h>
#include "attn_common.cuh"
template <typename T> __device__ __forceinline__ float control_via_half(T e) {
  return __half2float(__float2half(attn::to_float(e)));
}
#define CONTROL_TO_FLOAT(e) control_via_half(e)
#include "../_common/control_base.cuh"
