// Control nondeterministic_at_scale: at large sizes (S_k >= 2048, B*H >= 32) the last bit of some
// outputs depends on timing, as with a split-K combine by atomics in arrival order: half the
// values, picked by the clock, are moved by 2 units in the last place of fp32 before rounding,
// which flips the 16-bit result where it lies that close to a rounding boundary (about 1 in
// 4000). Small shapes are bit-exact run to run; errors stay inside tolerance. (A 1e-3 relative
// move, as first written, also broke the re-check's 2x SDPA bound at its workload.)
#include "attn_common.cuh"
__device__ __forceinline__ float control_jitter(const AttnParams& p, float x) {
  if (p.S_k >= 2048 && int64_t(p.B) * p.H >= 32 && (clock64() & 1)) return x * (1.f + 0x1p-22f);
  return x;
}
#define CONTROL_OUT_VALUE(p, row, x) control_jitter(p, x)
#include "../_common/control_base.cuh"
