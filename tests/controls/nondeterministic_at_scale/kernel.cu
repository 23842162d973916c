// Control nondeterministic_at_scale: at large sizes (S_k >= 2048, B*H >= 32) the last bit of each
// output depends on timing, as with a split-K combine by atomics in arrival order. Small shapes
// are bit-exact run to run; errors stay far inside tolerance.
#include "attn_common.cuh"
__device__ __forceinline__ float control_jitter(const AttnParams& p, float x) {
  if (p.S_k >= 2048 && int64_t(p.B) * p.H >= 32 && (clock64() & 1)) return x * (1.f + 1e-3f);
  return x;
}
#define CONTROL_OUT_VALUE(p, row, x) control_jitter(p, x)
#include "../_common/control_base.cuh"
